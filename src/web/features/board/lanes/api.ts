import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type { BoardView } from '../../../../shared/api/board-views.js';
import { findCardArea, getCards, moveCardInCache, patchCardDetail, setCards } from '../../../api/cache';
import { api } from '../../../api/client';
import { optimistic, snapshot } from '../../../api/optimistic';
import { keys } from '../../../api/queries';
import type { Area, Card, CardListItem, CardUpdate, Label } from '../../../api/types';
import i18n from '../../../app/i18n';
import { toast } from '../../../app/toast';
import { undoAction } from '../../undo/actions';
import { indexInArea, recordCardLaneMove } from '../../undo/cardSteps';
import { patched, type CardPatch } from '../../card/api';
import { cardDropIndex, type AreaTargetData, type CardTargetData } from '../dnd';
import { laneKeysOf, lanePatch, type Lane, type LaneBy } from './lanes';

/** The lanes a person keeps for a board (`GET /api/data/board-view`). */
export const boardViewKey = (boardId: number) => ['board-view', boardId] as const;

export const boardViewQuery = (boardId: number) =>
  queryOptions({
    queryKey: boardViewKey(boardId),
    queryFn: async () => (await api<{ view: BoardView }>('/api/data/board-view', { query: { boardId } })).view,
    staleTime: Infinity,
  });

/** Keeps my choice of lanes for the board; shown at once, and a failure to keep it changes nothing on screen. */
export async function keepLanes(qc: QueryClient, boardId: number, lanes: string | null): Promise<void> {
  qc.setQueryData<BoardView>(boardViewKey(boardId), { lanes });
  try {
    await api('/api/data/board-view', { method: 'PUT', body: { boardId, lanes } });
  } catch {
    // The address still holds the choice; the stored one is only the default for next time.
  }
}

/** The request body of a card patch. */
function bodyOf(cardId: number, patch: CardPatch): CardUpdate {
  const { assignees, ...rest } = patch;
  return { cardID: cardId, ...rest, ...(assignees ? { assignees: assignees.map((a) => a.id) } : {}) };
}

/** The patch that puts back what `patch` changes on `card`. */
function inverse(card: CardListItem, patch: CardPatch): CardPatch {
  const back: CardPatch = {};
  if (patch.assignees) back.assignees = card.assignees;
  if (patch.labelIds) back.labelIds = card.labels.map((l) => l.id);
  if (patch.fields) back.fields = Object.fromEntries(Object.keys(patch.fields).map((id) => [id, card.fields[id] ?? null]));
  return back;
}

/**
 * A card taken to another lane and/or another place: its value (assignee,
 * label or field) through `PUT /api/data/card`, then its move through
 * `cardMove`/`cardOrder`, both shown at once. A refusal of either puts the
 * card back as it was (a value already written is written back) and says why.
 */
export async function laneMove(
  qc: QueryClient,
  boardId: number,
  card: CardListItem,
  patch: CardPatch | null,
  move: { toAreaId: number; index: number } | null,
): Promise<void> {
  if (!patch && !move) return;
  const fromAreaId = findCardArea(qc, boardId, card.id) ?? card.area;
  const toAreaId = move?.toAreaId ?? fromAreaId;
  const labels = qc.getQueryData<Label[]>(keys.labels(boardId)) ?? [];
  const undoFrom = snapshot(qc, keys.cards(fromAreaId));
  const undoTo = snapshot(qc, keys.cards(toAreaId));
  const undoCard = snapshot(qc, keys.card(card.id));
  const fromIndex = indexInArea(qc, fromAreaId, card.id);
  const done = await optimistic(
    () => {
      const changed = patch ? patched(card, patch, labels) : card;
      if (patch) {
        setCards(qc, fromAreaId, (cards) => cards.map((c) => (c.id === card.id ? changed : c)));
        qc.setQueryData<Card>(keys.card(card.id), (old) => (old && patch ? patched(old, patch, labels) : old));
      }
      if (move) moveCardInCache(qc, boardId, changed, move.toAreaId, move.index);
      return () => {
        undoFrom();
        undoTo();
        undoCard();
      };
    },
    async () => {
      let saved: Card | null = null;
      if (patch) {
        const answer = (await api<{ card: Card }>('/api/data/card', { method: 'PUT', body: bodyOf(card.id, patch) })).card;
        saved = answer;
        // The answer's values, wherever the card is shown now.
        const areaId = findCardArea(qc, boardId, card.id) ?? toAreaId;
        setCards(qc, areaId, (cards) => cards.map((c) => (c.id === card.id ? { ...c, ...listShape(answer), area: areaId } : c)));
        patchCardDetail(qc, { ...answer, area: areaId });
      }
      if (!move) return { saved };
      try {
        await (fromAreaId === move.toAreaId
          ? api('/api/data/cardOrder', { method: 'POST', body: { cardId: card.id, areaId: move.toAreaId, newIndex: move.index } })
          : api('/api/data/cardMove', {
              method: 'POST',
              body: { cardId: card.id, fromAreaId, toAreaId: move.toAreaId, newIndex: move.index },
            }));
      } catch (error) {
        if (patch)
          await api('/api/data/card', { method: 'PUT', body: bodyOf(card.id, inverse(card, patch)) }).catch(() => undefined);
        throw error;
      }
      return { saved };
    },
  );
  if (!done) return;
  // Both requests were taken: one step on the undo history, and a move to another area says so with Undo.
  const step = recordCardLaneMove(
    qc,
    boardId,
    card,
    patch && done.saved ? { patch, after: done.saved } : null,
    { areaId: fromAreaId, index: fromIndex },
    move ? { areaId: move.toAreaId, index: move.index } : null,
  );
  if (step && move && move.toAreaId !== fromAreaId) {
    const area = qc.getQueryData<Area[]>(keys.areas(boardId))?.find((a) => a.id === move.toAreaId);
    toast.info(i18n.t('undo.moved', { name: card.name, area: area?.name ?? '' }), undoAction(boardId, step));
  }
}

/** The fields a board list holds of a card answer (the answer has more). */
function listShape(card: Card): Partial<CardListItem> {
  const { boardId: _board, html: _html, reminders: _reminders, archivedAt: _archived, area: _area, sort: _sort, ...list } = card;
  return list;
}

/** What the board's lanes are now, for a drop or a keyboard move to read. */
export interface LaneContext {
  by: LaneBy;
  lanes: Lane[];
}

/** A card dropped in the lanes view: the lane it left and the one it landed in decide the value, the target the place. */
export function dropInLane(
  qc: QueryClient,
  boardId: number,
  context: LaneContext,
  cardId: number,
  fromAreaId: number,
  target: CardTargetData | AreaTargetData,
  fromLane: string,
  toLane: string,
): void {
  const card = getCards(qc, fromAreaId)?.find((c) => c.id === cardId);
  const list = getCards(qc, target.areaId);
  if (!card || !list) return;
  const patch = lanePatch(card, context.by, fromLane, toLane, context.lanes);
  const index = cardDropIndex(list, cardId, fromAreaId, target);
  void laneMove(qc, boardId, card, patch, index === null ? null : { toAreaId: target.areaId, index });
}

/** The lane of the focused tile (a keyboard move starts from the tile where M was pressed). */
export function focusedLane(): string | null {
  return document.activeElement?.closest('[data-lane-key]')?.getAttribute('data-lane-key') ?? null;
}

/** The keyboard's move in the lanes view: area, position and lane chosen in the move dialog. */
export function moveWithLane(
  qc: QueryClient,
  boardId: number,
  context: LaneContext,
  card: CardListItem,
  fromLane: string,
  toLane: string,
  toAreaId: number,
  newIndex: number,
): void {
  const patch = lanePatch(card, context.by, fromLane, toLane, context.lanes);
  const current = getCards(qc, card.area)?.findIndex((c) => c.id === card.id) ?? -1;
  const move = card.area === toAreaId && current === newIndex ? null : { toAreaId, index: newIndex };
  void laneMove(qc, boardId, card, patch, move);
}

/** What the move dialog offers as lanes for a card: every lane shown, the card's current one chosen (the focused tile's, else its first). */
export interface LaneChoice {
  options: Lane[];
  current: string;
}

export function laneChoice(context: LaneContext | null, card: CardListItem, from: string | null): LaneChoice | undefined {
  if (!context) return undefined;
  return { options: context.lanes, current: from ?? laneKeysOf(card, context.by)[0]! };
}
