import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ArchivedBoards, BoardArchive, Restore, Restored } from '../../../shared/api/archive.js';
import { ErrorBody, Id, errorResponses } from '../../../shared/api/common.js';
import type { Deps } from '../../deps.js';
import { archivedBoards, boardArchive, restore } from './archive.service.js';

const tags = ['Archive'];

export function archiveRoutes(app: FastifyInstance, deps: Deps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get(
    '/archive',
    {
      schema: {
        tags,
        summary: "A board's archived areas and cards (edit access), or without boardId the archived boards I own",
        querystring: Type.Object({ boardId: Type.Optional(Id) }),
        response: { 200: Type.Union([BoardArchive, ArchivedBoards]), ...errorResponses },
      },
    },
    async (request) => {
      const { boardId } = request.query;
      return boardId === undefined ? archivedBoards(deps, request.actor) : boardArchive(deps, request.actor, boardId);
    },
  );

  r.post(
    '/archive',
    {
      schema: {
        tags,
        summary: 'Restore an archived card (with its area if that is archived too), area or board',
        body: Restore,
        response: { 200: Restored, ...errorResponses, 409: ErrorBody },
      },
    },
    async (request) => restore(deps, request.actor, request.body.type, request.body.id),
  );
}
