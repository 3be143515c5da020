import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { MentionablePerson } from '../../../shared/api/mentions.js';
import { Id, errorResponses } from '../../../shared/api/common.js';
import type { Deps } from '../../deps.js';
import { listMentionable } from './mentions.service.js';

export function mentionRoutes(app: FastifyInstance, deps: Deps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  r.get(
    '/mentionable',
    {
      schema: {
        tags: ['Mentions'],
        summary:
          'Up to 10 people who can read the board (its owner and members) whose name starts with q, case and accents aside, by name',
        querystring: Type.Object({ boardId: Id, q: Type.Optional(Type.String({ maxLength: 255 })) }),
        response: { 200: Type.Object({ people: Type.Array(MentionablePerson) }), ...errorResponses },
      },
    },
    async (request) => ({ people: await listMentionable(deps, request.actor, request.query.boardId, request.query.q) }),
  );
}
