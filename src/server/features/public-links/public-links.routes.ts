import type { FastifyInstance, FastifyReply, FastifySchema } from 'fastify';
import type { OpenedFile } from '../../files/store.js';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ErrorBody, Id, errorResponses } from '../../../shared/api/common.js';
import { PublicBoard, PublicLinkState } from '../../../shared/api/public-links.js';
import type { Deps } from '../../deps.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The board a public socket's link opened, checked before the upgrade. */
    publicBoardId?: number;
  }
}
import { isStoredName } from '../../files/store.js';
import { badRequest, notFound } from '../../http/errors.js';
import { holdConnectionSlots } from '../../limits/connection-slots.js';
import {
  createPublicLink,
  linkGone,
  linkedBoard,
  publicBoard,
  publicImage,
  publicVersion,
  readPublicLink,
  revokePublicLink,
} from './public-links.service.js';
import { feedPublicViewers, publicViewersOf, servePublicSocket } from './public-socket.js';

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
          'Make a public read-only link to the board, replacing any earlier one (owner only); the address is shown only here, and an Idempotency-Key does not keep it: a repeat with the same key is refused (409)',
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
 * Registered after the realtime routes, whose WebSocket support the live view uses.
 */
export async function publicViewRoutes(app: FastifyInstance, deps: Deps, options: { heartbeatMs: number }): Promise<void> {
  const viewers = publicViewersOf(deps);
  feedPublicViewers(app, deps, viewers);
  await app.register((scope, _options, done) => {
    scope.addHook('onRequest', async (request, reply) => {
      reply.header('cache-control', 'no-store');
      deps.limits.take('public.requests', request.ip);
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

    const socketSchema: FastifySchema = {
      tags,
      summary:
        'WebSocket of the board’s changes for an open public view, nobody’s name or address in them (404 before the upgrade for a link that does not work, 429 when the client address or the link holds all its sockets; closed with 4404 once it is revoked)',
      security: [],
      params,
      response: errors,
    };
    // `wsHandler` rather than `websocket: true`, which would hide the route from the OpenAPI document.
    scope.route<{ Params: { token: string } }>({
      method: 'GET',
      url: '/api/public/:token/realtime',
      schema: socketSchema,
      onRequest: async (request) => {
        // Before the upgrade, so a link that does not work is refused with 404 (validation runs later, hence the pattern here).
        if (!/^[0-9a-f]{64}$/.test(request.params.token)) throw linkGone();
        request.publicBoardId = (await linkedBoard(deps.database.db, request.params.token)).id;
      },
      // A board has one link at a time: its live views count per board.
      preHandler: holdConnectionSlots(deps.limits, (request) => [
        ['sockets.address', request.ip],
        ['sockets.link', String(request.publicBoardId)],
      ]),
      wsHandler: (socket, request) =>
        servePublicSocket(viewers, socket, request.params.token, request.publicBoardId ?? 0, options.heartbeatMs),
      handler: () => {
        throw badRequest('Connect with a WebSocket upgrade');
      },
    });

    r.get(
      '/api/public/:token/image/:name',
      {
        schema: {
          tags,
          summary: 'A picture pasted into a card of the board the link shows (404 for any other board’s)',
          security: [],
          params: Type.Object({ token: params.properties.token, name: Type.String() }),
          response: errors,
        },
      },
      async (request, reply) => {
        if (!isStoredName(request.params.name)) throw notFound('Image not found');
        return sendImage(reply, await publicImage(deps, request.params.token, request.params.name));
      },
    );
    done();
  });
}

/** With the image route's safe headers: the declared type only, never sniffed, sandboxed if opened alone. */
function sendImage(reply: FastifyReply, { file, contentType }: { file: OpenedFile; contentType: string }) {
  return reply
    .headers({
      'content-type': contentType,
      'content-length': String(file.size),
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox",
    })
    .send(file.stream);
}
