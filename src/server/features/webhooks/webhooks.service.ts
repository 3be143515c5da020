import { writeBoard } from '../../events/board-write.js';
import { recordedWrite } from '../../events/write-record.js';
import { randomBytes } from 'node:crypto';
import type { Actor } from '../../auth/actor.js';
import { requireVerified } from '../../auth/identify.js';
import { missing, requireBoard, type Subject } from '../../access/index.js';
import { toIso } from '../../db/dialect.js';
import type { Db } from '../../db/database.js';
import type { ServiceDeps } from '../../deps.js';
import { badRequest, conflict } from '../../http/errors.js';
import { REDACTED } from '../../realtime/event-log.js';
import type { Webhook, WebhookCreate, WebhookDelivery, WebhookWithSecret } from '../../../shared/api/webhooks.js';
import { ForbiddenAddress, parseWebhookUrl, resolveTarget } from './address-guard.js';
import { enqueueDelivery } from './queue.js';
import * as repo from './webhooks.repository.js';

/** Webhooks one board may have. */
export const MAX_WEBHOOKS_PER_BOARD = 20;
/** Deliveries a list shows, newest first. */
export const DELIVERIES_LISTED = 50;

function present(row: repo.WebhookRow): Webhook {
  return {
    id: row.id,
    boardId: row.boardId,
    url: row.url,
    events: row.events === null ? [] : (JSON.parse(row.events) as string[]),
    active: row.active === 1,
    createdAt: toIso(row.createdAt),
  };
}

function presentDelivery(row: repo.DeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    event: row.event,
    status: row.status as WebhookDelivery['status'],
    responseStatus: row.responseStatus,
    attempts: row.attempts,
    createdAt: toIso(row.createdAt),
    deliveredAt: toIso(row.deliveredAt),
  };
}

/** A webhook and its board, refused like the board itself when the caller does not own it (404 when they cannot read it). */
async function ownedWebhook(db: Db, deps: ServiceDeps, actor: Actor, id: number, subject: Subject = 'Webhook') {
  const hook = await repo.findWebhook(db, id);
  if (!hook) throw missing(subject);
  await requireBoard(db, actor, hook.boardId, 'owner', { subject });
  return hook;
}

/**
 * Adds a webhook to a board (owner only). Its secret is made here and shown
 * in this answer only. It is kept as written, not hashed like API keys:
 * every delivery is signed with it (HMAC), which needs the secret itself.
 */
export async function createWebhook(deps: ServiceDeps, actor: Actor, input: WebhookCreate): Promise<WebhookWithSecret> {
  requireVerified(actor, 'webhooks');
  const { db } = deps.database;
  const url = parseWebhookUrl(input.url);
  await requireBoard(db, actor, input.boardId, 'owner');
  try {
    // Checked here so that a wrong address is refused at once; checked again at every delivery.
    await resolveTarget(url, deps.config.webhookAllowPrivate);
  } catch (error) {
    if (error instanceof ForbiddenAddress) throw badRequest(`body: url: ${error.message}`);
    throw badRequest(`body: url: ${url.hostname} could not be resolved`);
  }
  const events = [...new Set(input.events ?? [])];
  const secret = randomBytes(32).toString('hex');
  // The board's write path: its lock (two creates take turns over the count), the owner's check again, and the
  // Idempotency-Key's record in the same transaction (a retry after a lost answer is refused, not a second webhook).
  const row = await writeBoard(
    deps,
    actor,
    input.boardId,
    'owner',
    async ({ trx }) => {
      if ((await repo.countWebhooks(trx, input.boardId)) >= MAX_WEBHOOKS_PER_BOARD) {
        throw conflict(`A board has at most ${MAX_WEBHOOKS_PER_BOARD} webhooks`);
      }
      return repo.insertWebhook(trx, {
        boardId: input.boardId,
        url: url.href,
        events: events.length === 0 ? null : JSON.stringify(events),
        secret,
        createdAt: new Date().toISOString(),
      });
    },
    { allowArchived: true },
  );
  return { ...present(row), secret };
}

export async function listWebhooks(deps: ServiceDeps, actor: Actor, boardId: number): Promise<Webhook[]> {
  const { db } = deps.database;
  await requireBoard(db, actor, boardId, 'owner');
  return (await repo.listWebhooks(db, boardId)).map(present);
}

/** Removes a webhook with its deliveries; one being sent right now still arrives. */
export async function deleteWebhook(deps: ServiceDeps, actor: Actor, id: number): Promise<void> {
  await recordedWrite(deps.database.db, async (trx) => {
    await ownedWebhook(trx, deps, actor, id);
    await repo.deleteWebhook(trx, id);
  });
}

export async function listDeliveries(deps: ServiceDeps, actor: Actor, webhookId: number): Promise<WebhookDelivery[]> {
  const { db } = deps.database;
  await ownedWebhook(db, deps, actor, webhookId);
  return (await repo.recentDeliveries(db, webhookId, DELIVERIES_LISTED)).map(presentDelivery);
}

/**
 * Sends an earlier delivery's event again, as a new delivery (its own id, so
 * a receiver that deduplicates by id takes it), queued behind the webhook's
 * older pending ones like any other.
 */
export async function redeliver(deps: ServiceDeps, actor: Actor, deliveryId: number): Promise<WebhookDelivery> {
  // The Idempotency-Key's record in the same transaction: a retry after a lost answer gets this delivery, not a second.
  return recordedWrite(deps.database.db, async (trx) => {
    const original = await repo.findDelivery(trx, deliveryId);
    if (!original) throw missing('Delivery');
    const hook = await ownedWebhook(trx, deps, actor, original.webhookId, 'Delivery');
    if (hook.active !== 1) throw conflict('The webhook is inactive; add it again to deliver to it');
    const event = await repo.eventOf(trx, original.boardId, original.version);
    if (!event || event.name === REDACTED) throw conflict('The event of this delivery is no longer kept');
    const now = new Date();
    const [created] = await repo.insertDeliveries(trx, [
      {
        webhookId: hook.id,
        boardId: original.boardId,
        version: original.version,
        event: original.event,
        nextAttemptAt: now.toISOString(),
        createdAt: now.toISOString(),
      },
    ]);
    await enqueueDelivery(trx, { id: created!.id, webhookId: hook.id }, now);
    return presentDelivery((await repo.findDelivery(trx, created!.id))!);
  });
}
