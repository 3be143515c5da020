import { webhookDeliveries } from '../../metrics/metrics.js';
import { toIso } from '../../db/dialect.js';
import type { ServiceDeps } from '../../deps.js';
import type { JobOutcome } from '../../jobs/runner.js';
import { REDACTED } from '../../realtime/event-log.js';
import type { Db } from '../../db/database.js';
import { systemWrite, type SystemScope } from '../../events/board-write.js';
import { sendDelivery, type SendResult } from './send.js';
import {
  countFailure,
  deactivateWebhook,
  eventOf,
  findDelivery,
  findWebhook,
  pendingAhead,
  resetFailures,
  updateDelivery,
  type DeliveryRow,
  type WebhookRow,
} from './webhooks.repository.js';

/** The first retry waits this long; each further one twice as long as the one before, up to an hour. */
export const FIRST_RETRY_MS = 30_000;
const LONGEST_WAIT_MS = 3600_000;
/** A delivery is retried until this long after it was made, then given up. */
export const RETRY_WINDOW_MS = 24 * 3600_000;
/** Failed (or slow) attempts in a row, over all its deliveries, after which a webhook turns inactive. */
export const FAILURE_LIMIT = 50;
/** A delivery queued behind another looks again this long after that one's next attempt. */
const QUEUE_STEP_MS = 1000;

export const retryDelay = (attempts: number) => Math.min(FIRST_RETRY_MS * 2 ** (attempts - 1), LONGEST_WAIT_MS);

const time = (value: Date | string) => Date.parse(toIso(value));

/**
 * The job of one delivery. Per webhook, deliveries go out strictly in board
 * version order: one waits while an older one of its webhook is still
 * pending (being sent, or waiting for its retry), and goes once that one is
 * delivered or given up. So there is at most one request in flight per
 * webhook, whichever process runs the jobs (the webhook's lane in the runner
 * keeps a process from even starting a second one; this check is what holds
 * across processes), and a failing receiver holds the
 * rest back until it answers or the older delivery is given up. Each job
 * runs on one process at a time (the runner's lease); a process that dies
 * mid-send leaves the delivery pending and its job comes back: the receiver
 * may see a delivery id twice, never miss one.
 */
export async function runDelivery(deps: ServiceDeps, deliveryId: number, now: Date): Promise<JobOutcome> {
  const { db } = deps.database;
  const delivery = await findDelivery(db, deliveryId);
  if (!delivery || delivery.status !== 'pending') return;
  const hook = await findWebhook(db, delivery.webhookId);
  if (!hook) return;
  if (hook.active !== 1) {
    await updateDelivery(db, delivery.id, { status: 'failed', lastError: 'The webhook is inactive' });
    return;
  }
  const ahead = await pendingAhead(db, delivery);
  if (ahead) return { runAgainAt: new Date(Math.max(time(ahead.nextAttemptAt), now.getTime()) + QUEUE_STEP_MS) };
  if (time(delivery.nextAttemptAt) > now.getTime()) return { runAgainAt: new Date(time(delivery.nextAttemptAt)) };

  const event = await eventOf(db, delivery.boardId, delivery.version);
  if (!event || event.name === REDACTED) {
    // Pruned from the event log, or its content was deleted for good: there is nothing to send.
    await updateDelivery(db, delivery.id, { status: 'failed', lastError: 'The event is no longer kept' });
    return;
  }
  const body = JSON.stringify({
    deliveryId: delivery.id,
    boardId: delivery.boardId,
    version: delivery.version,
    name: delivery.event,
    actor: event.actorId === null ? null : { id: event.actorId, name: event.actorName ?? '' },
    data: JSON.parse(event.data) as unknown,
    createdAt: toIso(event.createdAt),
  });
  const result = await sendDelivery({
    url: hook.url,
    body,
    secret: hook.secret,
    event: delivery.event,
    deliveryId: delivery.id,
    allowPrivate: deps.config.webhookAllowPrivate,
    now,
  });
  const retryAt = await record(deps, hook, delivery, result, now);
  return retryAt ? { runAgainAt: retryAt } : undefined;
}

/**
 * Stores the outcome of one attempt; answers when to try again, if the
 * delivery is still pending. A receiver that answers 2xx but slower than
 * WEBHOOK_SLOW_MS got its delivery, yet the answer counts toward the
 * webhook's failures in a row like a failed one: one that keeps a delivery
 * slot busy for seconds at every event is turned off like one that fails.
 */
async function record(
  deps: ServiceDeps,
  hook: WebhookRow,
  delivery: DeliveryRow,
  result: SendResult,
  now: Date,
): Promise<Date | undefined> {
  const { db } = deps.database;
  const attempts = delivery.attempts + 1;
  const at = now.toISOString();
  const slow = result.ok && result.elapsedMs > deps.config.webhookSlowMs;
  /**
   * The attempt's outcome, in `trx`. The attempt that turns the webhook off
   * is a change to its board (`tell`: the owner hears of it through the
   * change's subscribers, a notification): without a board write at hand it
   * throws `TURNS_OFF`, undoing what it did, to be run again in one.
   */
  const store = async (trx: Db, tell?: SystemScope['tell']): Promise<Date | undefined> => {
    const note = slow ? `answered after ${result.elapsedMs} ms (slow above ${deps.config.webhookSlowMs} ms)` : result.error;
    const outcome = { attempts, responseStatus: result.status, lastError: note?.slice(0, 500) ?? null };
    if (result.ok) {
      await updateDelivery(trx, delivery.id, { ...outcome, status: 'delivered', deliveredAt: at });
      if (!slow) {
        await resetFailures(trx, hook.id);
        return undefined;
      }
    }
    const counted = await countFailure(trx, hook.id);
    if (counted && counted.active === 1 && counted.failures >= FAILURE_LIMIT) {
      if (!tell) throw TURNS_OFF;
      if (!result.ok) await updateDelivery(trx, delivery.id, outcome);
      // Its pending deliveries are given up with it; only the write that still finds it active tells of it.
      if (await deactivateWebhook(trx, hook.id)) tell('webhook.disabled', { url: hook.url, failures: FAILURE_LIMIT });
      return undefined;
    }
    if (result.ok) return undefined;
    const deadline = time(delivery.createdAt) + RETRY_WINDOW_MS;
    if (now.getTime() >= deadline) {
      await updateDelivery(trx, delivery.id, { ...outcome, status: 'failed' });
      return undefined;
    }
    const next = new Date(Math.min(now.getTime() + retryDelay(attempts), deadline));
    await updateDelivery(trx, delivery.id, { ...outcome, nextAttemptAt: next.toISOString() });
    return next;
  };
  let retryAt: Date | undefined;
  try {
    // Most outcomes touch the webhook's rows only: no board lock for them.
    retryAt = await db.transaction().execute((trx) => store(trx));
  } catch (error) {
    if (error !== TURNS_OFF) throw error;
    // A board gone took its webhook and deliveries with it: nothing is left to record.
    retryAt = await systemWrite(deps, hook.boardId, ({ trx, tell }) => store(trx, tell));
  }
  webhookDeliveries.inc({ outcome: result.ok ? (slow ? 'slow' : 'delivered') : retryAt ? 'retry' : 'failed' });
  return retryAt;
}

/** Thrown by an attempt's outcome that turns its webhook off outside a board write (see `record`). */
const TURNS_OFF = new Error('the webhook is turned off in a write to its board');
