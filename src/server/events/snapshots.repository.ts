import type { Db } from '../db/database.js';

/*
 * The statements of board rewinds (snapshots.ts): the snapshots, the event
 * rows a replay reads, and the present rows a first snapshot is taken from.
 */

/** The newest snapshot of the board at or before `version`. */
export function snapshotAtOrBefore(db: Db, boardId: number, version: number) {
  return db
    .selectFrom('board_snapshots')
    .select(['version', 'state'])
    .where('boardId', '=', boardId)
    .where('version', '<=', version)
    .orderBy('version', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export async function hasSnapshot(db: Db, boardId: number): Promise<boolean> {
  const row = await db.selectFrom('board_snapshots').select('id').where('boardId', '=', boardId).limit(1).executeTakeFirst();
  return row !== undefined;
}

/** Stores a snapshot; one already stored for the version stays (both say the same). */
export async function insertSnapshot(db: Db, boardId: number, version: number, state: string, now: string): Promise<void> {
  await db
    .insertInto('board_snapshots')
    .values({ boardId, version, state, createdAt: now })
    .onConflict((oc) => oc.columns(['boardId', 'version']).doNothing())
    .execute();
}

/**
 * The board's snapshots that may hold these cards, for rewriting them (an
 * erasure): a coarse textual prefilter (a card is stored as `{"id":…,"name"`)
 * that spares parsing every snapshot of a busy board; the caller's parse decides.
 */
export function snapshotsHolding(db: Db, boardId: number, cardIds: readonly number[]) {
  return db
    .selectFrom('board_snapshots')
    .select(['id', 'state'])
    .where('boardId', '=', boardId)
    .where((eb) => eb.or(cardIds.map((id) => eb('state', 'like', `%{"id":${id},"name"%`))))
    .execute();
}

export async function rewriteSnapshot(db: Db, id: number, state: string): Promise<void> {
  await db.updateTable('board_snapshots').set({ state }).where('id', '=', id).execute();
}

/**
 * Forgets snapshots older than `cutoff`, but keeps each board's newest one
 * from before it: that one is where the events still kept start from.
 */
export async function deleteSnapshotsBefore(db: Db, cutoff: string): Promise<number> {
  const result = await db
    .deleteFrom('board_snapshots as s')
    .where('s.createdAt', '<', cutoff)
    .where((eb) =>
      eb(
        's.version',
        '<',
        eb
          .selectFrom('board_snapshots as n')
          .select((n) => n.fn.max('n.version').as('newest'))
          .whereRef('n.boardId', '=', 's.boardId')
          .where('n.createdAt', '<', cutoff),
      ),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Every stored event row of the board with versions in (after, upTo], redacted ones included, oldest first. */
export function eventsBetween(db: Db, boardId: number, after: number, upTo: number) {
  return db
    .selectFrom('board_events')
    .select(['version', 'name', 'data'])
    .where('boardId', '=', boardId)
    .where('version', '>', after)
    .where('version', '<=', upTo)
    .orderBy('version')
    .execute();
}

/** The oldest kept event of the board stored after `at`, and whether the event or snapshot just before it is kept. */
export function firstEventAfter(db: Db, boardId: number, at: string) {
  return db
    .selectFrom('board_events')
    .select(['version'])
    .where('boardId', '=', boardId)
    .where('createdAt', '>', at)
    .orderBy('version')
    .limit(1)
    .executeTakeFirst();
}

/** Whether the board's state at `version` is known to have been reached by `at`: its event or a snapshot of it is that old. */
export async function versionKnownBy(db: Db, boardId: number, version: number, at: string): Promise<boolean> {
  const [event, snapshot] = await Promise.all([
    db
      .selectFrom('board_events')
      .select('id')
      .where('boardId', '=', boardId)
      .where('version', '=', version)
      .where('createdAt', '<=', at)
      .executeTakeFirst(),
    db
      .selectFrom('board_snapshots')
      .select('id')
      .where('boardId', '=', boardId)
      .where('version', '=', version)
      .where('createdAt', '<=', at)
      .executeTakeFirst(),
  ]);
  return event !== undefined || snapshot !== undefined;
}

/** The board's row and its visible areas, cards, their labels and assignees: the present, for a first snapshot. */
export async function presentRows(db: Db, boardId: number) {
  const board = await db.selectFrom('boards').selectAll().where('id', '=', boardId).executeTakeFirst();
  if (!board) return undefined;
  const areas = await db
    .selectFrom('areas')
    .select(['id', 'name'])
    .where('boardId', '=', boardId)
    .where('archivedAt', 'is', null)
    .orderBy('sort')
    .execute();
  const cards = await db
    .selectFrom('cards')
    .innerJoin('areas', 'areas.id', 'cards.areaId')
    .select(['cards.id', 'cards.areaId', 'cards.name', 'cards.content', 'cards.status', 'cards.dueDate'])
    .where('cards.boardId', '=', boardId)
    .where('cards.archivedAt', 'is', null)
    .where('areas.archivedAt', 'is', null)
    .orderBy('cards.areaId')
    .orderBy('cards.sort')
    .execute();
  const labels = await db
    .selectFrom('card_labels')
    .innerJoin('labels', 'labels.id', 'card_labels.labelId')
    .innerJoin('cards', 'cards.id', 'card_labels.cardId')
    .select(['card_labels.cardId', 'labels.id', 'labels.name'])
    .where('cards.boardId', '=', boardId)
    .orderBy('labels.id')
    .execute();
  const assignees = await db
    .selectFrom('card_assignees')
    .innerJoin('user', 'user.id', 'card_assignees.userId')
    .innerJoin('cards', 'cards.id', 'card_assignees.cardId')
    .select(['card_assignees.cardId', 'user.id', 'user.name', 'user.image', 'user.type'])
    .where('cards.boardId', '=', boardId)
    .orderBy('card_assignees.id')
    .execute();
  const values = await db
    .selectFrom('card_field_values')
    .innerJoin('cards', 'cards.id', 'card_field_values.cardId')
    .select(['card_field_values.cardId', 'card_field_values.fieldId', 'card_field_values.value'])
    .where('cards.boardId', '=', boardId)
    .execute();
  return { board, areas, cards, labels, assignees, values };
}
