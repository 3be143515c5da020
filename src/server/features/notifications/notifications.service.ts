import type { Actor } from '../../auth/actor.js';
import type { Db } from '../../db/database.js';
import { nowIso, toIso } from '../../db/dialect.js';
import type { Dialect } from '../../db/dialects/index.js';
import { announce, NEW_NOTIFICATIONS } from '../../db/channels.js';
import type { Notification } from '../../../shared/api/notifications.js';
import type { Deps } from '../../deps.js';
import type { Language } from '../../config.js';
import { isLanguage, readerLanguage } from '../../i18n/language.js';
import { notificationText, renderNotification, type NotificationData } from '../../i18n/notifications.js';
import { recordedWrite } from '../../events/write-record.js';
import * as repo from './notifications.repository.js';
import type { NotificationRow } from './notifications.repository.js';

export type { NotificationData, NotificationType } from '../../i18n/notifications.js';

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
 *
 * What is kept is the type and its parameters; each reader gets the text in
 * their language when reading. The text in the instance language is stored
 * beside them, for readers whose language is not known (the live push to an
 * account that chose none) and for an older version reading the table.
 */
export async function notify(
  ctx: NotifyContext,
  deps: Pick<Deps, 'bus' | 'config'>,
  input: NotificationData & {
    recipients: string[];
    boardId: number;
    cardId: number | null;
    actor: Actor | null;
  },
): Promise<void> {
  const recipients = [...new Set(input.recipients)].filter((id) => id !== input.actor?.id);
  if (recipients.length === 0) return;
  const createdAt = nowIso();
  const instance = deps.config.language;
  const message = renderNotification(input, instance);
  const params = JSON.stringify(input.params);
  const rows = await repo.insertNotifications(
    ctx.trx,
    recipients.map((userId) => ({
      userId,
      type: input.type,
      boardId: input.boardId,
      cardId: input.cardId,
      params,
      message,
      actorId: input.actor?.id ?? null,
      createdAt,
    })),
  );
  if (await announce(ctx.dialect, ctx.trx, NEW_NOTIFICATIONS, { ids: rows.map((r) => r.id) })) return;
  const chosen = new Map((await repo.languagesOf(ctx.trx, recipients)).map((a) => [a.id, a.language]));
  const textFor = (userId: string) => {
    const language = chosen.get(userId);
    return isLanguage(language) ? renderNotification(input, language) : message;
  };
  const actor = input.actor;
  const base = { type: input.type, boardId: input.boardId, cardId: input.cardId, isRead: false, createdAt };
  const extra = actor ? { actorName: actor.name, actorImage: actor.image, actorType: 'human' } : {};
  ctx.afterCommit(() => {
    deps.bus.publishNotifications(
      rows.map((r) => ({ userId: r.userId, notification: { id: r.id, ...base, message: textFor(r.userId), ...extra } })),
    );
    return Promise.resolve();
  });
}

/** A stored notification as its reader sees it; `language` null shows the text stored in the instance language. */
function present(row: NotificationRow, language: Language | null): Notification {
  const n: Notification = {
    id: row.id,
    type: row.type,
    boardId: row.boardId,
    cardId: row.cardId,
    message: notificationText(row, language),
    isRead: row.isRead === 1,
    createdAt: toIso(row.createdAt),
  };
  if (row.actorId && row.actorName !== null)
    Object.assign(n, { actorName: row.actorName, actorImage: row.actorImage, actorType: row.actorType ?? 'human' });
  return n;
}

/**
 * Notifications by id with their recipients, for pushing (another process
 * wrote them), each in its recipient's language: the account's, else the
 * instance's as it was stored (a push answers no request to take a language from).
 */
export async function notificationsByIds(db: Db, ids: number[]): Promise<Array<{ userId: string; notification: Notification }>> {
  if (ids.length === 0) return [];
  const rows = await repo.notificationsWithRecipients(db, ids);
  return rows.map((row) => ({
    userId: row.userId,
    notification: present(row, isLanguage(row.readerLanguage) ? row.readerLanguage : null),
  }));
}

/**
 * The account's notifications, newest first; a page starts below `before`
 * and knows whether more follow. The texts speak the account's language, else
 * the one the request asks for (`Accept-Language`), else the instance's.
 */
export async function listNotifications(
  db: Db,
  userId: string,
  page: { limit?: number; before?: number },
  asked: { acceptLanguage: string | undefined; instance: Language },
) {
  const language = readerLanguage(await repo.languageOf(db, userId), asked.acceptLanguage, asked.instance);
  const rows = await repo.notificationsOf(db, userId, page);
  const hasMore = page.limit !== undefined && rows.length > page.limit;
  const unreadCount = await repo.countUnread(db, userId);
  return { notifications: rows.slice(0, page.limit).map((row) => present(row, language)), hasMore, unreadCount };
}

/** Cards with an unread notification for the account, optionally on one board. */
export function unreadCardIds(db: Db, userId: string, boardId?: number): Promise<number[]> {
  return repo.unreadCardIds(db, userId, boardId);
}

/** Boards with an unread notification of the account's (about a card of theirs, or their own). */
export function unreadBoardIds(db: Db, userId: string): Promise<number[]> {
  return repo.unreadBoardIds(db, userId);
}

/**
 * Marks the account's own notifications read: everything about a card, a
 * board's own ones, or one. The Idempotency-Key's record commits with it.
 */
export function markRead(db: Db, userId: string, target: { cardId?: number; boardId?: number; id?: number }): Promise<void> {
  return recordedWrite(db, (trx) => repo.markRead(trx, userId, target));
}
