import { useId, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, ApiError } from '../../api/client';
import { errorMessage } from '../../api/errors';
import i18n from '../../app/i18n';
import { refreshSession } from '../../app/session';
import { useRealtime } from '../../realtime/RealtimeProvider';
import { field, useSubmit } from '../auth/useSubmit';
import { Feedback, SettingsSection } from './SettingsPage';

/** Current password, then the new one twice; other sessions end when it changes. */
export function PasswordSection() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const id = useId();
  const [note, setNote] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const realtime = useRealtime();
  const { busy, error, onSubmit } = useSubmit(
    async (form, refuse) => {
      setNote(null);
      const newPassword = field(form, 'newPassword');
      if (newPassword !== field(form, 'repeatPassword')) {
        refuse(i18n.t('auth.passwordsDiffer'));
        return;
      }
      const change = api('/api/auth/change-password', {
        method: 'POST',
        body: { currentPassword: field(form, 'currentPassword'), newPassword, revokeOtherSessions: true },
      });
      // The answer brings this tab a new session cookie: the live connection must not judge the session before it.
      await (realtime ? realtime.changingCredential(change) : change);
      formRef.current?.reset();
      setNote(i18n.t('settings.password.changed'));
      await refreshSession(qc);
    },
    (e) =>
      e instanceof ApiError && (e.status === 400 || e.status === 401) && /invalid password/i.test(e.message)
        ? i18n.t('settings.password.wrongCurrent')
        : errorMessage(e),
  );
  return (
    <SettingsSection id={`${id}-title`} title={t('settings.password.title')} intro={t('settings.password.intro')}>
      <form
        ref={formRef}
        onSubmit={(event) => {
          setNote(null);
          onSubmit(event);
        }}
      >
        <div className="field">
          <label htmlFor={`${id}-current`}>{t('settings.password.current')}</label>
          <input
            id={`${id}-current`}
            className="input"
            name="currentPassword"
            type="password"
            autoComplete="current-password"
            required
          />
        </div>
        <div className="settings-pair">
          <div className="field">
            <label htmlFor={`${id}-new`}>{t('settings.password.new')}</label>
            <input
              id={`${id}-new`}
              className="input"
              name="newPassword"
              type="password"
              autoComplete="new-password"
              minLength={8}
              required
              aria-describedby={`${id}-hint`}
            />
            <span id={`${id}-hint`} className="hint">
              {t('auth.passwordHint')}
            </span>
          </div>
          <div className="field">
            <label htmlFor={`${id}-repeat`}>{t('settings.password.repeat')}</label>
            <input
              id={`${id}-repeat`}
              className="input"
              name="repeatPassword"
              type="password"
              autoComplete="new-password"
              minLength={8}
              required
            />
          </div>
        </div>
        <Feedback note={note} error={error} />
        <div className="settings-actions">
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {busy ? t('settings.password.saving') : t('settings.password.save')}
          </button>
        </div>
      </form>
    </SettingsSection>
  );
}
