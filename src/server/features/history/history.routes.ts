import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Card } from '../../../shared/api/cards.js';
import { ErrorBody, errorResponses } from '../../../shared/api/common.js';
import { BoardAt, BoardAtQuery, CardRestore, HistoryEntry, HistoryQuery } from '../../../shared/api/history.js';
import type { Deps } from '../../deps.js';
import { boardAt, boardHistory, restoreCard } from './history.service.js';

const tags = ['History'];
const pastErrors = { ...errorResponses, 410: ErrorBody };

export function historyRoutes(app: FastifyInstance, deps: Deps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get(
    '/board-history',
    {
      schema: {
        tags,
        summary: "A board's changes, newest first, from when the caller could first read it",
        querystring: HistoryQuery,
        response: { 200: Type.Object({ entries: Type.Array(HistoryEntry) }), ...errorResponses },
      },
    },
    async (request) => ({ entries: await boardHistory(deps, request.actor, request.query) }),
  );

  r.get(
    '/board-at',
    {
      schema: {
        tags,
        summary: 'A board as it stood at a version (or moment), without archived areas and cards',
        description:
          '410 when the kept history cannot rebuild that version (before the board’s first snapshot, or its changes pruned); 403 for a version from before the caller joined.',
        querystring: BoardAtQuery,
        response: { 200: BoardAt, ...pastErrors },
      },
    },
    async (request) => boardAt(deps, request.actor, request.query),
  );

  r.post(
    '/card-restore',
    {
      schema: {
        tags,
        summary: "Put a card's name, content, labels, due date and done back as they were at a version",
        body: CardRestore,
        response: { 200: Type.Object({ card: Card }), ...pastErrors, 409: ErrorBody },
      },
    },
    async (request) => ({ card: await restoreCard(deps, request.actor, request.body) }),
  );
}
