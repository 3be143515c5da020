import { useCallback, useMemo, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, upload } from '../../api/client';
import { errorMessage } from '../../api/errors';
import { attempt } from '../../api/optimistic';
import { activityQuery, keys } from '../../api/queries';
import type { Attachment } from '../../api/types';
import { toast } from '../../app/toast';
import { Icon } from '../../components/Icon';
import { dateTime, relativeTime } from '../board/dates';

interface Listed {
  id: number;
  filename: string;
  createdAt: string;
}

export interface Upload {
  key: number;
  name: string;
  progress: number;
  abort: () => void;
}

let uploadKeys = 0;

/** Uploads to a card with their progress (XMLHttpRequest upload events). */
export function useUploads(cardId: number) {
  const qc = useQueryClient();
  const [uploads, setUploads] = useState<Upload[]>([]);
  const start = useCallback(
    (files: Iterable<File>) => {
      for (const file of files) {
        const key = ++uploadKeys;
        const request = upload<{ attachment: Attachment }>('/api/data/attachment', { cardId }, file, file.name, (p) =>
          setUploads((list) => list.map((u) => (u.key === key ? { ...u, progress: p.loaded / p.total } : u))),
        );
        setUploads((list) => [...list, { key, name: file.name, progress: 0, abort: request.abort }]);
        request.promise
          .then(() => qc.invalidateQueries({ queryKey: keys.activity(cardId) }))
          .catch((error: unknown) => {
            if (error instanceof Error && error.message === 'ABORTED') return;
            toast.error(`${file.name}: ${errorMessage(error)}`);
          })
          .finally(() => setUploads((list) => list.filter((u) => u.key !== key)));
      }
    },
    [cardId, qc],
  );
  return { uploads, start };
}

const IMAGE = /\.(png|jpe?g|gif|webp)$/i;

/**
 * The files on a card. There is no list route for them: the card's history
 * records every file added and removed, so the list is read from there.
 */
export function Attachments({
  cardId,
  writeAccess,
  uploads,
  onPick,
}: {
  cardId: number;
  writeAccess: boolean;
  uploads: Upload[];
  onPick: (files: FileList) => void;
}) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const activity = useQuery(activityQuery(cardId));
  const files = useMemo(() => {
    const list = new Map<number, Listed>();
    for (const entry of activity.data ?? []) {
      if (entry.type !== 'attachment' || !entry.data) continue;
      const id = Number(entry.data.attachmentId);
      if (entry.data.removed) list.delete(id);
      else list.set(id, { id, filename: String(entry.data.filename), createdAt: entry.createdAt });
    }
    return [...list.values()];
  }, [activity.data]);

  const remove = async (id: number) => {
    const done = await attempt(() => api('/api/data/attachment', { method: 'DELETE', query: { id } }));
    if (done) await qc.invalidateQueries({ queryKey: keys.activity(cardId) });
  };

  return (
    <div className="attachments">
      {files.length === 0 && uploads.length === 0 && (
        <p className="hint">{writeAccess ? t('card.dropFiles') : t('card.noFiles')}</p>
      )}
      <ul className="file-list">
        {files.map((file) => (
          <li key={file.id} className="file-row">
            {IMAGE.test(file.filename) ? (
              <img className="file-thumb" src={`/api/data/attachment?id=${file.id}`} alt="" loading="lazy" />
            ) : (
              <span className="file-thumb file-icon" aria-hidden="true">
                <Icon name="paperclip" size={16} />
              </span>
            )}
            <span className="file-info">
              <a href={`/api/data/attachment?id=${file.id}`} download={file.filename}>
                {file.filename}
              </a>
              <time className="hint" dateTime={file.createdAt} title={dateTime(file.createdAt)}>
                {relativeTime(file.createdAt)}
              </time>
            </span>
            {writeAccess && (
              <button
                type="button"
                className="icon-btn"
                aria-label={t('card.removeFile', { name: file.filename })}
                onClick={() => void remove(file.id)}
              >
                <Icon name="trash" size={16} />
              </button>
            )}
          </li>
        ))}
        {uploads.map((item) => (
          <li key={item.key} className="file-row">
            <span className="file-thumb file-icon" aria-hidden="true">
              <Icon name="upload" size={16} />
            </span>
            <span className="file-info">
              <span>{item.name}</span>
              <progress
                max={1}
                value={item.progress}
                aria-label={t('common.uploading', { percent: Math.round(item.progress * 100) })}
              />
            </span>
            <button type="button" className="icon-btn" aria-label={t('common.cancel')} onClick={item.abort}>
              <Icon name="close" size={16} />
            </button>
          </li>
        ))}
      </ul>
      {writeAccess && (
        <label className="btn btn-sm file-pick">
          <Icon name="paperclip" size={15} />
          {t('card.attachFile')}
          <input
            type="file"
            multiple
            className="visually-hidden"
            onChange={(e) => {
              if (e.target.files?.length) onPick(e.target.files);
              e.target.value = '';
            }}
          />
        </label>
      )}
    </div>
  );
}
