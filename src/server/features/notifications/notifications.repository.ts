import { sql, type Insertable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { Dialect } from '../../db/dialects/index.js';
import type { NotificationTable } from '../../db/schema.js';

/** Answers the new rows' ids with their recipients, for pushing them once the transaction commits. */
export function insertNotifications(db: Db, rows: Array<Insertable<NotificationTable>>) {
  return db.insertInto('notifications').values(rows).returning(['id', 'userId']).execute();
}

const columns = [
  'notifications.id',
  'notifications.type',
  'notifications.boardId',
  'notifications.cardId',
  'notifications.params',
  'notifications.message',
  'notifications.isRead',
  'notifications.createdAt',
  'notifications.actorId',
  'user.name as actorName',
  'user.image as actorImage',
  'user.type as actorType',
] as const;

/** With the actor's name and picture while that account exists. */
function selectNotifications(db: Db) {
  return db.selectFrom('notifications').leftJoin('user', 'user.id', 'notifications.actorId').select(columns);
}

export type NotificationRow = Awaited<ReturnType<ReturnType<typeof selectNotifications>['execute']>>[number];

/** Notifications by id with their recipients and the recipients' languages (`ids` must not be empty). */
export function notificationsWithRecipients(
  db: Db,
  ids: number[],
): Promise<Array<NotificationRow & { userId: string; readerLanguage: string | null }>> {
  return selectNotifications(db)
    .innerJoin('user as reader', 'reader.id', 'notifications.userId')
    .select(['notifications.userId', 'reader.language as readerLanguage'])
    .where('notifications.id', 'in', ids)
    .execute();
}

/** The language each account chose (null where none), for the accounts given (not empty). */
export function languagesOf(db: Db, userIds: string[]): Promise<Array<{ id: string; language: string | null }>> {
  return db.selectFrom('user').select(['id', 'language']).where('id', 'in', userIds).execute();
}

export async function languageOf(db: Db, userId: string): Promise<string | null> {
  return (await db.selectFrom('user').select('language').where('id', '=', userId).executeTakeFirst())?.language ?? null;
}

/**
 * The account's notifications, newest first. With a limit, the page starts
 * below `before` and holds one row more than asked, which tells the caller
 * whether more follow.
 */
export function notificationsOf(db: Db, userId: string, page: { limit?: number; before?: number }): Promise<NotificationRow[]> {
  let query = selectNotifications(db).where('notifications.userId', '=', userId).orderBy('notifications.id', 'desc');
  if (page.limit !== undefined) {
    if (page.before !== undefined) query = query.where('notifications.id', '<', page.before);
    query = query.limit(page.limit + 1);
  }
  return query.execute();
}

export async function countUnread(db: Db, userId: string): Promise<number> {
  const row = await db
    .selectFrom('notifications')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('userId', '=', userId)
    .where('isRead', '=', 0)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Cards with an unread notification for the account, optionally on one board. */
export async function unreadCardIds(db: Db, userId: string, boardId?: number): Promise<number[]> {
  const rows = await db
    .selectFrom('notifications')
    .select('cardId')
    .distinct()
    .where('userId', '=', userId)
    .where('isRead', '=', 0)
    .where('cardId', 'is not', null)
    .$if(boardId !== undefined, (q) => q.where('boardId', '=', boardId!))
    .orderBy('cardId')
    .execute();
  return rows.map((r) => r.cardId!);
}

/** Ids of the boards with an unread notification of the account's (about a card of theirs, or their own). */
export async function unreadBoardIds(db: Db, userId: string): Promise<number[]> {
  const rows = await db
    .selectFrom('notifications')
    .select('boardId')
    .distinct()
    .where('userId', '=', userId)
    .where('isRead', '=', 0)
    .where('boardId', 'is not', null)
    .orderBy('boardId')
    .execute();
  return rows.map((r) => r.boardId!);
}

/** Marks read: everything about a card, a board's own (card-less) notifications, or one notification. */
export async function markRead(
  db: Db,
  userId: string,
  target: { cardId?: number; boardId?: number; id?: number },
): Promise<void> {
  let query = db.updateTable('notifications').set({ isRead: 1 }).where('userId', '=', userId).where('isRead', '=', 0);
  if (target.cardId !== undefined) query = query.where('cardId', '=', target.cardId);
  else if (target.boardId !== undefined) query = query.where('boardId', '=', target.boardId).where('cardId', 'is', null);
  else query = query.where('id', '=', target.id!);
  await query.execute();
}

/*
 * The hourly digest (digest.ts).
 */

/** Accounts with unread notifications no digest carried yet, that have not turned the mails off. */
export function accountsAwaitingDigest(
  db: Db,
  dialect: Dialect,
): Promise<Array<{ id: string; email: string; language: string | null }>> {
  return db
    .selectFrom('notifications')
    .innerJoin('user', 'user.id', 'notifications.userId')
    .select(['user.id', 'user.email', 'user.language'])
    .distinct()
    .where('notifications.isRead', '=', 0)
    .where('notifications.emailedAt', 'is', null)
    .where(sql<boolean>`${sql.ref('user.emailNotifications')} = ${dialect.true}`)
    .execute();
}

/**
 * Takes the account's digest slot unless a digest went out after `slot`;
 * answers whether it was taken. The conditional update is the claim, so two
 * processes racing the same account send one digest.
 */
export async function claimDigestSlot(db: Db, userId: string, now: string, slot: string): Promise<boolean> {
  await db
    .insertInto('account_mail')
    .values({ userId, lastDigestAt: null })
    .onConflict((oc) => oc.column('userId').doNothing())
    .execute();
  const claimed = await db
    .updateTable('account_mail')
    .set({ lastDigestAt: now })
    .where('userId', '=', userId)
    .where((eb) => eb.or([eb('lastDigestAt', 'is', null), eb('lastDigestAt', '<=', slot)]))
    .executeTakeFirst();
  return Number(claimed.numUpdatedRows) === 1;
}

/** The account's unread notifications not mailed yet, newest first. */
export function undigested(
  db: Db,
  userId: string,
): Promise<Array<{ id: number; type: string; params: string | null; message: string }>> {
  return db
    .selectFrom('notifications')
    .select(['id', 'type', 'params', 'message'])
    .where('userId', '=', userId)
    .where('isRead', '=', 0)
    .where('emailedAt', 'is', null)
    .orderBy('id', 'desc')
    .execute();
}

export async function markEmailed(db: Db, ids: number[], now: string): Promise<void> {
  await db.updateTable('notifications').set({ emailedAt: now }).where('id', 'in', ids).execute();
}

/*
 * Due-date reminders (reminders.ts).
 */

/** Reminders of cards that are due some time, not done, and not archived (nor their area or board). */
export function remindersOfOpenCards(db: Db) {
  return db
    .selectFrom('card_reminders')
    .innerJoin('cards', 'cards.id', 'card_reminders.cardId')
    .innerJoin('areas', 'areas.id', 'cards.areaId')
    .innerJoin('boards', 'boards.id', 'cards.boardId')
    .select([
      'card_reminders.id',
      'card_reminders.minutesBefore',
      'card_reminders.firedFor',
      'cards.id as cardId',
      'cards.name',
      'cards.dueDate',
      'cards.boardId',
      'boards.name as boardName',
    ])
    .where('cards.dueDate', 'is not', null)
    .where('cards.status', '=', 0)
    .where('cards.archivedAt', 'is', null)
    .where('areas.archivedAt', 'is', null)
    .where('boards.archivedAt', 'is', null)
    .execute();
}

/**
 * Records that the reminder fired for this due date; answers whether this
 * call did. The conditional update is the claim, so two processes racing
 * the same reminder notify once.
 */
export async function claimReminder(db: Db, id: number, due: string): Promise<boolean> {
  const claimed = await db
    .updateTable('card_reminders')
    .set({ firedFor: due })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('firedFor', 'is', null), eb('firedFor', '!=', due)]))
    .executeTakeFirst();
  return Number(claimed.numUpdatedRows) === 1;
}

/** The card's assignees in the order they were put on it. */
export async function assigneesOf(db: Db, cardId: number): Promise<string[]> {
  return (await db.selectFrom('card_assignees').select('userId').where('cardId', '=', cardId).orderBy('id').execute()).map(
    (a) => a.userId,
  );
}
