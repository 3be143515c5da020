import { useEffect, useId, useRef, useState, type ChangeEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, upload } from '../../api/client';
import { errorMessage } from '../../api/errors';
import type { SessionUser } from '../../api/types';
import i18n, { LANGUAGES, LANGUAGE_NAMES, setLanguage } from '../../app/i18n';
import { refreshSession, useUser } from '../../app/session';
import { Avatar } from '../../components/Avatar';
import { Icon } from '../../components/Icon';
import { field, useSubmit } from '../auth/useSubmit';
import { Feedback, SettingsSection } from './SettingsPage';

const PICTURE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'];
const PICTURE_LIMIT = 2 * 1024 * 1024;

/** Name, picture, language and e-mail notices; each change goes to the account at once or on save. */
export function ProfileSection() {
  const { t } = useTranslation();
  const user = useUser();
  const id = useId();
  return (
    <SettingsSection id={`${id}-title`} title={t('settings.profile.title')} intro={t('settings.profile.intro')}>
      <PictureField user={user} />
      <ProfileForm user={user} />
    </SettingsSection>
  );
}

function PictureField({ user }: { user: SessionUser }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [percent, setPercent] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => () => (preview ? URL.revokeObjectURL(preview) : undefined), [preview]);

  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    setNote(null);
    setError(null);
    if (!PICTURE_TYPES.includes(file.type)) return setError(t('settings.picture.wrongType'));
    if (file.size > PICTURE_LIMIT) return setError(t('settings.picture.tooLarge'));
    setPreview(URL.createObjectURL(file));
    setBusy(true);
    setPercent(0);
    upload<{ image: string }>('/api/data/avatar', {}, file, file.name, ({ loaded, total }) =>
      setPercent(Math.round((loaded / total) * 100)),
    )
      .promise.then(async () => {
        await refreshSession(qc);
        setNote(t('settings.picture.uploaded'));
      })
      .catch((e: unknown) => setError(errorMessage(e)))
      .finally(() => {
        setBusy(false);
        setPercent(null);
        setPreview(null);
      });
  };

  const remove = () => {
    setNote(null);
    setError(null);
    setBusy(true);
    api('/api/data/avatar', { method: 'DELETE' })
      .then(async () => {
        await refreshSession(qc);
        setNote(t('settings.picture.removed'));
      })
      .catch((e: unknown) => setError(errorMessage(e)))
      .finally(() => setBusy(false));
  };

  const shown = { ...user, image: preview ?? user.image };
  return (
    <div className="settings-picture" role="group" aria-labelledby={`${id}-label`}>
      <span className="settings-picture-preview" aria-busy={busy}>
        <Avatar person={shown} title={t('settings.picture.label')} />
      </span>
      <div className="settings-picture-body">
        <span id={`${id}-label`} className="field-label">
          {t('settings.picture.label')}
        </span>
        <div className="row settings-wrap">
          <input
            ref={input}
            id={`${id}-file`}
            type="file"
            accept={PICTURE_TYPES.join(',')}
            className="visually-hidden"
            tabIndex={-1}
            aria-label={t('settings.picture.upload')}
            onChange={choose}
          />
          <button type="button" className="btn btn-sm" disabled={busy} onClick={() => input.current?.click()}>
            <Icon name="upload" size={16} />
            {user.image ? t('settings.picture.replace') : t('settings.picture.upload')}
          </button>
          {user.image && (
            <button type="button" className="btn btn-sm btn-ghost" disabled={busy} onClick={remove}>
              {t('settings.picture.remove')}
            </button>
          )}
        </div>
        {percent !== null ? (
          <div className="settings-progress">
            <progress max={100} value={percent} aria-label={t('settings.picture.progress')} />
            <span className="hint">{t('common.uploading', { percent })}</span>
          </div>
        ) : (
          <span className="hint">{t('settings.picture.hint')}</span>
        )}
        <Feedback note={note} error={error} />
      </div>
    </div>
  );
}

function ProfileForm({ user }: { user: SessionUser }) {
  const { t, i18n: i18next } = useTranslation();
  const qc = useQueryClient();
  const id = useId();
  const [note, setNote] = useState<string | null>(null);
  const [languageError, setLanguageError] = useState<string | null>(null);
  const notifications =
    user.emailNotifications === undefined || user.emailNotifications === null || Boolean(user.emailNotifications);

  const { busy, error, onSubmit } = useSubmit(async (form) => {
    await api('/api/auth/update-user', {
      method: 'POST',
      body: {
        name: field(form, 'name').trim(),
        language: i18next.language,
        emailNotifications: form.get('emailNotifications') === 'on',
      },
    });
    await refreshSession(qc);
    setNote(i18n.t('settings.saved'));
  });

  const changeLanguage = async (language: string) => {
    setNote(null);
    setLanguageError(null);
    await setLanguage(language);
    try {
      await api('/api/auth/update-user', { method: 'POST', body: { language } });
      await refreshSession(qc);
      setNote(i18n.t('settings.language.saved'));
    } catch (e) {
      setLanguageError(errorMessage(e));
    }
  };

  return (
    <form
      className="settings-form"
      onSubmit={(event) => {
        setNote(null);
        setLanguageError(null);
        onSubmit(event);
      }}
    >
      <div className="settings-pair">
        <div className="field">
          <label htmlFor={`${id}-name`}>{t('settings.profile.name')}</label>
          <input
            id={`${id}-name`}
            className="input"
            name="name"
            defaultValue={user.name}
            autoComplete="name"
            required
            maxLength={100}
            pattern=".*\S.*"
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-email`}>{t('settings.profile.email')}</label>
          <input
            id={`${id}-email`}
            className="input settings-readonly"
            value={user.email}
            readOnly
            aria-describedby={`${id}-email-hint`}
          />
          <span id={`${id}-email-hint`} className="hint">
            {t('settings.profile.emailHint')}
          </span>
        </div>
      </div>
      <div className="field">
        <label htmlFor={`${id}-language`}>{t('settings.language.label')}</label>
        <select
          id={`${id}-language`}
          className="select settings-select"
          value={i18next.language}
          onChange={(event) => void changeLanguage(event.target.value)}
          aria-describedby={`${id}-language-hint`}
        >
          {LANGUAGES.map((language) => (
            <option key={language} value={language} lang={language}>
              {LANGUAGE_NAMES[language]}
            </option>
          ))}
        </select>
        <span id={`${id}-language-hint`} className="hint">
          {t('settings.language.intro')}
        </span>
      </div>
      <label className="settings-check">
        <input type="checkbox" name="emailNotifications" defaultChecked={notifications} />
        <span>{t('settings.profile.emailNotifications')}</span>
      </label>
      <Feedback note={note} error={error ?? languageError} />
      <div className="settings-actions">
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? t('settings.profile.saving') : t('settings.profile.save')}
        </button>
      </div>
    </form>
  );
}
