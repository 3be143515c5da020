import type { RegisterJobs } from '../../jobs/runner.js';
import { runDelivery } from './deliver.js';
import { DELIVERY_JOB, WEBHOOKS_QUEUE } from './queue.js';
import { pruneDeliveries } from './retention.js';

/**
 * Deliveries take WEBHOOK_CONCURRENCY slots of their own queue, so slow
 * receivers hold up other receivers' deliveries at most, never mail or
 * reminders; each webhook's lane keeps its deliveries one at a time.
 */
export const registerWebhookJobs: RegisterJobs = (runner, deps) => {
  runner.defineQueue(WEBHOOKS_QUEUE, { concurrency: deps.config.webhookConcurrency });
  runner.register(DELIVERY_JOB, ({ payload, now }) => runDelivery(deps, Number(payload.deliveryId), now), {
    queue: WEBHOOKS_QUEUE,
  });
  runner.register('prune-webhook-deliveries', async ({ now }) => void (await pruneDeliveries(deps.database.db, now)), {
    every: 6 * 3600_000,
  });
};
