import { useTranslation } from 'react-i18next';
import type { Viewer } from '../../../shared/events.js';
import { Avatar } from '../../components/Avatar';

/** Everyone else on the board right now; a ring marks those with a card open. */
export function Presence({ viewers }: { viewers: Viewer[] }) {
  const { t } = useTranslation();
  if (viewers.length === 0) return null;
  return (
    <div className="presence" aria-label={t('board.presence', { count: viewers.length })} role="group">
      {viewers.slice(0, 6).map((viewer) => (
        <span key={viewer.id} className={`presence-item${viewer.cardId ? ' in-card' : ''}`}>
          <Avatar
            person={viewer}
            size="lg"
            title={viewer.cardId ? t('board.viewerInCard', { name: viewer.name }) : t('board.viewerHere', { name: viewer.name })}
          />
        </span>
      ))}
      {viewers.length > 6 && <span className="avatar avatar-lg avatar-more">+{viewers.length - 6}</span>}
    </div>
  );
}
