import { Type, type Static } from 'typebox';
import { NullableString } from './common.js';

/** One notification of the account, as `GET /api/data/notifications` and the realtime account channel carry it. */
export const Notification = Type.Object({
  id: Type.Integer(),
  type: Type.String(),
  boardId: Type.Union([Type.Integer(), Type.Null()]),
  cardId: Type.Union([Type.Integer(), Type.Null()]),
  message: Type.String(),
  isRead: Type.Boolean(),
  createdAt: Type.String(),
  actorName: Type.Optional(Type.String()),
  actorImage: Type.Optional(NullableString),
  actorType: Type.Optional(Type.String()),
});
export type Notification = Static<typeof Notification>;

/** A page of `GET /api/data/notifications`. */
export const NotificationPage = Type.Object({
  notifications: Type.Array(Notification),
  hasMore: Type.Boolean(),
  unreadCount: Type.Integer(),
});
export type NotificationPage = Static<typeof NotificationPage>;
