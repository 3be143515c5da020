import { Type, type Static } from 'typebox';
import { Id, NullableString } from './common.js';

export const BoardStyle = Type.Enum(['kanban', 'todo']);
export type BoardStyle = Static<typeof BoardStyle>;
export const BoardStatus = Type.Enum(['private', 'public']);
export type BoardStatus = Static<typeof BoardStatus>;

export const Board = Type.Object({
  id: Type.Integer(),
  user: Type.String({ description: 'id of the owning account' }),
  name: Type.String(),
  style: BoardStyle,
  image: NullableString,
  color: Type.Union([Type.String({ description: '#rrggbb' }), Type.Null()]),
  status: BoardStatus,
  archivedAt: NullableString,
});
export type Board = Static<typeof Board>;

/** `GET /api/data/board`: one board and whether the caller may change it. */
export const BoardWithAccess = Type.Object({ board: Board, writeAccess: Type.Boolean() });
export type BoardWithAccess = Static<typeof BoardWithAccess>;

export const BoardWrite = Type.Object({
  id: Type.Optional(Id),
  userId: Type.Optional(Type.String()),
  name: Type.Optional(Type.String({ maxLength: 255 })),
  style: Type.Optional(BoardStyle),
  status: Type.Optional(BoardStatus),
  image: Type.Optional(Type.Union([Type.String({ maxLength: 2048 }), Type.Null()])),
  color: Type.Optional(Type.Unknown({ description: 'hex colour; anything else is stored as null' })),
});
export type BoardWrite = Static<typeof BoardWrite>;
