import { keyAfterLast, placementColumns, type Placement } from './ordering.repository.js';
import { sql, type Insertable, type Updateable } from 'kysely';
import type { Db } from '../../db/database.js';
import { hotQuery } from '../../db/hot-query.js';
import type { CardRow, CardTable } from '../../db/schema.js';
import type { CardExtras, CardPerson } from './cards.presenter.js';

const cardById = hotQuery((db: Db, id: number) => db.selectFrom('cards').selectAll().where('id', '=', id));

export async function findCard(db: Db, id: number): Promise<CardRow | undefined> {
  return (await cardById(db, id))[0];
}

/** The columns a new card is stored with: all but its id and `archivedAt` (a new card is never archived). */
const NEW_CARD_COLUMNS = [
  'areaId',
  'boardId',
  'name',
  'content',
  'status',
  'sort',
  'dueDate',
  'repeatEvery',
  'repeatAnchor',
  'repeatAreaId',
  'createdAt',
  'updatedAt',
] as const;

export type NewCard = Required<Pick<Insertable<CardTable>, (typeof NEW_CARD_COLUMNS)[number]>>;

// Built once per dialect: it is on the path of every create, and building an insert of twelve columns costs about as much as SQLite takes to run it.
const insertCardRow = hotQuery((db: Db, ...values: unknown[]) =>
  db
    .insertInto('cards')
    .values(Object.fromEntries(NEW_CARD_COLUMNS.map((column, i) => [column, values[i]])) as NewCard)
    .returningAll(),
);

/** Stores a new card; answers its row. */
export async function insertCard(db: Db, card: NewCard): Promise<CardRow> {
  const [row] = await insertCardRow(db, ...NEW_CARD_COLUMNS.map((column) => card[column]));
  return row!;
}

/**
 * Stores a new card below the last one of its area, in one statement: only
 * if the area is on `card.boardId`, not archived, and has room below its last
 * key. Answers the row, how many visible cards stand above it and the
 * area's work-in-progress limit (for the answer's `overLimit`), or
 * undefined when any of that fails (`createFacts` tells which).
 */
export async function appendCard(
  db: Db,
  card: Omit<NewCard, 'sort'>,
): Promise<(CardRow & { visible: number; wipLimit: number | null }) | undefined> {
  const [row] = await appendCardRow(db, ...APPENDED_COLUMNS.map((column) => card[column]));
  if (!row) return undefined;
  const wipLimit = row.wipLimit === null ? null : Number(row.wipLimit);
  // The row is what was given, with the id and key the database chose: nothing else is read back.
  return { ...card, id: row.id, sort: Number(row.sort), archivedAt: null, visible: Number(row.visible), wipLimit };
}

const APPENDED_COLUMNS = NEW_CARD_COLUMNS.filter((column) => column !== 'sort');

// Built once per dialect, as `insertCardRow` is.
const appendCardRow = hotQuery((db: Db, ...values: unknown[]) => {
  const value = (column: (typeof APPENDED_COLUMNS)[number]) => sql.val(values[APPENDED_COLUMNS.indexOf(column)]);
  const columns = NEW_CARD_COLUMNS.map((column) => (column === 'sort' ? sql.ref('slot.key') : value(column)));
  return sql<{ id: number; sort: number | string; visible: number | string; wipLimit: number | string | null }>`
    insert into cards (${sql.join(NEW_CARD_COLUMNS.map((column) => sql.ref(column)))})
    select ${sql.join(columns)}
    from areas a, (select ${keyAfterLast} as key from cards k where k."areaId" = ${value('areaId')}) slot
    where a.id = ${value('areaId')} and a."boardId" = ${value('boardId')} and a."archivedAt" is null and slot.key is not null
    returning id, sort, (select count(*) from cards v
      where v."areaId" = cards."areaId" and v."archivedAt" is null and v.id <> cards.id) as visible,
      (select w."wipLimit" from areas w where w.id = cards."areaId") as "wipLimit"`;
});

/** The visible cards of an area, top to bottom. */
export function visibleCardsOfArea(db: Db, areaId: number): Promise<CardRow[]> {
  return db
    .selectFrom('cards')
    .selectAll()
    .where('areaId', '=', areaId)
    .where('archivedAt', 'is', null)
    .orderBy('sort')
    .execute();
}

/** How many visible cards stand above this one in its area. */
export async function positionOf(db: Db, card: Pick<CardRow, 'areaId' | 'sort'>): Promise<number> {
  const row = await db
    .selectFrom('cards')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('areaId', '=', card.areaId)
    .where('archivedAt', 'is', null)
    .where('sort', '<', card.sort)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Labels, assignees and custom field values of many cards in three queries, for lists. */
export async function listExtras(db: Db, cardIds: number[]) {
  const labels = new Map<number, CardExtras['labels']>();
  const assignees = new Map<number, CardPerson[]>();
  if (cardIds.length === 0) return { labels, assignees, values: [] };
  const [labelRows, assigneeRows, values] = await Promise.all([
    db
      .selectFrom('card_labels')
      .innerJoin('labels', 'labels.id', 'card_labels.labelId')
      .select(['card_labels.cardId', 'labels.id', 'labels.name'])
      .where('card_labels.cardId', 'in', cardIds)
      .orderBy('labels.id')
      .execute(),
    db
      .selectFrom('card_assignees')
      .innerJoin('user', 'user.id', 'card_assignees.userId')
      .select(['card_assignees.cardId', 'user.id', 'user.name', 'user.image', 'user.type'])
      .where('card_assignees.cardId', 'in', cardIds)
      .orderBy('card_assignees.id')
      .execute(),
    db
      .selectFrom('card_field_values')
      .select(['cardId', 'fieldId', 'value'])
      .where('cardId', 'in', cardIds)
      .orderBy('fieldId')
      .execute(),
  ]);
  for (const { cardId, ...label } of labelRows) push(labels, cardId, label);
  for (const { cardId, ...person } of assigneeRows) push(assignees, cardId, person);
  return { labels, assignees, values };
}

export async function remindersOf(db: Db, cardId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('card_reminders')
    .select('minutesBefore')
    .where('cardId', '=', cardId)
    .orderBy('minutesBefore')
    .execute();
  return rows.map((r) => r.minutesBefore);
}

function push<T>(map: Map<number, T[]>, key: number, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** Puts the labels, the assignees (in their order), the reminders and the custom field values of one card on another. */
export async function copyCardRelations(db: Db, fromId: number, toId: number, now: string): Promise<void> {
  await db
    .insertInto('card_labels')
    .columns(['cardId', 'labelId'])
    .expression((eb) =>
      eb
        .selectFrom('card_labels')
        .select([eb.val(toId).as('cardId'), 'labelId'])
        .where('cardId', '=', fromId),
    )
    .execute();
  await db
    .insertInto('card_assignees')
    .columns(['cardId', 'userId', 'createdAt'])
    .expression((eb) =>
      eb
        .selectFrom('card_assignees')
        .select([eb.val(toId).as('cardId'), 'userId', eb.val(now).as('createdAt')])
        .where('cardId', '=', fromId)
        .orderBy('id'),
    )
    .execute();
  await db
    .insertInto('card_reminders')
    .columns(['cardId', 'minutesBefore'])
    .expression((eb) =>
      eb
        .selectFrom('card_reminders')
        .select([eb.val(toId).as('cardId'), 'minutesBefore'])
        .where('cardId', '=', fromId),
    )
    .execute();
  await db
    .insertInto('card_field_values')
    .columns(['cardId', 'fieldId', 'value'])
    .expression((eb) =>
      eb
        .selectFrom('card_field_values')
        .select([eb.val(toId).as('cardId'), 'fieldId', 'value'])
        .where('cardId', '=', fromId),
    )
    .execute();
}

/** What a move checks and needs, read in one query: the card, both areas as the caller named them, the placement facts. */
export interface MoveFacts extends Placement {
  id: number;
  areaId: number;
  sort: number;
  name: string;
  archivedAt: string | null;
  fromBoardId: number | null;
  fromArchivedAt: string | null;
  fromName: string | null;
  toBoardId: number | null;
  toArchivedAt: string | null;
  toName: string | null;
}

export async function moveFacts(
  db: Db,
  move: { cardId: number; fromAreaId: number; toAreaId: number; newIndex: number },
): Promise<MoveFacts | undefined> {
  const { rows } = await sql<MoveFacts>`
    select c.id, c."areaId", c.sort, c.name, c."archivedAt",
      f."boardId" as "fromBoardId", f."archivedAt" as "fromArchivedAt", f.name as "fromName",
      t."boardId" as "toBoardId", t."archivedAt" as "toArchivedAt", t.name as "toName",
      ${placementColumns(move.toAreaId, move.cardId, move.newIndex)}
    from cards c
    left join areas f on f.id = ${move.fromAreaId}
    left join areas t on t.id = ${move.toAreaId}
    where c.id = ${move.cardId}`.execute(db);
  const row = rows[0];
  return row && { ...row, id: Number(row.id), areaId: Number(row.areaId), sort: Number(row.sort) };
}

/** What adding a card to an area checks and needs, in one query: the area, its last sort key and its visible cards. */
export async function createFacts(
  db: Db,
  areaId: number,
): Promise<{ boardId: number; archivedAt: string | null; lastSort: number | null; visible: number } | undefined> {
  const { rows } = await sql<{
    boardId: number;
    archivedAt: string | null;
    lastSort: number | string | null;
    visible: number | string;
  }>`
    select a."boardId", a."archivedAt",
      (select max(c.sort) from cards c where c."areaId" = a.id) as "lastSort",
      (select count(*) from cards c where c."areaId" = a.id and c."archivedAt" is null) as visible
    from areas a where a.id = ${areaId}`.execute(db);
  const row = rows[0];
  return (
    row && {
      boardId: Number(row.boardId),
      archivedAt: row.archivedAt,
      lastSort: row.lastSort === null ? null : Number(row.lastSort),
      visible: Number(row.visible),
    }
  );
}

/** Changes a card's columns (and its `updatedAt`); answers the row as stored. */
export function updateCard(db: Db, id: number, changes: Updateable<CardTable>, now: string): Promise<CardRow> {
  return db
    .updateTable('cards')
    .set({ ...changes, updatedAt: now })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function addAssignees(db: Db, cardId: number, userIds: readonly string[], now: string): Promise<void> {
  await db
    .insertInto('card_assignees')
    .values(userIds.map((userId) => ({ cardId, userId, createdAt: now })))
    .execute();
}

export async function removeAssignees(db: Db, cardId: number, userIds: readonly string[]): Promise<void> {
  await db.deleteFrom('card_assignees').where('cardId', '=', cardId).where('userId', 'in', userIds).execute();
}

/** Replaces a card's reminders with these (distinct, in order). */
export async function replaceReminders(db: Db, cardId: number, minutes: readonly number[]): Promise<void> {
  await db.deleteFrom('card_reminders').where('cardId', '=', cardId).execute();
  if (minutes.length > 0)
    await db
      .insertInto('card_reminders')
      .values(minutes.map((minutesBefore) => ({ cardId, minutesBefore })))
      .execute();
}

export async function labelIdsOfCard(db: Db, cardId: number): Promise<number[]> {
  const rows = await db.selectFrom('card_labels').select('labelId').where('cardId', '=', cardId).execute();
  return rows.map((r) => r.labelId);
}

export async function deleteCardRow(db: Db, id: number): Promise<void> {
  await db.deleteFrom('cards').where('id', '=', id).execute();
}
