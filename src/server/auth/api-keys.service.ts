import { randomBytes, randomUUID } from 'node:crypto';
import { nowIso, toIso } from '../db/dialect.js';
import type { Db } from '../db/database.js';
import { announce, REVOCATIONS } from '../db/channels.js';
import { dialectOf } from '../db/dialects/index.js';
import type { EventBus } from '../events/bus.js';
import { recordedWrite } from '../events/write-record.js';
import { HttpError, notFound } from '../http/errors.js';
import { hashKey } from './actor.js';
import * as repo from './api-keys.repository.js';

const KEY_PREFIX = 'tvk_';

function present(row: repo.ApiKeyRow) {
  return {
    id: row.id,
    name: row.name,
    start: row.start,
    readOnly: row.readOnly === 1,
    createdAt: toIso(row.createdAt),
    lastUsedAt: toIso(row.lastUsedAt),
  };
}

/** A new key: the secret is in this answer only, its SHA-256 in the database. */
export async function createApiKey(db: Db, userId: string, input: { name: string; readOnly?: boolean }) {
  const { name, readOnly = false } = input;
  if (name.trim() === '') throw new HttpError(400, 'body: name must not be blank');
  const key = KEY_PREFIX + randomBytes(32).toString('base64url');
  const row = {
    id: randomUUID(),
    userId,
    name: name.trim(),
    start: key.slice(0, KEY_PREFIX.length + 6),
    keyHash: hashKey(key),
    readOnly: readOnly ? 1 : 0,
    createdAt: nowIso(),
    lastUsedAt: null,
  };
  // Recorded like every keyed write: a retry after a lost answer is refused (409), it does not make a second key.
  await recordedWrite(db, (trx) => repo.insertKey(trx, row));
  return { ...present(row), key };
}

export async function listApiKeys(db: Db, userId: string) {
  return { apiKeys: (await repo.listKeys(db, userId)).map(present) };
}

/**
 * Deletes a key of the account; connections made with it close at once. The
 * other processes are told inside the deleting transaction: they hear it at
 * its commit, and a deletion that rolls back tells nobody.
 */
export async function deleteApiKey(db: Db, bus: EventBus, userId: string, keyId: string) {
  const revocation = { userId, keyId };
  // Recorded like every keyed write: a retry after a lost answer gets this answer, not a 404 for a key now gone.
  const deleted = await recordedWrite(db, async (trx) => {
    if (!(await repo.deleteKey(trx, userId, keyId))) return false;
    await announce(dialectOf(trx), trx, REVOCATIONS, revocation, true);
    return true;
  });
  if (!deleted) throw notFound('API key not found');
  bus.revoke(revocation);
  return { success: true };
}
