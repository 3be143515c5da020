import { Type, type Static } from 'typebox';
import { CARD_CONTENT_MAX_LENGTH, CARD_NAME_MAX_LENGTH } from '../limits.js';
import { RHYTHMS } from '../repeat.js';
import { Id, NullableString } from './common.js';
import { CardFields, CardFieldsUpdate } from './fields.js';

export const Person = Type.Object({
  id: Type.String(),
  name: Type.String(),
  image: NullableString,
  type: Type.String({ description: '`human` or `artificial`' }),
});
export type Person = Static<typeof Person>;

export const LabelRef = Type.Object({ id: Type.Integer(), name: Type.String() });
/** A board's label, as the label routes answer with it and cards carry it. */
export type Label = Static<typeof LabelRef>;

export const RepeatEvery = Type.Union([Type.Enum(RHYTHMS), Type.Null()]);

/** A card as GET /api/data/cards lists it. */
export const CardListItem = Type.Object({
  id: Type.Integer(),
  area: Type.Integer({ description: 'area id' }),
  name: Type.String(),
  content: Type.String({ description: 'Markdown; `- [ ]` lines are checklist items' }),
  status: Type.Integer({ description: '0 open, 1 done' }),
  sort: Type.Integer({ description: 'position among the visible cards of the area, from 0' }),
  dueDate: NullableString,
  repeatEvery: RepeatEvery,
  repeatAnchor: Type.Optional(
    Type.Union([Type.String(), Type.Null()], {
      description: 'a repeating card’s first date: the series keeps its day of the month (present only when the card repeats)',
    }),
  ),
  labels: Type.Array(LabelRef),
  assignees: Type.Array(Person, { description: 'in the order they were put on the card' }),
  assignee: NullableString,
  assigneeName: NullableString,
  assigneeImage: NullableString,
  assigneeType: NullableString,
  checklist: Type.Object({ done: Type.Integer(), total: Type.Integer() }),
  fields: CardFields,
});
export type CardListItem = Static<typeof CardListItem>;

/** A card as GET/POST/PUT /api/data/card answer with it. */
export const Card = Type.Intersect([
  CardListItem,
  Type.Object({
    boardId: Type.Integer(),
    html: Type.String({ description: '`content` rendered: raw HTML off, only http(s), mailto and relative links' }),
    reminders: Type.Array(Type.Integer(), { description: 'minutes before the due date' }),
    archivedAt: NullableString,
  }),
]);
export type Card = Static<typeof Card>;

const Name = Type.String({ minLength: 1, maxLength: CARD_NAME_MAX_LENGTH });
const Content = Type.String({
  maxLength: CARD_CONTENT_MAX_LENGTH,
  description: `Markdown, at most ${CARD_CONTENT_MAX_LENGTH} characters`,
});
const DueDate = Type.Union([Type.String({ format: 'date-time' }), Type.Null()]);
const Status = Type.Union([Type.Literal(0), Type.Literal(1)]);

export const CardCreate = Type.Object({
  areaId: Id,
  name: Name,
  content: Type.Optional(Content),
  status: Type.Optional(Status),
  dueDate: Type.Optional(DueDate),
  fields: Type.Optional(CardFieldsUpdate),
});
export type CardCreate = Static<typeof CardCreate>;

export const CardUpdate = Type.Object({
  cardID: Id,
  name: Type.Optional(Name),
  content: Type.Optional(Content),
  status: Type.Optional(Status),
  dueDate: Type.Optional(DueDate),
  labelIds: Type.Optional(Type.Array(Id, { maxItems: 100 })),
  assignees: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 255 }), { maxItems: 100 })),
  assignee: Type.Optional(Type.Union([Type.String({ maxLength: 255 }), Type.Null()])),
  reminders: Type.Optional(Type.Array(Type.Integer({ minimum: 0, maximum: 525_600 }), { maxItems: 20 })),
  repeatEvery: Type.Optional(RepeatEvery),
  fields: Type.Optional(CardFieldsUpdate),
});
export type CardUpdate = Static<typeof CardUpdate>;
