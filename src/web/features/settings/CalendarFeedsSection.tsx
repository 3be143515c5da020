import { useId, useRef, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { IcalFeed, IcalFeedCreated } from '../../../shared/api/ical.js';
import { api } from '../../api/client';
import { errorMessage } from '../../api/errors';
import { boardsQuery } from '../../api/queries';
import i18n from '../../app/i18n';
import { toast } from '../../app/toast';
import { ConfirmDialog } from '../../components/Dialog';
import { SecretDialog } from '../../components/SecretDialog';
import { Icon } from '../../components/Icon';
import { field, useSubmit } from '../auth/useSubmit';
import { Feedback, SettingsSection } from './SettingsPage';

const feedsKey = ['settings', 'calendarFeeds'] as const;

const formatDate = (iso: string, language: string) =>
  new Intl.DateTimeFormat(language, { dateStyle: 'medium' }).format(new Date(iso));

/** Secret calendar feed addresses: made here (the address shown once, with Copy), listed, revoked. */
export function CalendarFeedsSection() {
  const { t, i18n: i18next } = useTranslation();
  const qc = useQueryClient();
  const id = useId();
  const form = useRef<HTMLFormElement>(null);
  const [created, setCreated] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<IcalFeed | null>(null);
  const feeds = useQuery({
    queryKey: feedsKey,
    queryFn: async () => (await api<{ feeds: IcalFeed[] }>('/api/data/ical-feeds')).feeds,
  });
  // The board list is read only when it is needed: choosing boards, or naming those of a feed.
  const [choosing, setChoosing] = useState(false);
  const wantBoards = choosing || (feeds.data?.some((feed) => feed.boardIds.length > 0) ?? false);
  const owned = useQuery({ ...boardsQuery('owned'), enabled: wantBoards });
  const shared = useQuery({ ...boardsQuery('shared'), enabled: wantBoards });
  const boards = [...(owned.data ?? []), ...(shared.data ?? [])];
  const boardName = (boardId: number) => boards.find((b) => b.id === boardId)?.name;

  const { busy, error, onSubmit } = useSubmit(async (data) => {
    const result = await api<IcalFeedCreated>('/api/data/ical-feeds', {
      method: 'POST',
      body: { name: field(data, 'name').trim(), boardIds: data.getAll('boardIds').map(Number) },
    });
    form.current?.reset();
    setCreated(result.url);
    await qc.invalidateQueries({ queryKey: feedsKey });
  });

  const revoke = useMutation({
    mutationFn: (feed: IcalFeed) => api('/api/data/ical-feeds', { method: 'DELETE', query: { id: feed.id } }),
    onSuccess: () => toast.info(i18n.t('feeds.revoked')),
    onError: (e) => toast.error(errorMessage(e)),
    onSettled: () => qc.invalidateQueries({ queryKey: feedsKey }),
  });

  return (
    <SettingsSection id={`${id}-title`} title={t('feeds.title')} intro={t('feeds.intro')}>
      <form ref={form} className="settings-key-form" onSubmit={onSubmit}>
        <div className="field">
          <label htmlFor={`${id}-name`}>{t('feeds.name')}</label>
          <input
            id={`${id}-name`}
            className="input"
            name="name"
            required
            maxLength={100}
            pattern=".*\S.*"
            placeholder={t('feeds.namePlaceholder')}
            autoComplete="off"
          />
        </div>
        <details className="settings-feed-boards" onToggle={(event) => event.currentTarget.open && setChoosing(true)}>
          <summary>{t('feeds.boards')}</summary>
          <fieldset>
            <legend className="visually-hidden">{t('feeds.boards')}</legend>
            {boards.map((board) => (
              <label key={board.id} className="settings-check">
                <input type="checkbox" name="boardIds" value={board.id} />
                <span>{board.name}</span>
              </label>
            ))}
          </fieldset>
        </details>
        <Feedback note={null} error={error} />
        <div className="settings-actions">
          <button type="submit" className="btn btn-primary" disabled={busy}>
            <Icon name="calendar" size={16} />
            {busy ? t('feeds.creating') : t('feeds.create')}
          </button>
        </div>
      </form>

      <h3 className="settings-subtitle" id={`${id}-list`}>
        {t('feeds.listLabel')}
      </h3>
      {feeds.isPending ? (
        <div className="settings-loading">
          <span className="spinner" aria-label={t('common.loading')} />
        </div>
      ) : feeds.isError ? (
        <div className="form-error" role="alert">
          {t('feeds.loadFailed')}
        </div>
      ) : feeds.data.length === 0 ? (
        <p className="empty">{t('feeds.none')}</p>
      ) : (
        <ul className="settings-keys" aria-labelledby={`${id}-list`}>
          {feeds.data.map((feed) => {
            const names = feed.boardIds.map(boardName).filter((n): n is string => !!n);
            return (
              <li key={feed.id} className="settings-key">
                <div className="settings-key-main">
                  <div className="settings-key-name">
                    <strong>{feed.name}</strong>
                  </div>
                  <div className="hint">
                    {names.length > 0 ? t('feeds.withBoards', { boards: names.join(', ') }) : t('feeds.mineOnly')}
                  </div>
                  <div className="hint">
                    <code className="settings-key-start">{feed.start}…</code>{' '}
                    {t('feeds.created', { date: formatDate(feed.createdAt, i18next.language) })}
                    {' · '}
                    {feed.lastUsedAt
                      ? t('feeds.lastUsed', { date: formatDate(feed.lastUsedAt, i18next.language) })
                      : t('feeds.neverUsed')}
                  </div>
                </div>
                <button
                  type="button"
                  className="btn btn-sm"
                  onClick={() => setRevoking(feed)}
                  disabled={revoke.isPending && revoke.variables?.id === feed.id}
                  aria-label={t('feeds.revokeLabel', { name: feed.name })}
                >
                  <Icon name="trash" size={16} />
                  {t('feeds.revoke')}
                </button>
              </li>
            );
          })}
        </ul>
      )}

      {created && (
        <SecretDialog
          secret={created}
          texts={{
            title: t('feeds.createdTitle'),
            warning: t('feeds.warning'),
            label: t('feeds.address'),
            copy: t('feeds.copy'),
            copied: t('feeds.copied'),
            selected: t('feeds.copySelected'),
            done: t('feeds.done'),
          }}
          onClose={() => setCreated(null)}
        />
      )}
      {revoking && (
        <ConfirmDialog
          title={t('feeds.revokeTitle')}
          message={t('feeds.revokeText', { name: revoking.name })}
          confirmLabel={t('feeds.revoke')}
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
