import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import type { Viewer } from '../../../shared/events.js';
import { getCards } from '../../api/cache';
import { updateCard } from '../card/api';
import { createArea, moveCard, reorderAreas } from './api';
import { areasQuery, boardQuery, keys } from '../../api/queries';
import type { Area, CardListItem } from '../../api/types';
import { useUser } from '../../app/session';
import { toast } from '../../app/toast';
import { Icon } from '../../components/Icon';
import { MenuButton, MenuItem, MenuSeparator } from '../../components/Menu';
import { exportBoard } from '../exports/boardExport';
import { useMarkRead, useUnreadCards } from '../notifications/unread';
import { BoardFilter, type CardMatcher } from '../search/BoardFilter';
import { useViewers } from '../../realtime/RealtimeProvider';
import { useBoardRealtime, type BoardGoneReason } from '../../realtime/useBoardRealtime';
import { BoardFormDialog } from '../dashboard/BoardFormDialog';
import { boardBackground } from '../dashboard/BoardTile';
import { ShareDialog } from '../sharing/ShareDialog';
import { WebhooksDialog } from '../webhooks/WebhooksDialog';
import { SaveTemplateDialog } from '../templates/SaveTemplateDialog';
import { HistoryDialog } from '../history/HistoryDialog';
import { FieldsDialog } from '../fields/FieldsDialog';
import { AreaColumn, type AreaActions } from './AreaColumn';
import {
  areaDropOrder,
  cardDropIndex,
  useBoardDropMonitor,
  type AreaTargetData,
  type CardTargetData,
  type DropHandlers,
} from './dnd';
import { MoveDialog } from './MoveDialog';
import { PaintMark, paintMarkWanted } from './PaintMark';
import { Presence } from './Presence';
import './board.css';
import { BoardLoadError } from './BoardLoadError';
import { CalendarView } from '../calendar/CalendarView';
import { useUndoKeys } from '../undo/useUndoKeys';
import { ViewSwitch } from '../calendar/ViewSwitch';
import { dropInLane, focusedLane, laneChoice, moveWithLane, type LaneChoice, type LaneContext } from './lanes/api';
import { LanedBoard } from './lanes/LanedBoard';
import { LanesSwitch } from './lanes/LanesSwitch';
import { useLanes } from './lanes/useLanes';

const CardDialog = lazy(() => import('../card/CardDialog'));

export function BoardPage() {
  const { id } = useParams();
  const boardId = Number(id);
  const user = useUser();
  const { t } = useTranslation();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const openCardId = Number(params.get('card')) || null;
  const calendar = params.get('view') === 'calendar';

  const boardResult = useQuery(boardQuery(boardId, user.id));
  const areasResult = useQuery(areasQuery(boardId));
  const areas = areasResult.data;
  const [moving, setMoving] = useState<CardListItem | null>(null);
  const [dialog, setDialog] = useState<'settings' | 'share' | 'webhooks' | 'template' | 'history' | 'fields' | null>(null);
  const canvasRef = useRef<HTMLDivElement>(null);
  const [matches, setMatches] = useState<CardMatcher | null>(null);
  const onFilter = useCallback((next: CardMatcher | null) => setMatches(() => next), []);
  useMarkRead(boardId, openCardId);
  const unread = useUnreadCards(boardId);
  const lanes = useLanes(boardId);
  // The lanes on screen, for drops and keyboard moves; and the lanes a keyboard move offers.
  const laneContext = useRef<LaneContext | null>(null);
  const [movingLanes, setMovingLanes] = useState<LaneChoice | undefined>();

  const onGone = useCallback(
    (reason: BoardGoneReason) => {
      toast.info(t(`board.gone.${reason}`));
      void navigate('/', { replace: true });
    },
    [navigate, t],
  );
  useBoardRealtime(boardId, user.id, onGone);
  useUndoKeys(boardId, user.id);

  // Who else is here, and which cards they have open.
  const allViewers = useViewers(boardId);
  const viewers = useMemo(() => allViewers.filter((v) => v.id !== user.id), [allViewers, user.id]);
  const openBy = useMemo(() => {
    const map = new Map<number, Viewer[]>();
    for (const viewer of viewers) if (viewer.cardId) map.set(viewer.cardId, [...(map.get(viewer.cardId) ?? []), viewer]);
    return map;
  }, [viewers]);

  // Stable for the whole page, so memoised columns and tiles do not re-render for nothing.
  const latest = useRef({ params, setParams, areas });
  useEffect(() => {
    latest.current = { params, setParams, areas };
  });
  const actions = useMemo<AreaActions>(
    () => ({
      open(cardId) {
        const { params: current, setParams: set } = latest.current;
        const next = new URLSearchParams(current);
        next.set('card', String(cardId));
        set(next);
      },
      move(card) {
        setMovingLanes(laneChoice(laneContext.current, card, focusedLane()));
        setMoving(card);
      },
      toggleDone(card) {
        void updateCard(qc, boardId, card, { status: card.status === 1 ? 0 : 1 });
      },
      shiftArea(areaId, step) {
        const list = latest.current.areas ?? [];
        const from = list.findIndex((a) => a.id === areaId);
        const to = from + step;
        if (from < 0 || to < 0 || to >= list.length) return;
        const ordered = [...list];
        const [area] = ordered.splice(from, 1);
        ordered.splice(to, 0, area!);
        void reorderAreas(qc, boardId, ordered);
      },
    }),
    [qc, boardId],
  );

  const dropHandlers = useMemo<DropHandlers>(
    () => ({
      moveCard(cardId, fromAreaId, target: CardTargetData | AreaTargetData, lane) {
        if (lane && laneContext.current) {
          dropInLane(qc, boardId, laneContext.current, cardId, fromAreaId, target, lane.from, lane.to);
          requestAnimationFrame(() =>
            document
              .querySelector<HTMLElement>(`[data-lane-key="${CSS.escape(lane.to)}"] [data-card-id="${cardId}"]`)
              ?.focus({ preventScroll: true }),
          );
          return;
        }
        const card = getCards(qc, fromAreaId)?.find((c) => c.id === cardId);
        const list = getCards(qc, target.areaId);
        if (!card || !list) return;
        const index = cardDropIndex(list, cardId, fromAreaId, target);
        if (index === null) return;
        void moveCard(qc, boardId, card, target.areaId, index);
        requestAnimationFrame(() =>
          document.querySelector<HTMLElement>(`[data-card-id="${cardId}"]`)?.focus({ preventScroll: true }),
        );
      },
      moveArea(areaId, target) {
        const ordered = areaDropOrder(qc.getQueryData<Area[]>(keys.areas(boardId)) ?? [], areaId, target);
        if (ordered) void reorderAreas(qc, boardId, ordered);
      },
    }),
    [qc, boardId],
  );
  useBoardDropMonitor(dropHandlers, canvasRef);

  if (boardResult.isError || areasResult.isError) {
    return <BoardLoadError error={boardResult.error ?? areasResult.error} className="board-message" />;
  }
  if (!boardResult.data || !areas) {
    return (
      <div className="center-fill">
        <span className="spinner" aria-label={t('common.loading')} />
      </div>
    );
  }

  const { board, writeAccess } = boardResult.data;
  const paintMark = paintMarkWanted();
  const todo = board.style === 'todo';
  const owner = board.user === user.id;

  return (
    <div className={`board ${todo ? 'board-todo' : 'board-kanban'}`}>
      {paintMark && <PaintMark key={boardId} areas={areas} />}
      <div className="board-bar">
        <span className="board-swatch" style={boardBackground(board)} aria-hidden="true" />
        <h1 className="board-title">{board.name}</h1>
        <span className="board-chip" title={board.status === 'public' ? t('board.publicHint') : t('board.privateHint')}>
          <Icon name={board.status === 'public' ? 'globe' : 'lock'} size={13} />
          <span>{board.status === 'public' ? t('board.public') : t('board.private')}</span>
        </span>
        {!writeAccess && <span className="board-chip readonly">{t('board.readOnly')}</span>}
        <ViewSwitch />
        {!calendar && <LanesSwitch boardId={boardId} choice={lanes} />}
        <BoardFilter boardId={boardId} onChange={onFilter} />
        <div className="spacer" />
        <Presence viewers={viewers} />
        {owner && (
          <button type="button" className="btn btn-sm" aria-label={t('dashboard.share')} onClick={() => setDialog('share')}>
            <Icon name="share" size={15} />
            <span className="hide-narrow">{t('dashboard.share')}</span>
          </button>
        )}
        <MenuButton label={t('board.menu')} className="icon-btn">
          {(close) => (
            <>
              {owner && (
                <MenuItem
                  icon="settings"
                  onSelect={() => {
                    close();
                    setDialog('settings');
                  }}
                >
                  {t('dashboard.settings')}
                </MenuItem>
              )}
              {owner && (
                <MenuItem
                  icon="activity"
                  onSelect={() => {
                    close();
                    setDialog('webhooks');
                  }}
                >
                  {t('webhooks.menu')}
                </MenuItem>
              )}
              {writeAccess && (
                <MenuItem
                  icon="tag"
                  onSelect={() => {
                    close();
                    setDialog('fields');
                  }}
                >
                  {t('fields.menu')}
                </MenuItem>
              )}
              {writeAccess && (
                <MenuItem
                  icon="archive"
                  onSelect={() => {
                    close();
                    void navigate(`/board/${boardId}/archive`);
                  }}
                >
                  {t('board.archive')}
                </MenuItem>
              )}
              <MenuItem
                icon="clock"
                onSelect={() => {
                  close();
                  setDialog('history');
                }}
              >
                {t('history.menu')}
              </MenuItem>
              <MenuSeparator />
              <MenuItem
                icon="download"
                onSelect={() => {
                  close();
                  exportBoard(board, 'zip');
                }}
              >
                {t('board.exportZip')}
              </MenuItem>
              <MenuItem
                icon="download"
                onSelect={() => {
                  close();
                  exportBoard(board, 'csv');
                }}
              >
                {t('board.exportCsv')}
              </MenuItem>
              <MenuItem
                icon="copy"
                onSelect={() => {
                  close();
                  setDialog('template');
                }}
              >
                {t('templates.saveAsTemplate')}
              </MenuItem>
            </>
          )}
        </MenuButton>
      </div>

      <p id="card-keys-edit" hidden>
        {t('board.cardKeysEdit')}
      </p>
      <p id="card-keys-read" hidden>
        {t('board.cardKeysRead')}
      </p>
      {calendar && (
        <CalendarView
          boardId={boardId}
          areas={areas}
          writeAccess={writeAccess}
          matches={matches}
          onOpen={(cardId) => actions.open(cardId)}
        />
      )}
      <div ref={canvasRef} className="board-canvas" data-testid="board-canvas" hidden={calendar}>
        {lanes.by ? (
          <LanedBoard
            boardId={boardId}
            owner={owner}
            areas={areas}
            by={lanes.by}
            todo={todo}
            writeAccess={writeAccess}
            openBy={openBy}
            actions={actions}
            matches={matches}
            unread={unread}
            contextRef={laneContext}
          />
        ) : (
          <div className="board-lanes">
            {areas.map((area, index) => (
              <AreaColumn
                key={area.id}
                area={area}
                index={index}
                count={areas.length}
                todo={todo}
                writeAccess={writeAccess}
                openBy={openBy}
                actions={actions}
                matches={matches}
                unread={unread}
              />
            ))}
            {writeAccess && <AddArea boardId={boardId} first={areas.length === 0} />}
            {!writeAccess && areas.length === 0 && <p className="empty">{t('board.noAreas')}</p>}
          </div>
        )}
      </div>

      {openCardId && (
        <Suspense fallback={null}>
          <CardDialog
            key={openCardId}
            cardId={openCardId}
            board={board}
            writeAccess={writeAccess}
            viewers={openBy.get(openCardId)}
            onMove={(card) => {
              setMovingLanes(laneChoice(laneContext.current, card, null));
              setMoving(card);
            }}
            onClose={() => {
              const next = new URLSearchParams(params);
              next.delete('card');
              setParams(next);
            }}
          />
        </Suspense>
      )}
      {moving && (
        <MoveDialog
          card={moving}
          areas={areas}
          onClose={() => setMoving(null)}
          lanes={movingLanes}
          onMove={(toAreaId, newIndex, laneKey) => {
            const card = getCards(qc, moving.area)?.find((c) => c.id === moving.id) ?? moving;
            setMoving(null);
            const context = laneContext.current;
            if (context && movingLanes && laneKey) {
              moveWithLane(qc, boardId, context, card, movingLanes.current, laneKey, toAreaId, newIndex);
              requestAnimationFrame(() =>
                document
                  .querySelector<HTMLElement>(`[data-lane-key="${CSS.escape(laneKey)}"] [data-card-id="${card.id}"]`)
                  ?.focus(),
              );
              return;
            }
            void moveCard(qc, boardId, card, toAreaId, newIndex);
            requestAnimationFrame(() => document.querySelector<HTMLElement>(`[data-card-id="${card.id}"]`)?.focus());
          }}
        />
      )}
      {dialog === 'settings' && <BoardFormDialog userId={user.id} board={board} onClose={() => setDialog(null)} />}
      {dialog === 'share' && <ShareDialog board={board} onClose={() => setDialog(null)} />}
      {dialog === 'webhooks' && <WebhooksDialog board={board} onClose={() => setDialog(null)} />}
      {dialog === 'template' && <SaveTemplateDialog board={board} onClose={() => setDialog(null)} />}
      {dialog === 'history' && <HistoryDialog board={board} writeAccess={writeAccess} onClose={() => setDialog(null)} />}
      {dialog === 'fields' && <FieldsDialog boardId={boardId} onClose={() => setDialog(null)} />}
    </div>
  );
}

function AddArea({ boardId, first }: { boardId: number; first: boolean }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [open, setOpen] = useState(first);
  const [name, setName] = useState('');
  if (!open) {
    return (
      <button type="button" className="area-new" onClick={() => setOpen(true)}>
        <Icon name="plus" size={16} />
        {t('board.addArea')}
      </button>
    );
  }
  return (
    <form
      className="area-new-form"
      onSubmit={(e) => {
        e.preventDefault();
        const value = name.trim();
        if (!value) return;
        setName('');
        void createArea(qc, boardId, value);
      }}
    >
      <input
        className="input"
        aria-label={t('board.areaName')}
        placeholder={t('board.areaNamePlaceholder')}
        value={name}
        maxLength={255}
        autoFocus={!first}
        onChange={(e) => setName(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') setOpen(false);
        }}
      />
      <div className="row">
        <button type="submit" className="btn btn-primary btn-sm" disabled={!name.trim()}>
          {t('board.addArea')}
        </button>
        {!first && (
          <button type="button" className="icon-btn" aria-label={t('common.cancel')} onClick={() => setOpen(false)}>
            <Icon name="close" />
          </button>
        )}
      </div>
    </form>
  );
}
