import { useTranslation } from 'react-i18next';
import { useBoardUnread } from './unread';
import './notifications.css';

/** A dot on a board's tile while the board has something unread (with words for screen readers). */
export function BoardUnreadDot({ boardId }: { boardId: number }) {
  const { t } = useTranslation();
  const unread = useBoardUnread(boardId);
  if (!unread) return null;
  return (
    <>
      <span className="tile-unread" aria-hidden="true" />
      <span className="visually-hidden">{t('notifications.boardUnread')}</span>
    </>
  );
}
