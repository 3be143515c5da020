import type { Db } from '../../db/database.js';
import { pruneDoneJobs } from '../../jobs/runner.js';
import { EVENT_RETENTION_DAYS } from '../../realtime/event-log.js';
import { DELIVERY_JOB } from './queue.js';
import { pruneFinishedDeliveries } from './webhooks.repository.js';

/**
 * Forgets finished deliveries (and their spent jobs) once the event log no
 * longer holds their events: they could not be sent again anyway. Pending
 * ones stay until they are delivered or given up.
 */
export async function pruneDeliveries(db: Db, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - EVENT_RETENTION_DAYS * 86_400_000).toISOString();
  const pruned = await pruneFinishedDeliveries(db, cutoff);
  await pruneDoneJobs(db, DELIVERY_JOB, cutoff);
  return pruned;
}
