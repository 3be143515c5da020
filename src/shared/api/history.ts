import { Type, type Static } from 'typebox';
import { Board } from './boards.js';
import { LabelRef, Person } from './cards.js';
import { Id, MAX_ID } from './common.js';

/** A board version: 0 is the empty board before its first change. */
export const Version = Type.Integer({ minimum: 0, maximum: MAX_ID });

/** One change of a board's history. */
export const HistoryEntry = Type.Object({
  version: Type.Integer({ description: 'the board version this change made' }),
  at: Type.String({ description: 'when (ISO 8601)' }),
  actor: Type.Union([Type.Object({ id: Type.String(), name: Type.String() }), Type.Null()], {
    description: 'who made it; null for the service’s own changes',
  }),
  name: Type.String({
    description: 'the event name (`card.moved`…), or `redacted` for a change whose subject was deleted for good',
  }),
  summary: Type.Union([Type.String(), Type.Null()], {
    description: 'the name of what it changed (card, area, board, comment’s card) when the change carries it',
  }),
});
export type HistoryEntry = Static<typeof HistoryEntry>;

export const HistoryQuery = Type.Object({
  boardId: Id,
  before: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_ID, description: 'only changes older than this version' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
});

export const PastCard = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  content: Type.String(),
  sort: Type.Integer({ description: 'position among the visible cards of the area, from 0' }),
  labels: Type.Array(LabelRef),
  assignees: Type.Array(Person),
  dueDate: Type.Union([Type.String(), Type.Null()]),
  done: Type.Boolean(),
  fields: Type.Record(Type.String(), Type.Unknown(), { description: 'custom field values by field id' }),
});
export type PastCard = Static<typeof PastCard>;

export const PastArea = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  sort: Type.Integer({ description: 'position among the visible areas, from 0' }),
  cards: Type.Array(PastCard),
});

/** `GET /api/data/board-at`: the board as it stood at a version, archived areas and cards left out. */
export const BoardAt = Type.Object({ board: Board, version: Type.Integer(), areas: Type.Array(PastArea) });
export type BoardAt = Static<typeof BoardAt>;

export const BoardAtQuery = Type.Object({
  boardId: Id,
  version: Type.Optional(Version),
  at: Type.Optional(Type.String({ format: 'date-time', description: 'a moment instead of a version' })),
});

export const CardRestore = Type.Object({ cardID: Id, version: Version });
