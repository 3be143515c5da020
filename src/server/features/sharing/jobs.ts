import type { RegisterJobs } from '../../jobs/runner.js';
import { pruneInviteLimits } from './invite-limits.js';

export const registerSharingJobs: RegisterJobs = (runner, deps) => {
  runner.register('prune-invite-limits', ({ now }) => pruneInviteLimits(deps.database.db, now), { every: 6 * 3600_000 });
};
