import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../api/errors';
import { toast } from '../../app/toast';
import { Icon } from '../../components/Icon';

/** "12 Mar 2025, 14:05" in the reader's language. */
export function useFormatDate(): (iso: string | null) => string | null {
  const { i18n } = useTranslation();
  const format = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  return (iso) => {
    if (!iso) return null;
    const date = new Date(iso);
    return Number.isNaN(date.getTime()) ? null : format.format(date);
  };
}

/** When it was archived, as a <time>, or nothing when unknown. */
export function ArchivedAt({ at }: { at: string | null }) {
  const { t } = useTranslation();
  const format = useFormatDate();
  const text = format(at);
  if (!text || !at) return null;
  return (
    <span>
      {t('archive.archivedOn')} <time dateTime={at}>{text}</time>
    </span>
  );
}

interface RowProps {
  name: string;
  /** Lines under the name: where it returns to, how much goes with it, when it was archived. */
  meta: ReactNode;
  /** Absent for someone who may only look. */
  onRestore?: () => Promise<void>;
  onDelete?: () => void;
  testId?: string;
}

/** One archived thing with its restore and delete buttons. */
export function ArchiveRow({ name, meta, onRestore, onDelete, testId }: RowProps) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  return (
    <li className="archive-row" data-testid={testId}>
      <div className="archive-row-main">
        <span className="archive-row-name">{name}</span>
        <span className="archive-row-meta">{meta}</span>
      </div>
      {(onRestore || onDelete) && (
        <div className="archive-row-actions">
          {onRestore && (
            <button
              type="button"
              className="btn btn-sm"
              disabled={busy}
              onClick={() => {
                setBusy(true);
                onRestore()
                  .catch((error: unknown) => toast.error(errorMessage(error)))
                  .finally(() => setBusy(false));
              }}
            >
              <Icon name="undo" size={15} />
              {t('archive.restore')}
              <span className="visually-hidden"> “{name}”</span>
            </button>
          )}
          {onDelete && (
            <button type="button" className="btn btn-sm archive-delete" disabled={busy} onClick={onDelete}>
              <Icon name="trash" size={15} />
              {t('archive.deleteForever')}
              <span className="visually-hidden"> “{name}”</span>
            </button>
          )}
        </div>
      )}
    </li>
  );
}
