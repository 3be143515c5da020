import { PostgresAdapter, type CompiledQuery, type RawBuilder, type SelectQueryBuilder } from 'kysely';
import type { Db } from '../database.js';
import type { DialectName } from '../dialect.js';
import type { Target } from '../dump/restore-target.js';
import { postgres } from './postgres.js';
import { sqlite } from './sqlite.js';

/**
 * Everything that differs between SQLite and PostgreSQL, behind one face:
 * services and routes call these and never ask which database they run on
 * (seam.test.ts holds them to it). Stateless: one object per database kind.
 */
export interface Dialect {
  /** For logs, the auth library's adapter and dump headers: never for deciding what to do. */
  readonly name: DialectName;
  /** The database's name as people know it (`SQLite`, `PostgreSQL`), for messages. */
  readonly label: string;
  /** The value of `true` in a boolean column. */
  readonly true: boolean | number;
  /**
   * Whether the database itself tells every process's listener, this one's
   * included, that a session ended (PostgreSQL's triggers,
   * account-announcements.ts): then nobody else announces it again.
   */
  readonly announcesSessionEnds: boolean;
  /**
   * Whether a query holds the event loop until it has answered (SQLite's
   * driver runs in the process): a long run of writes is then cut by time,
   * not only by size, so that requests meanwhile wait milliseconds.
   */
  readonly holdsLoop: boolean;

  /** Opens the requests' connection (SQLite) or pool (PostgreSQL). */
  open(url: string): Db;
  /** Consistent read-only views for exports, on connections apart from the requests' (see `Snapshots`). */
  openSnapshots(url: string, main: Db, connections: number): Snapshots;

  /** Keeps the selected rows locked until the transaction ends (`FOR UPDATE [OF …]`); SQLite has one writer and needs none. */
  lockForUpdate<Q extends AnySelect>(query: Q, of?: string[]): Q;
  /** Locks the selected rows, passing over those another transaction holds (`FOR UPDATE SKIP LOCKED`), so workers claim different rows. */
  skipLocked<Q extends AnySelect>(query: Q): Q;
  /**
   * Waits for, then holds until the transaction `trx` ends, the lock called
   * `name`: work under one name runs one at a time across every process
   * (PostgreSQL's transaction-level advisory lock; SQLite's transactions
   * already run one at a time).
   */
  exclusive(trx: Db, name: string): Promise<void>;
  /**
   * Which writes may share one commit (group commit, events/group-commit.ts):
   * writes with the same queue key take turns and are batched together. On
   * PostgreSQL one queue per board: boards commit in parallel on different
   * pooled connections, and the board's row lock still decides across
   * processes. SQLite has one connection, so every write shares one queue.
   */
  writeQueue(boardId: number): number;
  /**
   * Opens the savepoint `write` for the next write of a batch, releasing the
   * last write's first (`replaceLast`). On PostgreSQL it rides ahead of the
   * write's first statement (pg-prepared.ts): no round trip of its own.
   */
  savepoint(trx: Db, replaceLast: boolean): Promise<void>;
  /**
   * Waits until every statement `trx` sent ahead (db/ahead.ts) has answered,
   * and throws the first one's error: a write of a batch must not end with
   * an error of its own still on the way, which the next write would take.
   * No round trip when nothing was sent ahead since the last answer; nothing
   * at all on SQLite, whose statements answer as they run.
   */
  settle(trx: Db): Promise<void>;

  /**
   * Sends the statements of several writes of a batch back to back, each
   * write's behind a savepoint of its own (`savepoint`, when given), in one
   * write to the socket, and answers once every answer is in: per write, the
   * rows of its last statement, or the first error among its statements
   * (after a failed one, PostgreSQL refuses the rest of the transaction: the
   * writes behind it fail too, and the caller rolls back to the failed
   * write's savepoint). The statements before a write's last are sent ahead
   * (nobody reads their answer). Nothing else runs on `trx` meanwhile. Null
   * where statements cost no round trip (SQLite): writes run one by one.
   */
  readonly pipeline: ((trx: Db, writes: readonly PipelinedWrite[]) => Promise<Array<PromiseSettledResult<unknown[]>>>) | null;
  /** Opens the savepoint `name` (on PostgreSQL sent ahead of the next statement); a later one may shadow it, none is released. */
  savepointNamed(trx: Db, name: string): Promise<void>;
  /** Undoes everything after the savepoint `name` (which stays open), the savepoints opened after it included. */
  rollbackTo(trx: Db, name: string): Promise<void>;

  /**
   * A batch's version bump, event rows and announcement (group commit,
   * events/board-write.ts) as one statement sent ahead of the COMMIT, whose
   * answer carries its error; the insert fails (and the transaction with it)
   * if the bumped version is not `last` (a torn history). A board that is
   * gone bumps and keeps nothing; the announcement still goes. Answers false
   * where each statement costs no round trip (SQLite): the caller then runs
   * them one by one.
   */
  storeBatch(trx: Db, batch: StoredBatch): Promise<boolean>;

  /**
   * Announces `payload` on `channel` to every process's listener once the
   * transaction of `db` commits (at once outside one). Answers whether
   * listeners will hear it: false on SQLite, which serves one process that
   * must deliver it in memory itself. `inTransaction`: `db` is a
   * transaction, so the statement may go ahead of the next (db/ahead.ts).
   */
  notify(db: Db, channel: string, payload: object, inTransaction?: boolean): Promise<boolean>;
  /**
   * Hears `channels` on the process's one listening connection to `url`
   * (shared by every caller, reconnected when it is lost); `connected` runs
   * after every (re)connection (to catch up on what was missed). Null on
   * SQLite: there are no other processes to hear.
   */
  listen(url: string, channels: readonly string[], handlers: ListenHandlers): Listener | null;

  /** JSON built in SQL, for the exports. */
  readonly json: JsonFunctions;
  /**
   * A server-side cursor over `query` (in the snapshot's transaction), read
   * `size` rows at a time. Null where the database keeps none: the caller
   * pages by key instead.
   */
  cursor<R>(db: Db, query: RawBuilder<unknown> | AnySelect, size: number): Cursor<R> | null;
  /**
   * The cards matching every term as a word prefix in their name or
   * description: `(id, rank)`, lower rank first. The terms must be plain
   * words (letters and digits).
   */
  cardHits(db: Db, terms: readonly string[]): AnySelect<{ id: number; rank: number }>;

  /** Writes the whole database as an SQL script that restores into an empty database of this kind. */
  dump(db: Db, write: (text: string) => Promise<void>, meta: { serviceVersion: string; exportedAt: string }): Promise<void>;
  /** The database a restore writes into. */
  restoreTarget(url: string): Promise<Target>;
}

/** One write's part in `Dialect.pipeline`. */
export interface PipelinedWrite {
  /** Opened before its statements; null when it is open already. */
  savepoint: string | null;
  /** In order; the last one's rows are the write's answer. */
  statements: ReadonlyArray<CompiledQuery<unknown>>;
}

/** What `Dialect.storeBatch` stores. */
export interface StoredBatch {
  boardId: number;
  /** How many events: the version rises by as many. */
  count: number;
  /** The version the last event took. */
  last: number;
  /** The event rows as a JSON array of `{version, name, data, actorId, createdAt}` (`data` as JSON text). */
  events: string;
  channel: string;
  payload: object;
}

/** A select of any tables: the dialects' helpers work on whatever query the caller built. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnySelect<O = any> = SelectQueryBuilder<any, any, O>;

export interface Snapshots {
  /**
   * Runs `work` on one consistent view of the database, so an export taken
   * while people keep working is a single moment (a dump whose rows refer to
   * each other restores without dangling references).
   */
  run<T>(work: (db: Db) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** One caller's: it hears only its own channels, and `connected`/`lost` whenever the shared connection comes and goes. */
export interface ListenHandlers {
  message(channel: string, payload: string): void;
  /** After every (re)connection, once this caller's channels are listened to. A rejection is warned of and tried again later. */
  connected(): Promise<void> | void;
  /** The connection is gone (a reconnection follows): whatever was announced meanwhile is not heard. */
  lost?(): void;
  warn(error: unknown, message: string): void;
}

export interface Listener {
  /**
   * Announces `payload` on `channel` over the listening connection, so what
   * one process sends reaches the others in the order it was sent. Nothing
   * is sent while the connection is down (`connected` follows).
   */
  send(channel: string, payload: string): Promise<void>;
  /** Stops this caller alone (once what it sent is out); the connection closes with its last caller. */
  stop(): Promise<void>;
}

export interface JsonFunctions {
  /** A JSON array of `value` over the rows of `from`, ordered; `[]` when there are none. */
  array(value: string, order: string, from: string): string;
  object(pairs: Record<string, string>): string;
  /** A JSON value as text. */
  text(value: string): string;
  /** A text value as a JSON string literal (quoted and escaped), as text. */
  quote(value: string): string;
}

export interface Cursor<R> {
  /** The next rows; fewer than the cursor's size at the end. */
  next(): Promise<R[]>;
  close(): Promise<void>;
}

const byName: Record<DialectName, Dialect> = { sqlite, postgres };

/** `DATABASE_URL` picks the dialect: `sqlite://<file>` or `postgres://…`. */
export function dialectFor(url: string): Dialect {
  return url.startsWith('sqlite:') ? sqlite : postgres;
}

export function dialectNamed(name: DialectName): Dialect {
  return byName[name];
}

/** The dialect a database handle (or one of its transactions) speaks, from the driver adapter they share. */
export function dialectOf(db: Db): Dialect {
  return db.getExecutor().adapter instanceof PostgresAdapter ? postgres : sqlite;
}
