import { AsyncLocalStorage } from 'node:async_hooks';
import type { Db } from '../db/database.js';

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
