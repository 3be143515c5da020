import type { QueryClient } from '@tanstack/react-query';
import type { BoardEvent, BoardEventMap, BoardEventName } from '../../shared/events.js';
import {
  applyBoard,
  dropComment,
  dropField,
  findCard,
  getCards,
  moveCardInCache,
  removeCard,
  setAreas,
  updatePerson,
  upsertArea,
  upsertCard,
  upsertComment,
  upsertField,
} from '../api/cache';
import { keys, type BoardData } from '../api/queries';
import type { Card, CardListItem, Label } from '../api/types';

/** What an event handler may need beyond the cache. */
export interface EventContext {
  qc: QueryClient;
  boardId: number;
  userId: string;
  /** The board went away (archived or deleted) while being looked at. */
  boardGone(reason: 'archived' | 'deleted'): void;
}

type Handler<K extends BoardEventName> = (ctx: EventContext, data: BoardEventMap[K]) => void;

const touchActivity = (ctx: EventContext, cardId: number) => void ctx.qc.invalidateQueries({ queryKey: keys.activity(cardId) });

/**
 * How each board event changes the query cache: one small handler per event
 * name, typed by the shared event map (a new event name does not compile
 * until it is handled here).
 */
const handlers: { [K in BoardEventName]: Handler<K> } = {
  'board.created': (ctx, { board }) => applyBoard(ctx.qc, board),
  'board.updated': (ctx, { board }) => {
    applyBoard(ctx.qc, board);
    // A board made private may change what a non-member can do.
    if (board.user !== ctx.userId) void ctx.qc.invalidateQueries({ queryKey: keys.board(board.id) });
  },
  'board.archived': (ctx) => ctx.boardGone('archived'),
  'board.restored': (ctx, { board }) => applyBoard(ctx.qc, board),
  'board.deleted': (ctx) => ctx.boardGone('deleted'),

  'area.created': (ctx, { area }) => {
    if (!ctx.qc.getQueryData(keys.cards(area.id))) ctx.qc.setQueryData<CardListItem[]>(keys.cards(area.id), []);
    upsertArea(ctx.qc, area);
  },
  'area.updated': (ctx, { area }) => upsertArea(ctx.qc, area),
  'area.archived': (ctx, { areaId }) => setAreas(ctx.qc, ctx.boardId, (areas) => areas.filter((a) => a.id !== areaId)),
  'area.restored': (ctx, { area, cards }) => {
    ctx.qc.setQueryData<CardListItem[]>(keys.cards(area.id), cards);
    upsertArea(ctx.qc, area);
  },
  'area.deleted': (ctx, { areaId }) => {
    setAreas(ctx.qc, ctx.boardId, (areas) => areas.filter((a) => a.id !== areaId));
    ctx.qc.removeQueries({ queryKey: keys.cards(areaId) });
  },
  'areas.reordered': (ctx, { areas }) => ctx.qc.setQueryData(keys.areas(ctx.boardId), areas),

  'card.created': (ctx, { card }) => upsertCard(ctx.qc, ctx.boardId, card),
  'card.updated': (ctx, { card }) => {
    upsertCard(ctx.qc, ctx.boardId, card);
    touchActivity(ctx, card.id);
  },
  'card.moved': (ctx, { cardId, fromAreaId, toAreaId, newIndex }) => {
    const card = getCards(ctx.qc, fromAreaId)?.find((c) => c.id === cardId) ?? findCard(ctx.qc, ctx.boardId, cardId);
    if (card) moveCardInCache(ctx.qc, ctx.boardId, card, toAreaId, newIndex);
    else {
      // Not in the cache (its area was still loading): read both areas again.
      void ctx.qc.invalidateQueries({ queryKey: keys.cards(fromAreaId) });
      void ctx.qc.invalidateQueries({ queryKey: keys.cards(toAreaId) });
    }
    touchActivity(ctx, cardId);
  },
  'card.archived': (ctx, { cardId, areaId }) => {
    removeCard(ctx.qc, areaId, cardId);
    void ctx.qc.invalidateQueries({ queryKey: keys.card(cardId) });
  },
  'card.restored': (ctx, { card }) => upsertCard(ctx.qc, ctx.boardId, card),
  'card.deleted': (ctx, { cardId, areaId }) => {
    removeCard(ctx.qc, areaId, cardId);
    ctx.qc.setQueryData<Card | null>(keys.card(cardId), (old) =>
      old ? { ...old, archivedAt: old.archivedAt ?? 'deleted' } : old,
    );
  },

  'labels.changed': (ctx, { labels }) => ctx.qc.setQueryData<Label[]>(keys.labels(ctx.boardId), labels),
  'field.created': (ctx, { field }) => upsertField(ctx.qc, ctx.boardId, field),
  'field.updated': (ctx, { field }) => upsertField(ctx.qc, ctx.boardId, field),
  'field.deleted': (ctx, { fieldId }) => dropField(ctx.qc, ctx.boardId, fieldId),

  'member.added': (ctx) => void ctx.qc.invalidateQueries({ queryKey: keys.members(ctx.boardId) }),
  'member.updated': (ctx, { member }) => {
    void ctx.qc.invalidateQueries({ queryKey: keys.members(ctx.boardId) });
    if (member.id === ctx.userId) void ctx.qc.invalidateQueries({ queryKey: keys.board(ctx.boardId) });
  },
  'member.removed': (ctx) => void ctx.qc.invalidateQueries({ queryKey: keys.members(ctx.boardId) }),
  'person.updated': (ctx, { person }) => updatePerson(ctx.qc, ctx.boardId, person),

  'attachment.created': (ctx, { cardId }) => touchActivity(ctx, cardId),
  'attachment.deleted': (ctx, { cardId }) => touchActivity(ctx, cardId),

  'comment.created': (ctx, { cardId, comment }) => {
    upsertComment(ctx.qc, cardId, comment);
    touchActivity(ctx, cardId);
  },
  'comment.updated': (ctx, { cardId, comment }) => upsertComment(ctx.qc, cardId, comment),
  'comment.deleted': (ctx, { cardId, commentId }) => dropComment(ctx.qc, cardId, commentId),
};

export function applyBoardEvent(ctx: EventContext, event: BoardEvent): void {
  const handler = handlers[event.name] as Handler<BoardEventName>;
  handler(ctx, event.data);
}

/** Whether the board page has loaded what an event would patch (else a refetch covers it). */
export function boardLoaded(qc: QueryClient, boardId: number): boolean {
  return qc.getQueryData<BoardData>(keys.board(boardId)) !== undefined;
}
