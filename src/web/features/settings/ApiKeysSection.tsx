import { useId, useRef, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { errorMessage } from '../../api/errors';
import type { ApiKey, ApiKeyCreated } from '../../api/types';
import i18n from '../../app/i18n';
import { toast } from '../../app/toast';
import { ConfirmDialog } from '../../components/Dialog';
import { Icon } from '../../components/Icon';
import { SecretDialog } from '../../components/SecretDialog';
import { field, useSubmit } from '../auth/useSubmit';
import { Feedback, SettingsSection } from './SettingsPage';

const apiKeysKey = ['settings', 'apiKeys'] as const;

function formatDate(iso: string, language: string): string {
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium' }).format(new Date(iso));
}

/** The account's API keys: made here (the secret shown once), listed, revoked. */
export function ApiKeysSection() {
  const { t, i18n: i18next } = useTranslation();
  const qc = useQueryClient();
  const id = useId();
  const form = useRef<HTMLFormElement>(null);
  const [created, setCreated] = useState<ApiKeyCreated | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const keys = useQuery({
    queryKey: apiKeysKey,
    queryFn: async () => (await api<{ apiKeys: ApiKey[] }>('/api/auth/api-key/list')).apiKeys,
  });

  const { busy, error, onSubmit } = useSubmit(async (data) => {
    const key = await api<ApiKeyCreated>('/api/auth/api-key/create', {
      method: 'POST',
      body: { name: field(data, 'name').trim(), readOnly: data.get('readOnly') === 'on' },
    });
    form.current?.reset();
    setCreated(key);
    await qc.invalidateQueries({ queryKey: apiKeysKey });
  });

  const revoke = useMutation({
    mutationFn: (key: ApiKey) => api('/api/auth/api-key/delete', { method: 'POST', body: { keyId: key.id } }),
    onSuccess: () => toast.info(i18n.t('settings.keys.revoked')),
    onError: (e) => toast.error(errorMessage(e)),
    onSettled: () => qc.invalidateQueries({ queryKey: apiKeysKey }),
  });

  return (
    <SettingsSection id={`${id}-title`} title={t('settings.keys.title')} intro={t('settings.keys.intro')}>
      <form ref={form} className="settings-key-form" onSubmit={onSubmit}>
        <div className="field">
          <label htmlFor={`${id}-name`}>{t('settings.keys.name')}</label>
          <input
            id={`${id}-name`}
            className="input"
            name="name"
            required
            maxLength={255}
            pattern=".*\S.*"
            placeholder={t('settings.keys.namePlaceholder')}
            autoComplete="off"
          />
        </div>
        <label className="settings-check">
          <input type="checkbox" name="readOnly" />
          <span>{t('settings.keys.readOnly')}</span>
        </label>
        <Feedback note={null} error={error} />
        <div className="settings-actions">
          <button type="submit" className="btn btn-primary" disabled={busy}>
            <Icon name="key" size={16} />
            {busy ? t('settings.keys.creating') : t('settings.keys.create')}
          </button>
        </div>
      </form>

      <h3 className="settings-subtitle" id={`${id}-list`}>
        {t('settings.keys.listLabel')}
      </h3>
      {keys.isPending ? (
        <div className="settings-loading">
          <span className="spinner" aria-label={t('common.loading')} />
        </div>
      ) : keys.isError ? (
        <div className="form-error" role="alert">
          {t('settings.keys.loadFailed')}
        </div>
      ) : keys.data.length === 0 ? (
        <p className="empty">{t('settings.keys.none')}</p>
      ) : (
        <ul className="settings-keys" aria-labelledby={`${id}-list`}>
          {keys.data.map((key) => (
            <li key={key.id} className="settings-key">
              <div className="settings-key-main">
                <div className="settings-key-name">
                  <strong>{key.name}</strong>
                  <span className={key.readOnly ? 'settings-badge' : 'settings-badge settings-badge-full'}>
                    {key.readOnly ? t('settings.keys.badgeReadOnly') : t('settings.keys.badgeFull')}
                  </span>
                </div>
                <div className="hint">
                  <code className="settings-key-start">{key.start}…</code>{' '}
                  {t('settings.keys.created', { date: formatDate(key.createdAt, i18next.language) })}
                  {' · '}
                  {key.lastUsedAt
                    ? t('settings.keys.lastUsed', { date: formatDate(key.lastUsedAt, i18next.language) })
                    : t('settings.keys.neverUsed')}
                </div>
              </div>
              <button
                type="button"
                className="btn btn-sm"
                onClick={() => setRevoking(key)}
                disabled={revoke.isPending && revoke.variables?.id === key.id}
                aria-label={t('settings.keys.revokeLabel', { name: key.name })}
              >
                <Icon name="trash" size={16} />
                {t('settings.keys.revoke')}
              </button>
            </li>
          ))}
        </ul>
      )}

      {created && (
        <SecretDialog
          secret={created.key}
          texts={{
            title: t('settings.keys.createdTitle'),
            warning: t('settings.keys.warning'),
            label: t('settings.keys.secret'),
            copy: t('settings.keys.copy'),
            copied: t('settings.keys.copied'),
            selected: t('settings.keys.copySelected'),
            done: t('settings.keys.done'),
          }}
          onClose={() => setCreated(null)}
        />
      )}
      {revoking && (
        <ConfirmDialog
          title={t('settings.keys.revokeTitle')}
          message={t('settings.keys.revokeText', { name: revoking.name })}
          confirmLabel={t('settings.keys.revoke')}
          danger
          onCancel={() => setRevoking(null)}
          onConfirm={() => {
            revoke.mutate(revoking);
            setRevoking(null);
          }}
        />
      )}
    </SettingsSection>
  );
}
