import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Board, BoardWithAccess, BoardWrite } from '../../../shared/api/boards.js';
import { ErrorBody, Id, Message, errorResponses } from '../../../shared/api/common.js';
import type { Deps } from '../../deps.js';
import { forbidden } from '../../http/errors.js';
import { deleteBoard, getBoard, listBoards, saveBoard } from './boards.service.js';

const tags = ['Boards'];

export function boardRoutes(app: FastifyInstance, deps: Deps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.post(
    '/boards',
    {
      // A read sent as POST (the spec's shape): read-only keys may list boards.
      config: { read: true },
      schema: {
        tags,
        summary: 'List my boards, or those shared with me',
        body: Type.Object({ shared: Type.Optional(Type.Union([Type.Boolean(), Type.Literal('true'), Type.Literal('false')])) }),
        response: { 200: Type.Object({ boards: Type.Array(Board) }), ...errorResponses },
      },
    },
    async (request) => {
      const shared = request.body.shared === true || request.body.shared === 'true';
      return { boards: await listBoards(deps, request.actor, shared) };
    },
  );

  r.get(
    '/board',
    {
      schema: {
        tags,
        summary: 'One board and whether I may change it',
        querystring: Type.Object({ id: Id, userId: Type.String({ description: 'must be your own account id' }) }),
        response: { 200: BoardWithAccess, ...errorResponses },
      },
    },
    async (request) => {
      if (request.query.userId !== request.actor.id) throw forbidden('userId must be your own account id');
      return getBoard(deps, request.actor, request.query.id);
    },
  );

  r.post(
    '/board',
    {
      schema: {
        tags,
        summary: 'Create a board (no id) or change its settings (owner only)',
        body: BoardWrite,
        response: { 200: Type.Object({ board: Board }), ...errorResponses, 409: ErrorBody },
      },
    },
    async (request) => ({ board: await saveBoard(deps, request.actor, request.body) }),
  );

  r.delete(
    '/board',
    {
      schema: {
        tags,
        summary: 'Archive a board, or remove it for good with permanent=true (owner only)',
        querystring: Type.Object({
          id: Id,
          userId: Type.String({ description: 'must be your own account id' }),
          permanent: Type.Optional(Type.String({ description: '`true` removes the board irreversibly' })),
        }),
        response: { 200: Message, ...errorResponses },
      },
    },
    async (request) => {
      if (request.query.userId !== request.actor.id) throw forbidden('userId must be your own account id');
      const message = await deleteBoard(deps, request.actor, request.query.id, request.query.permanent === 'true');
      return { message };
    },
  );
}
