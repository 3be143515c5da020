import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { LabelRef } from '../../../shared/api/cards.js';
import { ErrorBody, Id, errorResponses } from '../../../shared/api/common.js';
import type { Deps } from '../../deps.js';
import { ensureLabel, listLabels } from './labels.service.js';

const tags = ['Labels'];

export function labelRoutes(app: FastifyInstance, deps: Deps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get(
    '/labels',
    {
      schema: {
        tags,
        summary: "The board's labels in the order first used",
        querystring: Type.Object({ boardId: Id }),
        response: { 200: Type.Object({ labels: Type.Array(LabelRef) }), ...errorResponses },
      },
    },
    async (request) => ({ labels: await listLabels(deps, request.actor, request.query.boardId) }),
  );

  r.post(
    '/labels',
    {
      schema: {
        tags,
        summary: 'The label for a word: the existing one (any case) or a new one; a 31st word is refused with TOO_MANY_LABELS',
        body: Type.Object({ boardId: Id, name: Type.String({ maxLength: 1000 }) }),
        response: { 200: Type.Object({ label: LabelRef }), ...errorResponses, 409: ErrorBody },
      },
    },
    async (request) => ({ label: await ensureLabel(deps, request.actor, request.body.boardId, request.body.name) }),
  );
}
