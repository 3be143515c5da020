import { hash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { fromNodeHeaders } from 'better-auth/node';
import type { Db } from '../db/database.js';
import { readCachesOf } from '../access/read-caches.js';
import type { Auth } from './auth.js';
import { keyOwner, liveKey, liveSession } from './actor.repository.js';

/** Who is making a request, and through which credential. */
export interface Actor {
  id: string;
  name: string;
  image: string | null;
  role: string;
  via: 'session' | 'key';
  readOnly: boolean;
  /** Whether the account's address is confirmed; absent counts as not (see `requireVerified`). */
  emailVerified?: boolean;
  /** The session or key this actor came with (set by `identify`): what a long-lived socket must stop with. */
  credential?: Credential;
}

export type Credential = { kind: 'session'; id: string; expiresAt: Date } | { kind: 'key'; id: string };

/** SHA-256 in hex; the one-shot `hash` costs a fifth of a `createHash` object, once per API request. */
export function hashKey(secret: string): string {
  return hash('sha256', secret, 'hex');
}

const truthy = (v: unknown) => v === true || v === 1;

/** The account of an API key secret, or null for a key that does not work (unknown, or its account banned). */
export async function actorOfKey(db: Db, secret: string): Promise<Actor | null> {
  if (!secret || secret.length > 128) return null;
  const keyHash = hashKey(secret);
  const cache = readCachesOf(db)?.actors;
  const cached = cache?.get(keyHash);
  // A copy: the cached one must stay as the database had it, whatever a request does with its own.
  if (cached) return { ...cached };
  const token = cache?.begin();
  const [row] = await keyOwner(db, keyHash);
  // Refusals are not cached: a key that does not work costs its lookup.
  if (!row || truthy(row.banned)) return null;
  const actor: Actor = {
    id: row.id,
    name: row.name,
    image: row.image,
    role: row.role ?? 'user',
    via: 'key',
    readOnly: row.readOnly === 1,
    emailVerified: truthy(row.emailVerified),
    credential: { kind: 'key', id: row.keyId },
  };
  if (cache) cache.store(token!, keyHash, actor);
  return { ...actor };
}

/** The account of the request's session cookie, or null. */
export async function actorOfSession(
  request: FastifyRequest,
  auth: Auth,
  options: { refreshSession?: boolean } = {},
): Promise<(Actor & { email: string }) | null> {
  const session = await auth.api.getSession({
    headers: fromNodeHeaders(request.headers),
    ...(options.refreshSession === false ? { query: { disableRefresh: true } } : {}),
  });
  if (!session) return null;
  const { user } = session;
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    image: user.image ?? null,
    role: (user as { role?: string | null }).role ?? 'user',
    via: 'session',
    readOnly: false,
    emailVerified: user.emailVerified,
    credential: { kind: 'session', id: session.session.id, expiresAt: new Date(session.session.expiresAt) },
  };
}

/**
 * Until when a credential still works: a session until its (possibly
 * extended) expiry, a key of an account in good standing indefinitely;
 * `null` once it is gone.
 */
export async function credentialValidUntil(db: Db, credential: Credential): Promise<Date | null> {
  if (credential.kind === 'key') {
    const [row] = await liveKey(db, credential.id);
    return row && !truthy(row.banned) ? new Date(8.64e15) : null;
  }
  const [row] = await liveSession(db, credential.id);
  const expiresAt = row && new Date(row.expiresAt);
  return expiresAt && expiresAt.getTime() > Date.now() ? expiresAt : null;
}
