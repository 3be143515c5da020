import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errorResponses } from '../../../shared/api/common.js';
import { SearchHit } from '../../../shared/api/search.js';
import type { Deps } from '../../deps.js';
import { searchCards } from './search.service.js';

export function searchRoutes(app: FastifyInstance, deps: Deps): void {
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    '/search',
    {
      schema: {
        tags: ['Search'],
        summary: 'Cards whose name or description has every word of q (word prefixes), on my boards and boards shared with me',
        querystring: Type.Object({ q: Type.String({ maxLength: 200 }) }),
        response: { 200: Type.Object({ cards: Type.Array(SearchHit) }), ...errorResponses },
      },
    },
    async (request) => ({ cards: await searchCards(deps, request.actor, request.query.q) }),
  );
}
