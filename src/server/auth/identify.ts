import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../deps.js';
import { forbidden } from '../http/errors.js';
import { actorOfKey, actorOfSession, type Actor } from './actor.js';
import { isForeignOrigin } from './origin.js';

export interface IdentifyOptions {
  /**
   * Which credential counts: `any` (the data API: an API key decides alone,
   * else the session cookie), `key` (MCP: `Authorization: Bearer` or
   * `X-API-Key`, never a cookie) or `session` (managing API keys, using an
   * invitation: a leaked key must not mint keys or accept invitations).
   */
  accept?: 'any' | 'key' | 'session';
  /**
   * Opening a long-lived socket: that is not use of the session (only
   * requests extend it), and a cookie sent from another site is refused.
   */
  socket?: boolean;
}

/** The caller, as far as identity goes; `email` is known for session callers. */
export type Identified = Actor & { email?: string };

/** The API key a request presents: `X-API-Key`, or `Authorization: Bearer` where `bearer` allows it. */
export function presentedKey(request: FastifyRequest, { bearer = false } = {}): string | undefined {
  const header = request.headers['x-api-key'];
  const key = Array.isArray(header) ? header[0] : header;
  if (key !== undefined) return key;
  const authorization = request.headers.authorization;
  if (bearer && authorization?.toLowerCase().startsWith('bearer ')) return authorization.slice(7).trim();
  return undefined;
}

/**
 * Who is calling: the one place that turns a request's credential into an
 * actor, for the HTTP guard, both socket endpoints, MCP, API keys and
 * invitations. Null when the credential does not work (unknown or deleted
 * key, no or expired session, banned account). A bad key is refused even
 * beside a good cookie.
 */
export async function identify(
  request: FastifyRequest,
  deps: Pick<Deps, 'database' | 'auth' | 'config'>,
  { accept = 'any', socket = false }: IdentifyOptions = {},
): Promise<Identified | null> {
  if (accept !== 'session') {
    const key = presentedKey(request, { bearer: accept === 'key' });
    if (key !== undefined) return actorOfKey(deps.database.db, key);
    if (accept === 'key') return null;
  }
  const actor = await actorOfSession(request, deps.auth, { refreshSession: !socket });
  // Writes are checked for every route by `refuseCrossSiteWrites`; an upgrade is a GET, so sockets are checked here.
  if (actor && socket && isForeignOrigin(request, new URL(deps.config.baseUrl).origin)) {
    throw forbidden('Cross-site connection refused');
  }
  return actor;
}

/** The rule of issue 25: an account whose address nobody confirmed cannot hand out standing access to what it reads. */
export function requireVerified(actor: Pick<Actor, 'emailVerified'>, what: string): void {
  if (actor.emailVerified !== true) throw forbidden(`Confirm your e-mail address first: ${what} need a confirmed address`);
}

/**
 * For routes a caller may use signed in or not (better-auth's, an invitation
 * link): a request with `Idempotency-Key` gets its signed-in account as
 * `request.actor`, so `idempotentWrites` can keep the key as that account's.
 * Without a session the request runs unkeyed (nobody owns the key), and the
 * route answers it as before.
 */
export function identifyKeyedCallers(scope: FastifyInstance, deps: Pick<Deps, 'auth'>): void {
  scope.addHook('onRequest', async (request) => {
    if (request.headers['idempotency-key'] === undefined) return;
    const actor = await actorOfSession(request, deps.auth, { refreshSession: false });
    if (actor) request.actor = actor;
  });
}
