import { useEffect, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { errorMessage } from '../../api/errors';
import { applyBoard } from '../../api/cache';
import { boardQuery, keys } from '../../api/queries';
import type { Board } from '../../api/types';
import { useUser } from '../../app/session';
import { toast } from '../../app/toast';
import { ConfirmDialog } from '../../components/Dialog';
import { Icon } from '../../components/Icon';
import { useRealtime } from '../../realtime/RealtimeProvider';
import { ArchivedAt, ArchiveRow } from './ArchiveList';
import { archiveKeys, boardArchiveQuery, deleteItem, restoreItem, type ArchivedArea, type ArchivedCard } from './api';
import './archive.css';
import { BoardLoadError } from '../board/BoardLoadError';

type Doomed = { type: 'area'; item: ArchivedArea } | { type: 'card'; item: ArchivedCard } | null;

/**
 * Keeps the archive list current while it is open: whatever someone else
 * archives, restores or deletes on the board reads the list again, and a
 * board that goes away (or access that is lost) leads back to the dashboard.
 */
function useArchiveRealtime(boardId: number, enabled: boolean) {
  const connection = useRealtime();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const { t } = useTranslation();
  const leave = useRef<(reason: 'archived' | 'deleted' | 'revoked') => void>(() => {});
  useEffect(() => {
    leave.current = (reason) => {
      toast.info(t(`board.gone.${reason}`));
      void navigate('/', { replace: true });
    };
  });

  useEffect(() => {
    if (!connection || !enabled) return;
    const refresh = () => void qc.invalidateQueries({ queryKey: archiveKeys.board(boardId) });
    return connection.subscribe(boardId, {
      subscribed: refresh,
      resync: refresh,
      revoked: () => leave.current('revoked'),
      event(event) {
        // The board page reads the board again when it opens (its data predates its subscription).
        if (event.name === 'board.archived') return leave.current('archived');
        if (event.name === 'board.deleted') return leave.current('deleted');
        if (event.name === 'board.updated' || event.name === 'board.restored') {
          applyBoard(qc, (event.data as { board: Board }).board);
          return;
        }
        if (event.name === 'member.updated' || event.name === 'member.removed') {
          void qc.invalidateQueries({ queryKey: keys.board(boardId) });
          return;
        }
        if (event.name.startsWith('card.') || event.name.startsWith('area.')) refresh();
      },
    });
  }, [connection, qc, boardId, enabled]);
}

/** The archive of one board: archived areas and cards, to restore or delete for good. */
export function BoardArchivePage() {
  const { id } = useParams();
  const boardId = Number(id);
  const user = useUser();
  const { t } = useTranslation();
  const qc = useQueryClient();
  const boardResult = useQuery(boardQuery(boardId, user.id));
  const writeAccess = boardResult.data?.writeAccess === true;
  const archive = useQuery({ ...boardArchiveQuery(boardId), enabled: writeAccess });
  const [doomed, setDoomed] = useState<Doomed>(null);
  useArchiveRealtime(boardId, boardResult.isSuccess);

  if (boardResult.isError || archive.isError) {
    return <BoardLoadError error={boardResult.error ?? archive.error} className="archive-message" />;
  }
  if (!boardResult.data || (writeAccess && !archive.data)) {
    return (
      <div className="center-fill">
        <span className="spinner" aria-label={t('common.loading')} />
      </div>
    );
  }

  const { board } = boardResult.data;
  const back = (
    <Link to={`/board/${board.id}`} className="archive-back">
      <Icon name="arrowLeft" size={16} />
      {t('archive.backTo', { name: board.name })}
    </Link>
  );

  if (!writeAccess || !archive.data) {
    return (
      <div className="archive-page">
        <div className="archive-inner">
          {back}
          <h1 className="archive-title">{t('archive.boardTitle', { name: board.name })}</h1>
          <div className="archive-notice" role="status">
            <Icon name="lock" size={18} />
            <p>{t('archive.readOnly')}</p>
          </div>
        </div>
      </div>
    );
  }

  const { areas, cards } = archive.data;

  const restore = async (type: 'card' | 'area', itemId: number, name: string) => {
    await restoreItem(qc, boardId, type, itemId);
    toast.info(t(type === 'card' ? 'archive.cardRestored' : 'archive.areaRestored', { name }));
  };

  const confirmDelete = async () => {
    if (!doomed) return;
    const { type, item } = doomed;
    setDoomed(null);
    try {
      await deleteItem(qc, boardId, type, item.id);
      toast.info(t('archive.deleted', { name: item.name }));
    } catch (error) {
      toast.error(errorMessage(error));
    }
  };

  return (
    <div className="archive-page">
      <div className="archive-inner">
        {back}
        <h1 className="archive-title">{t('archive.boardTitle', { name: board.name })}</h1>
        <p className="hint">{t('archive.boardIntro')}</p>

        <section className="archive-section" aria-labelledby="archived-areas">
          <h2 id="archived-areas">
            {t('archive.areas')} <span className="archive-count">{areas.length}</span>
          </h2>
          {areas.length === 0 ? (
            <p className="archive-empty">{t('archive.noAreas')}</p>
          ) : (
            <ul className="archive-list">
              {areas.map((area) => (
                <ArchiveRow
                  key={area.id}
                  testId={`archived-area-${area.id}`}
                  name={area.name}
                  meta={
                    <>
                      <span>{t('archive.cardCount', { count: area.cardCount })}</span>
                      <ArchivedAt at={area.archivedAt} />
                    </>
                  }
                  onRestore={() => restore('area', area.id, area.name)}
                  onDelete={() => setDoomed({ type: 'area', item: area })}
                />
              ))}
            </ul>
          )}
        </section>

        <section className="archive-section" aria-labelledby="archived-cards">
          <h2 id="archived-cards">
            {t('archive.cards')} <span className="archive-count">{cards.length}</span>
          </h2>
          {cards.length === 0 ? (
            <p className="archive-empty">{t('archive.noCards')}</p>
          ) : (
            <ul className="archive-list">
              {cards.map((card) => (
                <ArchiveRow
                  key={card.id}
                  testId={`archived-card-${card.id}`}
                  name={card.name}
                  meta={
                    <>
                      <span>{t('archive.returnsTo', { name: card.areaName })}</span>
                      <ArchivedAt at={card.archivedAt} />
                    </>
                  }
                  onRestore={() => restore('card', card.id, card.name)}
                  onDelete={() => setDoomed({ type: 'card', item: card })}
                />
              ))}
            </ul>
          )}
        </section>
      </div>

      {doomed && (
        <ConfirmDialog
          title={t('archive.deleteTitle')}
          danger
          confirmLabel={t('archive.deleteForever')}
          message={
            doomed.type === 'card'
              ? t('archive.deleteCardText', { name: doomed.item.name })
              : doomed.item.cardCount === 0
                ? t('archive.deleteEmptyAreaText', { name: doomed.item.name })
                : t('archive.deleteAreaText', { name: doomed.item.name, count: doomed.item.cardCount })
          }
          onConfirm={() => void confirmDelete()}
          onCancel={() => setDoomed(null)}
        />
      )}
    </div>
  );
}
