import { Type, type Static, type TSchema } from 'typebox';
import { MAX_ID } from './common.js';
import { FIELD_TYPES, MAX_FIELDS, MAX_FIELD_OPTIONS } from './fields.js';
import { CARD_CONTENT_MAX_LENGTH, COMMENT_MAX_LENGTH } from '../limits.js';

/**
 * The board file (`<id>-<name>.json` in a board export, `boards/<id>-<name>.json`
 * in an instance export): format `service.board`, version 1, the fields of
 * the spec's "Board file format" table plus `html` beside each Markdown
 * `content`, the card's `repeatEvery`, the board's custom `fields` and each
 * card's `fields` values.
 *
 * Two variants from one definition:
 * - `BoardFile`: what an import accepts. Fields unknown to this version are
 *   allowed (new fields may appear without a version raise), and the fields
 *   this service adds beyond the spec's table (`html`, `repeatEvery`) may be
 *   missing. Lengths are held to what the API itself allows.
 * - `BoardFileStrict`: exactly what this service writes, every field present
 *   and no other (what the tests hold the export to).
 */
function build(strict: boolean) {
  const object = <T extends Record<string, TSchema>>(properties: T) =>
    Type.Object(properties, strict ? { additionalProperties: false } : {});
  /** A field this service adds beyond the spec's table: always written, not required on import. */
  const extra = <T extends TSchema>(schema: T) => (strict ? schema : Type.Optional(schema));
  const DateTime = Type.String({ format: 'date-time' });
  const NullableDateTime = Type.Union([DateTime, Type.Null()]);
  const Text = (maxLength: number) => Type.String({ maxLength });
  const Name = Type.String({ minLength: 1, maxLength: 255 });
  const Person = object({ id: Type.String({ maxLength: 255 }), name: Type.String() });

  const Attachment = object({
    id: Type.Integer(),
    filename: Text(1024),
    filetype: Text(255),
    filesize: Type.Integer({ minimum: 0, maximum: MAX_ID }),
    createdAt: DateTime,
    file: Type.Union([Text(1024), Type.Null()], { description: 'path in the zip, or null when the file was missing' }),
    url: Type.Optional(Text(2048)),
  });

  const Comment = object({
    id: Type.Integer(),
    author: object({
      id: Type.Union([Type.String({ maxLength: 255 }), Type.Null()], {
        description: 'null for an imported comment or a removed account',
      }),
      name: Type.Union([Type.String(), Type.Null()]),
    }),
    content: Text(COMMENT_MAX_LENGTH),
    html: extra(Type.String()),
    createdAt: DateTime,
  });

  const Activity = object({
    type: Text(64),
    actor: Type.Union([Person, Type.Null()]),
    data: Type.Unknown({ description: 'the detail recorded for that kind of entry, or null' }),
    createdAt: DateTime,
  });

  const Card = object({
    id: Type.Integer(),
    name: Name,
    content: Text(CARD_CONTENT_MAX_LENGTH),
    html: extra(Type.String()),
    done: Type.Boolean(),
    sort: Type.Integer({ minimum: 0, maximum: MAX_ID }),
    dueDate: NullableDateTime,
    repeatEvery: extra(Type.Union([Type.Enum(['day', 'week', 'twoWeeks', 'month', 'year']), Type.Null()])),
    assignees: Type.Array(Person, { description: 'in assignment order' }),
    assignee: Type.Union([Person, Type.Null()]),
    labels: Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 100 }),
    archivedAt: NullableDateTime,
    reminders: Type.Array(Type.Integer({ minimum: 0, maximum: 525_600 }), { maxItems: 20 }),
    attachments: Type.Array(Attachment),
    comments: Type.Array(Comment),
    activity: Type.Array(Activity),
    fields: extra(
      Type.Record(Type.String({ pattern: '^[0-9]{1,10}$' }), Type.Union([Type.String(), Type.Number(), Type.Boolean()]), {
        maxProperties: MAX_FIELDS,
        description: 'custom field values by the file’s field id',
      }),
    ),
  });

  const Field = object({
    id: Type.Integer(),
    name: Type.String({ minLength: 1, maxLength: 64 }),
    type: Type.Enum(FIELD_TYPES),
    options: Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: MAX_FIELD_OPTIONS }),
    showOnCard: Type.Boolean(),
  });

  const Area = object({
    id: Type.Integer(),
    name: Text(255),
    sort: Type.Integer({ minimum: 0, maximum: MAX_ID }),
    archivedAt: NullableDateTime,
    cards: Type.Array(Card),
  });

  const BoardFile = object({
    format: Type.Literal('service.board'),
    formatVersion: Type.Literal(1),
    serviceVersion: Type.Union([Type.String(), Type.Null()]),
    exportedAt: DateTime,
    board: object({
      id: Type.Integer(),
      name: Name,
      style: Type.Enum(['kanban', 'todo']),
      status: Type.Enum(['private', 'public']),
      color: Type.Union([Text(32), Type.Null()]),
      image: Type.Union([Text(2048), Type.Null()]),
      owner: Person,
      archivedAt: NullableDateTime,
    }),
    members: Type.Array(object({ ...Person.properties, permission: Type.Enum(['read', 'edit']) })),
    labels: Type.Array(object({ id: Type.Integer(), name: Type.String({ minLength: 1, maxLength: 64 }) })),
    fields: extra(Type.Array(Field, { maxItems: MAX_FIELDS, description: 'the board’s custom fields, in order' })),
    areas: Type.Array(Area, { description: 'in board order, archived ones included' }),
    images: Type.Record(Type.String({ maxLength: 2048 }), Type.Union([Text(1024), Type.Null()]), {
      description: 'each uploaded picture address used in a description, comment or cover → its path in the zip',
    }),
  });
  return { BoardFile, Card, Area, Attachment, Comment, Activity, Person, Field };
}

const open = build(false);
const strict = build(true);

export const BoardFile = open.BoardFile;
export const BoardFileStrict = strict.BoardFile;

/** The shapes as this service writes them. */
export type BoardFile = Static<typeof strict.BoardFile>;
export type BoardFilePerson = Static<typeof strict.Person>;
export type BoardFileCard = Static<typeof strict.Card>;
export type BoardFileArea = Static<typeof strict.Area>;
export type BoardFileAttachment = Static<typeof strict.Attachment>;
export type BoardFileComment = Static<typeof strict.Comment>;
export type BoardFileActivity = Static<typeof strict.Activity>;
export type BoardFileField = Static<typeof strict.Field>;
export type BoardFileHead = Omit<BoardFile, 'areas' | 'images'>;
/** What an import reads: the written shape with the optional extras possibly missing. */
export type BoardFileInput = Static<typeof open.BoardFile>;
