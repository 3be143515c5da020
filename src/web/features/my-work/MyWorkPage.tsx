import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { MY_WORK_GROUPS, type MyWork, type MyWorkCard } from '../../../shared/api/my-work.js';
import { moveCard } from '../board/api';
import { areasQuery, boardQuery } from '../../api/queries';
import type { CardListItem } from '../../api/types';
import { useUser } from '../../app/session';
import { toast } from '../../app/toast';
import { useRealtime, useViewers } from '../../realtime/RealtimeProvider';
import { useBoardRealtime, type BoardGoneReason } from '../../realtime/useBoardRealtime';
import { dueState, shortDate, tileDate } from '../board/dates';
import { MoveDialog } from '../board/MoveDialog';
import { myWorkKey, myWorkQuery } from './api';
import './my-work.css';

const CardDialog = lazy(() => import('../card/CardDialog'));

/** Every open card assigned to me, across my boards, by due day; live, with the board's card dialog. */
export function MyWorkPage() {
  const { t } = useTranslation();
  const user = useUser();
  const qc = useQueryClient();
  const [params, setParams] = useSearchParams();
  const boardFilter = Number(params.get('board')) || null;
  const labelFilter = params.get('label') || null;
  const result = useQuery(myWorkQuery({ boardId: boardFilter, label: labelFilter }));
  const openCardId = Number(params.get('card')) || null;
  const openBoardId = Number(params.get('cardBoard')) || null;
  const work = result.data;

  const refresh = useCallback(() => void qc.invalidateQueries({ queryKey: myWorkKey }), [qc]);
  useAccountChanges(refresh);

  // From the address as it is now, not as this render saw it (React Router's updater gets the render's
  // copy too): two changes made before a re-render both count.
  const setParam = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(window.location.search);
    for (const [key, value] of Object.entries(changes)) {
      if (value) next.set(key, value);
      else next.delete(key);
    }
    setParams(next);
  };
  const open = (card: MyWorkCard) => setParam({ card: String(card.id), cardBoard: String(card.boardId) });
  const close = () => {
    const cardId = openCardId;
    setParam({ card: null, cardBoard: null });
    requestAnimationFrame(() => document.querySelector<HTMLElement>(`.my-work-card[data-card-id="${cardId}"]`)?.focus());
  };
  const onGone = useCallback(
    (boardId: number, reason: BoardGoneReason) => {
      refresh();
      if (boardId === openBoardId) {
        toast.info(t(`board.gone.${reason}`));
        const next = new URLSearchParams(window.location.search);
        next.delete('card');
        next.delete('cardBoard');
        setParams(next, { replace: true });
      }
    },
    [refresh, openBoardId, setParams, t],
  );

  // Watch every board that has a card of mine (and the open card's), so changes there show at once.
  const watched = useMemo(() => {
    const ids = new Set(work?.boards.map((b) => b.id) ?? []);
    if (openBoardId) ids.add(openBoardId);
    return [...ids];
  }, [work, openBoardId]);

  const cards = work ? MY_WORK_GROUPS.flatMap((group) => work.groups[group]) : [];
  const filtered = boardFilter !== null || labelFilter !== null;

  return (
    <div className="my-work">
      <div className="my-work-inner">
        <div className="my-work-heading">
          <h1>{t('myWork.title')}</h1>
          {work && (work.boards.length > 0 || filtered) && (
            <div className="my-work-filters">
              <div className="my-work-filter">
                <label htmlFor="my-work-board">{t('myWork.board')}</label>
                <select
                  id="my-work-board"
                  className="input"
                  value={boardFilter ?? ''}
                  onChange={(event) => setParam({ board: event.target.value || null })}
                >
                  <option value="">{t('myWork.allBoards')}</option>
                  {work.boards.map((board) => (
                    <option key={board.id} value={board.id}>
                      {board.name}
                    </option>
                  ))}
                </select>
              </div>
              <div className="my-work-filter">
                <label htmlFor="my-work-label">{t('myWork.label')}</label>
                <select
                  id="my-work-label"
                  className="input"
                  value={labelFilter ?? ''}
                  onChange={(event) => setParam({ label: event.target.value || null })}
                >
                  <option value="">{t('myWork.allLabels')}</option>
                  {work.labels.map((name) => (
                    <option key={name} value={name}>
                      {name}
                    </option>
                  ))}
                </select>
              </div>
            </div>
          )}
        </div>
        <p className="hint my-work-keys" id="my-work-keys">
          {t('myWork.keys')}
        </p>

        {result.isPending ? (
          <div className="center-fill">
            <span className="spinner" aria-label={t('common.loading')} />
          </div>
        ) : result.isError ? (
          <div className="form-error" role="alert">
            {t('errors.loadFailed')}
          </div>
        ) : cards.length === 0 ? (
          <p className="empty my-work-empty">{filtered ? t('myWork.emptyFiltered') : t('myWork.empty')}</p>
        ) : (
          <CardGroups work={result.data} onOpen={open} />
        )}
      </div>

      {watched.map((boardId) => (
        <BoardWatch key={boardId} boardId={boardId} userId={user.id} onChange={refresh} onGone={onGone} />
      ))}
      {openCardId && openBoardId && (
        <OpenCard key={openCardId} cardId={openCardId} boardId={openBoardId} userId={user.id} onClose={close} />
      )}
    </div>
  );
}

function CardGroups({ work, onOpen }: { work: MyWork; onOpen: (card: MyWorkCard) => void }) {
  const { t } = useTranslation();
  const list = useRef<HTMLDivElement>(null);

  // Up and down (or j and k) walk through every card of every group; Home and End jump to the ends.
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const buttons = [...(list.current?.querySelectorAll<HTMLElement>('.my-work-card') ?? [])];
    const at = buttons.indexOf(document.activeElement as HTMLElement);
    if (at < 0) return;
    const moves: Record<string, number> = {
      ArrowDown: at + 1,
      j: at + 1,
      ArrowUp: at - 1,
      k: at - 1,
      Home: 0,
      End: buttons.length - 1,
    };
    const to = moves[event.key];
    if (to === undefined || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    buttons[Math.max(0, Math.min(buttons.length - 1, to))]?.focus();
  };

  return (
    <div ref={list} onKeyDown={onKeyDown}>
      {MY_WORK_GROUPS.map((group) => {
        const cards = work.groups[group];
        if (cards.length === 0) return null;
        const headingId = `my-work-${group}`;
        return (
          <section key={group} className={`my-work-group my-work-group-${group}`} aria-labelledby={headingId}>
            <h2 id={headingId}>
              {t(`myWork.groups.${group}`)} <span className="my-work-count">{cards.length}</span>
            </h2>
            <ul className="my-work-list">
              {cards.map((card) => (
                <li key={card.id}>
                  <CardRow card={card} onOpen={onOpen} />
                </li>
              ))}
            </ul>
          </section>
        );
      })}
    </div>
  );
}

function CardRow({ card, onOpen }: { card: MyWorkCard; onOpen: (card: MyWorkCard) => void }) {
  const { t } = useTranslation();
  const state = card.dueDate ? dueState(card.dueDate, false) : null;
  return (
    <button
      type="button"
      className="my-work-card"
      data-card-id={card.id}
      aria-describedby="my-work-keys"
      onClick={() => onOpen(card)}
    >
      <span className="my-work-card-name">{card.name}</span>
      <span className="my-work-card-meta">
        <span className="my-work-where">{t('myWork.where', { board: card.boardName, area: card.areaName })}</span>
        {card.dueDate && (
          <span className={`my-work-due due-${state}`} title={shortDate(card.dueDate)}>
            {tileDate(card.dueDate)}
          </span>
        )}
        {card.labels.map((label) => (
          <span key={label.id} className="label-chip">
            {label.name}
          </span>
        ))}
      </span>
    </button>
  );
}

/** Keeps one board's cached data live and tells the page when it changed; renders nothing. */
function BoardWatch({
  boardId,
  userId,
  onChange,
  onGone,
}: {
  boardId: number;
  userId: string;
  onChange: () => void;
  onGone: (boardId: number, reason: BoardGoneReason) => void;
}) {
  const gone = useCallback((reason: BoardGoneReason) => onGone(boardId, reason), [onGone, boardId]);
  useBoardRealtime(boardId, userId, gone, onChange);
  return null;
}

/** Reads again when a card is assigned to me elsewhere (a notification) or my boards change. */
function useAccountChanges(refresh: () => void): void {
  const connection = useRealtime();
  useEffect(() => {
    if (!connection) return;
    const stopNotifications = connection.onNotification(refresh);
    const stopDashboard = connection.onDashboard(refresh);
    return () => {
      stopNotifications();
      stopDashboard();
    };
  }, [connection, refresh]);
}

/** The card dialog exactly as the board page opens it, with the move dialog behind its Move action. */
function OpenCard({
  cardId,
  boardId,
  userId,
  onClose,
}: {
  cardId: number;
  boardId: number;
  userId: string;
  onClose: () => void;
}) {
  const qc = useQueryClient();
  const board = useQuery(boardQuery(boardId, userId));
  const areas = useQuery(areasQuery(boardId));
  const allViewers = useViewers(boardId);
  const viewers = useMemo(() => allViewers.filter((v) => v.id !== userId && v.cardId === cardId), [allViewers, userId, cardId]);
  const [moving, setMoving] = useState<CardListItem | null>(null);
  if (!board.data) return null;
  return (
    <>
      <Suspense fallback={null}>
        <CardDialog
          cardId={cardId}
          board={board.data.board}
          writeAccess={board.data.writeAccess}
          viewers={viewers.length > 0 ? viewers : undefined}
          onMove={(card) => setMoving(card)}
          onClose={onClose}
        />
      </Suspense>
      {moving && areas.data && (
        <MoveDialog
          card={moving}
          areas={areas.data}
          onClose={() => setMoving(null)}
          onMove={(toAreaId, newIndex) => {
            setMoving(null);
            void moveCard(qc, boardId, moving, toAreaId, newIndex);
          }}
        />
      )}
    </>
  );
}
