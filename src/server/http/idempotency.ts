import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/database.js';
import { nowIso, toIso } from '../db/dialect.js';
import { badRequest, HttpError } from './errors.js';

/** How long an answer is kept for retries. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/**
 * A first request that has not stored its answer after this long died with
 * its process (the answers themselves take milliseconds): a retry may run it.
 */
const ABANDONED_MS = 60_000;
const KEY = /^[\x20-\x7e]{1,255}$/;
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The answer holds a secret shown once (a public link's address): it is
     * never stored for replay, so a repeat with the same key runs again.
     */
    secretAnswer?: boolean;
  }
  interface FastifyRequest {
    /** The key this request answers for, once it has claimed it. */
    idempotencyKey?: string;
  }
}

/**
 * `Idempotency-Key` on every write of a scope: the first request with a key
 * runs and its answer is stored; a repeat by the same account with the same
 * request gets that answer again (`Idempotent-Replayed: true`) and changes
 * nothing; the same key with another request is a 422. Kept in the database,
 * so it holds across processes. Failures (5xx) are not kept: they may be retried.
 */
export function idempotentWrites(app: FastifyInstance, db: Db): void {
  app.addHook('preHandler', async (request, reply) => {
    const header = request.headers['idempotency-key'];
    if (header === undefined || !WRITES.has(request.method) || request.routeOptions.config.secretAnswer) return;
    const key = Array.isArray(header) ? header[0] : header;
    if (key === undefined || !KEY.test(key)) throw badRequest('Idempotency-Key must be 1 to 255 printable characters');
    const stored = await claim(db, request.actor.id, key, fingerprint(request));
    if (stored) return replay(reply, stored);
    request.idempotencyKey = key;
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const key = request.idempotencyKey;
    if (key === undefined) return payload;
    const mine = { userId: request.actor.id, key };
    if (reply.statusCode >= 500 || typeof payload !== 'string') {
      await db.deleteFrom('idempotency_keys').where('userId', '=', mine.userId).where('key', '=', mine.key).execute();
    } else {
      await db
        .updateTable('idempotency_keys')
        .set({ status: reply.statusCode, response: payload })
        .where('userId', '=', mine.userId)
        .where('key', '=', mine.key)
        .execute();
    }
    return payload;
  });
}

/** The method, address and body: what makes two requests "the same" one. Uploads are known by their address only. */
function fingerprint(request: FastifyRequest): string {
  const multipart = (request.headers['content-type'] ?? '').toLowerCase().startsWith('multipart/');
  const body = multipart ? '' : stableJson(request.body);
  return createHash('sha256').update(`${request.method} ${request.url}\n${body}`).digest('hex');
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

interface Stored {
  status: number;
  response: string;
}

/**
 * Takes the key for this request, or answers what the first request with it
 * stored. One insert decides between concurrent first requests on any process.
 */
async function claim(db: Db, userId: string, key: string, print: string): Promise<Stored | null> {
  const now = Date.now();
  for (let attempt = 0; attempt < 2; attempt++) {
    const inserted = await db
      .insertInto('idempotency_keys')
      .values({ userId, key, fingerprint: print, createdAt: new Date(now).toISOString() })
      .onConflict((oc) => oc.columns(['userId', 'key']).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 1) return null;

    const row = await db
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('userId', '=', userId)
      .where('key', '=', key)
      .executeTakeFirst();
    if (!row) continue; // pruned meanwhile: take it afresh
    const age = now - Date.parse(toIso(row.createdAt));
    if (age > IDEMPOTENCY_TTL_MS) {
      await db.deleteFrom('idempotency_keys').where('userId', '=', userId).where('key', '=', key).execute();
      continue;
    }
    if (row.fingerprint !== print) {
      throw new HttpError(422, 'This Idempotency-Key was already used for a different request');
    }
    if (row.status !== null && row.response !== null) return { status: row.status, response: row.response };
    if (age < ABANDONED_MS) throw new HttpError(409, 'A request with this Idempotency-Key is still being answered; retry later');
    // Its first request died unanswered: this one takes its place, once.
    const taken = await db
      .updateTable('idempotency_keys')
      .set({ createdAt: nowIso() })
      .where('userId', '=', userId)
      .where('key', '=', key)
      .where('status', 'is', null)
      .where('createdAt', '=', row.createdAt)
      .executeTakeFirst();
    if (Number(taken.numUpdatedRows) === 1) return null;
  }
  throw new HttpError(409, 'A request with this Idempotency-Key is still being answered; retry later');
}

function replay(reply: FastifyReply, stored: Stored): FastifyReply {
  return reply
    .status(stored.status)
    .header('idempotent-replayed', 'true')
    .type('application/json; charset=utf-8')
    .serializer((payload) => payload as string)
    .send(stored.response);
}

/** Drops answers older than a day (the job runner's). */
export async function pruneIdempotencyKeys(db: Db, now: Date): Promise<number> {
  const result = await db
    .deleteFrom('idempotency_keys')
    .where('createdAt', '<', new Date(now.getTime() - IDEMPOTENCY_TTL_MS).toISOString())
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
