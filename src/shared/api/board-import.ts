import { Type, type Static } from 'typebox';
import { Board } from './boards.js';

/** Why something of another service's export (Trello, LokalBoards) was left out (or cut). */
export const SKIP_REASONS = [
  'labelLimit',
  'labelUnnamed',
  'notWebLink',
  'noList',
  'noCard',
  'cardMembers',
  'backgroundImage',
  'history',
  'tooLong',
  'assigneeUnknown',
  'boardMembers',
  'fileMissing',
  'historyUnknown',
] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

/** What an import of another service's export brought over, and what it left out with the reason. */
export const ImportReport = Type.Object({
  source: Type.Union([Type.Literal('trello'), Type.Literal('lokalboards')]),
  imported: Type.Object({
    areas: Type.Integer({ minimum: 0 }),
    cards: Type.Integer({ minimum: 0 }),
    comments: Type.Integer({ minimum: 0 }),
    labels: Type.Integer({ minimum: 0 }),
    checklistItems: Type.Integer({ minimum: 0 }),
    links: Type.Integer({
      minimum: 0,
      description: 'attachments written as links into the card content (Trello), or linked attachments (LokalBoards)',
    }),
    attachments: Type.Optional(Type.Integer({ minimum: 0, description: 'attachments with their file (LokalBoards)' })),
  }),
  skipped: Type.Array(
    Type.Object({
      what: Type.String({ description: 'what was left out, named as in the source' }),
      reason: Type.Enum(SKIP_REASONS, { description: 'the reason as a word a client can translate' }),
      why: Type.String({ description: 'the reason, in English' }),
    }),
  ),
});
export type ImportReport = Static<typeof ImportReport>;

/** `POST /api/data/board-import`: the new board; `report` when the file came from another service (Trello, LokalBoards). */
export const BoardImportResult = Type.Object({
  board: Board,
  report: Type.Optional(ImportReport),
});
export type BoardImportResult = Static<typeof BoardImportResult>;
