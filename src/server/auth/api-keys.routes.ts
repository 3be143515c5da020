import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { ApiKey, ApiKeyCreated } from '../../shared/api/api-keys.js';
import type { Deps } from '../deps.js';
import { HttpError } from '../http/errors.js';
import type { Actor } from './actor.js';
import { createApiKey, deleteApiKey, listApiKeys } from './api-keys.service.js';
import { identify, requireVerified } from './identify.js';

/**
 * API keys live in a small table of our own: the secret is shown once and only
 * its SHA-256 is kept. Keys are managed from a signed-in session only, so a
 * leaked key cannot mint more keys.
 */
export function registerApiKeyRoutes(app: FastifyInstance, deps: Deps): void {
  const { db } = deps.database;
  const sessionUser = async (request: FastifyRequest): Promise<Actor> => {
    const actor = await identify(request, deps, { accept: 'session' });
    if (!actor) throw new HttpError(401, 'Sign in to manage API keys');
    return actor;
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
      const actor = await sessionUser(request);
      requireVerified(actor, 'API keys');
      return createApiKey(db, actor.id, request.body as { name: string; readOnly?: boolean });
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
      const { id } = await sessionUser(request);
      return listApiKeys(db, id);
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
      const { id } = await sessionUser(request);
      const { keyId } = request.body as { keyId: string };
      return deleteApiKey(db, deps.bus, id, keyId);
    },
  );
}
