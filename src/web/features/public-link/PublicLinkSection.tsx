import { useId, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../api/errors';
import { Icon } from '../../components/Icon';
import { createPublicLink, publicLinkKey, readPublicLink, revokePublicLink } from './api';
import './publiclink.css';

/**
 * The share dialog's public link: make, copy, replace, revoke (owner only).
 * Only the token's hash is kept, so the address shows in the answer that
 * made it; afterwards the owner can make a new one, which ends the old.
 */
export function PublicLinkSection({ boardId }: { boardId: number }) {
  const { t, i18n } = useTranslation();
  const qc = useQueryClient();
  const ids = { heading: useId(), url: useId(), warning: useId() };
  const state = useQuery({ queryKey: publicLinkKey(boardId), queryFn: () => readPublicLink(boardId) });
  const [url, setUrl] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState('');

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    setStatus('');
    try {
      await work();
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  };

  const create = () =>
    run(async () => {
      const made = await createPublicLink(boardId);
      qc.setQueryData(publicLinkKey(boardId), { link: { createdAt: made.link!.createdAt } });
      setUrl(made.link!.url ?? null);
      setStatus(t('publicLink.created'));
    });
  const revoke = () =>
    run(async () => {
      await revokePublicLink(boardId);
      qc.setQueryData(publicLinkKey(boardId), { link: null });
      setUrl(null);
      setStatus(t('publicLink.revoked'));
    });
  const copy = () =>
    run(async () => {
      await navigator.clipboard.writeText(url!);
      setStatus(t('publicLink.copied'));
    });

  const link = state.data?.link ?? null;
  const date = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <section className="public-link" aria-labelledby={ids.heading}>
      <h3 className="sharing-heading" id={ids.heading}>
        {t('publicLink.title')}
      </h3>
      <p className="public-link-warning" id={ids.warning}>
        <Icon name="globe" size={15} />
        <span>{t('publicLink.warning')}</span>
      </p>
      {state.isError && (
        <p className="form-error" role="alert">
          {errorMessage(state.error)}
        </p>
      )}
      {link && url && (
        <div className="public-link-url">
          <label className="visually-hidden" htmlFor={ids.url}>
            {t('publicLink.address')}
          </label>
          <input id={ids.url} className="input" readOnly value={url} onFocus={(e) => e.currentTarget.select()} />
          <button type="button" className="btn btn-sm" onClick={() => void copy()} disabled={busy}>
            <Icon name="copy" size={15} />
            {t('publicLink.copy')}
          </button>
        </div>
      )}
      {link && (
        <p className="hint">
          {url ? t('publicLink.shownOnce') : t('publicLink.exists', { date: date.format(new Date(link.createdAt)) })}
        </p>
      )}
      {state.isSuccess && (
        <div className="row public-link-actions">
          <button
            type="button"
            className={link ? 'btn btn-sm' : 'btn btn-primary btn-sm'}
            disabled={busy}
            aria-describedby={ids.warning}
            onClick={() => void create()}
          >
            {link ? t('publicLink.replace') : t('publicLink.create')}
          </button>
          {link && (
            <button type="button" className="btn btn-sm btn-danger" disabled={busy} onClick={() => void revoke()}>
              {t('publicLink.revoke')}
            </button>
          )}
        </div>
      )}
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <p className="visually-hidden" role="status">
        {status}
      </p>
    </section>
  );
}
