import { pruneSignInFailures } from '../limits/signin-lockout.js';
import type { Deps } from '../deps.js';
import { pruneIdempotencyKeys } from '../http/idempotency.js';
import type { Mail, Mailer } from '../mail/mailer.js';
import { pruneEvents } from '../realtime/event-log.js';
import { JobRunner, type Clock } from './runner.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** Mail leaves through its own queue: whatever else is slow, an invitation or reset link goes out at once. */
export const MAIL_QUEUE = 'mail';
const MAIL_CONCURRENCY = 2;

/**
 * The runner with the core's jobs: mail, and the pruning of what the core
 * keeps (events, sign-in failures, idempotency keys). Features register
 * their own kinds (`RegisterJobs`, called by app.ts), so nothing here knows of them.
 */
export function createJobRunner(deps: Deps, mailer: Mailer, clock?: Clock): JobRunner {
  const runner = new JobRunner(deps.database, deps.log, clock);
  const { db } = deps.database;
  runner.defineQueue(MAIL_QUEUE, { concurrency: MAIL_CONCURRENCY });
  runner.register('mail', async ({ payload }) => mailer.send(payload as unknown as Mail), { queue: MAIL_QUEUE });
  runner.register('prune-events', async ({ now }) => void (await pruneEvents(db, now)), { every: 6 * HOUR });
  runner.register('prune-signin-failures', async ({ now }) => void (await pruneSignInFailures(db, now)), { every: HOUR });
  runner.register('prune-idempotency', async ({ now }) => void (await pruneIdempotencyKeys(db, now)), { every: HOUR });
  return runner;
}
