import type { Db } from '../db/database.js';
import type { IdempotencyKeyTable } from '../db/schema.js';
import type { Selectable } from 'kysely';

export type ClaimRow = Selectable<IdempotencyKeyTable>;

interface Mine {
  userId: string;
  key: string;
}

/** Takes the key if nobody has it: one insert decides between concurrent first requests on any process. */
export async function insertClaim(
  db: Db,
  claim: Mine & { fingerprint: string; owner: string; createdAt: string },
): Promise<boolean> {
  const inserted = await db
    .insertInto('idempotency_keys')
    .values(claim)
    .onConflict((oc) => oc.columns(['userId', 'key']).doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 1;
}

export function findClaim(db: Db, { userId, key }: Mine): Promise<ClaimRow | undefined> {
  return db.selectFrom('idempotency_keys').selectAll().where('userId', '=', userId).where('key', '=', key).executeTakeFirst();
}

/** The results an earlier attempt's committed writes stored, in the order it made them. */
export async function recordedWrites(db: Db, { userId, key }: Mine): Promise<Array<string | null>> {
  const rows = await db
    .selectFrom('idempotency_writes')
    .select('result')
    .where('userId', '=', userId)
    .where('key', '=', key)
    .orderBy('ordinal')
    .execute();
  return rows.map((r) => r.result);
}

/** Forgets a key and its writes (expired). */
export async function deleteClaim(db: Db, { userId, key }: Mine): Promise<void> {
  await db.deleteFrom('idempotency_writes').where('userId', '=', userId).where('key', '=', key).execute();
  await db.deleteFrom('idempotency_keys').where('userId', '=', userId).where('key', '=', key).execute();
}

/** Gives an unanswered key to a new attempt, if no one else took it since `row` was read. */
export async function takeOver(db: Db, row: ClaimRow, owner: string, now: string): Promise<boolean> {
  const taken = await db
    .updateTable('idempotency_keys')
    .set({ owner, createdAt: now, appliedAt: row.appliedAt === null ? null : now })
    .where('userId', '=', row.userId)
    .where('key', '=', row.key)
    .where('status', 'is', null)
    .where('owner', row.owner === null ? 'is' : '=', row.owner)
    .where('createdAt', '=', row.createdAt)
    .executeTakeFirst();
  return Number(taken.numUpdatedRows) === 1;
}

/**
 * In the write's transaction: stores its result if `owner` still holds the
 * key (the update also locks the key's row until the commit, so a retry's
 * take-over waits for it). Answers false when it does not.
 */
export async function storeWrite(
  trx: Db,
  mine: Mine & { owner: string },
  ordinal: number,
  result: string | null,
  now: string,
): Promise<boolean> {
  const held = await trx
    .updateTable('idempotency_keys')
    .set({ appliedAt: now })
    .where('userId', '=', mine.userId)
    .where('key', '=', mine.key)
    .where('owner', '=', mine.owner)
    .where('status', 'is', null)
    .executeTakeFirst();
  if (Number(held.numUpdatedRows) !== 1) return false;
  await trx.insertInto('idempotency_writes').values({ userId: mine.userId, key: mine.key, ordinal, result }).execute();
  return true;
}

/** Stores the answer (`response` null: it held a secret and is not kept), if `owner` still holds the key. */
export async function finishClaim(
  db: Db,
  mine: Mine & { owner: string },
  status: number,
  response: string | null,
): Promise<void> {
  await db
    .updateTable('idempotency_keys')
    .set({ status, response })
    .where('userId', '=', mine.userId)
    .where('key', '=', mine.key)
    .where('owner', '=', mine.owner)
    .execute();
}

/** A failed attempt that changed nothing gives the key back entirely. */
export async function dropClaim(db: Db, mine: Mine & { owner: string }): Promise<void> {
  await db
    .deleteFrom('idempotency_keys')
    .where('userId', '=', mine.userId)
    .where('key', '=', mine.key)
    .where('owner', '=', mine.owner)
    .execute();
}

/** A failed attempt whose writes committed leaves them for the next one to take over at once. */
export async function releaseClaim(db: Db, mine: Mine & { owner: string }): Promise<void> {
  await db
    .updateTable('idempotency_keys')
    .set({ owner: null })
    .where('userId', '=', mine.userId)
    .where('key', '=', mine.key)
    .where('owner', '=', mine.owner)
    .execute();
}

/** Drops the keys (and their writes) taken before `before`. */
export async function pruneClaims(db: Db, before: string): Promise<number> {
  await db
    .deleteFrom('idempotency_writes')
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('idempotency_keys as k')
          .select('k.key')
          .whereRef('k.userId', '=', 'idempotency_writes.userId')
          .whereRef('k.key', '=', 'idempotency_writes.key')
          .where('k.createdAt', '<', before),
      ),
    )
    .execute();
  const result = await db.deleteFrom('idempotency_keys').where('createdAt', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
