import { useRef, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiError, upload, type UploadProgress } from '../../api/client';
import { errorMessage } from '../../api/errors';
import type { Board, BoardImportResult, ImportReport } from '../../api/types';
import { Icon } from '../../components/Icon';
import { formatBytes, percentOf } from './format';

type State =
  | { kind: 'idle' }
  | { kind: 'uploading'; name: string; progress: UploadProgress | null }
  | { kind: 'done'; board: Board; report: ImportReport | undefined }
  | { kind: 'failed'; message: string }
  | { kind: 'cancelled' };

/**
 * A board export (zip) or a Trello board export (JSON, plain or zipped)
 * uploaded with progress; it becomes a new board of the caller's, linked once
 * there, with what a Trello import brought over and left out shown below.
 */
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
    const job = upload<BoardImportResult>('/api/data/board-import', {}, file, file.name, (progress) =>
      setState((s) => (s.kind === 'uploading' ? { ...s, progress } : s)),
    );
    abortRef.current = job.abort;
    job.promise.then(
      ({ board, report }) => {
        setState({ kind: 'done', board, report });
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
            accept=".zip,.json,application/zip,application/json"
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
      {state.kind === 'done' && state.report && <ImportReportView report={state.report} />}
      {state.kind === 'failed' && (
        <p className="form-error" role="alert">
          {t('exports.import.failed', { message: state.message })}
        </p>
      )}
    </section>
  );
}

const COUNTS = ['areas', 'cards', 'comments', 'labels', 'checklistItems', 'links'] as const;

/** What an import from Trello or LokalBoards brought over, and each thing it left out with the reason. */
function ImportReportView({ report }: { report: ImportReport }) {
  const { t, i18n } = useTranslation();
  const number = new Intl.NumberFormat(i18n.language);
  return (
    <div className="import-report">
      <h3>{t(report.source === 'lokalboards' ? 'exports.import.report.titleLokalboards' : 'exports.import.report.title')}</h3>
      <dl className="import-counts">
        {[...COUNTS, ...(report.imported.attachments === undefined ? [] : (['attachments'] as const))].map((key) => (
          <div key={key}>
            <dt>{t(`exports.import.report.${key}`)}</dt>
            <dd>{number.format(report.imported[key] ?? 0)}</dd>
          </div>
        ))}
      </dl>
      <h3>{t('exports.import.report.skippedTitle')}</h3>
      {report.skipped.length === 0 ? (
        <p className="hint">{t('exports.import.report.nothingSkipped')}</p>
      ) : (
        <ul className="import-skipped">
          {report.skipped.map((item, index) => (
            <li key={index}>
              {t(`exports.import.report.reason.${item.reason}`, { what: item.what, defaultValue: `${item.what}: ${item.why}` })}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
