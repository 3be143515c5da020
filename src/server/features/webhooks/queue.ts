import type { Db } from '../../db/database.js';
import { enqueue } from '../../jobs/runner.js';
import type { BoardEvent } from '../../../shared/events.js';
import type { ChangeSubscriber } from '../../events/subscribers.js';
import { activeWebhooksOfBoard, insertDeliveries, parseActiveWebhooks, type ActiveWebhook } from './webhooks.repository.js';

export const DELIVERY_JOB = 'webhook-delivery';
/** The runner's queue the deliveries take their slots in (WEBHOOK_CONCURRENCY of them). */
export const WEBHOOKS_QUEUE = 'webhooks';

/**
 * Puts the job that sends one delivery in the queue (in the caller's
 * transaction), in its webhook's lane: the runner starts no delivery of a
 * webhook while another of its deliveries is being sent.
 */
export const enqueueDelivery = (db: Db, delivery: { id: number; webhookId: number }, at: Date) =>
  enqueue(db, DELIVERY_JOB, `${DELIVERY_JOB}:${delivery.id}`, { deliveryId: delivery.id }, at, {
    lane: `webhook:${delivery.webhookId}`,
  });

/**
 * Called by the write path in the transaction that records a board's events,
 * with the board's active webhooks as that transaction read them
 * (`activeWebhooksOfBoard`): one delivery row and one job per event and
 * matching webhook. Made in that transaction, they exist exactly when the
 * events do, whichever process wrote them and however many run.
 */
export async function queueWebhookDeliveries(
  trx: Db,
  boardId: number,
  events: readonly BoardEvent[],
  hooks: readonly ActiveWebhook[],
): Promise<void> {
  if (hooks.length === 0) return;
  const now = new Date();
  const rows = events.flatMap((event) =>
    hooks
      .filter((hook) => hook.events === null || (JSON.parse(hook.events) as string[]).includes(event.name))
      .map((hook) => ({
        webhookId: hook.id,
        boardId,
        version: event.version,
        event: event.name,
        nextAttemptAt: now.toISOString(),
        createdAt: now.toISOString(),
      })),
  );
  if (rows.length === 0) return;
  for (const delivery of await insertDeliveries(trx, rows)) await enqueueDelivery(trx, delivery, now);
}

/**
 * Webhook deliveries follow board changes (registered in app.ts): made in
 * the transaction that stores the events, the board's active webhooks riding
 * on the version bump.
 */
export const webhooksOnChange: ChangeSubscriber = {
  stored: {
    read: activeWebhooksOfBoard,
    store: (trx, boardId, events, hooks) => queueWebhookDeliveries(trx, boardId, events, parseActiveWebhooks(hooks)),
  },
};
