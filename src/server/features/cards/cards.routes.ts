import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Card, CardCreate, CardListItem, CardUpdate, Person } from '../../../shared/api/cards.js';
import { ErrorBody, Id, MAX_ID, Message, Success, errorResponses } from '../../../shared/api/common.js';
import type { Deps } from '../../deps.js';
import { cardListJson, createCard, deleteCard, getCard, moveCard, updateCard } from './cards.service.js';
import { claimCard } from './claim.js';
import { duplicateCard } from './duplicate.js';

const tags = ['Cards'];
const writeErrors = { ...errorResponses, 409: ErrorBody };
const NewIndex = Type.Integer({
  minimum: 0,
  maximum: MAX_ID,
  description: 'position among the visible cards of the target area, from 0',
});

const OverLimit = Type.Literal(true, {
  description: 'present when the target area now holds more cards than its work-in-progress limit (the write is kept)',
});

export function cardRoutes(app: FastifyInstance, deps: Deps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get(
    '/cards',
    {
      schema: {
        tags,
        summary: 'The visible cards of an area, in order',
        querystring: Type.Object({
          areaId: Id,
          assignee: Type.Optional(Type.String({ description: 'only cards this account is on' })),
          unassigned: Type.Optional(Type.Boolean({ description: 'only cards nobody is on' })),
          field: Type.Optional(Id),
          value: Type.Optional(
            Type.String({
              maxLength: 1000,
              description:
                'with `field`: only cards whose value matches (text: contains, any case; checkbox: true/false; others: equal); without it, cards that have a value',
            }),
          ),
        }),
        response: { 200: Type.Object({ cards: Type.Array(CardListItem) }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { areaId, ...filter } = request.query;
      const json = await cardListJson(deps, request.actor, areaId, filter);
      // Already serialised (and cached) JSON: sent as it is, not serialised again.
      return reply
        .type('application/json; charset=utf-8')
        .serializer((payload) => payload as string)
        .send(json as unknown as { cards: CardListItem[] });
    },
  );

  r.get(
    '/card',
    {
      schema: {
        tags,
        summary: 'One card (archived cards too)',
        querystring: Type.Object({ cardID: Id }),
        response: { 200: Type.Object({ card: Card }), ...errorResponses },
      },
    },
    async (request) => ({ card: await getCard(deps, request.actor, request.query.cardID) }),
  );

  r.post(
    '/card',
    {
      schema: {
        tags,
        summary: 'Create a card at the bottom of an area',
        body: CardCreate,
        response: { 200: Type.Object({ card: Card, overLimit: Type.Optional(OverLimit) }), ...writeErrors },
      },
    },
    async (request) => createCard(deps, request.actor, request.body),
  );

  r.post(
    '/card-duplicate',
    {
      schema: {
        tags,
        summary: 'Copy a card right under the original, with its attachments (not its comments)',
        body: Type.Object({ cardID: Id }),
        response: { 200: Type.Object({ card: Card, overLimit: Type.Optional(OverLimit) }), ...writeErrors },
      },
    },
    async (request) => duplicateCard(deps, request.actor, request.body.cardID),
  );

  r.post(
    '/card-claim',
    {
      schema: {
        tags,
        summary: 'Take a card nobody is on: I become its assignee; 409 with the assignees when someone already is',
        body: Type.Object({ cardID: Id }),
        response: {
          200: Type.Object({ card: Card }),
          ...writeErrors,
          409: Type.Object({ error: Type.String(), assignees: Type.Optional(Type.Array(Person)) }),
        },
      },
    },
    async (request) => ({ card: await claimCard(deps, request.actor, request.body.cardID) }),
  );

  r.put(
    '/card',
    {
      schema: {
        tags,
        summary:
          'Change a card: properties left out stay as they are, null clears; `fields` sets custom field values by field id',
        body: CardUpdate,
        response: {
          200: Type.Object({
            card: Card,
            next: Type.Union([Card, Type.Null()]),
            overLimit: Type.Optional(
              Type.Literal(true, {
                description:
                  "present when a repeating card's successor (`next`) leaves its area holding more cards than its work-in-progress limit",
              }),
            ),
          }),
          ...writeErrors,
        },
      },
    },
    async (request) => updateCard(deps, request.actor, request.body),
  );

  r.delete(
    '/card',
    {
      schema: {
        tags,
        summary: 'Archive a card, or remove it with everything on it (permanent: true)',
        body: Type.Object({ cardID: Id, permanent: Type.Optional(Type.Boolean()) }),
        response: { 200: Message, ...writeErrors },
      },
    },
    async (request) => ({ message: await deleteCard(deps, request.actor, request.body.cardID, request.body.permanent === true) }),
  );

  r.post(
    '/cardMove',
    {
      schema: {
        tags,
        summary: 'Move a card to a place in another area (or its own)',
        body: Type.Object({ cardId: Id, fromAreaId: Id, toAreaId: Id, newIndex: NewIndex }),
        response: {
          200: Type.Object({ success: Type.Literal(true), overLimit: Type.Optional(OverLimit) }),
          ...writeErrors,
        },
      },
    },
    async (request) => {
      const { overLimit } = await moveCard(deps, request.actor, request.body);
      return overLimit ? { success: true as const, overLimit } : { success: true as const };
    },
  );

  r.post(
    '/cardOrder',
    {
      schema: {
        tags,
        summary: 'Move a card to a place within its own area',
        body: Type.Object({ cardId: Id, areaId: Id, newIndex: NewIndex }),
        response: { 200: Success, ...writeErrors },
      },
    },
    async (request) => {
      const { cardId, areaId, newIndex } = request.body;
      await moveCard(deps, request.actor, { cardId, fromAreaId: areaId, toAreaId: areaId, newIndex });
      return { success: true };
    },
  );
}
