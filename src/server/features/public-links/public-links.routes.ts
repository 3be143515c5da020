import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ErrorBody, Id, errorResponses } from '../../../shared/api/common.js';
import { PublicBoard, PublicLinkState } from '../../../shared/api/public-links.js';
import type { Deps } from '../../deps.js';
import { AddressLimiter } from './rate-limit.js';
import { createPublicLink, publicBoard, publicVersion, readPublicLink, revokePublicLink } from './public-links.service.js';

const tags = ['Public links'];
const BoardQuery = Type.Object({ boardId: Id });

/** The owner's side, in the guarded `/api/data` scope. */
export function publicLinkRoutes(app: FastifyInstance, deps: Deps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const response = { 200: PublicLinkState, ...errorResponses, 409: ErrorBody };

  r.get(
    '/public-link',
    {
      schema: { tags, summary: 'Whether the board has a public read-only link (owner only)', querystring: BoardQuery, response },
    },
    async (request) => readPublicLink(deps, request.actor, request.query.boardId),
  );

  r.post(
    '/public-link',
    {
      config: { secretAnswer: true },
      schema: {
        tags,
        summary:
          'Make a public read-only link to the board, replacing any earlier one (owner only); the address is shown only here, and an Idempotency-Key does not keep it: a repeat makes a new link',
        body: BoardQuery,
        response,
      },
    },
    async (request) => createPublicLink(deps, request.actor, request.body.boardId),
  );

  r.delete(
    '/public-link',
    { schema: { tags, summary: 'End the board’s public link (owner only)', querystring: BoardQuery, response } },
    async (request) => revokePublicLink(deps, request.actor, request.query.boardId),
  );
}

/**
 * What anyone with a link may read, without an account: outside the guarded
 * scope, limited per address, never cached (a revoked link must stop at once).
 */
export async function publicViewRoutes(app: FastifyInstance, deps: Deps): Promise<void> {
  const limiter = new AddressLimiter(deps.config.publicLinkRateLimit);
  await app.register((scope, _options, done) => {
    scope.addHook('onRequest', async (request, reply) => {
      reply.header('cache-control', 'no-store');
      limiter.take(request.ip);
    });
    const r = scope.withTypeProvider<TypeBoxTypeProvider>();
    const params = Type.Object({ token: Type.String({ pattern: '^[0-9a-f]{64}$' }) });
    const errors = { 400: ErrorBody, 404: ErrorBody, 429: ErrorBody };

    r.get(
      '/api/public/:token',
      {
        schema: {
          tags,
          summary: 'The board a public link shows: areas and cards, nobody’s name or address',
          security: [],
          params,
          response: { 200: PublicBoard, ...errors },
        },
      },
      async (request) => publicBoard(deps.database.db, request.params.token),
    );

    r.get(
      '/api/public/:token/version',
      {
        schema: {
          tags,
          summary: 'The board’s version, for an open public view to poll (404 once the link is revoked)',
          security: [],
          params,
          response: { 200: Type.Object({ version: Type.Integer() }), ...errors },
        },
      },
      async (request) => ({ version: await publicVersion(deps.database.db, request.params.token) }),
    );
    done();
  });
}
