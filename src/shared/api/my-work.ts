import { Type, type Static } from 'typebox';
import { MAX_ID, NullableString } from './common.js';
import { LabelRef } from './cards.js';
import { CardFields } from './fields.js';

const timeZone = { minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_+\\-/]+$' } as const;
/** An IANA time zone name (`Europe/Berlin`, `UTC`); the server also refuses a well-formed one it does not know. */
export const TimeZone = Type.String(timeZone);
const id = (description: string) => Type.Integer({ minimum: 1, maximum: MAX_ID, description });

export const MyWorkQuery = Type.Object({
  tz: Type.Optional(
    Type.String({
      ...timeZone,
      description: "The IANA time zone the days are counted in (the browser's, e.g. `Europe/Berlin`); default `UTC`",
    }),
  ),
  boardId: Type.Optional(id('Only cards of this board')),
  labelId: Type.Optional(id('Only cards with this label')),
  label: Type.Optional(
    Type.String({ minLength: 1, maxLength: 255, description: 'Only cards with a label of this name (any board, any case)' }),
  ),
});
export type MyWorkQuery = Static<typeof MyWorkQuery>;

export const MyWorkCard = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  boardId: Type.Integer(),
  boardName: Type.String(),
  areaId: Type.Integer(),
  areaName: Type.String(),
  /** ISO 8601 UTC, or null. */
  dueDate: NullableString,
  labels: Type.Array(LabelRef),
  fields: CardFields,
});
export type MyWorkCard = Static<typeof MyWorkCard>;

export const MY_WORK_GROUPS = ['overdue', 'today', 'thisWeek', 'later', 'noDate'] as const;
export type MyWorkGroup = (typeof MY_WORK_GROUPS)[number];

const Group = (description: string) => Type.Array(MyWorkCard, { description });

export const MyWork = Type.Object({
  timeZone: Type.String({ description: 'The time zone the groups were counted in' }),
  today: Type.String({ description: 'Today in that time zone, `YYYY-MM-DD`' }),
  weekEnd: Type.String({ description: 'The last day (Sunday) of this ISO week in that time zone, `YYYY-MM-DD`' }),
  groups: Type.Object(
    {
      overdue: Group('Due on a day before today, oldest first'),
      today: Group('Due today'),
      thisWeek: Group('Due after today, up to and including Sunday'),
      later: Group('Due after this week'),
      noDate: Group('Without a due date, by board'),
    },
    { description: 'Every open card assigned to me, by its due day' },
  ),
  boards: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String() }), {
    description: 'The boards of all my open assigned cards (before the filters), by name',
  }),
  labels: Type.Array(Type.String(), {
    description: 'The label names of all my open assigned cards (before the filters), by name',
  }),
  truncated: Type.Boolean({ description: 'More cards matched than one answer holds (the earliest due come first)' }),
});
export type MyWork = Static<typeof MyWork>;
