import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/database.js';
import type { Deps } from '../deps.js';
import { inSpan } from '../telemetry/tracing.js';
import {
  claimableKinds,
  claimDue,
  enqueue,
  loadByKind,
  markDone,
  markFailed,
  reschedule,
  type ClaimedJob,
  type KindFilter,
} from './jobs.repository.js';

export { enqueue, pruneDoneJobs, type EnqueueOptions } from './jobs.repository.js';

export type Clock = () => Date;

export interface JobContext {
  now: Date;
  payload: Record<string, unknown>;
}

/** A one-off job's handler may ask to run again later: not a failure, so no attempt is counted against it. */
export type JobOutcome = void | { runAgainAt: Date };

export type JobHandler = (job: JobContext) => Promise<JobOutcome>;

/** How a feature adds its kinds of job (and its queues) to the runner: each feature exports one, app.ts calls them. */
export type RegisterJobs = (runner: JobRunner, deps: Deps) => void;

export interface KindOptions {
  /** The queue whose slots the kind's jobs take; the maintenance queue when left out. */
  queue?: string;
  /** For recurring kinds: the pause between runs. */
  every?: number;
}

/** One queue's backlog, as a metric reads it. */
export interface QueueLoad {
  queue: string;
  /** Due jobs waiting for a slot (or for their lane). */
  depth: number;
  /** Jobs being run now, by any process. */
  running: number;
  /** How long the oldest waiting job has been due; 0 when none waits. */
  oldestAgeSeconds: number;
}

/**
 * The queue of kinds registered without one, and of jobs whose kind nobody
 * registered (left by an older version: they fail and are given up).
 */
export const MAINTENANCE_QUEUE = 'maintenance';

interface Kind {
  handler: JobHandler;
  queue: string;
  every?: number;
}

interface Queue {
  name: string;
  concurrency: number;
  running: Set<Promise<void>>;
  /** The loop claiming jobs for free slots, while one runs. */
  filling: Promise<void> | undefined;
  /** A slot came free (or a poll came) while the loop ran: it looks once more before it ends. */
  again: boolean;
}

/** How long a claim lasts: a claimant that has not finished by then is presumed dead and the job runs again. */
const LEASE_MS = 5 * 60_000;
const MAX_ATTEMPTS = 10;

/**
 * Jobs live in the database; the runner takes them in named queues, each
 * with its own number of slots, so a slow kind (webhook deliveries waiting
 * for their receivers) never holds up another (mail). A job is claimed with
 * a lease (a row lock with SKIP LOCKED on PostgreSQL, so processes never take
 * the same job), run, and marked done or rescheduled. Handlers are
 * idempotent, so a job whose claimant died is simply run again once the
 * lease runs out. Jobs may share a lane (see `enqueue`): those run one at a
 * time.
 */
export class JobRunner {
  readonly #kinds = new Map<string, Kind>();
  readonly #queues = new Map<string, Queue>();
  #timer: NodeJS.Timeout | undefined;
  /** The poll under way, if any: `stop` waits for it. */
  #polling: Promise<void> | undefined;
  #stopped = false;
  #finished = 0;

  constructor(
    private readonly database: Database,
    private readonly log: FastifyBaseLogger,
    private readonly clock: Clock = () => new Date(),
  ) {
    this.defineQueue(MAINTENANCE_QUEUE, { concurrency: 1 });
  }

  /** Adds a queue (or changes its number of slots): how many of its jobs this process runs at once. */
  defineQueue(name: string, { concurrency }: { concurrency: number }): void {
    if (!Number.isInteger(concurrency) || concurrency < 1) throw new Error(`queue ${name}: concurrency must be at least 1`);
    const queue = this.#queues.get(name);
    if (queue) queue.concurrency = concurrency;
    else this.#queues.set(name, { name, concurrency, running: new Set(), filling: undefined, again: false });
  }

  register(kind: string, handler: JobHandler, { queue = MAINTENANCE_QUEUE, every }: KindOptions = {}): void {
    if (!this.#queues.has(queue)) throw new Error(`job kind ${kind}: no queue named ${queue}`);
    this.#kinds.set(kind, every === undefined ? { handler, queue } : { handler, queue, every });
  }

  /** Makes sure each recurring kind has its row (due now the first time). */
  async seed(): Promise<void> {
    for (const [kind, { every }] of this.#kinds) {
      if (every !== undefined) await enqueue(this.database.db, kind, kind, {}, this.clock());
    }
  }

  /**
   * Polls for due jobs until stopped, one query a poll for all the queues
   * with a free slot (an idle instance asks once a poll, not once a queue);
   * a finished job's slot is filled at once, without waiting for the next poll.
   */
  async start(pollMs = 1000): Promise<void> {
    this.#stopped = false;
    await this.seed();
    const tick = () => {
      if (this.#stopped) return;
      this.#polling = this.#poll().finally(() => {
        this.#polling = undefined;
        if (!this.#stopped) this.#timer = setTimeout(tick, pollMs);
      });
    };
    tick();
  }

  /** Stops claiming and waits for the jobs under way. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    for (;;) {
      const pending = [...this.#queues.values()].flatMap((q) => [...q.running, ...(q.filling ? [q.filling] : [])]);
      if (this.#polling) pending.push(this.#polling);
      if (pending.length === 0) return;
      await Promise.allSettled(pending);
    }
  }

  /**
   * Runs every job that is due now, each queue with its slots side by side,
   * until none is due and none runs; answers how many finished meanwhile.
   */
  async runDue(): Promise<number> {
    const before = this.#finished;
    await Promise.all([...this.#queues.values()].map((queue) => this.#drain(queue)));
    return this.#finished - before;
  }

  /** Takes the next due job of a queue for this runner, or nothing. */
  claim(queue: string = MAINTENANCE_QUEUE): Promise<ClaimedJob | undefined> {
    const now = this.clock();
    return claimDue(this.database, this.#kindsOf(new Set([queue])), now, new Date(now.getTime() + LEASE_MS).toISOString());
  }

  /** Runs a claimed job and records the outcome, unless the claim was lost meanwhile. */
  run(job: ClaimedJob): Promise<void> {
    return inSpan(`job ${job.kind}`, { 'tavla.job.kind': job.kind, 'tavla.job.attempt': job.attempts }, () => this.#run(job));
  }

  async #run(job: ClaimedJob): Promise<void> {
    const { db } = this.database;
    const kind = this.#kinds.get(job.kind);
    const now = this.clock();
    try {
      if (!kind) throw new Error(`no handler for job kind ${job.kind}`);
      const outcome = await kind.handler({ now, payload: JSON.parse(job.payload) as Record<string, unknown> });
      if (outcome) await reschedule(db, job, outcome.runAgainAt);
      else if (kind.every !== undefined) await reschedule(db, job, new Date(now.getTime() + kind.every));
      else await markDone(db, job, now);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.log.warn({ err: error, job: job.kind, attempt: job.attempts }, 'job failed');
      const giveUp = kind?.every === undefined && job.attempts >= MAX_ATTEMPTS;
      const backoff = Math.min(2 ** job.attempts * 30_000, 3600_000);
      await markFailed(db, job, message, new Date(now.getTime() + backoff), giveUp ? now : null);
    }
  }

  /** Each queue's due work, every queue listed (an idle one with zeros), for metrics. */
  async queueLoad(): Promise<QueueLoad[]> {
    const now = this.clock();
    const loads = new Map<string, QueueLoad & { oldest: number }>();
    for (const name of this.#queues.keys()) {
      loads.set(name, { queue: name, depth: 0, running: 0, oldestAgeSeconds: 0, oldest: Infinity });
    }
    for (const row of await loadByKind(this.database.db, now)) {
      const load = loads.get(this.#queueOf(row.kind))!;
      load.depth += row.waiting;
      load.running += row.running;
      if (row.oldestDue !== null) load.oldest = Math.min(load.oldest, Date.parse(row.oldestDue));
    }
    return [...loads.values()].map(({ oldest, ...load }) => ({
      ...load,
      oldestAgeSeconds: oldest === Infinity ? 0 : Math.max(0, (now.getTime() - oldest) / 1000),
    }));
  }

  /** The kinds whose jobs these queues take (jobs of unregistered kinds go to the maintenance queue). */
  #kindsOf(queues: ReadonlySet<string>): KindFilter {
    const mine: string[] = [];
    const others: string[] = [];
    for (const [kind, spec] of this.#kinds) (queues.has(spec.queue) ? mine : others).push(kind);
    return queues.has(MAINTENANCE_QUEUE) ? { notIn: others } : { in: mine };
  }

  #queueOf(kind: string): string {
    return this.#kinds.get(kind)?.queue ?? MAINTENANCE_QUEUE;
  }

  /** One look for due work in every queue with a free slot (and no claiming loop under way), then fills those that have some. */
  async #poll(): Promise<void> {
    const free = new Set<string>();
    for (const queue of this.#queues.values()) {
      if (!queue.filling && queue.running.size < queue.concurrency) free.add(queue.name);
    }
    if (free.size === 0) return;
    try {
      const kinds = await claimableKinds(this.database.db, this.#kindsOf(free), this.clock());
      for (const name of new Set(kinds.map((kind) => this.#queueOf(kind)))) {
        if (free.has(name)) void this.#fill(this.#queues.get(name)!);
      }
    } catch (error) {
      this.log.error({ err: error }, 'job runner failed');
    }
  }

  /** Claims jobs into the queue's free slots; answers once no slot is free or nothing is due. */
  #fill(queue: Queue): Promise<void> {
    if (queue.filling) {
      queue.again = true;
      return queue.filling;
    }
    if (this.#stopped || queue.running.size >= queue.concurrency) return Promise.resolve();
    // The loop awaits a claim before it can end, so it clears `filling` only after this assignment.
    queue.filling = this.#fillLoop(queue);
    return queue.filling;
  }

  async #fillLoop(queue: Queue): Promise<void> {
    try {
      do {
        queue.again = false;
        while (!this.#stopped && queue.running.size < queue.concurrency) {
          const job = await this.claim(queue.name);
          if (!job) break;
          const running: Promise<void> = this.run(job)
            .catch((error: unknown) => this.log.error({ err: error, job: job.kind }, 'job outcome not recorded'))
            .finally(() => {
              queue.running.delete(running);
              this.#finished++;
              void this.#fill(queue);
            });
          queue.running.add(running);
        }
      } while (queue.again && !this.#stopped);
    } catch (error) {
      this.log.error({ err: error, queue: queue.name }, 'job runner failed');
    } finally {
      queue.filling = undefined;
    }
  }

  /** Fills the queue's slots again and again until nothing is due and nothing runs. */
  async #drain(queue: Queue): Promise<void> {
    for (;;) {
      await this.#fill(queue);
      if (queue.running.size === 0) return;
      await Promise.race(queue.running);
    }
  }
}
