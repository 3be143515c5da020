import { pruneSignInFailures } from '../auth/lockout.js';
import type { Deps } from '../deps.js';
import { purgeArchived } from '../features/archive/retention.js';
import { pruneInviteLimits } from '../features/sharing/invite-limits.js';
import { sendDigests } from '../features/notifications/digest.js';
import { fireDueReminders } from '../features/notifications/reminders.js';
import type { Mail, Mailer } from '../mail/mailer.js';
import { pruneEvents } from '../realtime/event-log.js';
import { pruneIdempotencyKeys } from '../http/idempotency.js';
import { runDelivery } from '../features/webhooks/deliver.js';
import { DELIVERY_JOB } from '../features/webhooks/queue.js';
import { pruneDeliveries } from '../features/webhooks/retention.js';
import { JobRunner, type Clock } from './runner.js';

const MINUTE = 60_000;

/** The runner with every kind of job the service has. */
export function createJobRunner(deps: Deps, mailer: Mailer, clock?: Clock): JobRunner {
  const runner = new JobRunner(deps.database, deps.log, clock);
  runner.register('mail', async ({ payload }) => mailer.send(payload as unknown as Mail));
  runner.register('due-reminders', async ({ now }) => void (await fireDueReminders(deps, now)), MINUTE);
  runner.register('digest', async ({ now }) => void (await sendDigests(deps, now)), 15 * MINUTE);
  if (deps.config.archiveRetentionDays > 0)
    runner.register('archive-retention', async ({ now }) => void (await purgeArchived(deps, now)), 24 * 60 * MINUTE);
  runner.register('prune-invite-limits', async ({ now }) => pruneInviteLimits(deps.database.db, now), 6 * 60 * MINUTE);
  runner.register('prune-events', async ({ now }) => void (await pruneEvents(deps.database.db, now)), 6 * 60 * MINUTE);
  runner.register(
    'prune-signin-failures',
    async ({ now }) => void (await pruneSignInFailures(deps.database.db, now)),
    60 * MINUTE,
  );
  runner.register('prune-idempotency', async ({ now }) => void (await pruneIdempotencyKeys(deps.database.db, now)), 60 * MINUTE);
  runner.register(
    'prune-webhook-deliveries',
    async ({ now }) => void (await pruneDeliveries(deps.database.db, now)),
    6 * 60 * MINUTE,
  );
  runner.register(DELIVERY_JOB, ({ payload, now }) => runDelivery(deps, Number(payload.deliveryId), now));
  return runner;
}
