import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ActivityEntry } from '../../../shared/api/activity.js';
import { Id, errorResponses } from '../../../shared/api/common.js';
import type { Deps } from '../../deps.js';
import { badRequest } from '../../http/errors.js';
import { cardActivity } from './activity.service.js';

export function activityRoutes(app: FastifyInstance, deps: Deps): void {
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    '/card-activity',
    {
      schema: {
        tags: ['Cards'],
        summary: "A card's history, oldest first",
        querystring: Type.Object({ cardID: Type.Optional(Id), cardId: Type.Optional(Id) }),
        response: { 200: Type.Object({ activity: Type.Array(ActivityEntry) }), ...errorResponses },
      },
    },
    async (request) => {
      const cardId = request.query.cardID ?? request.query.cardId;
      if (cardId === undefined) throw badRequest('query: cardID is required');
      return { activity: await cardActivity(deps, request.actor, cardId) };
    },
  );
}
