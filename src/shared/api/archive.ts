import { Type, type Static } from 'typebox';
import { Id, NullableString } from './common.js';

export const BoardArchive = Type.Object({
  areas: Type.Array(
    Type.Object({
      id: Type.Integer(),
      name: Type.String(),
      archivedAt: NullableString,
      cardCount: Type.Integer({ description: 'cards that went with the area' }),
    }),
  ),
  cards: Type.Array(
    Type.Object({
      id: Type.Integer(),
      name: Type.String(),
      archivedAt: NullableString,
      areaName: Type.String({ description: 'the area the card returns to' }),
    }),
  ),
});
export type BoardArchive = Static<typeof BoardArchive>;
export type ArchivedArea = BoardArchive['areas'][number];
export type ArchivedCard = BoardArchive['cards'][number];

export const ArchivedBoards = Type.Object({
  boards: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String(), archivedAt: NullableString })),
});
export type ArchivedBoards = Static<typeof ArchivedBoards>;
export type ArchivedBoard = ArchivedBoards['boards'][number];

export const Restore = Type.Object({ type: Type.Enum(['card', 'area', 'board']), id: Id });
export const Restored = Type.Object({
  success: Type.Boolean(),
  boardId: Type.Optional(Type.Integer()),
  overLimit: Type.Optional(
    Type.Literal(true, {
      description: 'present when the restored card or area leaves its area holding more cards than its work-in-progress limit',
    }),
  ),
});
