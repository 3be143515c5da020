import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Id, Success, errorResponses } from '../../../shared/api/common.js';
import { Field, FieldCreate, FieldUpdate, MAX_FIELDS } from '../../../shared/api/fields.js';
import type { Deps } from '../../deps.js';
import { createField, deleteField, listFields, updateField } from './fields.service.js';

const tags = ['Custom fields'];

export function fieldRoutes(app: FastifyInstance, deps: Deps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get(
    '/fields',
    {
      schema: {
        tags,
        summary: "The board's custom fields in order",
        querystring: Type.Object({ boardId: Id }),
        response: { 200: Type.Object({ fields: Type.Array(Field) }), ...errorResponses },
      },
    },
    async (request) => ({ fields: await listFields(deps, request.actor, request.query.boardId) }),
  );

  r.post(
    '/field',
    {
      schema: {
        tags,
        summary: `Add a custom field at the end (at most ${MAX_FIELDS} per board, names unique whatever their case)`,
        body: FieldCreate,
        response: { 200: Type.Object({ field: Field }), ...errorResponses },
      },
    },
    async (request) => ({ field: await createField(deps, request.actor, request.body) }),
  );

  r.put(
    '/field',
    {
      schema: {
        tags,
        summary:
          'Rename a custom field, replace its options (values of a removed option are cleared), move it (sort) or show it on tiles; its type never changes',
        body: FieldUpdate,
        response: { 200: Type.Object({ field: Field }), ...errorResponses },
      },
    },
    async (request) => ({ field: await updateField(deps, request.actor, request.body) }),
  );

  r.delete(
    '/field',
    {
      schema: {
        tags,
        summary: 'Remove a custom field and every card’s value for it',
        querystring: Type.Object({ id: Id }),
        response: { 200: Success, ...errorResponses },
      },
    },
    async (request) => {
      await deleteField(deps, request.actor, request.query.id);
      return { success: true };
    },
  );
}
