import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { fromNodeHeaders } from 'better-auth/node';
import { ApiKey, ApiKeyCreated } from '../../shared/api/api-keys.js';
import type { Db } from '../db/database.js';
import { HttpError } from '../http/errors.js';
import type { EventBus } from '../events/bus.js';
import type { Auth } from './auth.js';
import { createApiKey, deleteApiKey, listApiKeys } from './api-keys.service.js';

/**
 * API keys live in a small table of our own: the secret is shown once and only
 * its SHA-256 is kept. Keys are managed from a signed-in session only, so a
 * leaked key cannot mint more keys.
 */
export function registerApiKeyRoutes(app: FastifyInstance, db: Db, auth: Auth, bus: EventBus): void {
  const sessionUser = async (request: FastifyRequest): Promise<string> => {
    const session = await auth.api.getSession({ headers: fromNodeHeaders(request.headers) });
    if (!session) throw new HttpError(401, 'Sign in to manage API keys');
    return session.user.id;
  };

  app.post(
    '/api/auth/api-key/create',
    {
      config: { secretAnswer: true },
      schema: {
        tags: ['API keys'],
        summary: 'Create an API key; the secret is in the answer only once',
        body: Type.Object({
          name: Type.String({ minLength: 1, maxLength: 255 }),
          readOnly: Type.Optional(Type.Boolean()),
        }),
        response: { 200: ApiKeyCreated },
      },
    },
    async (request) => {
      const userId = await sessionUser(request);
      return createApiKey(db, userId, request.body as { name: string; readOnly?: boolean });
    },
  );

  app.get(
    '/api/auth/api-key/list',
    {
      schema: {
        tags: ['API keys'],
        summary: 'List my API keys',
        response: { 200: Type.Object({ apiKeys: Type.Array(ApiKey) }) },
      },
    },
    async (request) => {
      const userId = await sessionUser(request);
      return listApiKeys(db, userId);
    },
  );

  app.post(
    '/api/auth/api-key/delete',
    {
      schema: {
        tags: ['API keys'],
        summary: 'Delete an API key; it stops working at once',
        body: Type.Object({ keyId: Type.String({ minLength: 1 }) }),
        response: { 200: Type.Object({ success: Type.Boolean() }) },
      },
    },
    async (request) => {
      const userId = await sessionUser(request);
      const { keyId } = request.body as { keyId: string };
      return deleteApiKey(db, bus, userId, keyId);
    },
  );
}
