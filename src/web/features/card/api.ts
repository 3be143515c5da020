import type { QueryClient } from '@tanstack/react-query';
import { checklistOf } from '../../../shared/checklist.js';
import { findCardArea, getCards, removeCard, setCards, upsertCard, upsertComment, dropComment } from '../../api/cache';
import { api } from '../../api/client';
import { attempt, optimistic, snapshot } from '../../api/optimistic';
import { keys } from '../../api/queries';
import type { Card, CardListItem, CardUpdate, Comment, Label, Person } from '../../api/types';
import i18n from '../../app/i18n';
import { toast } from '../../app/toast';
import { undoAction } from '../undo/actions';
import { recordCardArchived, recordCardCreated, recordCardEdit } from '../undo/cardSteps';
import { undoStackOf } from '../undo/stack';

/** The writes of a card and its dialog: its fields, its copy, archive and removal, its labels and comments. */

// Cards ----------------------------------------------------------------------

export type CardPatch = Omit<CardUpdate, 'cardID' | 'assignee' | 'assignees'> & { assignees?: Person[] };

/** What a card looks like once `patch` is applied, before the server answers. */
export function patched<T extends CardListItem>(card: T, patch: CardPatch, labels: Label[]): T {
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
    next.assignees = patch.assignees;
    const first = patch.assignees[0];
    next.assignee = first?.id ?? null;
    next.assigneeName = first?.name ?? null;
    next.assigneeImage = first?.image ?? null;
  }
  if (patch.fields !== undefined) {
    const fields = { ...card.fields };
    for (const [id, value] of Object.entries(patch.fields)) {
      if (value === null) delete fields[id];
      else fields[id] = value;
    }
    next.fields = fields;
  }
  if (patch.reminders !== undefined && 'reminders' in next) (next as unknown as Card).reminders = patch.reminders;
  return next;
}

/** Changes a card; unless `record` is false (an undo's own request), the change goes on the board's undo history. */
export async function updateCard(
  qc: QueryClient,
  boardId: number,
  card: CardListItem,
  patch: CardPatch,
  { record = true }: { record?: boolean } = {},
): Promise<Card | undefined> {
  const areaId = findCardArea(qc, boardId, card.id) ?? card.area;
  const before = qc.getQueryData<Card>(keys.card(card.id)) ?? getCards(qc, areaId)?.find((c) => c.id === card.id) ?? card;
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
  if (record) recordCardEdit(qc, boardId, before, patch, result.card);
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
  if (result) {
    upsertCard(qc, boardId, result.card);
    recordCardCreated(qc, boardId, result.card.id);
  }
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

/** Archives a card; unless `record` is false (an undo's own request), it goes on the undo history, with a toast to undo it. */
export async function archiveCard(
  qc: QueryClient,
  boardId: number,
  card: CardListItem,
  { record = true }: { record?: boolean } = {},
): Promise<boolean> {
  const { done } = await takeCardOff(qc, boardId, card, false);
  if (!done) return false;
  if (!record) return true;
  const step = recordCardArchived(qc, boardId, card.id);
  toast.info(i18n.t('card.archivedToast', { name: card.name }), undoAction(boardId, step));
  return true;
}

export async function deleteCard(qc: QueryClient, boardId: number, card: CardListItem): Promise<boolean> {
  const { done } = await takeCardOff(qc, boardId, card, true);
  if (done) {
    qc.removeQueries({ queryKey: keys.card(card.id) });
    undoStackOf(boardId).forget(`card:${card.id}`);
  }
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
