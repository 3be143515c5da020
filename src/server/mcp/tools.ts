import { Type, type Static, type TObject } from 'typebox';
import type { ApiCall } from './api-call.js';

const Id = Type.Integer({ minimum: 1, maximum: 2_147_483_647 });
const IdempotencyKey = Type.Optional(
  Type.String({
    minLength: 1,
    maxLength: 255,
    description: 'Send the same key again to retry safely: the change is made once and its answer repeated',
  }),
);

interface Context {
  call: ApiCall;
  /** The account the API key belongs to. */
  userId: string;
}

export interface Tool<S extends TObject = TObject> {
  name: string;
  description: string;
  /** Reads only: offered to read-only keys too. */
  readOnly: boolean;
  input: S;
  run(args: Static<S>, ctx: Context): Promise<Record<string, unknown>>;
}

const tool = <S extends TObject>(t: Tool<S>): Tool => t;

/** Custom field values by field id, as `PUT /card` takes them (see get_board for a board's fields). */
const FieldValues = Type.Optional(
  Type.Record(
    Type.String({ pattern: '^[1-9][0-9]{0,9}$' }),
    Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]),
    {
      description:
        "Custom field values by field id (get_board lists the board's fields): text, a number, an ISO date, one of a select field's options, true/false, or an http(s) URL; null clears one, fields left out stay.",
    },
  ),
);

interface AreaRow {
  id: number;
  name: string;
}
interface CardRow {
  id: number;
  area: number;
  boardId: number;
}

/** The board an agent needs in one answer: its areas with their cards, labels and members. */
async function wholeBoard({ call, userId }: Context, boardId: number) {
  const { board, writeAccess } = await call('GET', '/board', { query: { id: boardId, userId } });
  const { areas } = await call<{ areas: AreaRow[] }>('GET', '/areas', { query: { boardId } });
  const withCards = await Promise.all(
    areas.map(async (area) => ({ ...area, ...(await call('GET', '/cards', { query: { areaId: area.id } })) })),
  );
  const { labels } = await call('GET', '/labels', { query: { boardId } });
  const { members } = await call('GET', '/members', { query: { boardId } });
  const { fields } = await call('GET', '/fields', { query: { boardId } });
  return { board, writeAccess, areas: withCards, labels, members, fields };
}

async function cardOf({ call }: Context, cardId: number): Promise<CardRow> {
  return (await call<{ card: CardRow }>('GET', '/card', { query: { cardID: cardId } })).card;
}

/**
 * The tools, each a thin translation onto the HTTP API (see api-call.ts):
 * names an agent reads easily in, the API's own answers and refusals out.
 */
export const tools: Tool[] = [
  tool({
    name: 'list_boards',
    description: 'The boards I own and those shared with me (archived ones left out).',
    readOnly: true,
    input: Type.Object({}),
    run: async (_args, { call }) => {
      const owned = await call<{ boards: unknown[] }>('POST', '/boards', { body: {} });
      const shared = await call<{ boards: unknown[] }>('POST', '/boards', { body: { shared: true } });
      return { owned: owned.boards, shared: shared.boards };
    },
  }),
  tool({
    name: 'get_board',
    description: 'One board: its areas in order with their cards in order, its labels, its members and its custom fields.',
    readOnly: true,
    input: Type.Object({ boardId: Id }),
    run: (args, ctx) => wholeBoard(ctx, args.boardId),
  }),
  tool({
    name: 'search_cards',
    description: 'Cards whose name or description has every word of the query (word prefixes), on boards I can read.',
    readOnly: true,
    input: Type.Object({ query: Type.String({ minLength: 1, maxLength: 200 }) }),
    run: (args, { call }) => call('GET', '/search', { query: { q: args.query } }),
  }),
  tool({
    name: 'get_card',
    description: 'One card with its comments (oldest first) and its history.',
    readOnly: true,
    input: Type.Object({ cardId: Id }),
    run: async (args, { call }) => {
      const { card } = await call('GET', '/card', { query: { cardID: args.cardId } });
      const { comments } = await call('GET', '/comment', { query: { cardId: args.cardId } });
      const { activity } = await call('GET', '/card-activity', { query: { cardID: args.cardId } });
      return { card, comments, activity };
    },
  }),
  tool({
    name: 'list_people',
    description:
      'Up to 10 people who can read a board, whose name starts with q (case and accents aside): whom a mention can name. Mention someone in a comment or a card description by writing @[Their Name](their id).',
    readOnly: true,
    input: Type.Object({ boardId: Id, q: Type.Optional(Type.String({ maxLength: 255 })) }),
    run: (args, { call }) => call('GET', '/mentionable', { query: { boardId: args.boardId, q: args.q } }),
  }),
  tool({
    name: 'create_card',
    description:
      'Create a card at the bottom of an area. content is Markdown ("- [ ] item" lines are a checklist); @[Name](userId) mentions someone (see list_people). overLimit: true in the answer means the area now holds more cards than its work-in-progress limit.',
    readOnly: false,
    input: Type.Object({
      areaId: Id,
      name: Type.String({ minLength: 1 }),
      content: Type.Optional(Type.String()),
      dueDate: Type.Optional(Type.String({ format: 'date-time' })),
      fields: FieldValues,
      idempotencyKey: IdempotencyKey,
    }),
    run: ({ idempotencyKey, ...card }, { call }) => call('POST', '/card', { body: card, idempotencyKey }),
  }),
  tool({
    name: 'update_card',
    description:
      'Change a card: properties left out stay as they are; dueDate null clears it; done marks it done or open; fields sets custom field values by field id. content is Markdown; @[Name](userId) mentions someone (see list_people), who is notified once.',
    readOnly: false,
    input: Type.Object({
      cardId: Id,
      name: Type.Optional(Type.String({ minLength: 1 })),
      content: Type.Optional(Type.String()),
      done: Type.Optional(Type.Boolean()),
      dueDate: Type.Optional(Type.Union([Type.String({ format: 'date-time' }), Type.Null()])),
      fields: FieldValues,
      idempotencyKey: IdempotencyKey,
    }),
    run: ({ cardId, done, idempotencyKey, ...changes }, { call }) =>
      call('PUT', '/card', {
        body: { cardID: cardId, ...changes, ...(done === undefined ? {} : { status: done ? 1 : 0 }) },
        idempotencyKey,
      }),
  }),
  tool({
    name: 'move_card',
    description:
      'Move a card to another area (or within its own), to a position counted from 0; no position = the bottom. overLimit: true in the answer means the area now holds more cards than its work-in-progress limit.',
    readOnly: false,
    input: Type.Object({
      cardId: Id,
      toAreaId: Id,
      position: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
      idempotencyKey: IdempotencyKey,
    }),
    run: async (args, ctx) => {
      const card = await cardOf(ctx, args.cardId);
      const { overLimit } = await ctx.call<{ overLimit?: true }>('POST', '/cardMove', {
        body: { cardId: args.cardId, fromAreaId: card.area, toAreaId: args.toAreaId, newIndex: args.position ?? 1_000_000 },
        idempotencyKey: args.idempotencyKey,
      });
      const moved = (await ctx.call('GET', '/card', { query: { cardID: args.cardId } })).card;
      return overLimit ? { card: moved, overLimit } : { card: moved };
    },
  }),
  tool({
    name: 'archive_card',
    description: 'Archive a card (it can be restored from the board archive).',
    readOnly: false,
    input: Type.Object({ cardId: Id, idempotencyKey: IdempotencyKey }),
    run: (args, { call }) => call('DELETE', '/card', { body: { cardID: args.cardId }, idempotencyKey: args.idempotencyKey }),
  }),
  tool({
    name: 'claim_card',
    description:
      'Take a card nobody is assigned to: I become its assignee. Fails, naming who has it, when someone already is — safe for several agents at once.',
    readOnly: false,
    input: Type.Object({ cardId: Id, idempotencyKey: IdempotencyKey }),
    run: (args, { call }) => call('POST', '/card-claim', { body: { cardID: args.cardId }, idempotencyKey: args.idempotencyKey }),
  }),
  tool({
    name: 'add_comment',
    description:
      'Comment on a card (Markdown). @[Name](userId) mentions someone who can read the board (see list_people): they are notified.',
    readOnly: false,
    input: Type.Object({ cardId: Id, content: Type.String({ minLength: 1 }), idempotencyKey: IdempotencyKey }),
    run: (args, { call }) =>
      call('POST', '/comment', { body: { cardId: args.cardId, content: args.content }, idempotencyKey: args.idempotencyKey }),
  }),
  tool({
    name: 'create_area',
    description: 'Create an area (a list) at the end of a board.',
    readOnly: false,
    input: Type.Object({ boardId: Id, name: Type.String({ minLength: 1 }), idempotencyKey: IdempotencyKey }),
    run: (args, { call }) =>
      call('POST', '/area', { body: { boardId: args.boardId, name: args.name }, idempotencyKey: args.idempotencyKey }),
  }),
  tool({
    name: 'set_labels',
    description:
      'Put exactly these labels on a card, by name (case-insensitive; a new name makes a label, at most 30 per board). An empty list removes all.',
    readOnly: false,
    input: Type.Object({
      cardId: Id,
      labels: Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 30 }),
      idempotencyKey: IdempotencyKey,
    }),
    run: async (args, ctx) => {
      const card = await cardOf(ctx, args.cardId);
      const labelIds: number[] = [];
      for (const name of args.labels) {
        const { label } = await ctx.call<{ label: { id: number } }>('POST', '/labels', { body: { boardId: card.boardId, name } });
        labelIds.push(label.id);
      }
      return ctx.call('PUT', '/card', { body: { cardID: args.cardId, labelIds }, idempotencyKey: args.idempotencyKey });
    },
  }),
  tool({
    name: 'assign',
    description:
      'Put exactly these people on a card, in order (account ids from get_board members). An empty list unassigns all.',
    readOnly: false,
    input: Type.Object({
      cardId: Id,
      userIds: Type.Array(Type.String({ minLength: 1, maxLength: 255 }), { maxItems: 100 }),
      idempotencyKey: IdempotencyKey,
    }),
    run: (args, { call }) =>
      call('PUT', '/card', { body: { cardID: args.cardId, assignees: args.userIds }, idempotencyKey: args.idempotencyKey }),
  }),
  tool({
    name: 'list_notifications',
    description: 'My notifications, newest first, with the unread count; page with before = the last id seen.',
    readOnly: true,
    input: Type.Object({
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
      before: Type.Optional(Id),
    }),
    run: (args, { call }) => call('GET', '/notifications', { query: { limit: args.limit, before: args.before } }),
  }),
  tool({
    name: 'mark_notifications_read',
    description:
      'Mark read: one notification (id), all about a card (cardId), or a board’s own ones (boardId). Give exactly one.',
    readOnly: false,
    input: Type.Object({ id: Type.Optional(Id), cardId: Type.Optional(Id), boardId: Type.Optional(Id) }),
    run: (args, { call }) =>
      call('PATCH', '/notifications', { query: { id: args.id, cardId: args.cardId, boardId: args.boardId } }),
  }),
];
