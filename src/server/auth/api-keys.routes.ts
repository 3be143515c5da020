import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { ApiKey, ApiKeyCreated } from '../../shared/api/api-keys.js';
import type { Deps } from '../deps.js';
import { HttpError } from '../http/errors.js';
import { idempotentWrites } from '../http/idempotency.js';
import { createApiKey, deleteApiKey, listApiKeys } from './api-keys.service.js';
import { identify, requireVerified } from './identify.js';

/**
 * API keys live in a small table of our own: the secret is shown once and only
 * its SHA-256 is kept. Keys are managed from a signed-in session only, so a
 * leaked key cannot mint more keys. Their own scope identifies the caller
 * first, so `Idempotency-Key` works here as on `/api/data`: a repeat of a
 * create is refused (409) instead of making a second key.
 */
export function registerApiKeyRoutes(app: FastifyInstance, deps: Deps): void {
  void app.register((scope, _options, done) => {
    scope.addHook('onRequest', async (request) => {
      const actor = await identify(request, deps, { accept: 'session' });
      if (!actor) throw new HttpError(401, 'Sign in to manage API keys');
      request.actor = actor;
    });
    idempotentWrites(scope, deps.database.db);
    apiKeyRoutes(scope, deps);
    done();
  });
}

function apiKeyRoutes(app: FastifyInstance, deps: Deps): void {
  const { db } = deps.database;

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
      requireVerified(request.actor, 'API keys');
      return createApiKey(db, request.actor.id, request.body as { name: string; readOnly?: boolean });
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
      const { id } = request.actor;
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
      const { id } = request.actor;
      const { keyId } = request.body as { keyId: string };
      return deleteApiKey(db, deps.bus, id, keyId);
    },
  );
}
