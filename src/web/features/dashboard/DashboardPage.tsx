import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { boardsQuery } from '../../api/queries';
import type { Board } from '../../api/types';
import { useUser } from '../../app/session';
import { Icon } from '../../components/Icon';
import { BoardFormDialog } from './BoardFormDialog';
import { BoardTile } from './BoardTile';
import { ShareDialog } from '../sharing/ShareDialog';
import './dashboard.css';

type Open = { kind: 'create' } | { kind: 'settings'; board: Board } | { kind: 'share'; board: Board } | null;

export function DashboardPage() {
  const { t } = useTranslation();
  const user = useUser();
  const owned = useQuery(boardsQuery('owned'));
  const shared = useQuery(boardsQuery('shared'));
  const [open, setOpen] = useState<Open>(null);

  return (
    <div className="dashboard">
      <div className="dashboard-inner">
        <section aria-labelledby="my-boards">
          <div className="dashboard-heading">
            <h1 id="my-boards">{t('dashboard.myBoards')}</h1>
            <button type="button" className="btn btn-primary" onClick={() => setOpen({ kind: 'create' })}>
              <Icon name="plus" size={16} />
              {t('dashboard.newBoard')}
            </button>
          </div>
          {owned.isPending ? (
            <div className="center-fill">
              <span className="spinner" aria-label={t('common.loading')} />
            </div>
          ) : (
            <ul className="tile-grid">
              {owned.data?.map((board) => (
                <BoardTile
                  key={board.id}
                  board={board}
                  owned
                  onSettings={() => setOpen({ kind: 'settings', board })}
                  onShare={() => setOpen({ kind: 'share', board })}
                />
              ))}
              <li>
                <button type="button" className="tile tile-new" onClick={() => setOpen({ kind: 'create' })}>
                  <Icon name="plus" />
                  <span>{t('dashboard.newBoard')}</span>
                </button>
              </li>
            </ul>
          )}
        </section>

        {(shared.data?.length ?? 0) > 0 && (
          <section aria-labelledby="shared-boards" className="dashboard-section">
            <div className="dashboard-heading">
              <h2 id="shared-boards">{t('dashboard.sharedWithMe')}</h2>
            </div>
            <ul className="tile-grid">
              {shared.data?.map((board) => (
                <BoardTile key={board.id} board={board} owned={false} />
              ))}
            </ul>
          </section>
        )}
      </div>

      {open?.kind === 'create' && <BoardFormDialog userId={user.id} onClose={() => setOpen(null)} />}
      {open?.kind === 'settings' && <BoardFormDialog userId={user.id} board={open.board} onClose={() => setOpen(null)} />}
      {open?.kind === 'share' && <ShareDialog board={open.board} onClose={() => setOpen(null)} />}
    </div>
  );
}
