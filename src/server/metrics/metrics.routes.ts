import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { ErrorBody } from '../../shared/api/common.js';
import type { Database } from '../db/database.js';
import { poolLoad } from '../db/pool-load.js';
import type { JobRunner } from '../jobs/runner.js';
import { addMetricsSource, bearerMatches, httpDuration, scrape } from './metrics.js';

/**
 * Times every request by its route template (never the raw path, so ids do
 * not multiply the series), reads this app's queues and pool at each scrape,
 * and serves `GET /metrics` to whoever brings `METRICS_TOKEN` as a bearer
 * token; without a token set it answers 404 here (see `METRICS_PORT`).
 */
export function metricsRoutes(app: FastifyInstance, token: string | null, database: Database, jobs: JobRunner): void {
  app.addHook('onResponse', (request, reply, done) => {
    httpDuration.observe(
      { method: request.method, route: request.routeOptions.url ?? 'unmatched', status: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
    done();
  });
  const remove = addMetricsSource({ queues: () => jobs.queueLoad(), pool: () => poolLoad(database.db) });
  app.addHook('onClose', (_instance, done) => {
    remove();
    done();
  });

  app.get(
    '/metrics',
    {
      schema: {
        tags: ['Operations'],
        summary:
          'Prometheus metrics (text format), for `Authorization: Bearer <METRICS_TOKEN>`; 404 when no METRICS_TOKEN is set (METRICS_PORT serves them on a port of its own)',
        security: [],
        headers: Type.Object({ authorization: Type.Optional(Type.String()) }),
        response: { 200: Type.String(), 401: ErrorBody, 404: ErrorBody },
      },
    },
    async (request, reply) => {
      if (token === null) return reply.status(404).send({ error: 'Not found' });
      if (!bearerMatches(request.headers.authorization, token)) {
        return reply.status(401).header('www-authenticate', 'Bearer').send({ error: 'The metrics token is missing or wrong' });
      }
      const { text, contentType } = await scrape();
      return reply.type(contentType).send(text);
    },
  );
}
