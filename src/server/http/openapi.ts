import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';

/** The OpenAPI document, generated from the route schemas, and its interactive reference. */
export async function registerOpenApi(app: FastifyInstance, version: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Tavla API',
        version,
        description:
          'Boards, areas, cards, labels, sharing, archive, notifications and exports. Authenticate with `X-API-Key` or a session cookie.',
      },
      components: {
        securitySchemes: {
          apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
          session: { type: 'apiKey', in: 'cookie', name: 'better-auth.session_token' },
        },
      },
      security: [{ apiKey: [] }, { session: [] }],
    },
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });
}
