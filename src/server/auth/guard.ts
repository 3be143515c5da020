import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../deps.js';
import { forbidden } from '../http/errors.js';
import type { Actor } from './actor.js';
import { identify } from './identify.js';
import { isSafeMethod } from './origin.js';

/** Declares `request.actor`; called once on the root instance. */
export function decorateActor(app: FastifyInstance): void {
  app.decorateRequest('actor', null as unknown as Actor);
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller of a `/api/data/*` route; set before anything else runs. */
    actor: Actor;
  }
  interface FastifyContextConfig {
    /** A read the spec sends as POST (the board list): a read-only key may call it. */
    read?: boolean;
  }
}

/** Whether the route only reads: by its method, or by its own `config.read` where the spec says POST. */
export function isRead(request: FastifyRequest): boolean {
  return isSafeMethod(request.method) || request.routeOptions.config.read === true;
}

/**
 * Guards every route registered in `app` (the `/api/data` scope): no valid
 * credential or a read-only key on a write → 403 before the input is even
 * read. (Cookie writes from a foreign origin are refused for every route by
 * `refuseCrossSiteWrites`.)
 */
export function guardDataRoutes(app: FastifyInstance, deps: Deps): void {
  app.addHook('onRequest', async (request) => {
    const actor = await identify(request, deps);
    if (!actor) throw forbidden();
    if (actor.readOnly && !isRead(request)) throw forbidden('This API key is read-only');
    request.actor = actor;
  });
  // A write sent without a body is read as an empty one, so the schema names what is missing.
  app.addHook('preValidation', (request, _reply, done) => {
    if (request.body === undefined && !isSafeMethod(request.method)) request.body = {};
    done();
  });
}
