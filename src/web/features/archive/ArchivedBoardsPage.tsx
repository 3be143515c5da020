import { useEffect, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { errorMessage } from '../../api/errors';
import { useUser } from '../../app/session';
import { toast } from '../../app/toast';
import { ConfirmDialog } from '../../components/Dialog';
import { Icon } from '../../components/Icon';
import { useRealtime } from '../../realtime/RealtimeProvider';
import { ArchivedAt, ArchiveRow } from './ArchiveList';
import { archiveKeys, archivedBoardsQuery, deleteBoard, restoreBoard, type ArchivedBoard } from './api';
import './archive.css';

/** The boards the account owns and has archived: restore them to the dashboard, or delete them for good. */
export function ArchivedBoardsPage() {
  const { t } = useTranslation();
  const user = useUser();
  const qc = useQueryClient();
  const connection = useRealtime();
  const boards = useQuery(archivedBoardsQuery);
  const [doomed, setDoomed] = useState<ArchivedBoard | null>(null);

  // A board archived, restored or deleted elsewhere (another tab, the API) shows here at once.
  useEffect(() => {
    if (!connection) return;
    return connection.onDashboard((message) => {
      if (message.name === 'board.archived' || message.name === 'board.restored' || message.name === 'board.deleted') {
        void qc.invalidateQueries({ queryKey: archiveKeys.boards });
      }
    });
  }, [connection, qc]);

  const confirmDelete = async () => {
    if (!doomed) return;
    const board = doomed;
    setDoomed(null);
    try {
      await deleteBoard(qc, board.id, user.id);
      toast.info(t('archive.deleted', { name: board.name }));
    } catch (error) {
      toast.error(errorMessage(error));
    }
  };

  return (
    <div className="archive-page">
      <div className="archive-inner">
        <Link to="/" className="archive-back">
          <Icon name="arrowLeft" size={16} />
          {t('archive.backToBoards')}
        </Link>
        <h1 className="archive-title">{t('archive.boardsTitle')}</h1>
        <p className="hint">{t('archive.boardsIntro')}</p>

        {boards.isError ? (
          <div className="archive-notice" role="alert">
            <p>{errorMessage(boards.error)}</p>
            <button type="button" className="btn btn-sm" onClick={() => void boards.refetch()}>
              {t('archive.retry')}
            </button>
          </div>
        ) : !boards.data ? (
          <div className="center-fill">
            <span className="spinner" aria-label={t('common.loading')} />
          </div>
        ) : boards.data.length === 0 ? (
          <div className="archive-empty archive-empty-large">
            <Icon name="archive" size={28} />
            <p>{t('archive.noBoards')}</p>
          </div>
        ) : (
          <section className="archive-section" aria-labelledby="archived-boards">
            <h2 id="archived-boards">
              {t('archive.boards')} <span className="archive-count">{boards.data.length}</span>
            </h2>
            <ul className="archive-list">
              {boards.data.map((board) => (
                <ArchiveRow
                  key={board.id}
                  testId={`archived-board-${board.id}`}
                  name={board.name}
                  meta={<ArchivedAt at={board.archivedAt} />}
                  onRestore={async () => {
                    await restoreBoard(qc, board.id);
                    toast.info(t('archive.boardRestored', { name: board.name }));
                  }}
                  onDelete={() => setDoomed(board)}
                />
              ))}
            </ul>
          </section>
        )}
      </div>

      {doomed && (
        <ConfirmDialog
          title={t('archive.deleteTitle')}
          danger
          confirmLabel={t('archive.deleteForever')}
          message={t('archive.deleteBoardText', { name: doomed.name })}
          onConfirm={() => void confirmDelete()}
          onCancel={() => setDoomed(null)}
        />
      )}
    </div>
  );
}
