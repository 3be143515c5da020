import type { Actor } from '../../auth/actor.js';
import type { Db } from '../../db/database.js';
import { nowIso, toIso } from '../../db/dialect.js';
import type { Dialect } from '../../db/dialects/index.js';
import type { Notification } from '../../../shared/api/notifications.js';
import type { Deps } from '../../deps.js';

export const NOTIFICATIONS_CHANNEL = 'tavla_notifications';

export type NotificationType =
  | 'card_created'
  | 'card_moved'
  | 'card_status_changed'
  | 'card_assigned'
  | 'comment'
  | 'card_due'
  | 'invitation'
  | 'webhook_disabled';

export interface NotifyContext {
  trx: Db;
  dialect: Dialect;
  afterCommit: (work: () => Promise<void>) => void;
}

/**
 * Writes a notification for each recipient (never the actor) in the
 * transaction of the change, and pushes them to the recipients' open
 * connections once it commits: announced to every process's listener where
 * there are several (PostgreSQL), else through the in-process bus.
 */
export async function notify(
  ctx: NotifyContext,
  deps: Pick<Deps, 'bus'>,
  input: {
    recipients: string[];
    type: NotificationType;
    boardId: number;
    cardId: number | null;
    message: string;
    actor: Actor | null;
  },
): Promise<void> {
  const recipients = [...new Set(input.recipients)].filter((id) => id !== input.actor?.id);
  if (recipients.length === 0) return;
  const createdAt = nowIso();
  const rows = await ctx.trx
    .insertInto('notifications')
    .values(
      recipients.map((userId) => ({
        userId,
        type: input.type,
        boardId: input.boardId,
        cardId: input.cardId,
        message: input.message,
        actorId: input.actor?.id ?? null,
        createdAt,
      })),
    )
    .returning(['id', 'userId'])
    .execute();
  if (await ctx.dialect.notify(ctx.trx, NOTIFICATIONS_CHANNEL, { ids: rows.map((r) => r.id) })) return;
  const actor = input.actor;
  const base = {
    type: input.type,
    boardId: input.boardId,
    cardId: input.cardId,
    message: input.message,
    isRead: false,
    createdAt,
  };
  const extra = actor ? { actorName: actor.name, actorImage: actor.image, actorType: 'human' } : {};
  ctx.afterCommit(() => {
    deps.bus.publishNotifications(rows.map((r) => ({ userId: r.userId, notification: { id: r.id, ...base, ...extra } })));
    return Promise.resolve();
  });
}

const columns = [
  'notifications.id',
  'notifications.type',
  'notifications.boardId',
  'notifications.cardId',
  'notifications.message',
  'notifications.isRead',
  'notifications.createdAt',
  'notifications.actorId',
  'user.name as actorName',
  'user.image as actorImage',
  'user.type as actorType',
] as const;

function selectNotifications(db: Db) {
  return db.selectFrom('notifications').leftJoin('user', 'user.id', 'notifications.actorId').select(columns);
}

type Row = Awaited<ReturnType<ReturnType<typeof selectNotifications>['execute']>>[number];

function present(row: Row): Notification {
  const n: Notification = {
    id: row.id,
    type: row.type,
    boardId: row.boardId,
    cardId: row.cardId,
    message: row.message,
    isRead: row.isRead === 1,
    createdAt: toIso(row.createdAt),
  };
  if (row.actorId && row.actorName !== null)
    Object.assign(n, { actorName: row.actorName, actorImage: row.actorImage, actorType: row.actorType ?? 'human' });
  return n;
}

/** Notifications by id with their recipients, for pushing (another process wrote them). */
export async function notificationsByIds(db: Db, ids: number[]): Promise<Array<{ userId: string; notification: Notification }>> {
  if (ids.length === 0) return [];
  const rows = await selectNotifications(db).select('notifications.userId').where('notifications.id', 'in', ids).execute();
  return rows.map((row) => ({ userId: row.userId, notification: present(row) }));
}

/** The account's notifications, newest first; a page starts below `before` and knows whether more follow. */
export async function listNotifications(db: Db, userId: string, page: { limit?: number; before?: number }) {
  let query = selectNotifications(db).where('notifications.userId', '=', userId).orderBy('notifications.id', 'desc');
  if (page.limit !== undefined) {
    if (page.before !== undefined) query = query.where('notifications.id', '<', page.before);
    query = query.limit(page.limit + 1);
  }
  const rows = await query.execute();
  const hasMore = page.limit !== undefined && rows.length > page.limit;
  const unread = await db
    .selectFrom('notifications')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('userId', '=', userId)
    .where('isRead', '=', 0)
    .executeTakeFirstOrThrow();
  return { notifications: rows.slice(0, page.limit).map(present), hasMore, unreadCount: Number(unread.n) };
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
