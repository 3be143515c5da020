import type { FastifyInstance, FastifyRequest } from 'fastify';
import { forbidden } from '../http/errors.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Whether the method leaves the server as it was. */
export const isSafeMethod = (method: string): boolean => SAFE_METHODS.has(method);

/**
 * A browser sends `Origin` with every write and every WebSocket upgrade; one
 * other than `BASE_URL`'s is a page elsewhere riding on our cookie. The
 * request's own `Host` proves nothing: under DNS rebinding an attacker's name
 * points at us and the browser sends that name as both Host and Origin.
 */
export function isForeignOrigin(request: FastifyRequest, baseOrigin: string): boolean {
  const origin = request.headers.origin;
  if (origin !== undefined) return origin !== baseOrigin;
  return request.headers['sec-fetch-site'] === 'cross-site';
}

/**
 * The one check of cookie-carrying writes, for every route (the data API,
 * API keys, invitations, better-auth's own): a state-changing request that
 * carries a cookie from a foreign origin is refused before anything runs.
 * Without a cookie there is no session to ride, so scripts with keys pass.
 */
export function refuseCrossSiteWrites(app: FastifyInstance, baseUrl: string): void {
  const baseOrigin = new URL(baseUrl).origin;
  app.addHook('onRequest', (request, _reply, done) => {
    const forged = !isSafeMethod(request.method) && request.headers.cookie !== undefined && isForeignOrigin(request, baseOrigin);
    done(forged ? forbidden('Cross-site request refused') : undefined);
  });
}
