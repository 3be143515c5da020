import type { QueryClient } from '@tanstack/react-query';
import { getCards, moveCardInCache, removeCard, setAreas, setCards, upsertArea } from '../../api/cache';
import { api } from '../../api/client';
import { attempt, optimistic, snapshot } from '../../api/optimistic';
import { keys } from '../../api/queries';
import type { Area, Card, CardListItem } from '../../api/types';
import i18n from '../../app/i18n';
import { toast } from '../../app/toast';
import { undoAction } from '../undo/actions';
import { indexInArea, recordCardCreated, recordCardMove } from '../undo/cardSteps';
import { recordAreaArchived, recordAreaCreated, recordAreaRenamed, recordAreasReordered } from '../undo/areaSteps';

/** The writes of the board view: areas made, renamed, archived, reordered; cards added and moved. */

// Areas ----------------------------------------------------------------------

export async function createArea(qc: QueryClient, boardId: number, name: string): Promise<Area | undefined> {
  const result = await attempt(() => api<{ area: Area }>('/api/data/area', { method: 'POST', body: { boardId, name } }));
  if (!result) return undefined;
  if (!getCards(qc, result.area.id)) qc.setQueryData<CardListItem[]>(keys.cards(result.area.id), []);
  upsertArea(qc, result.area);
  recordAreaCreated(qc, result.area);
  return result.area;
}

/** Area writes answer whether the server took them; unless `record` is false (an undo's own request), they go on the undo history. */
export async function renameArea(qc: QueryClient, area: Area, name: string, { record = true } = {}): Promise<boolean> {
  const undo = snapshot(qc, keys.areas(area.board));
  const result = await optimistic(
    () => {
      upsertArea(qc, { ...area, name });
      return undo;
    },
    () => api<{ area: Area }>('/api/data/area', { method: 'POST', body: { id: area.id, boardId: area.board, name } }),
  );
  if (!result) return false;
  upsertArea(qc, result.area);
  if (record) recordAreaRenamed(qc, area, area.name, name);
  return true;
}

export async function archiveArea(qc: QueryClient, area: Area, { record = true } = {}): Promise<boolean> {
  const undo = snapshot(qc, keys.areas(area.board));
  const done = await optimistic(
    () => {
      setAreas(qc, area.board, (areas) => areas.filter((a) => a.id !== area.id));
      return undo;
    },
    () => api('/api/data/area', { method: 'DELETE', query: { id: area.id, boardId: area.board } }),
  );
  if (done === undefined) return false;
  if (!record) return true;
  const step = recordAreaArchived(qc, area);
  toast.info(i18n.t('board.areaArchived', { name: area.name }), undoAction(area.board, step));
  return true;
}

/** The whole new order of the board's areas. */
export async function reorderAreas(qc: QueryClient, boardId: number, ordered: Area[], { record = true } = {}): Promise<boolean> {
  const before = (qc.getQueryData<Area[]>(keys.areas(boardId)) ?? []).map((a) => a.id);
  const undo = snapshot(qc, keys.areas(boardId));
  const done = await optimistic(
    () => {
      qc.setQueryData<Area[]>(keys.areas(boardId), ordered);
      return undo;
    },
    () => api('/api/data/board', { method: 'PATCH', body: { boardId, areas: ordered.map((a, i) => ({ id: a.id, sort: i })) } }),
  );
  if (done === undefined) return false;
  if (record)
    recordAreasReordered(
      qc,
      boardId,
      before,
      ordered.map((a) => a.id),
    );
  return true;
}

// Cards ----------------------------------------------------------------------

let tempIds = -1;

/** A new card at the bottom of an area; it shows at once, greyed until the server has it. */
export async function createCard(qc: QueryClient, areaId: number, name: string): Promise<void> {
  const tempId = tempIds--;
  const temp: CardListItem = {
    id: tempId,
    area: areaId,
    name,
    content: '',
    status: 0,
    sort: getCards(qc, areaId)?.length ?? 0,
    dueDate: null,
    repeatEvery: null,
    labels: [],
    assignees: [],
    assignee: null,
    assigneeName: null,
    assigneeImage: null,
    assigneeType: null,
    checklist: { done: 0, total: 0 },
    fields: {},
  };
  const result = await optimistic(
    () => {
      setCards(qc, areaId, (cards) => [...cards, temp]);
      return () => removeCard(qc, areaId, tempId);
    },
    () => api<{ card: Card }>('/api/data/card', { method: 'POST', body: { areaId, name } }),
  );
  if (!result) return;
  const card = result.card;
  setCards(qc, areaId, (cards) =>
    cards.some((c) => c.id === card.id) ? cards.filter((c) => c.id !== tempId) : cards.map((c) => (c.id === tempId ? card : c)),
  );
  recordCardCreated(qc, card.boardId, card.id);
}

/**
 * Moves a card to `newIndex` of `toAreaId` (counted without the card itself);
 * answers whether the server took it. Unless `record` is false (an undo's own
 * request), the move goes on the board's undo history, and a move to another
 * area is told in a toast with Undo.
 */
export async function moveCard(
  qc: QueryClient,
  boardId: number,
  card: CardListItem,
  toAreaId: number,
  newIndex: number,
  { record = true }: { record?: boolean } = {},
): Promise<boolean> {
  const fromAreaId = card.area;
  const fromIndex = indexInArea(qc, fromAreaId, card.id);
  const undoFrom = snapshot(qc, keys.cards(fromAreaId));
  const undoTo = snapshot(qc, keys.cards(toAreaId));
  const undoCard = snapshot(qc, keys.card(card.id));
  const done = await optimistic(
    () => {
      moveCardInCache(qc, boardId, card, toAreaId, newIndex);
      return () => {
        undoFrom();
        undoTo();
        undoCard();
      };
    },
    () =>
      fromAreaId === toAreaId
        ? api('/api/data/cardOrder', { method: 'POST', body: { cardId: card.id, areaId: toAreaId, newIndex } })
        : api('/api/data/cardMove', { method: 'POST', body: { cardId: card.id, fromAreaId, toAreaId, newIndex } }),
  );
  if (done === undefined) return false;
  if (!record) return true;
  const step = recordCardMove(
    qc,
    boardId,
    card.id,
    { areaId: fromAreaId, index: fromIndex },
    { areaId: toAreaId, index: newIndex },
  );
  if (fromAreaId !== toAreaId) {
    const area = qc.getQueryData<Area[]>(keys.areas(boardId))?.find((a) => a.id === toAreaId);
    toast.info(i18n.t('undo.moved', { name: card.name, area: area?.name ?? '' }), undoAction(boardId, step));
  }
  return true;
}
