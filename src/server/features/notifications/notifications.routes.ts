import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Id, Success, errorResponses } from '../../../shared/api/common.js';
import { Notification } from '../../../shared/api/notifications.js';
import type { Deps } from '../../deps.js';
import { badRequest } from '../../http/errors.js';
import { listNotifications, markRead, unreadBoardIds, unreadCardIds } from './notifications.service.js';

const tags = ['Notifications'];

export function notificationRoutes(app: FastifyInstance, deps: Deps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = deps.database;

  r.get(
    '/notifications',
    {
      schema: {
        tags,
        summary:
          'My notifications, newest first, their messages in my account’s language (else Accept-Language, else the instance’s); with unreadCards, only the ids of cards with unread ones; with unreadBoards (our addition), the ids of boards with unread ones',
        querystring: Type.Object({
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
          before: Type.Optional(Id),
          unreadCards: Type.Optional(Type.String()),
          unreadBoards: Type.Optional(Type.String()),
          boardId: Type.Optional(Id),
        }),
        response: {
          200: Type.Union([
            Type.Object({ notifications: Type.Array(Notification), hasMore: Type.Boolean(), unreadCount: Type.Integer() }),
            Type.Object({ cardIds: Type.Array(Type.Integer()) }),
            Type.Object({ boardIds: Type.Array(Type.Integer()) }),
          ]),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const { limit, before, unreadCards, unreadBoards, boardId } = request.query;
      if (unreadCards !== undefined) return { cardIds: await unreadCardIds(db, request.actor.id, boardId) };
      // For the dashboard's dots: one question instead of one per board, board-level ones (invitations) included.
      if (unreadBoards !== undefined) return { boardIds: await unreadBoardIds(db, request.actor.id) };
      return listNotifications(
        db,
        request.actor.id,
        { limit, before },
        { acceptLanguage: request.headers['accept-language'], instance: deps.config.language },
      );
    },
  );

  r.patch(
    '/notifications',
    {
      schema: {
        tags,
        summary: 'Mark read: all about a card (cardId), a board’s own notifications (boardId), or one (id)',
        querystring: Type.Object({ cardId: Type.Optional(Id), boardId: Type.Optional(Id), id: Type.Optional(Id) }),
        response: { 200: Success, ...errorResponses },
      },
    },
    async (request) => {
      const given = (['cardId', 'boardId', 'id'] as const).filter((k) => request.query[k] !== undefined);
      if (given.length !== 1) throw badRequest('query: give exactly one of cardId, boardId, id');
      await markRead(db, request.actor.id, request.query);
      return { success: true };
    },
  );
}
