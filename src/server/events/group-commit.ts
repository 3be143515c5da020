import type { Db } from '../db/database.js';
import { dialectOf } from '../db/dialects/index.js';
import { rollbackToWriteSavepoint } from './board-write.repository.js';

/**
 * At most this many writes share one transaction: more would amortise the
 * commit further but make the first of them wait for the last.
 */
export const MAX_BATCH = 48;

const observers = new Set<(size: number) => void>();

/** Hears the size of every batch as it starts (for the tests and the benchmarks): answers how to stop. */
export function observeBatches(observer: (size: number) => void): () => void {
  observers.add(observer);
  return () => observers.delete(observer);
}

const commitObservers = new Set<(size: number) => void>();

/**
 * Hears every committed batch, before any of its writes is answered (for
 * tests that stop a process between a commit and its answers): answers how to stop.
 */
export function observeCommits(observer: (size: number) => void): () => void {
  commitObservers.add(observer);
  return () => commitObservers.delete(observer);
}

/** Tells the commit observers of a commit made outside a batch (a recorded write of its own, `recordedWrite`). */
export function heardCommit(size: number): void {
  for (const observer of commitObservers) observer(size);
}

/** One write waiting for a batch: `run` does its work in the batch's transaction. */
export interface Queued<S> {
  run: (trx: Db, state: S) => Promise<unknown>;
  /** Called after `run` succeeded: the write's changes are part of the batch (they commit or fail with it). */
  kept?: (state: S) => void;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** What a batch does around its writes: before the first, after the last (still inside), after the commit. */
export interface BatchHooks<S> {
  begin: (trx: Db) => Promise<S>;
  finish: (trx: Db, state: S) => Promise<void>;
  /** After the commit, before any write's promise resolves (in commit order across batches); must not throw. */
  committed: (state: S) => void;
}

/**
 * Group commit: writes that arrive while a batch of their queue runs join
 * the next one. A batch is one transaction in which every write runs in a
 * savepoint of its own, so a write that throws is undone alone and gets its
 * own error while the others commit together, with one COMMIT (one fsync).
 * A failed COMMIT fails every write of the batch.
 */
export class GroupCommit<S> {
  readonly #waiting: Array<Queued<S>> = [];
  #running = false;

  constructor(
    private readonly db: Db,
    private readonly hooks: BatchHooks<S>,
    private readonly onIdle: () => void,
  ) {}

  submit(entry: Queued<S>): void {
    this.#waiting.push(entry);
    if (!this.#running) this.#next();
  }

  #next(): void {
    if (this.#waiting.length === 0) {
      this.#running = false;
      this.onIdle();
      return;
    }
    this.#running = true;
    // One turn of the event loop first: the requests already read get to queue their writes and join.
    setImmediate(() => void this.#run());
  }

  async #run(): Promise<void> {
    // The batch is taken once the transaction has its connection: whoever arrived meanwhile joins it.
    let batch: Array<Queued<S>> = [];
    const outcomes: Array<{ ok: true; value: unknown } | { ok: false; error: unknown }> = [];
    let state: S | undefined;
    let failure: { error: unknown } | null = null;
    try {
      await this.db.transaction().execute(async (trx) => {
        batch = this.#waiting.splice(0, MAX_BATCH);
        for (const observer of observers) observer(batch.length);
        state = await this.hooks.begin(trx);
        // Alone in its batch, a write needs no savepoint: its error rolls back the transaction, which is all of it.
        const alone = batch.length === 1;
        const dialect = dialectOf(trx);
        // Each write's savepoint stays open until the next write's replaces it; the commit ends the last one.
        for (const [i, entry] of batch.entries()) {
          if (!alone) await dialect.savepoint(trx, i > 0);
          try {
            const value = await entry.run(trx, state);
            // Its statements sent ahead answer for it now, before the next write's savepoint replaces its own.
            if (!alone) await dialect.settle(trx);
            entry.kept?.(state);
            outcomes.push({ ok: true, value });
          } catch (error) {
            if (alone) throw error;
            // What it sent ahead is undone with it: an error still on its way is this write's, not the rollback's.
            await dialect.settle(trx).catch(() => undefined);
            await rollbackToWriteSavepoint(trx);
            outcomes.push({ ok: false, error });
          }
        }
        if (outcomes.some((o) => o.ok)) await this.hooks.finish(trx, state);
      });
    } catch (error) {
      failure = { error };
      // No transaction at all (no connection): the writes waiting for it cannot run either.
      if (batch.length === 0) batch = this.#waiting.splice(0, MAX_BATCH);
    }
    if (!failure) heardCommit(batch.length);
    if (!failure && state !== undefined) this.hooks.committed(state);
    // The next batch may start now: its events cannot overtake these, already published.
    this.#next();
    batch.forEach((entry, i) => {
      const outcome = outcomes[i];
      if (failure) entry.reject(failure.error);
      else if (outcome?.ok) entry.resolve(outcome.value);
      else entry.reject(outcome?.error);
    });
  }
}
