import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Id, NullableString, errorResponses } from '../../../shared/api/common.js';
import type { Deps } from '../../deps.js';
import { badRequest } from '../../http/errors.js';
import { cardActivity } from './activity.service.js';

const Entry = Type.Object({
  type: Type.String(),
  actor: Type.Union([
    Type.Object({ id: Type.String(), name: Type.String(), image: NullableString, type: Type.String() }),
    Type.Null(),
  ]),
  data: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
  createdAt: Type.String(),
});

export function activityRoutes(app: FastifyInstance, deps: Deps): void {
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    '/card-activity',
    {
      schema: {
        tags: ['Cards'],
        summary: "A card's history, oldest first",
        querystring: Type.Object({ cardID: Type.Optional(Id), cardId: Type.Optional(Id) }),
        response: { 200: Type.Object({ activity: Type.Array(Entry) }), ...errorResponses },
      },
    },
    async (request) => {
      const cardId = request.query.cardID ?? request.query.cardId;
      if (cardId === undefined) throw badRequest('query: cardID is required');
      return { activity: await cardActivity(deps, request.actor, cardId) };
    },
  );
}
