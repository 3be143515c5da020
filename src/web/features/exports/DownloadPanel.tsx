import { useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { useTranslation } from 'react-i18next';
import { forgetDownload, useDownloads, type Download } from './download';
import { DownloadProgress } from './DownloadProgress';

const DONE_VISIBLE_MS = 6000;

function FloatingItem({ download }: { download: Download }) {
  // A finished download leaves by itself; a failed or cancelled one waits to be read and dismissed.
  useEffect(() => {
    if (download.status !== 'done') return;
    const timer = setTimeout(() => forgetDownload(download.id), DONE_VISIBLE_MS);
    return () => clearTimeout(timer);
  }, [download.status, download.id]);
  return <DownloadProgress download={download} dismissible />;
}

/** The board exports in progress, in a corner of the screen. */
export function DownloadPanel() {
  const { t } = useTranslation();
  const floating = useDownloads().filter((d) => d.floating);
  if (floating.length === 0) return null;
  return (
    <section className="download-panel" aria-label={t('exports.panel.title')}>
      {floating.map((download) => (
        <FloatingItem key={download.id} download={download} />
      ))}
    </section>
  );
}

let mounted = false;

/** The panel lives in its own root at the end of the page, made on first use. */
export function mountDownloadPanel(): void {
  if (mounted) return;
  mounted = true;
  const host = document.createElement('div');
  host.className = 'download-host';
  document.body.append(host);
  createRoot(host).render(<DownloadPanel />);
}
