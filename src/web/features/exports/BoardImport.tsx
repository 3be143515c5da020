import { useRef, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiError, upload, type UploadProgress } from '../../api/client';
import { errorMessage } from '../../api/errors';
import type { Board } from '../../api/types';
import { Icon } from '../../components/Icon';
import { formatBytes, percentOf } from './format';

type State =
  | { kind: 'idle' }
  | { kind: 'uploading'; name: string; progress: UploadProgress | null }
  | { kind: 'done'; board: Board }
  | { kind: 'failed'; message: string }
  | { kind: 'cancelled' };

/** A board export (zip) uploaded with progress; it becomes a new board of the caller's, linked once there. */
export function BoardImport() {
  const { t, i18n } = useTranslation();
  const qc = useQueryClient();
  const inputRef = useRef<HTMLInputElement>(null);
  const abortRef = useRef<(() => void) | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [state, setState] = useState<State>({ kind: 'idle' });
  const busy = state.kind === 'uploading';

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!file || busy) return;
    setState({ kind: 'uploading', name: file.name, progress: null });
    const job = upload<{ board: Board }>('/api/data/board-import', {}, file, file.name, (progress) =>
      setState((s) => (s.kind === 'uploading' ? { ...s, progress } : s)),
    );
    abortRef.current = job.abort;
    job.promise.then(
      ({ board }) => {
        setState({ kind: 'done', board });
        setFile(null);
        if (inputRef.current) inputRef.current.value = '';
        void qc.invalidateQueries({ queryKey: ['boards'] });
      },
      (error: unknown) => {
        if (error instanceof ApiError && error.status === 0 && error.message === 'ABORTED') setState({ kind: 'cancelled' });
        else setState({ kind: 'failed', message: errorMessage(error) });
      },
    );
  };

  const progress = state.kind === 'uploading' ? state.progress : null;
  const percent = progress ? percentOf(progress.loaded, progress.total) : null;
  // Everything sent: the server is unpacking the board now.
  const processing = progress !== null && progress.loaded >= progress.total;

  return (
    <section className="admin-card" aria-labelledby="board-import-title">
      <h2 id="board-import-title">{t('exports.import.title')}</h2>
      <p className="hint" id="board-import-text">
        {t('exports.import.text')}
      </p>
      <form className="import-form" onSubmit={submit}>
        <div className="field">
          <label htmlFor="board-import-file">{t('exports.import.file')}</label>
          <input
            ref={inputRef}
            id="board-import-file"
            className="input"
            type="file"
            accept=".zip,application/zip"
            aria-describedby="board-import-text"
            disabled={busy}
            onChange={(event) => setFile(event.target.files?.[0] ?? null)}
          />
        </div>
        <div className="row">
          <button type="submit" className="btn btn-primary" disabled={!file || busy}>
            <Icon name="upload" size={16} />
            {t('exports.import.start')}
          </button>
          {busy && (
            <button type="button" className="btn" onClick={() => abortRef.current?.()} aria-label={t('exports.import.cancel')}>
              {t('common.cancel')}
            </button>
          )}
        </div>
      </form>

      {state.kind === 'uploading' && (
        <div className="download">
          <div
            className={`download-bar${percent === null ? ' indeterminate' : ''}`}
            role="progressbar"
            aria-label={t('exports.import.uploading', { name: state.name })}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={percent ?? undefined}
          >
            <div className="download-fill" style={percent === null ? undefined : { width: `${percent}%` }} />
          </div>
          <div className="download-meta">
            <span role="status">
              {processing ? t('exports.import.processing') : t('exports.import.uploading', { name: state.name })}
            </span>
            {progress && (
              <span className="download-amount">
                {t('exports.import.progress', {
                  sent: formatBytes(progress.loaded, i18n.language),
                  total: formatBytes(progress.total, i18n.language),
                  percent: percent ?? 0,
                })}
              </span>
            )}
          </div>
        </div>
      )}
      <div role="status" className="import-result">
        {state.kind === 'done' && (
          <p className="form-note">
            {t('exports.import.done', { name: state.board.name })}{' '}
            <Link to={`/board/${state.board.id}`}>{t('exports.import.open')}</Link>
          </p>
        )}
        {state.kind === 'cancelled' && <p className="hint">{t('exports.import.cancelled')}</p>}
      </div>
      {state.kind === 'failed' && (
        <p className="form-error" role="alert">
          {t('exports.import.failed', { message: state.message })}
        </p>
      )}
    </section>
  );
}
