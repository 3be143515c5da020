import { sql } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Db } from '../db/database.js';

export type Clock = () => Date;

export interface JobContext {
  now: Date;
  payload: Record<string, unknown>;
}

/** A one-off job's handler may ask to run again later: not a failure, so no attempt is counted against it. */
export type JobOutcome = void | { runAgainAt: Date };

interface Kind {
  handler: (job: JobContext) => Promise<JobOutcome>;
  /** For recurring kinds: the pause between runs. */
  every?: number;
}

/** How long a claim lasts: a claimant that has not finished by then is presumed dead and the job runs again. */
const LEASE_MS = 5 * 60_000;
const MAX_ATTEMPTS = 10;
/**
 * A finished job's payload, written in the statement that marks it done: nothing
 * reads it again, and a mail's held an invitation or password-reset link.
 */
const SPENT = '{}';

/** Puts a one-off job in the queue (in the caller's transaction); a second job with the same key is ignored. */
export async function enqueue(db: Db, kind: string, key: string, payload: Record<string, unknown>, runAt: Date): Promise<void> {
  await db
    .insertInto('jobs')
    .values({ kind, key, payload: JSON.stringify(payload), runAt: runAt.toISOString(), createdAt: new Date().toISOString() })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
}

/** Removes the finished one-off jobs of a kind done before `before` (an ISO time). */
export async function pruneDoneJobs(db: Db, kind: string, before: string): Promise<void> {
  await db.deleteFrom('jobs').where('kind', '=', kind).where('doneAt', '<', before).execute();
}

/**
 * Jobs live in the database: a runner claims one due job at a time with a
 * lease (a row lock with SKIP LOCKED on PostgreSQL, so processes never take
 * the same job), runs its handler and marks it done or reschedules it.
 * Handlers are idempotent, so a job whose claimant died is simply run again
 * once the lease runs out.
 */
export class JobRunner {
  readonly #kinds = new Map<string, Kind>();
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #stopped = false;

  constructor(
    private readonly database: Database,
    private readonly log: FastifyBaseLogger,
    private readonly clock: Clock = () => new Date(),
  ) {}

  register(kind: string, handler: Kind['handler'], every?: number): void {
    this.#kinds.set(kind, every === undefined ? { handler } : { handler, every });
  }

  /** Makes sure each recurring kind has its row (due now the first time). */
  async seed(): Promise<void> {
    for (const [kind, { every }] of this.#kinds) {
      if (every !== undefined) await enqueue(this.database.db, kind, kind, {}, this.clock());
    }
  }

  /** Polls for due jobs until stopped. */
  async start(pollMs = 1000): Promise<void> {
    await this.seed();
    const tick = () => {
      if (this.#stopped) return;
      this.#running = this.runDue()
        .then(() => undefined)
        .catch((error: unknown) => this.log.error({ err: error }, 'job runner failed'))
        .finally(() => {
          if (!this.#stopped) this.#timer = setTimeout(tick, pollMs);
        });
    };
    tick();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#running;
  }

  /** Runs every job that is due now, one after another; answers how many ran. */
  async runDue(): Promise<number> {
    let ran = 0;
    while (!this.#stopped) {
      const claimed = await this.claim();
      if (!claimed) break;
      await this.run(claimed);
      ran++;
    }
    return ran;
  }

  /** Takes the next due job for this runner, or nothing. */
  async claim(): Promise<{ id: number; kind: string; payload: string; attempts: number; lockedUntil: string } | undefined> {
    const now = this.clock();
    const lockedUntil = new Date(now.getTime() + LEASE_MS).toISOString();
    const { db, dialect } = this.database;
    const due = db
      .selectFrom('jobs')
      .select('id')
      .where('doneAt', 'is', null)
      .where('runAt', '<=', now.toISOString())
      .where((eb) => eb.or([eb('lockedUntil', 'is', null), eb('lockedUntil', '<=', now.toISOString())]))
      .orderBy('runAt')
      .orderBy('id')
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

  /** Runs a claimed job and records the outcome, unless the claim was lost meanwhile. */
  async run(job: { id: number; kind: string; payload: string; attempts: number; lockedUntil: string }): Promise<void> {
    const kind = this.#kinds.get(job.kind);
    const now = this.clock();
    const mine = this.database.db.updateTable('jobs').where('id', '=', job.id).where('lockedUntil', '=', job.lockedUntil);
    try {
      if (!kind) throw new Error(`no handler for job kind ${job.kind}`);
      const outcome = await kind.handler({ now, payload: JSON.parse(job.payload) as Record<string, unknown> });
      if (outcome) {
        await mine.set({ runAt: outcome.runAgainAt.toISOString(), lockedUntil: null, attempts: 0, lastError: null }).execute();
      } else if (kind.every !== undefined) {
        await mine
          .set({ runAt: new Date(now.getTime() + kind.every).toISOString(), lockedUntil: null, attempts: 0, lastError: null })
          .execute();
      } else {
        await mine.set({ doneAt: now.toISOString(), lockedUntil: null, lastError: null, payload: SPENT }).execute();
      }
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.log.warn({ err: error, job: job.kind, attempt: job.attempts }, 'job failed');
      const giveUp = kind?.every === undefined && job.attempts >= MAX_ATTEMPTS;
      const backoff = Math.min(2 ** job.attempts * 30_000, 3600_000);
      await mine
        .set({
          lastError: message.slice(0, 1000),
          lockedUntil: null,
          runAt: new Date(now.getTime() + backoff).toISOString(),
          ...(giveUp ? { doneAt: now.toISOString(), payload: SPENT } : {}),
        })
        .execute();
    }
  }
}
