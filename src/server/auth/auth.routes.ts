import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fromNodeHeaders } from 'better-auth/node';
import type { Deps } from '../deps.js';
import { idempotentWrites } from '../http/idempotency.js';
import { signInFailures, signInLockouts } from '../metrics/metrics.js';
import { withSignInScope } from './sso/policy.js';
import { CLIENT_IP_HEADER } from './auth.js';
import { identifyKeyedCallers } from './identify.js';

/**
 * The better-auth writes a signed-in account makes to itself or, as an
 * administrator, to other accounts: they honour `Idempotency-Key` as
 * `/api/data` does. `true` marks an answer that holds a secret shown once
 * (a new session's token): never kept, a repeat is refused (409).
 *
 * Not keyed, because no account is signed in to own the key: sign-in,
 * sign-up, the password reset request and reset, the address confirmation
 * link. Nor sign-out (it ends the session the key would belong to, and a
 * repeat changes nothing) and the reads better-auth answers to POST.
 */
const KEYED_WRITES: Record<string, boolean> = {
  'update-user': false,
  'change-password': true,
  'change-email': false,
  'delete-user': false,
  'revoke-session': false,
  'revoke-sessions': false,
  'revoke-other-sessions': false,
  'send-verification-email': false,
  'unlink-account': false,
  'admin/create-user': false,
  'admin/update-user': false,
  'admin/set-role': false,
  'admin/ban-user': false,
  'admin/unban-user': false,
  'admin/remove-user': false,
  'admin/set-user-password': false,
  'admin/revoke-user-session': false,
  'admin/revoke-user-sessions': false,
  'admin/impersonate-user': true,
  'admin/stop-impersonating': true,
};

/** Hands `/api/auth/*` to better-auth, turning its `{message}` errors into our `{error}` shape. */
export function registerAuthRoutes(app: FastifyInstance, deps: Pick<Deps, 'auth' | 'config' | 'limits' | 'database'>): void {
  const handler = (request: FastifyRequest, reply: FastifyReply) => forward(request, reply, deps);
  app.route({ method: ['GET', 'POST'], url: '/api/auth/*', schema: { hide: true }, handler });

  void app.register((scope, _options, done) => {
    // Only a keyed request needs its caller; better-auth itself answers one that is not signed in.
    identifyKeyedCallers(scope, deps);
    // Passwords are in some of these bodies: their fingerprint is keyed with the instance's secret.
    idempotentWrites(scope, deps.database.db, { fingerprintKey: deps.config.authSecret });
    for (const [path, secretAnswer] of Object.entries(KEYED_WRITES)) {
      scope.route({ method: 'POST', url: `/api/auth/${path}`, schema: { hide: true }, config: { secretAnswer }, handler });
    }
    done();
  });
}

async function forward(request: FastifyRequest, reply: FastifyReply, deps: Pick<Deps, 'auth' | 'config' | 'limits'>) {
  const { auth, limits } = deps;
  const url = new URL(request.url, deps.config.baseUrl);
  const signInAs = signInAddress(request, url);
  if (signInAs !== undefined) {
    const wait = await limits.signIn.attempt(signInAs, request.ip);
    if (wait > 0) {
      signInLockouts.inc();
      // The same words for every address, known or not.
      return reply.status(429).header('retry-after', String(wait)).send({ error: 'Too many failed sign-ins, try again later' });
    }
  }

  const headers = fromNodeHeaders(request.headers);
  // Only the address Fastify determined counts, never one a client claims.
  headers.set(CLIENT_IP_HEADER, request.ip);
  const body = request.body === undefined ? undefined : JSON.stringify(request.body);
  if (body !== undefined) headers.set('content-type', 'application/json');
  // A provider's answer is noted for the account hooks of this one request (sso/policy.ts).
  const response = await withSignInScope(() => auth.handler(new Request(url, { method: request.method, headers, body })));

  if (signInAs !== undefined) {
    if (response.ok) await limits.signIn.succeeded(signInAs, request.ip);
    else if (response.status !== 401) await limits.signIn.notChecked(signInAs, request.ip);
    else signInFailures.inc();
  }

  reply.status(response.status);
  response.headers.forEach((value, key) => {
    if (key !== 'set-cookie' && key !== 'content-length') reply.header(key, value);
  });
  // better-auth's own limit says X-Retry-After; clients know Retry-After.
  const retryAfter = response.headers.get('x-retry-after');
  if (response.status === 429 && retryAfter !== null) reply.header('retry-after', retryAfter);
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) reply.header('set-cookie', cookies);

  const text = await response.text();
  if (response.status >= 400) return reply.send({ error: errorMessage(text, response.status) });
  if (text === '') return reply.send();
  return reply.type(response.headers.get('content-type') ?? 'application/json').send(text);
}

/** The address a password sign-in is for, or nothing for every other request. */
function signInAddress(request: FastifyRequest, url: URL): string | undefined {
  if (request.method !== 'POST' || url.pathname !== '/api/auth/sign-in/email') return undefined;
  const email = (request.body as { email?: unknown } | null | undefined)?.email;
  return typeof email === 'string' ? email : undefined;
}

function errorMessage(text: string, status: number): string {
  try {
    const parsed = JSON.parse(text) as { message?: unknown; code?: unknown };
    if (typeof parsed.message === 'string' && parsed.message) return parsed.message;
    if (typeof parsed.code === 'string' && parsed.code) return parsed.code;
  } catch {
    // Not JSON: fall through to the status text.
  }
  return status === 429 ? 'Too many requests, try again later' : 'Request refused';
}
