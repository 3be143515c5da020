import { useId, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client';
import { errorMessage } from '../../api/errors';
import type { Board } from '../../api/types';
import { ConfirmDialog, Dialog } from '../../components/Dialog';
import { Icon } from '../../components/Icon';
import { SecretDialog } from '../../components/SecretDialog';
import { addWebhook, deleteWebhook, webhooksQuery, type Webhook } from './api';
import { DeliveriesDialog } from './DeliveriesDialog';
import { EventPicker } from './EventPicker';
import { eventKey, type WebhookEventName } from './events';
import './webhooks.css';

/** How many event names a webhook's row spells out before "and N more". */
const SHOWN_EVENTS = 3;

/** The board's outgoing webhooks (owner only): add one (its secret shown once), see its deliveries, delete it. */
export function WebhooksDialog({ board, onClose }: { board: Board; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const qc = useQueryClient();
  const ids = { url: useId(), hint: useId(), list: useId() };
  const webhooks = useQuery(webhooksQuery(board.id));
  const urlField = useRef<HTMLInputElement>(null);
  const listHeading = useRef<HTMLHeadingElement>(null);
  const [url, setUrl] = useState('');
  const [picked, setPicked] = useState<ReadonlySet<WebhookEventName> | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [eventsError, setEventsError] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  const [secret, setSecret] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<Webhook | null>(null);
  const [viewing, setViewing] = useState<Webhook | null>(null);

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (busy || !url.trim()) return;
    if (picked !== null && picked.size === 0) return setEventsError(t('webhooks.pickOne'));
    setBusy(true);
    setError(null);
    setStatus('');
    try {
      const created = await addWebhook(qc, board.id, url.trim(), picked ? [...picked] : []);
      setUrl('');
      setPicked(null);
      setStatus(t('webhooks.added'));
      setSecret(created.secret);
    } catch (failure) {
      setError(failure instanceof ApiError && failure.status === 400 ? t('webhooks.refused') : errorMessage(failure));
    } finally {
      setBusy(false);
    }
  };

  const confirmDelete = async () => {
    const target = deleting;
    setDeleting(null);
    if (!target) return;
    setBusy(true);
    setError(null);
    setStatus('');
    try {
      await deleteWebhook(qc, target);
      setStatus(t('webhooks.deleted'));
      // Its row, and the button that had focus, are gone: keep the keyboard in the dialog.
      requestAnimationFrame(() => listHeading.current?.focus());
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  };

  const summary = (events: Webhook['events']) => {
    if (events.length === 0) return t('webhooks.allEvents');
    const names = events.map((e) => t(`webhooks.names.${eventKey(e)}`));
    if (names.length <= SHOWN_EVENTS) return names.join(', ');
    return t('webhooks.moreEvents', { list: names.slice(0, SHOWN_EVENTS).join(', '), more: names.length - SHOWN_EVENTS });
  };
  const date = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium' });

  return (
    <Dialog title={t('webhooks.title', { name: board.name })} onClose={onClose} className="webhooks-dialog">
      <p className="hint webhooks-intro">{t('webhooks.intro')}</p>
      <form className="webhooks-form" onSubmit={(e) => void submit(e)} noValidate>
        <div className="field">
          <label className="field-label" htmlFor={ids.url}>
            {t('webhooks.url')}
          </label>
          <input
            id={ids.url}
            className="input"
            type="url"
            inputMode="url"
            autoComplete="off"
            spellCheck={false}
            maxLength={2048}
            placeholder={t('webhooks.urlPlaceholder')}
            aria-describedby={ids.hint}
            ref={urlField}
            value={url}
            readOnly={busy}
            onChange={(e) => {
              setUrl(e.target.value);
              setError(null);
            }}
            data-autofocus
          />
          <p className="hint" id={ids.hint}>
            {t('webhooks.urlHint')}
          </p>
        </div>
        <EventPicker
          picked={picked}
          disabled={busy}
          error={eventsError}
          onChange={(next) => {
            setPicked(next);
            setEventsError(null);
          }}
        />
        {error && (
          <p className="form-error webhooks-error" role="alert">
            {error}
          </p>
        )}
        <p className="visually-hidden" role="status">
          {status}
        </p>
        <div className="webhooks-actions">
          <button type="submit" className="btn btn-primary" disabled={busy || !url.trim()}>
            <Icon name="plus" size={16} />
            {busy ? t('webhooks.adding') : t('webhooks.add')}
          </button>
        </div>
      </form>

      <h3 className="webhooks-heading" id={ids.list} ref={listHeading} tabIndex={-1}>
        {t('webhooks.list')}
      </h3>
      {webhooks.isPending ? (
        <div className="center-fill">
          <span className="spinner" aria-label={t('common.loading')} />
        </div>
      ) : webhooks.isError ? (
        <p className="form-error" role="alert">
          {errorMessage(webhooks.error)}
        </p>
      ) : webhooks.data.length === 0 ? (
        <p className="empty">{t('webhooks.none')}</p>
      ) : (
        <ul className="webhooks-list" aria-labelledby={ids.list}>
          {webhooks.data.map((webhook) => (
            <li key={webhook.id} className="webhooks-row" data-webhook-id={webhook.id}>
              <div className="webhooks-row-main">
                <div className="webhooks-row-title">
                  <span className="webhooks-url">{webhook.url}</span>
                  <span className={`webhooks-badge webhooks-badge-${webhook.active ? 'active' : 'inactive'}`}>
                    {webhook.active ? t('webhooks.active') : t('webhooks.inactive')}
                  </span>
                </div>
                <div className="hint">{summary(webhook.events)}</div>
                <div className="hint">{t('webhooks.created', { date: date.format(new Date(webhook.createdAt)) })}</div>
              </div>
              <div className="webhooks-row-actions">
                <button type="button" className="btn btn-sm" onClick={() => setViewing(webhook)}>
                  <Icon name="activity" size={15} />
                  {t('webhooks.deliveries')}
                </button>
                <button
                  type="button"
                  className="icon-btn"
                  aria-label={t('webhooks.deleteLabel', { url: webhook.url })}
                  disabled={busy}
                  onClick={() => setDeleting(webhook)}
                >
                  <Icon name="trash" />
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}

      {secret && (
        <SecretDialog
          secret={secret}
          texts={{
            title: t('webhooks.secretTitle'),
            warning: t('webhooks.secretWarning'),
            label: t('webhooks.secret'),
            copy: t('webhooks.copy'),
            copied: t('webhooks.copied'),
            selected: t('webhooks.copySelected'),
            done: t('webhooks.done'),
          }}
          onClose={() => {
            setSecret(null);
            // The form was busy when the secret came, so focus had nowhere to return to: back to the address, for the next one.
            requestAnimationFrame(() => urlField.current?.focus());
          }}
        />
      )}
      {viewing && <DeliveriesDialog webhook={viewing} onClose={() => setViewing(null)} />}
      {deleting && (
        <ConfirmDialog
          title={t('webhooks.deleteTitle')}
          message={t('webhooks.deleteText', { url: deleting.url })}
          confirmLabel={t('webhooks.delete')}
          danger
          onCancel={() => setDeleting(null)}
          onConfirm={() => void confirmDelete()}
        />
      )}
    </Dialog>
  );
}
