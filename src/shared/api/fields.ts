import { Type, type Static } from 'typebox';
import { Id, MAX_ID } from './common.js';

export const FIELD_TYPES = ['text', 'number', 'date', 'select', 'checkbox', 'url'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** The most custom fields one board has. */
export const MAX_FIELDS = 20;
/** The most options a select field offers. */
export const MAX_FIELD_OPTIONS = 50;
/** The longest field or option name, after trimming. */
export const FIELD_NAME_MAX_LENGTH = 64;
/** The longest value of a text field. */
export const FIELD_TEXT_MAX_LENGTH = 1000;

export const Field = Type.Object({
  id: Type.Integer(),
  boardId: Type.Integer(),
  name: Type.String(),
  type: Type.Enum(FIELD_TYPES),
  options: Type.Array(Type.String(), { description: 'the choices of a select field, in order; empty for other types' }),
  showOnCard: Type.Boolean({ description: 'whether board tiles show the value' }),
  sort: Type.Integer({ description: 'position among the board’s fields, from 0' }),
});
export type Field = Static<typeof Field>;

/** A stored value: text, URL, option name and date (`YYYY-MM-DD` or an ISO date-time) as strings. */
export const FieldValue = Type.Union([Type.String(), Type.Number(), Type.Boolean()]);
export type FieldValue = Static<typeof FieldValue>;

/** The values a card holds, by field id; fields without a value are absent. */
export const CardFields = Type.Record(Type.String(), FieldValue, {
  description: 'custom field values by field id; only the fields that have one',
});
export type CardFields = Static<typeof CardFields>;

/** Values to set (or clear with null), by field id. */
export const CardFieldsUpdate = Type.Record(
  Type.String({ pattern: '^[1-9][0-9]{0,9}$' }),
  // A number within the range JavaScript (and JSON readers) hold exactly: every integer a route takes has both bounds.
  Type.Union([
    Type.String(),
    Type.Number({ minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER }),
    Type.Boolean(),
    Type.Null(),
  ]),
  {
    maxProperties: MAX_FIELDS,
    description: 'custom field values to set by field id; null clears one, fields left out stay',
  },
);
export type CardFieldsUpdate = Static<typeof CardFieldsUpdate>;

const Name = Type.String({ maxLength: 1000, description: `1 to ${FIELD_NAME_MAX_LENGTH} characters after trimming` });
const Options = Type.Array(Type.String({ maxLength: 1000 }), {
  maxItems: MAX_FIELD_OPTIONS,
  description: `select only: 1 to ${MAX_FIELD_OPTIONS} distinct names (any case), each 1 to ${FIELD_NAME_MAX_LENGTH} characters`,
});

export const FieldCreate = Type.Object({
  boardId: Id,
  name: Name,
  type: Type.Enum(FIELD_TYPES),
  options: Type.Optional(Options),
  showOnCard: Type.Optional(Type.Boolean()),
});
export type FieldCreate = Static<typeof FieldCreate>;

export const FieldUpdate = Type.Object({
  id: Id,
  name: Type.Optional(Name),
  options: Type.Optional(Options),
  showOnCard: Type.Optional(Type.Boolean()),
  sort: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_ID, description: 'the new position; beyond the end means last' })),
  type: Type.Optional(
    Type.String({ maxLength: 20, description: 'refused unless it is the field’s own type: a type never changes' }),
  ),
});
export type FieldUpdate = Static<typeof FieldUpdate>;
