import { sql, type RawBuilder, type Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { Dialect } from '../../db/dialects/index.js';
import type { WebhookDeliveryTable, WebhookTable } from '../../db/schema.js';

export type WebhookRow = Selectable<WebhookTable>;
export type DeliveryRow = Selectable<WebhookDeliveryTable>;

export const findWebhook = (db: Db, id: number) => db.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirst();

export const listWebhooks = (db: Db, boardId: number) =>
  db.selectFrom('webhooks').selectAll().where('boardId', '=', boardId).orderBy('id').execute();

export async function countWebhooks(db: Db, boardId: number): Promise<number> {
  const row = await db
    .selectFrom('webhooks')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('boardId', '=', boardId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export const insertWebhook = (
  db: Db,
  values: { boardId: number; url: string; events: string | null; secret: string; createdAt: string },
) => db.insertInto('webhooks').values(values).returningAll().executeTakeFirstOrThrow();

export const deleteWebhook = (db: Db, id: number) => db.deleteFrom('webhooks').where('id', '=', id).execute();

/** An active webhook of a board, as the write path needs it to match events against its filter. */
export interface ActiveWebhook {
  id: number;
  /** The event names it wants as JSON text, or null for all. */
  events: string | null;
}

/**
 * The active webhooks of the board `boards.id` names, as JSON text: a column
 * of the statement that raises the board's version as it records events
 * (events/board-write.ts), so finding them costs no statement of its own.
 */
export function activeWebhooksOfBoard(dialect: Dialect): RawBuilder<string> {
  const { json } = dialect;
  const hooks = json.array(
    json.object({ id: 'w.id', events: 'w.events' }),
    'w.id',
    'webhooks w WHERE w."boardId" = boards.id AND w.active = 1',
  );
  return sql.raw<string>(json.text(hooks));
}

export const parseActiveWebhooks = (text: string): ActiveWebhook[] => JSON.parse(text) as ActiveWebhook[];

export const insertDeliveries = (
  db: Db,
  rows: Array<{ webhookId: number; boardId: number; version: number; event: string; nextAttemptAt: string; createdAt: string }>,
) => db.insertInto('webhook_deliveries').values(rows).returning(['id', 'webhookId']).execute();

export const findDelivery = (db: Db, id: number) =>
  db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).executeTakeFirst();

export const recentDeliveries = (db: Db, webhookId: number, limit: number) =>
  db.selectFrom('webhook_deliveries').selectAll().where('webhookId', '=', webhookId).orderBy('id', 'desc').limit(limit).execute();

/** The oldest undelivered delivery of the webhook ahead of this one (by board version), if any. */
export const pendingAhead = (db: Db, delivery: Pick<DeliveryRow, 'id' | 'webhookId' | 'version'>) =>
  db
    .selectFrom('webhook_deliveries')
    .select(['id', 'nextAttemptAt'])
    .where('webhookId', '=', delivery.webhookId)
    .where('status', '=', 'pending')
    .where((eb) =>
      eb.or([eb('version', '<', delivery.version), eb.and([eb('version', '=', delivery.version), eb('id', '<', delivery.id)])]),
    )
    .orderBy('version')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();

/** The stored event a delivery carries, with its actor's current name; nothing when it was pruned or redacted. */
export const eventOf = (db: Db, boardId: number, version: number) =>
  db
    .selectFrom('board_events')
    .leftJoin('user', 'user.id', 'board_events.actorId')
    .select([
      'board_events.name',
      'board_events.data',
      'board_events.actorId',
      'board_events.createdAt',
      'user.name as actorName',
    ])
    .where('board_events.boardId', '=', boardId)
    .where('board_events.version', '=', version)
    .executeTakeFirst();

export const updateDelivery = (
  db: Db,
  id: number,
  values: Partial<Pick<DeliveryRow, 'status' | 'attempts' | 'responseStatus' | 'lastError'>> & {
    nextAttemptAt?: string;
    deliveredAt?: string;
  },
) => db.updateTable('webhook_deliveries').set(values).where('id', '=', id).where('status', '=', 'pending').execute();

/** A success that came in time: the webhook's count of failures in a row starts again. */
export const resetFailures = (db: Db, id: number) =>
  db.updateTable('webhooks').set({ failures: 0 }).where('id', '=', id).execute();

/** Counts one more failure (or slow answer) in a row; answers the new count and whether the webhook is still active. */
export const countFailure = (db: Db, id: number) =>
  db
    .updateTable('webhooks')
    .set((eb) => ({ failures: eb('failures', '+', 1) }))
    .where('id', '=', id)
    .returning(['failures', 'active'])
    .executeTakeFirst();

/** Turns an active webhook off and gives up its pending deliveries; answers false when it was off already. */
export async function deactivateWebhook(db: Db, id: number): Promise<boolean> {
  const turned = await db
    .updateTable('webhooks')
    .set({ active: 0 })
    .where('id', '=', id)
    .where('active', '=', 1)
    .executeTakeFirst();
  if (Number(turned.numUpdatedRows) !== 1) return false;
  await db
    .updateTable('webhook_deliveries')
    .set({ status: 'failed' })
    .where('webhookId', '=', id)
    .where('status', '=', 'pending')
    .execute();
  return true;
}

/** Forgets finished deliveries made before `cutoff` (an ISO time); answers how many. */
export async function pruneFinishedDeliveries(db: Db, cutoff: string): Promise<number> {
  const result = await db
    .deleteFrom('webhook_deliveries')
    .where('status', '!=', 'pending')
    .where('createdAt', '<', cutoff)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
