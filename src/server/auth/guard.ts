import type { FastifyInstance } from 'fastify';
import type { Deps } from '../deps.js';
import { forbidden } from '../http/errors.js';
import { isForeignOrigin, resolveActor, type Actor } from './actor.js';

/** Declares `request.actor`; called once on the root instance. */
export function decorateActor(app: FastifyInstance): void {
  app.decorateRequest('actor', null as unknown as Actor);
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller of a `/api/data/*` route; set before anything else runs. */
    actor: Actor;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Guards every route registered in `app` (the `/api/data` scope): no valid
 * credential, a read-only key on a write, or a cookie write from a foreign
 * origin → 403 before the input is even read.
 */
export function guardDataRoutes(app: FastifyInstance, deps: Deps): void {
  const baseOrigin = new URL(deps.config.baseUrl).origin;
  app.addHook('onRequest', async (request) => {
    const actor = await resolveActor(request, deps.database.db, deps.auth);
    if (!actor) throw forbidden();
    const write = !SAFE_METHODS.has(request.method);
    if (write && actor.readOnly) throw forbidden('This API key is read-only');
    if (write && actor.via === 'session' && isForeignOrigin(request, baseOrigin)) {
      throw forbidden('Cross-site request refused');
    }
    request.actor = actor;
  });
  // A write sent without a body is read as an empty one, so the schema names what is missing.
  app.addHook('preValidation', (request, _reply, done) => {
    if (request.body === undefined && !SAFE_METHODS.has(request.method)) request.body = {};
    done();
  });
}
