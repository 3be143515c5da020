import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Database } from '../../db/database.js';

const Health = Type.Object({ status: Type.String(), database: Type.String() });

export function healthRoutes(app: FastifyInstance, database: Database): void {
  app.get(
    '/api/health',
    {
      schema: {
        tags: ['Health'],
        summary: 'Whether the service and its database answer',
        response: { 200: Health, 503: Health },
      },
    },
    async (_request, reply) => {
      if (await database.ping()) return { status: 'ok', database: 'ok' };
      return reply.status(503).send({ status: 'error', database: 'unreachable' });
    },
  );
}
