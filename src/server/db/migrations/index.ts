import { Migrator, sql, type Kysely, type Migration } from 'kysely';
import { columnTypes, type DialectName } from '../dialect.js';
import * as accounts from './0001_accounts.js';
import * as boards from './0002_boards.js';
import * as boardModel from './0003_board_model.js';
import * as collaboration from './0004_collaboration.js';
import * as notificationsJobs from './0005_notifications_jobs.js';
import * as proxyHardening from './0006-proxy-hardening.js';
import * as verifyInviteLimits from './0006-verify-invite-limits.js';
import * as agentsIdempotency from './0006_agents_idempotency.js';
import * as replayAccess from './0006-sockets-replay-access.js';
import * as webhooks from './0007-hooks-webhooks.js';
import * as templates from './0007-templates-board-templates.js';
import * as publicLinks from './0007-publink-public-links.js';
import * as icalFeeds from './0007-mywork-ical-feeds.js';
import * as cardSortKeys from './0008-card-sort-keys.js';
import * as jobLanes from './0009-jobs-lanes.js';
import * as notificationsAsData from './0009-notif-notifications-as-data.js';
import * as signInPerClient from './0009-limits-signin-per-client.js';
import * as exactlyOnce from './0009-idem-exactly-once.js';
import * as searchOffMovePath from './0010-pgperf-search-off-move-path.js';
import * as wipLimits from './0010-teams-area-wip-limits.js';
import * as announceInTransaction from './0010-revoke-announce-in-transaction.js';
import * as boardSnapshots from './0011-rewind-board-snapshots.js';
import * as customFields from './0011-fields-custom-fields.js';
import * as boardViews from './0012-lanes-board-views.js';

type Step = { up(db: Kysely<unknown>, t: ReturnType<typeof columnTypes>): Promise<void> };

/** In order; a name once released never changes. */
const steps: Record<string, Step> = {
  '0001_accounts': accounts,
  '0002_boards': boards,
  '0003_board_model': boardModel,
  '0004_collaboration': collaboration,
  '0005_notifications_jobs': notificationsJobs,
  '0006-proxy-hardening': proxyHardening,
  '0006-verify-invite-limits': verifyInviteLimits,
  '0006_agents_idempotency': agentsIdempotency,
  '0006-sockets-replay-access': replayAccess,
  '0007-hooks-webhooks': webhooks,
  '0007-templates-board-templates': templates,
  '0007-publink-public-links': publicLinks,
  '0007-mywork-ical-feeds': icalFeeds,
  '0008-card-sort-keys': cardSortKeys,
  '0009-jobs-lanes': jobLanes,
  '0009-notif-notifications-as-data': notificationsAsData,
  '0009-limits-signin-per-client': signInPerClient,
  '0009-idem-exactly-once': exactlyOnce,
  '0010-pgperf-search-off-move-path': searchOffMovePath,
  '0010-teams-area-wip-limits': wipLimits,
  '0010-revoke-announce-in-transaction': announceInTransaction,
  '0011-rewind-board-snapshots': boardSnapshots,
  '0011-fields-custom-fields': customFields,
  '0012-lanes-board-views': boardViews,
};

/**
 * Brings the schema up to date (or up to the step `upTo`, for testing what a
 * later step does to data written before it). Kysely's migrator holds a lock
 * while it runs, so several processes starting together on one PostgreSQL
 * migrate once.
 */
export async function migrate(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the migrator works on any schema
  db: Kysely<any>,
  dialect: DialectName | { name: DialectName },
  upTo?: string,
): Promise<void> {
  const migrator = migratorFor(db, dialect);
  const { error, results } = await (upTo === undefined ? migrator.migrateToLatest() : migrator.migrateTo(upTo));
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const reason = error instanceof Error ? error.message : 'see the log above';
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${reason}`);
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the migrator works on any schema
function migratorFor(db: Kysely<any>, dialect: DialectName | { name: DialectName }): Migrator {
  const t = columnTypes(typeof dialect === 'string' ? dialect : dialect.name);
  const migrations: Record<string, Migration> = {};
  for (const [name, step] of Object.entries(steps)) {
    migrations[name] = { up: (trx) => step.up(trx, t) };
  }
  return new Migrator({ db, provider: { getMigrations: () => Promise.resolve(migrations) } });
}

/** Where the database's schema stands against this version's steps, without changing it. */
export interface MigrationState {
  /** Steps of this version not yet run on the database (all of them on an empty one). */
  pending: string[];
  /** Steps the database ran that this version does not know: a newer version migrated it. */
  unknown: string[];
}

export async function migrationState(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the migrator works on any schema
  db: Kysely<any>,
  dialect: DialectName | { name: DialectName },
): Promise<MigrationState> {
  const known = await migratorFor(db, dialect).getMigrations();
  const pending = known.filter((m) => m.executedAt === undefined).map((m) => m.name);
  if (pending.length === known.length) return { pending, unknown: [] };
  // The migrator's own table (kysely_migration), which exists once any step ran.
  const { rows } = await sql<{ name: string }>`select name from kysely_migration`.execute(db);
  return { pending, unknown: rows.map((r) => r.name).filter((name) => !(name in steps)) };
}
