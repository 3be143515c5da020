import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Area, WipLimit } from '../../../shared/api/areas.js';
import { ErrorBody, Id, Message, Position, errorResponses } from '../../../shared/api/common.js';
import type { Deps } from '../../deps.js';
import { deleteArea, listAreas, reorderAreas, saveArea, setWipLimit } from './areas.service.js';

const tags = ['Areas'];
const writeErrors = { ...errorResponses, 409: ErrorBody };

export function areaRoutes(app: FastifyInstance, deps: Deps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get(
    '/areas',
    {
      schema: {
        tags,
        summary: 'The visible areas of a board, in order',
        querystring: Type.Object({ boardId: Id }),
        response: { 200: Type.Object({ areas: Type.Array(Area) }), ...errorResponses },
      },
    },
    async (request) => ({ areas: await listAreas(deps, request.actor, request.query.boardId) }),
  );

  r.post(
    '/area',
    {
      schema: {
        tags,
        summary: 'Create an area at the end of the board, or rename one (id given)',
        body: Type.Object({ id: Type.Optional(Id), boardId: Id, name: Type.String({ minLength: 1, maxLength: 255 }) }),
        response: { 200: Type.Object({ area: Area }), ...writeErrors },
      },
    },
    async (request) => ({ area: await saveArea(deps, request.actor, request.body) }),
  );

  r.patch(
    '/area',
    {
      schema: {
        tags,
        summary: "Set an area's work-in-progress limit (1–999), or remove it with null; the limit is soft",
        body: Type.Object({ id: Id, wipLimit: WipLimit }),
        response: { 200: Type.Object({ area: Area }), ...writeErrors },
      },
    },
    async (request) => ({ area: await setWipLimit(deps, request.actor, request.body) }),
  );

  r.delete(
    '/area',
    {
      schema: {
        tags,
        summary: 'Archive an area with its cards, or remove it and every card in it with permanent=true',
        querystring: Type.Object({ id: Id, boardId: Id, permanent: Type.Optional(Type.String()) }),
        response: { 200: Message, ...writeErrors },
      },
    },
    async (request) => {
      const { id, boardId, permanent } = request.query;
      return { message: await deleteArea(deps, request.actor, id, boardId, permanent === 'true') };
    },
  );

  r.patch(
    '/board',
    {
      schema: {
        tags,
        summary: 'Set the order of the visible areas; the array order is the truth',
        body: Type.Object({
          boardId: Id,
          areas: Type.Array(Type.Object({ id: Id, sort: Type.Optional(Position) }), { maxItems: 1000 }),
        }),
        response: { 200: Message, ...writeErrors },
      },
    },
    async (request) => {
      await reorderAreas(
        deps,
        request.actor,
        request.body.boardId,
        request.body.areas.map((a) => a.id),
      );
      return { message: 'Area order updated' };
    },
  );
}
