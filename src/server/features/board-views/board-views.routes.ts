import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { BoardView, BoardViewUpdate } from '../../../shared/api/board-views.js';
import { Id, errorResponses } from '../../../shared/api/common.js';
import type { Deps } from '../../deps.js';
import { getBoardView, putBoardView } from './board-views.service.js';

const tags = ['Board views'];

export function boardViewRoutes(app: FastifyInstance, deps: Deps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  r.get(
    '/board-view',
    {
      schema: {
        tags,
        summary: 'My own view of a board: the swimlanes I chose (null when none, or when the lane field is gone)',
        querystring: Type.Object({ boardId: Id }),
        response: { 200: Type.Object({ view: BoardView }), ...errorResponses },
      },
    },
    async (request) => ({ view: await getBoardView(deps, request.actor, request.query.boardId) }),
  );
  r.put(
    '/board-view',
    {
      schema: {
        tags,
        summary: 'Keep my own view of a board (read access suffices; nobody else sees it): its swimlanes',
        body: BoardViewUpdate,
        response: { 200: Type.Object({ view: BoardView }), ...errorResponses },
      },
    },
    async (request) => ({ view: await putBoardView(deps, request.actor, request.body) }),
  );
}
