import type { QueryClient } from '@tanstack/react-query';
import { checklistOf } from '../../shared/checklist.js';
import i18n from '../app/i18n';
import { toast } from '../app/toast';
import { api } from './client';
import { errorMessage } from './errors';
import { findCardArea, getCards, moveCardInCache, removeCard, setAreas, setCards, upsertArea, upsertCard } from './cache';
import { keys, type BoardData } from './queries';
import type { Area, Board, BoardStatus, BoardStyle, Card, CardListItem, CardUpdate, Comment, Label, Person } from './types';

/**
 * Every write of the app. Changes to the board are optimistic: the cache
 * changes at once, the request follows, and a refusal puts the cache back and
 * says why in a toast. The realtime echo of a change is applied idempotently.
 */

/** Runs `request` after `apply`; on failure undoes through the returned function and tells the user. */
async function optimistic<T>(apply: () => () => void, request: () => Promise<T>): Promise<T | undefined> {
  const rollback = apply();
  try {
    return await request();
  } catch (error) {
    rollback();
    toast.error(i18n.t('errors.notSaved', { reason: errorMessage(error) }));
    return undefined;
  }
}

/** A plain request whose refusal is only reported. */
export async function attempt<T>(request: () => Promise<T>): Promise<T | undefined> {
  try {
    return await request();
  } catch (error) {
    toast.error(errorMessage(error));
    return undefined;
  }
}

function snapshot<T>(qc: QueryClient, key: readonly unknown[]): () => void {
  const before = qc.getQueryData<T>(key);
  return () => qc.setQueryData(key, before);
}

// Boards ---------------------------------------------------------------------

export interface BoardFields {
  name: string;
  style: BoardStyle;
  status: BoardStatus;
  color: string | null;
  image?: string | null;
}

export async function createBoard(qc: QueryClient, userId: string, fields: BoardFields): Promise<Board | undefined> {
  const result = await attempt(() => api<{ board: Board }>('/api/data/board', { method: 'POST', body: { userId, ...fields } }));
  if (!result) return undefined;
  qc.setQueryData<Board[]>(keys.boards('owned'), (old) =>
    old && !old.some((b) => b.id === result.board.id) ? [...old, result.board] : old,
  );
  return result.board;
}

export async function updateBoard(qc: QueryClient, board: Board, fields: BoardFields): Promise<Board | undefined> {
  const next: Board = { ...board, ...fields, color: fields.image ? null : fields.color };
  const undo = [snapshot(qc, keys.boards('owned')), snapshot(qc, keys.board(board.id))];
  const result = await optimistic(
    () => {
      applyBoard(qc, next);
      return () => undo.forEach((u) => u());
    },
    () => api<{ board: Board }>('/api/data/board', { method: 'POST', body: { id: board.id, userId: board.user, ...fields } }),
  );
  if (result) applyBoard(qc, result.board);
  return result?.board;
}

/** A board's new settings, wherever the cache shows it. */
export function applyBoard(qc: QueryClient, board: Board): void {
  for (const kind of ['owned', 'shared'] as const) {
    qc.setQueryData<Board[]>(keys.boards(kind), (old) => old?.map((b) => (b.id === board.id ? board : b)));
  }
  qc.setQueryData<BoardData>(keys.board(board.id), (old) => (old ? { ...old, board } : old));
}

export function dropBoard(qc: QueryClient, boardId: number): void {
  for (const kind of ['owned', 'shared'] as const) {
    qc.setQueryData<Board[]>(keys.boards(kind), (old) => old?.filter((b) => b.id !== boardId));
  }
}

export async function archiveBoard(qc: QueryClient, board: Board): Promise<boolean> {
  const undo = snapshot(qc, keys.boards('owned'));
  const done = await optimistic(
    () => {
      dropBoard(qc, board.id);
      return undo;
    },
    () => api('/api/data/board', { method: 'DELETE', query: { id: board.id, userId: board.user } }),
  );
  if (done === undefined) return false;
  toast.info(i18n.t('dashboard.archived', { name: board.name }), {
    label: i18n.t('common.undo'),
    run: () => void restoreBoard(qc, board.id),
  });
  return true;
}

export async function restoreBoard(qc: QueryClient, boardId: number): Promise<void> {
  await attempt(() => api('/api/data/archive', { method: 'POST', body: { type: 'board', id: boardId } }));
  await qc.invalidateQueries({ queryKey: ['boards'] });
}

export async function leaveBoard(qc: QueryClient, boardId: number): Promise<boolean> {
  const undo = snapshot(qc, keys.boards('shared'));
  const done = await optimistic(
    () => {
      dropBoard(qc, boardId);
      return undo;
    },
    () => api('/api/data/leaveBoard', { method: 'POST', body: { boardId } }),
  );
  return done !== undefined;
}

// Areas ----------------------------------------------------------------------

export async function createArea(qc: QueryClient, boardId: number, name: string): Promise<Area | undefined> {
  const result = await attempt(() => api<{ area: Area }>('/api/data/area', { method: 'POST', body: { boardId, name } }));
  if (!result) return undefined;
  if (!getCards(qc, result.area.id)) qc.setQueryData<CardListItem[]>(keys.cards(result.area.id), []);
  upsertArea(qc, result.area);
  return result.area;
}

export async function renameArea(qc: QueryClient, area: Area, name: string): Promise<void> {
  const undo = snapshot(qc, keys.areas(area.board));
  const result = await optimistic(
    () => {
      upsertArea(qc, { ...area, name });
      return undo;
    },
    () => api<{ area: Area }>('/api/data/area', { method: 'POST', body: { id: area.id, boardId: area.board, name } }),
  );
  if (result) upsertArea(qc, result.area);
}

export async function archiveArea(qc: QueryClient, area: Area): Promise<void> {
  const undo = snapshot(qc, keys.areas(area.board));
  const done = await optimistic(
    () => {
      setAreas(qc, area.board, (areas) => areas.filter((a) => a.id !== area.id));
      return undo;
    },
    () => api('/api/data/area', { method: 'DELETE', query: { id: area.id, boardId: area.board } }),
  );
  if (done === undefined) return;
  toast.info(i18n.t('board.areaArchived', { name: area.name }), {
    label: i18n.t('common.undo'),
    run: () => void attempt(() => api('/api/data/archive', { method: 'POST', body: { type: 'area', id: area.id } })),
  });
}

/** The whole new order of the board's areas. */
export async function reorderAreas(qc: QueryClient, boardId: number, ordered: Area[]): Promise<void> {
  const undo = snapshot(qc, keys.areas(boardId));
  await optimistic(
    () => {
      qc.setQueryData<Area[]>(keys.areas(boardId), ordered);
      return undo;
    },
    () => api('/api/data/board', { method: 'PATCH', body: { boardId, areas: ordered.map((a, i) => ({ id: a.id, sort: i })) } }),
  );
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
}

/** Moves a card to `newIndex` of `toAreaId` (counted without the card itself). */
export async function moveCard(
  qc: QueryClient,
  boardId: number,
  card: CardListItem,
  toAreaId: number,
  newIndex: number,
): Promise<void> {
  const fromAreaId = card.area;
  const undoFrom = snapshot(qc, keys.cards(fromAreaId));
  const undoTo = snapshot(qc, keys.cards(toAreaId));
  const undoCard = snapshot(qc, keys.card(card.id));
  await optimistic(
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
}

export type CardPatch = Omit<CardUpdate, 'cardID' | 'assignee' | 'assignees'> & { assignees?: Person[] };

/** What a card looks like once `patch` is applied, before the server answers. */
function patched<T extends CardListItem>(card: T, patch: CardPatch, labels: Label[]): T {
  const next: T = { ...card };
  if (patch.name !== undefined) next.name = patch.name;
  if (patch.content !== undefined) {
    next.content = patch.content;
    next.checklist = checklistOf(patch.content);
  }
  if (patch.status !== undefined) next.status = patch.status;
  if (patch.dueDate !== undefined) next.dueDate = patch.dueDate;
  if (patch.repeatEvery !== undefined) next.repeatEvery = patch.repeatEvery;
  if (patch.labelIds !== undefined) {
    next.labels = patch.labelIds.map(
      (id) => labels.find((l) => l.id === id) ?? card.labels.find((l) => l.id === id) ?? { id, name: '…' },
    );
  }
  if (patch.assignees !== undefined) {
    next.assignees = patch.assignees.map((p) => ({ ...p, type: 'human' }));
    const first = patch.assignees[0];
    next.assignee = first?.id ?? null;
    next.assigneeName = first?.name ?? null;
    next.assigneeImage = first?.image ?? null;
  }
  if (patch.reminders !== undefined && 'reminders' in next) (next as unknown as Card).reminders = patch.reminders;
  return next;
}

export async function updateCard(
  qc: QueryClient,
  boardId: number,
  card: CardListItem,
  patch: CardPatch,
): Promise<Card | undefined> {
  const areaId = findCardArea(qc, boardId, card.id) ?? card.area;
  const labels = qc.getQueryData<Label[]>(keys.labels(boardId)) ?? [];
  const undoList = snapshot(qc, keys.cards(areaId));
  const undoCard = snapshot(qc, keys.card(card.id));
  const { assignees, ...rest } = patch;
  const body: CardUpdate = { cardID: card.id, ...rest, ...(assignees ? { assignees: assignees.map((a) => a.id) } : {}) };
  const result = await optimistic(
    () => {
      setCards(qc, areaId, (cards) => cards.map((c) => (c.id === card.id ? patched(c, patch, labels) : c)));
      qc.setQueryData<Card>(keys.card(card.id), (old) => (old ? patched(old, patch, labels) : old));
      return () => {
        undoList();
        undoCard();
      };
    },
    () => api<{ card: Card; next: Card | null }>('/api/data/card', { method: 'PUT', body }),
  );
  if (!result) return undefined;
  upsertCard(qc, boardId, result.card);
  if (result.next) {
    upsertCard(qc, boardId, result.next);
    toast.info(i18n.t('card.repeatCreated'));
  }
  return result.card;
}

export async function duplicateCard(qc: QueryClient, boardId: number, cardId: number): Promise<Card | undefined> {
  const result = await attempt(() =>
    api<{ card: Card }>('/api/data/card-duplicate', { method: 'POST', body: { cardID: cardId } }),
  );
  if (result) upsertCard(qc, boardId, result.card);
  return result?.card;
}

/** Takes a card off its area at once (archived, or deleted for good); a refusal puts it back. */
async function takeCardOff(qc: QueryClient, boardId: number, card: CardListItem, permanent: boolean) {
  const areaId = findCardArea(qc, boardId, card.id) ?? card.area;
  const undo = snapshot(qc, keys.cards(areaId));
  const done = await optimistic(
    () => {
      removeCard(qc, areaId, card.id);
      return undo;
    },
    () => api('/api/data/card', { method: 'DELETE', body: { cardID: card.id, permanent } }),
  );
  return { areaId, done: done !== undefined };
}

export async function archiveCard(qc: QueryClient, boardId: number, card: CardListItem): Promise<boolean> {
  const { areaId, done } = await takeCardOff(qc, boardId, card, false);
  if (!done) return false;
  toast.info(i18n.t('card.archivedToast', { name: card.name }), {
    label: i18n.t('common.undo'),
    run: () =>
      void attempt(() => api('/api/data/archive', { method: 'POST', body: { type: 'card', id: card.id } })).then(() =>
        qc.invalidateQueries({ queryKey: keys.cards(areaId) }),
      ),
  });
  return true;
}

export async function deleteCard(qc: QueryClient, boardId: number, card: CardListItem): Promise<boolean> {
  const { done } = await takeCardOff(qc, boardId, card, true);
  if (done) qc.removeQueries({ queryKey: keys.card(card.id) });
  return done;
}

// Labels ---------------------------------------------------------------------

/** The board's label for a word (an existing one in any case, or a new one). */
export async function labelFor(qc: QueryClient, boardId: number, name: string): Promise<Label | undefined> {
  const result = await attempt(() => api<{ label: Label }>('/api/data/labels', { method: 'POST', body: { boardId, name } }));
  if (!result) return undefined;
  qc.setQueryData<Label[]>(keys.labels(boardId), (old) =>
    old && !old.some((l) => l.id === result.label.id) ? [...old, result.label] : old,
  );
  return result.label;
}

// Comments -------------------------------------------------------------------

export function upsertComment(qc: QueryClient, cardId: number, comment: Comment): void {
  qc.setQueryData<Comment[]>(keys.comments(cardId), (old) => {
    if (!old) return old;
    return old.some((c) => c.id === comment.id) ? old.map((c) => (c.id === comment.id ? comment : c)) : [...old, comment];
  });
}

export function dropComment(qc: QueryClient, cardId: number, commentId: number): void {
  qc.setQueryData<Comment[]>(keys.comments(cardId), (old) => old?.filter((c) => c.id !== commentId));
}

/** Fetches the page of comments before `beforeId` and puts it in front of those shown; answers the page. */
export async function loadOlderComments(qc: QueryClient, cardId: number, beforeId: number): Promise<Comment[] | undefined> {
  const result = await attempt(() => api<{ comments: Comment[] }>('/api/data/comment', { query: { cardId, before: beforeId } }));
  if (result)
    qc.setQueryData<Comment[]>(keys.comments(cardId), (old) =>
      old ? [...result.comments.filter((c) => !old.some((o) => o.id === c.id)), ...old] : old,
    );
  return result?.comments;
}

export async function addComment(qc: QueryClient, cardId: number, content: string): Promise<boolean> {
  const result = await attempt(() =>
    api<{ comment: Comment }>('/api/data/comment', { method: 'POST', body: { cardId, content } }),
  );
  if (result) upsertComment(qc, cardId, result.comment);
  return result !== undefined;
}

export async function editComment(qc: QueryClient, cardId: number, comment: Comment, content: string): Promise<boolean> {
  const undo = snapshot(qc, keys.comments(cardId));
  const result = await optimistic(
    () => {
      upsertComment(qc, cardId, { ...comment, content });
      return undo;
    },
    () => api<{ comment: Comment }>('/api/data/comment', { method: 'PUT', body: { id: comment.id, content } }),
  );
  if (result) upsertComment(qc, cardId, result.comment);
  return result !== undefined;
}

export async function deleteComment(qc: QueryClient, cardId: number, commentId: number): Promise<void> {
  const undo = snapshot(qc, keys.comments(cardId));
  await optimistic(
    () => {
      dropComment(qc, cardId, commentId);
      return undo;
    },
    () => api('/api/data/comment', { method: 'DELETE', query: { id: commentId } }),
  );
}
