import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../../shared/api/common.js';
import { MyWork, MyWorkQuery } from '../../../shared/api/my-work.js';
import type { Deps } from '../../deps.js';
import { myWork } from './my-work.service.js';

export function myWorkRoutes(app: FastifyInstance, deps: Deps): void {
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    '/my-work',
    {
      schema: {
        tags: ['My work'],
        summary: 'Every open card assigned to me on every board I can read, grouped by due day in a time zone',
        description:
          'Groups: `overdue` (due on a day before today), `today`, `thisWeek` (after today up to Sunday, ISO weeks), ' +
          '`later`, `noDate`; days are counted in `tz` (an IANA zone, default UTC). Archived cards, areas and boards ' +
          'are left out. `boardId` of a board I cannot read is 404; `labelId` and `label` filter by label id or name. ' +
          '`boards` and `labels` list what the filters can choose from.',
        querystring: MyWorkQuery,
        response: { 200: MyWork, ...errorResponses },
      },
    },
    async (request) => myWork(deps, request.actor, request.query),
  );
}
