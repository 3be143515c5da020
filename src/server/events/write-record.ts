import { AsyncLocalStorage } from 'node:async_hooks';
import type { Db } from '../db/database.js';
import { heardCommit } from './group-commit.js';

/**
 * What a request that must change things at most once (an `Idempotency-Key`)
 * lends the write path: each of its writes either stores its result in the
 * write's own transaction, or — when an earlier attempt of the same request
 * committed that write and died before answering — is not run again and
 * gives back the stored result.
 */
export interface WriteRecord {
  /** The request's next write: its result from an earlier attempt, or the ordinal under which to record it. */
  next(): { done: true; result: unknown } | { done: false; ordinal: number };
  /** Inside the write's transaction, after its work: stores the result, or throws if the request lost its key. */
  record(trx: Db, ordinal: number, result: unknown): Promise<void>;
  /** After the commit: the write is part of what the request did. */
  committed(ordinal: number): void;
}

const records = new AsyncLocalStorage<WriteRecord>();

/** Runs `work` (a request's handling) with its writes recorded. */
export function withWriteRecord<T>(record: WriteRecord, work: () => T): T {
  return records.run(record, work);
}

/** The record of the request the caller is handling, if it has one. */
export function currentWriteRecord(): WriteRecord | undefined {
  return records.getStore();
}

/** One write's part in the caller's record: its earlier result, or how to store this one's. */
export type WriteStep =
  { done: true; result: unknown } | { done: false; store: (trx: Db, result: unknown) => Promise<void>; committed: () => void };

/**
 * This write's part in the caller's `WriteRecord` (an `Idempotency-Key`
 * request): the result an earlier attempt committed, or how to store this
 * one's in the write's transaction, so that the write and the proof of it
 * commit or vanish together. Undefined when the request has no key.
 */
export function writeStep(): WriteStep | undefined {
  const record = currentWriteRecord();
  if (!record) return undefined;
  const step = record.next();
  if (step.done) return step;
  return {
    done: false,
    store: (trx, result) => record.record(trx, step.ordinal, result),
    committed: () => record.committed(step.ordinal),
  };
}

/**
 * A write that changes no board (a webhook, a calendar feed, a template, a
 * read mark) in one transaction of its own, with its part in the caller's
 * record stored in that transaction: a retry of a request whose write
 * committed gets the stored result back instead of writing again. For an
 * answer holding a secret, nothing is stored but the fact of the write,
 * and the retry is refused (409).
 */
export async function recordedWrite<T>(db: Db, work: (trx: Db) => Promise<T>): Promise<T> {
  const step = writeStep();
  if (step?.done) return step.result as T;
  return storeStep(db, step, work);
}

/**
 * An effect outside the database (a mail sent now) recorded like a write: a
 * retry of a request whose effect was recorded gets the recorded result back
 * and does not run it again. The effect runs outside any transaction (no
 * connection waits on a mail server); its result is stored right after, so
 * only a process that dies between the two could run it twice.
 */
export async function recordedEffect<T>(db: Db, effect: () => Promise<T>): Promise<T> {
  const step = writeStep();
  if (step?.done) return step.result as T;
  const result = await effect();
  if (step) await storeStep(db, step, () => Promise.resolve(result));
  return result;
}

/** Runs `work` and stores its result as `step` in one transaction, then tells the commit. */
async function storeStep<T>(db: Db, step: Extract<WriteStep, { done: false }> | undefined, work: (trx: Db) => Promise<T>) {
  const result = await db.transaction().execute(async (trx) => {
    const result = await work(trx);
    await step?.store(trx, result);
    return result;
  });
  heardCommit(1);
  step?.committed();
  return result;
}
