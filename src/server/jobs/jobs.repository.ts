import { sql, type ExpressionBuilder } from 'kysely';
import type { Database, Db } from '../db/database.js';
import { toIso } from '../db/dialect.js';
import type { Schema } from '../db/schema.js';

/**
 * A finished job's payload, written in the statement that marks it done: nothing
 * reads it again, and a mail's held an invitation or password-reset link.
 */
const SPENT = '{}';

export interface ClaimedJob {
  id: number;
  kind: string;
  payload: string;
  attempts: number;
  /** The lease this claim holds: the outcome is written only while the row still carries it. */
  lockedUntil: string;
}

/** Which kinds a queue takes: those named, or (the fallback queue) every kind but those named. */
export type KindFilter = { in: readonly string[] } | { notIn: readonly string[] };

export interface EnqueueOptions {
  /**
   * Jobs of one lane run one at a time: none is claimed while another of
   * its lane is (a webhook's deliveries share one, so at most one request
   * goes to a receiver at once).
   */
  lane?: string;
}

/** Puts a one-off job in the queue (in the caller's transaction); a second job with the same key is ignored. */
export async function enqueue(
  db: Db,
  kind: string,
  key: string,
  payload: Record<string, unknown>,
  runAt: Date,
  options: EnqueueOptions = {},
): Promise<void> {
  await db
    .insertInto('jobs')
    .values({
      kind,
      key,
      payload: JSON.stringify(payload),
      runAt: runAt.toISOString(),
      createdAt: new Date().toISOString(),
      lane: options.lane ?? null,
    })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
}

/** Removes the finished one-off jobs of a kind done before `before` (an ISO time). */
export async function pruneDoneJobs(db: Db, kind: string, before: string): Promise<void> {
  await db.deleteFrom('jobs').where('kind', '=', kind).where('doneAt', '<', before).execute();
}

// An empty list is no condition SQL can write (`in ()`): a constant stands for it.
const ofKinds = (kinds: KindFilter) => (eb: ExpressionBuilder<Schema, 'jobs'>) =>
  'in' in kinds
    ? kinds.in.length === 0
      ? sql<boolean>`1 = 0`
      : eb('jobs.kind', 'in', kinds.in)
    : kinds.notIn.length === 0
      ? sql<boolean>`1 = 1`
      : eb('jobs.kind', 'not in', kinds.notIn);

/**
 * Due jobs a claim may take at `at`: not done, not under lease, and not in a
 * lane that has a job under lease.
 */
const claimable = (at: string) => (eb: ExpressionBuilder<Schema, 'jobs'>) =>
  eb.and([
    eb('jobs.doneAt', 'is', null),
    eb('jobs.runAt', '<=', at),
    eb.or([eb('jobs.lockedUntil', 'is', null), eb('jobs.lockedUntil', '<=', at)]),
    eb.or([
      eb('jobs.lane', 'is', null),
      eb.not(
        eb.exists(
          eb
            .selectFrom('jobs as busy')
            .select('busy.id')
            .whereRef('busy.lane', '=', 'jobs.lane')
            .whereRef('busy.id', '!=', 'jobs.id')
            .where('busy.doneAt', 'is', null)
            .where('busy.lockedUntil', '>', at),
        ),
      ),
    ]),
  ]);

/** The kinds (of those given) that have a job a claim could take now: one look for every queue with a free slot. */
export async function claimableKinds(db: Db, kinds: KindFilter, now: Date): Promise<string[]> {
  const rows = await db
    .selectFrom('jobs')
    .select('jobs.kind')
    .distinct()
    .where(claimable(now.toISOString()))
    .where(ofKinds(kinds))
    .execute();
  return rows.map((row) => row.kind);
}

/**
 * Takes the oldest due job of the given kinds with a lease until
 * `lockedUntil`, passing over rows another claimant holds (SKIP LOCKED on
 * PostgreSQL) and jobs whose lane has a job under lease. Across processes two
 * claims of one lane may still cross (each statement sees the table as it
 * was when it began): a lane orders work within a process, and the job kinds
 * that use one keep their own order too (webhooks/deliver.ts).
 */
export async function claimDue(
  database: Database,
  kinds: KindFilter,
  now: Date,
  lockedUntil: string,
): Promise<ClaimedJob | undefined> {
  const { db, dialect } = database;
  const at = now.toISOString();
  const due = db
    .selectFrom('jobs')
    .select('jobs.id')
    .where(claimable(at))
    .where(ofKinds(kinds))
    .orderBy('jobs.runAt')
    .orderBy('jobs.id')
    .limit(1)
    .$call((q) => dialect.skipLocked(q));
  const row = await db
    .updateTable('jobs')
    .set({ lockedUntil, attempts: sql<number>`attempts + 1` })
    .where('id', '=', (eb) => eb.selectFrom(due.as('due')).select('due.id'))
    .returning(['id', 'kind', 'payload', 'attempts'])
    .executeTakeFirst();
  return row && { ...row, lockedUntil };
}

/** A claimed job's row, as long as the claim is still this one (not lost to an expired lease and another claimant). */
const claimed = (db: Db, job: ClaimedJob) =>
  db.updateTable('jobs').where('id', '=', job.id).where('lockedUntil', '=', job.lockedUntil);

/** The job finished: it is done, and its payload is forgotten. */
export const markDone = (db: Db, job: ClaimedJob, now: Date) =>
  claimed(db, job).set({ doneAt: now.toISOString(), lockedUntil: null, lastError: null, payload: SPENT }).execute();

/** The job runs again at `runAt` with a fresh count of attempts (a recurring job's next turn, or a handler's own request). */
export const reschedule = (db: Db, job: ClaimedJob, runAt: Date) =>
  claimed(db, job).set({ runAt: runAt.toISOString(), lockedUntil: null, attempts: 0, lastError: null }).execute();

/** The job failed: it is tried again at `retryAt`, or given up (done, payload forgotten). */
export const markFailed = (db: Db, job: ClaimedJob, error: string, retryAt: Date, giveUpAt: Date | null) =>
  claimed(db, job)
    .set({
      lastError: error.slice(0, 1000),
      lockedUntil: null,
      runAt: retryAt.toISOString(),
      ...(giveUpAt ? { doneAt: giveUpAt.toISOString(), payload: SPENT } : {}),
    })
    .execute();

export interface KindLoad {
  kind: string;
  /** Due jobs nobody holds: waiting for a free slot (or for their lane). */
  waiting: number;
  /** Jobs under lease now: being run (or their claimant died and the lease has not run out yet). */
  running: number;
  /** The time the oldest waiting job was due, or null when none waits. */
  oldestDue: string | null;
}

/** How much work is due, per kind, at `now`. */
export async function loadByKind(db: Db, now: Date): Promise<KindLoad[]> {
  const at = now.toISOString();
  const rows = await db
    .selectFrom('jobs')
    .select((eb) => {
      const free = eb.or([eb('lockedUntil', 'is', null), eb('lockedUntil', '<=', at)]);
      return [
        'kind',
        eb.fn.sum<number | string>(eb.case().when(free).then(1).else(0).end()).as('waiting'),
        eb.fn.sum<number | string>(eb.case().when(free).then(0).else(1).end()).as('running'),
        eb.fn.min<Date | string | null>(eb.case().when(free).then(eb.ref('runAt')).end()).as('oldestDue'),
      ];
    })
    .where('doneAt', 'is', null)
    .where('runAt', '<=', at)
    .groupBy('kind')
    .execute();
  return rows.map((row) => ({
    kind: row.kind,
    waiting: Number(row.waiting),
    running: Number(row.running),
    oldestDue: toIso(row.oldestDue),
  }));
}
