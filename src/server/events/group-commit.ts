import type { Db, Statement } from '../db/database.js';
import { dialectOf, type Dialect } from '../db/dialects/index.js';
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

/** How a batch's writes were sent back to back (`GroupCommit`'s pipelined batches; zero elsewhere). */
export interface PipeCounts {
  /** Exchanges (one round trip each) that carried writes back to back. */
  windows: number;
  /** Writes they carried (those sent again counted again). */
  sent: number;
  /** Writes undone after they were sent (to be sent again, or failed). */
  undone: number;
}

const pipeObservers = new Set<(counts: PipeCounts) => void>();

/** Hears, after every batch, how its writes went back to back (for the tests and `--trace-pg`): answers how to stop. */
export function observePipes(observer: (counts: PipeCounts) => void): () => void {
  pipeObservers.add(observer);
  return () => pipeObservers.delete(observer);
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

/** How one write of a batch ended. */
type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/** One write waiting for a batch: `run` does its work in the batch's transaction. */
export interface Queued<S> {
  run: (trx: Db, state: S) => Promise<unknown>;
  /**
   * The write as statements to send back to back with the writes beside it
   * (`Dialect.pipeline`), where the dialect can: answers null when it cannot
   * be (then `run` runs it). `mayRead`: it may read first (nothing is on the
   * wire), else it must run no statement at all. Throwing refuses the write.
   */
  quick?: (trx: Db, state: S, mayRead: boolean) => Promise<QuickSend | null>;
  /** Called after `run` succeeded: the write's changes are part of the batch (they commit or fail with it). */
  kept?: (state: S) => void;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** A write ready to be sent back to back with others (`Queued.quick`). */
export interface QuickSend {
  /** In order; the last one's rows tell what the write did. */
  statements: ReadonlyArray<Statement>;
  /**
   * From the last statement's rows, running nothing: how to finish the write
   * (its result; it may run no statement either), or null when its
   * statements changed nothing and `run` must do it the long way.
   */
  answered: (rows: unknown[]) => (() => Promise<unknown>) | null;
}

/** What a batch does around its writes: before the first, after the last (still inside), after the commit. */
export interface BatchHooks<S> {
  begin: (trx: Db) => Promise<S>;
  finish: (trx: Db, state: S) => Promise<void>;
  /** After the commit, before any write's promise resolves (in commit order across batches); must not throw. */
  committed: (state: S) => void;
  /**
   * What the batch has kept so far, to go back to when writes sent back to
   * back are undone after some were kept (answers how to go back); anything
   * remembered from their reads is forgotten too.
   */
  checkpoint?: (state: S) => () => void;
}

/**
 * Group commit: writes that arrive while a batch of their queue runs join
 * the next one. A batch is one transaction in which every write runs in a
 * savepoint of its own, so a write that throws is undone alone and gets its
 * own error while the others commit together, with one COMMIT (one fsync).
 * A failed COMMIT fails every write of the batch. Where the dialect can,
 * the writes that offer a quick form are sent back to back, one round trip
 * for many (`#backToBack`).
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

  /**
   * The writes of a batch sent back to back where the dialect can
   * (`Dialect.pipeline`): each write's savepoint, history and statement in
   * one exchange, answered together, instead of one round trip after the
   * other. The writes that are not one exchange (`quick` absent or null) run
   * one by one between them, as in the sequential batch. Every write has a
   * savepoint of its own (`w<index>`, nested, none released), so that:
   *
   * - a write whose statement failed is undone alone with the writes sent
   *   behind it (PostgreSQL refused those), which are then sent again;
   * - a write whose statement changed nothing (a move that must take the
   *   long way) is undone with those behind it, then runs one by one (its
   *   `run`), and those behind it are sent again: nothing it does follows
   *   a later write's statements;
   * - a write whose finishing throws undoes the exchange from its first
   *   write (what the others kept is restored with `checkpoint`), fails
   *   alone, and the others are sent again.
   *
   * Writes are kept, numbered and answered in the order they arrived.
   */
  async #backToBack(
    trx: Db,
    dialect: Dialect,
    batch: ReadonlyArray<Queued<S>>,
    state: S,
    outcomes: Array<Outcome | undefined>,
    pipeCounts: PipeCounts,
  ): Promise<void> {
    const pipeline = dialect.pipeline!;
    const name = (i: number) => `w${i}`;
    const pending = batch.map((_, i) => i);
    /** Writes whose statements changed nothing: they run one by one. */
    const longWay = new Set<number>();
    const forget = () => this.hooks.checkpoint?.(state)();
    const fail = async (i: number, error: unknown) => {
      // What it sent ahead is undone with it: an error still on its way is this write's, not the rollback's.
      await dialect.settle(trx).catch(() => undefined);
      await dialect.rollbackTo(trx, name(i));
      outcomes[i] = { ok: false, error };
    };
    while (pending.length > 0) {
      const i = pending.shift()!;
      const entry = batch[i]!;
      await dialect.savepointNamed(trx, name(i));
      let first: QuickSend | null = null;
      if (entry.quick && !longWay.has(i)) {
        try {
          first = await entry.quick(trx, state, true);
        } catch (error) {
          await fail(i, error);
          continue;
        }
      }
      if (!first) {
        try {
          const value = await entry.run(trx, state);
          await dialect.settle(trx);
          entry.kept?.(state);
          outcomes[i] = { ok: true, value };
        } catch (error) {
          await fail(i, error);
        }
        continue;
      }
      // The writes behind it that need no read join it, in their order, until one cannot.
      const window: Array<{ index: number; send: QuickSend }> = [{ index: i, send: first }];
      while (pending.length > 0) {
        const j = pending[0]!;
        const next = batch[j]!;
        if (!next.quick || longWay.has(j)) break;
        let send: QuickSend | null;
        try {
          send = await next.quick(trx, state, false);
        } catch (error) {
          // Refused before sending anything: nothing to undo.
          pending.shift();
          outcomes[j] = { ok: false, error };
          continue;
        }
        if (!send) break;
        pending.shift();
        window.push({ index: j, send });
      }
      pipeCounts.windows++;
      pipeCounts.sent += window.length;
      const answers = await pipeline(
        trx,
        window.map((w, k) => ({ savepoint: k === 0 ? null : name(w.index), statements: w.send.statements })),
      );
      // First, without running anything, how far the writes went as sent.
      const finishers: Array<() => Promise<unknown>> = [];
      for (const [k, answer] of answers.entries()) {
        const finish = answer.status === 'fulfilled' ? window[k]!.send.answered(answer.value) : null;
        if (finish) {
          finishers.push(finish);
          continue;
        }
        const stopped = window[k]!.index;
        await dialect.rollbackTo(trx, name(stopped));
        forget();
        if (answer.status === 'rejected') outcomes[stopped] = { ok: false, error: answer.reason };
        else {
          longWay.add(stopped);
          pending.push(stopped);
        }
        pending.push(...window.slice(k + 1).map((w) => w.index));
        pending.sort((a, b) => a - b);
        pipeCounts.undone += window.length - k;
        break;
      }
      const restore = this.hooks.checkpoint?.(state);
      for (const [k, finish] of finishers.entries()) {
        const index = window[k]!.index;
        try {
          const value = await finish();
          batch[index]!.kept?.(state);
          outcomes[index] = { ok: true, value };
        } catch (error) {
          restore?.();
          await dialect.settle(trx).catch(() => undefined);
          await dialect.rollbackTo(trx, name(window[0]!.index));
          outcomes[index] = { ok: false, error };
          const again = window.slice(0, finishers.length).filter((_, m) => m !== k);
          for (const w of again) outcomes[w.index] = undefined;
          pending.push(...again.map((w) => w.index));
          pending.sort((a, b) => a - b);
          pipeCounts.undone += again.length;
          break;
        }
      }
    }
  }

  async #run(): Promise<void> {
    // The batch is taken once the transaction has its connection: whoever arrived meanwhile joins it.
    let batch: Array<Queued<S>> = [];
    const outcomes: Array<Outcome | undefined> = [];
    const pipeCounts: PipeCounts = { windows: 0, sent: 0, undone: 0 };
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
        if (!alone && dialect.pipeline && batch.some((entry) => entry.quick)) {
          await this.#backToBack(trx, dialect, batch, state, outcomes, pipeCounts);
          if (outcomes.some((o) => o?.ok)) await this.hooks.finish(trx, state);
          return;
        }
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
        if (outcomes.some((o) => o?.ok)) await this.hooks.finish(trx, state);
      });
    } catch (error) {
      failure = { error };
      // No transaction at all (no connection): the writes waiting for it cannot run either.
      if (batch.length === 0) batch = this.#waiting.splice(0, MAX_BATCH);
    }
    if (!failure) heardCommit(batch.length);
    for (const observer of pipeObservers) observer(pipeCounts);
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
