import { sql, type Kysely } from 'kysely';
import type { ColumnTypes } from '../dialect.js';

/**
 * Jobs get a lane: jobs of one lane run one at a time while the runner runs
 * others side by side (a webhook's deliveries share one). The pending
 * deliveries queued before get their webhook's lane, read from their key
 * (`webhook-delivery:<delivery id>`).
 */
export async function up(db: Kysely<unknown>, _t: ColumnTypes): Promise<void> {
  await db.schema.alterTable('jobs').addColumn('lane', 'text').execute();
  await db.schema.createIndex('jobs_lane').on('jobs').columns(['lane', 'lockedUntil']).execute();
  await sql`
    update jobs set lane = (
      select 'webhook:' || cast(d.${sql.ref('webhookId')} as text)
      from webhook_deliveries d
      where d.id = cast(substr(jobs.key, ${sql.lit('webhook-delivery:'.length + 1)}) as integer)
    )
    where jobs.kind = 'webhook-delivery' and jobs.${sql.ref('doneAt')} is null`.execute(db);
}
