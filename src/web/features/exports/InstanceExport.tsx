import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../components/Icon';
import { startDownload, useDownload } from './download';
import { DownloadProgress } from './DownloadProgress';

/** The whole instance as one streamed zip (administrators): bytes and time shown as they go, cancellable. */
export function InstanceExport() {
  const { t } = useTranslation();
  const [downloadId, setDownloadId] = useState<number | null>(null);
  const download = useDownload(downloadId);
  const running = download?.status === 'running';

  return (
    <section className="admin-card" aria-labelledby="instance-export-title">
      <h2 id="instance-export-title">{t('exports.instance.title')}</h2>
      <p className="hint">{t('exports.instance.text')}</p>
      <div className="row">
        <button
          type="button"
          className="btn"
          disabled={running}
          onClick={() => {
            const today = new Date().toISOString().slice(0, 10);
            setDownloadId(startDownload('/api/data/export', t('exports.instance.label'), `tavla-export-${today}.zip`, false));
          }}
        >
          <Icon name="download" size={16} />
          {t('exports.instance.start')}
        </button>
      </div>
      {download && <DownloadProgress download={download} dismissible={false} />}
    </section>
  );
}
