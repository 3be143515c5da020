import type { Db } from './database.js';

/** A database's connections now: in use, idle, and queries waiting for one (null where there is no pool). */
export interface PoolLoad {
  inUse: number;
  idle: number;
  waiting: number | null;
}

const readers = new WeakMap<Db, () => PoolLoad>();

/** The dialect that opened `db` says how to read its connections. */
export function describePool(db: Db, read: () => PoolLoad): void {
  readers.set(db, read);
}

export function poolLoad(db: Db): PoolLoad {
  return readers.get(db)?.() ?? { inUse: 0, idle: 0, waiting: null };
}
