import { Type, type Static } from 'typebox';
import { TEMPLATE_NAME_MAX_LENGTH } from '../limits.js';
import { Board, BoardStatus, BoardStyle } from './boards.js';
import { Id } from './common.js';

/** The built-in templates, named by a word; their texts come in the instance language. */
export const BUILT_IN_TEMPLATES = ['kanban-basics', 'sprint', 'to-do-list'] as const;
export type BuiltInTemplateId = (typeof BUILT_IN_TEMPLATES)[number];

export const TemplateId = Type.Union([Id, Type.Enum(BUILT_IN_TEMPLATES)], {
  description: 'a template of yours by its number, or a built-in one by its word',
});

export const TemplateSummary = Type.Object({
  id: TemplateId,
  name: Type.String(),
  builtIn: Type.Boolean({ description: 'built-in (everyone sees it, nobody deletes it) or saved by you' }),
  style: BoardStyle,
  areas: Type.Integer({ minimum: 0, description: 'how many areas' }),
  cards: Type.Integer({ minimum: 0, description: 'how many cards' }),
  createdAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'null for a built-in' }),
});
export type TemplateSummary = Static<typeof TemplateSummary>;

const Name = Type.String({ maxLength: TEMPLATE_NAME_MAX_LENGTH, description: 'not blank after trimming' });

/** `POST /api/data/template` */
export const SaveTemplate = Type.Object({ boardId: Id, name: Name });
export type SaveTemplate = Static<typeof SaveTemplate>;

/** `POST /api/data/board-from-template` */
export const BoardFromTemplate = Type.Object({
  templateId: TemplateId,
  name: Name,
  style: Type.Optional(BoardStyle),
  status: Type.Optional(BoardStatus),
  color: Type.Optional(Type.String({ maxLength: 32, description: '#rrggbb; anything else means the default colour' })),
});
export type BoardFromTemplate = Static<typeof BoardFromTemplate>;

export const TemplateResult = Type.Object({ template: TemplateSummary });
export const TemplateList = Type.Object({ templates: Type.Array(TemplateSummary) });
export type TemplateList = Static<typeof TemplateList>;
export const BoardResult = Type.Object({ board: Board });
