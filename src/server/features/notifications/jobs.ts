import type { RegisterJobs } from '../../jobs/runner.js';
import { sendDigests } from './digest.js';
import { fireDueReminders } from './reminders.js';

const MINUTE = 60_000;
/** Reminders and digests: two slots, so a long digest run never delays a reminder. */
export const NOTIFICATIONS_QUEUE = 'notifications';

export const registerNotificationJobs: RegisterJobs = (runner, deps) => {
  runner.defineQueue(NOTIFICATIONS_QUEUE, { concurrency: 2 });
  runner.register('due-reminders', async ({ now }) => void (await fireDueReminders(deps, now)), {
    queue: NOTIFICATIONS_QUEUE,
    every: MINUTE,
  });
  runner.register('digest', async ({ now }) => void (await sendDigests(deps, now)), {
    queue: NOTIFICATIONS_QUEUE,
    every: 15 * MINUTE,
  });
};
