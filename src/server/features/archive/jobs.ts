import type { RegisterJobs } from '../../jobs/runner.js';
import { purgeArchived } from './retention.js';

/** Archive retention, daily, when ARCHIVE_RETENTION_DAYS asks for it. */
export const registerArchiveJobs: RegisterJobs = (runner, deps) => {
  if (deps.config.archiveRetentionDays === 0) return;
  runner.register('archive-retention', async ({ now }) => void (await purgeArchived(deps, now)), { every: 24 * 3600_000 });
};
