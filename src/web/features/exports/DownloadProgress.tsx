import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../components/Icon';
import { cancelDownload, forgetDownload, type Download } from './download';
import { formatBytes, formatElapsed, percentOf } from './format';
import './exports.css';

/** The time now, ticking every second while `live`. */
function useNow(live: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!live) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [live]);
  return now;
}

/**
 * One download as it goes: a bar (a percentage when the size is known, else
 * a moving stripe), bytes received, time taken, and Cancel. The status word
 * sits in a live region that changes only when the status does.
 */
export function DownloadProgress({ download, dismissible }: { download: Download; dismissible: boolean }) {
  const { t, i18n } = useTranslation();
  const running = download.status === 'running';
  const now = useNow(running);
  const elapsed = formatElapsed((download.finishedAt ?? now) - download.startedAt, i18n.language);
  const percent = percentOf(download.received, download.total);
  const received = formatBytes(download.received, i18n.language);
  const amount =
    percent === null
      ? t('exports.progress.received', { size: received })
      : t('exports.progress.receivedOf', { size: received, total: formatBytes(download.total ?? 0, i18n.language), percent });
  const name = download.filename ?? download.label;

  const status =
    download.status === 'running'
      ? t('exports.progress.running')
      : download.status === 'done'
        ? t('exports.progress.done')
        : download.status === 'cancelled'
          ? t('exports.progress.cancelled')
          : t('exports.progress.failed', { message: download.error ?? '' });

  return (
    <div className={`download download-${download.status}`} data-download-status={download.status}>
      <div className="download-head">
        <Icon name="download" size={16} />
        <span className="download-name" title={name}>
          {name}
        </span>
        {running ? (
          <button
            type="button"
            className="btn btn-sm"
            onClick={() => cancelDownload(download.id)}
            aria-label={t('exports.progress.cancel', { name })}
          >
            {t('common.cancel')}
          </button>
        ) : (
          dismissible && (
            <button
              type="button"
              className="icon-btn download-dismiss"
              onClick={() => forgetDownload(download.id)}
              aria-label={t('common.dismiss')}
            >
              <Icon name="close" size={16} />
            </button>
          )
        )}
      </div>
      {running && (
        <div
          className={`download-bar${percent === null ? ' indeterminate' : ''}`}
          role="progressbar"
          aria-label={t('exports.progress.label', { name })}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent ?? undefined}
          aria-valuetext={amount}
        >
          <div className="download-fill" style={percent === null ? undefined : { width: `${percent}%` }} />
        </div>
      )}
      <div className="download-meta">
        <span role="status" className={download.status === 'failed' ? 'download-error' : undefined}>
          {status}
        </span>
        <span className="download-amount">{amount}</span>
        <span className="download-elapsed">{t('exports.progress.elapsed', { time: elapsed })}</span>
      </div>
    </div>
  );
}
