import { createHash, createHmac, randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/database.js';
import { nowIso, toIso } from '../db/dialect.js';
import { withWriteRecord, type WriteRecord } from '../events/write-record.js';
import { badRequest, HttpError } from './errors.js';
import {
  deleteClaim,
  dropClaim,
  findClaim,
  finishClaim,
  insertClaim,
  pruneClaims,
  recordedWrites,
  releaseClaim,
  storeWrite,
  takeOver,
  type ClaimRow,
} from './idempotency.repository.js';

/** How long an answer is kept for retries. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/**
 * A first request that has not stored its answer after this long died with
 * its process (the answers themselves take milliseconds): a retry may run it.
 */
const ABANDONED_MS = 60_000;
/**
 * A write's commit is followed by its answer within milliseconds: a key whose
 * writes are done and still unanswered after this long lost its process.
 */
const ANSWERING_MS = 2_000;
const KEY = /^[\x20-\x7e]{1,255}$/;
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The answer holds a secret shown once (a webhook's signing secret, a
     * calendar feed's or public link's address, an API key): it is never
     * stored, and a repeat with the same key is refused (409).
     */
    secretAnswer?: boolean;
  }
  interface FastifyRequest {
    /** The key this request answers for, once it has claimed it. */
    idempotency?: Attempt;
  }
}

/** One attempt at answering a key: it holds the key while `owner` is its token. */
interface Attempt {
  userId: string;
  key: string;
  owner: string;
  secret: boolean;
  /** What an earlier attempt's committed writes stored: this attempt's first writes give these back instead of running. */
  earlier: Array<string | null>;
  ordinals: number;
  replayed: number;
  committed: number;
}

/**
 * `Idempotency-Key` on every write of a scope: the first request with a key
 * runs and its answer is stored; a repeat by the same account with the same
 * request gets that answer again (`Idempotent-Replayed: true`) and changes
 * nothing; the same key with another request is a 422. Kept in the database,
 * so it holds across processes. Failures (5xx) are not kept: they may be retried.
 *
 * Exactly once: each board write of a keyed request stores its result in its
 * own transaction (`WriteRecord`). A process that dies between that commit and
 * storing the answer leaves the key unanswered with its writes done; a retry
 * then runs the handler again, whose writes give back their stored results
 * instead of running, and answers what the first attempt would have.
 *
 * A request without a caller (`request.actor` unset: better-auth's routes
 * answer those themselves) has nobody to own the key and runs unkeyed. With
 * `fingerprintKey`, what identifies a request is keyed with it (HMAC), so a
 * password in a body is not kept as a plain hash of it.
 */
export function idempotentWrites(app: FastifyInstance, db: Db, { fingerprintKey }: { fingerprintKey?: string } = {}): void {
  // Callback style: the handler must run inside `withWriteRecord`, which an async hook's promise would leave.
  app.addHook('preHandler', (request, reply, done) => {
    const header = request.headers['idempotency-key'];
    if (header === undefined || !WRITES.has(request.method) || !request.actor) return done();
    const key = Array.isArray(header) ? header[0] : header;
    if (key === undefined || !KEY.test(key)) return done(badRequest('Idempotency-Key must be 1 to 255 printable characters'));
    const secret = request.routeOptions.config.secretAnswer === true;
    claim(db, { userId: request.actor.id, key }, fingerprint(request, fingerprintKey), secret).then(
      (outcome) => {
        if ('status' in outcome) return void replay(reply, outcome);
        request.idempotency = outcome;
        withWriteRecord(writeRecord(outcome), () => done());
      },
      (error: unknown) => done(error as Error),
    );
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const attempt = request.idempotency;
    if (attempt === undefined) return payload;
    if (attempt.replayed > 0 && attempt.committed === 0) void reply.header('idempotent-replayed', 'true');
    if (reply.statusCode >= 500 || typeof payload !== 'string') {
      // Writes already done must not run again: the next attempt takes over at once and gives their results back.
      if (attempt.earlier.length + attempt.committed > 0) await releaseClaim(db, attempt);
      else await dropClaim(db, attempt);
    } else {
      await finishClaim(db, attempt, reply.statusCode, attempt.secret && reply.statusCode < 300 ? null : payload);
    }
    return payload;
  });
}

/** The attempt's part in its writes' transactions (see `WriteRecord`). */
function writeRecord(attempt: Attempt): WriteRecord {
  return {
    next: () => {
      const ordinal = attempt.ordinals++;
      if (ordinal >= attempt.earlier.length) return { done: false, ordinal };
      attempt.replayed++;
      const stored = attempt.earlier[ordinal];
      return { done: true, result: stored ? (JSON.parse(stored) as { value?: unknown }).value : undefined };
    },
    record: async (trx, ordinal, result) => {
      const stored = attempt.secret ? null : JSON.stringify({ value: result });
      if (!(await storeWrite(trx, attempt, ordinal, stored, nowIso()))) {
        throw new HttpError(409, 'A retry with this Idempotency-Key took this request over; it answers instead');
      }
    },
    committed: () => void attempt.committed++,
  };
}

/** The method, address and body: what makes two requests "the same" one. Uploads are known by their address only. */
function fingerprint(request: FastifyRequest, key: string | undefined): string {
  const multipart = (request.headers['content-type'] ?? '').toLowerCase().startsWith('multipart/');
  const body = multipart ? '' : stableJson(request.body);
  const hash = key === undefined ? createHash('sha256') : createHmac('sha256', key);
  return hash.update(`${request.method} ${request.url}\n${body}`).digest('hex');
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
async function claim(db: Db, mine: { userId: string; key: string }, print: string, secret: boolean): Promise<Stored | Attempt> {
  const now = Date.now();
  const owner = randomUUID();
  const attempt = (earlier: Array<string | null>): Attempt => ({
    ...mine,
    owner,
    secret,
    earlier,
    ordinals: 0,
    replayed: 0,
    committed: 0,
  });
  for (let tries = 0; tries < 2; tries++) {
    if (await insertClaim(db, { ...mine, fingerprint: print, owner, createdAt: new Date(now).toISOString() })) return attempt([]);

    const row = await findClaim(db, mine);
    if (!row) continue; // pruned meanwhile: take it afresh
    const age = now - Date.parse(toIso(row.createdAt));
    if (age > IDEMPOTENCY_TTL_MS) {
      await deleteClaim(db, mine);
      continue;
    }
    if (row.fingerprint !== print) {
      throw new HttpError(422, 'This Idempotency-Key was already used for a different request');
    }
    if (row.status !== null) {
      if (row.response !== null) return { status: row.status, response: row.response };
      throw new HttpError(409, SHOWN_ONCE);
    }
    if (!abandoned(row, now)) throw new HttpError(409, STILL_ANSWERING);
    const earlier = await recordedWrites(db, mine);
    // The writes are done and their answer held a secret that was never kept: there is nothing to answer with.
    if (secret && earlier.length > 0) throw new HttpError(409, SHOWN_ONCE);
    // Its first request died unanswered: this one takes its place, once.
    if (await takeOver(db, row, owner, nowIso())) return attempt(earlier);
  }
  throw new HttpError(409, STILL_ANSWERING);
}

const STILL_ANSWERING = 'A request with this Idempotency-Key is still being answered; retry later';
const SHOWN_ONCE =
  'This request was done, and its answer held a secret that is shown only once and never kept: ' +
  'it cannot be answered again. Send a new Idempotency-Key to create another';

/** Whether the attempt holding an unanswered key is gone (its process died, or it failed after a write). */
function abandoned(row: ClaimRow, now: number): boolean {
  if (row.owner === null) return true;
  if (row.appliedAt !== null) return now - Date.parse(toIso(row.appliedAt)) > ANSWERING_MS;
  return now - Date.parse(toIso(row.createdAt)) >= ABANDONED_MS;
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
export function pruneIdempotencyKeys(db: Db, now: Date): Promise<number> {
  return pruneClaims(db, new Date(now.getTime() - IDEMPOTENCY_TTL_MS).toISOString());
}
