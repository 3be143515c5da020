import type { Actor } from '../../auth/actor.js';
import type { Db } from '../../db/database.js';
import { nowIso, toIso } from '../../db/dialect.js';
import type { Dialect } from '../../db/dialects/index.js';
import type { Notification } from '../../../shared/api/notifications.js';
import type { Deps } from '../../deps.js';
import * as repo from './notifications.repository.js';
import type { NotificationRow } from './notifications.repository.js';

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
  const rows = await repo.insertNotifications(
    ctx.trx,
    recipients.map((userId) => ({
      userId,
      type: input.type,
      boardId: input.boardId,
      cardId: input.cardId,
      message: input.message,
      actorId: input.actor?.id ?? null,
      createdAt,
    })),
  );
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

function present(row: NotificationRow): Notification {
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
  const rows = await repo.notificationsWithRecipients(db, ids);
  return rows.map((row) => ({ userId: row.userId, notification: present(row) }));
}

/** The account's notifications, newest first; a page starts below `before` and knows whether more follow. */
export async function listNotifications(db: Db, userId: string, page: { limit?: number; before?: number }) {
  const rows = await repo.notificationsOf(db, userId, page);
  const hasMore = page.limit !== undefined && rows.length > page.limit;
  const unreadCount = await repo.countUnread(db, userId);
  return { notifications: rows.slice(0, page.limit).map(present), hasMore, unreadCount };
}
