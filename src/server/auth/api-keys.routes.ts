import { randomBytes, randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { fromNodeHeaders } from 'better-auth/node';
import { nowIso, toIso } from '../db/dialect.js';
import type { Db } from '../db/database.js';
import { HttpError, notFound } from '../http/errors.js';
import type { EventBus } from '../events/bus.js';
import type { Auth } from './auth.js';
import { hashKey } from './actor.js';

const KEY_PREFIX = 'tvk_';

const ApiKey = Type.Object({
  id: Type.String(),
  name: Type.String(),
  start: Type.String(),
  readOnly: Type.Boolean(),
  createdAt: Type.String(),
  lastUsedAt: Type.Union([Type.String(), Type.Null()]),
});

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
      schema: {
        tags: ['API keys'],
        summary: 'Create an API key; the secret is in the answer only once',
        body: Type.Object({
          name: Type.String({ minLength: 1, maxLength: 255 }),
          readOnly: Type.Optional(Type.Boolean()),
        }),
        response: { 200: Type.Intersect([ApiKey, Type.Object({ key: Type.String() })]) },
      },
    },
    async (request) => {
      const userId = await sessionUser(request);
      const { name, readOnly = false } = request.body as { name: string; readOnly?: boolean };
      if (name.trim() === '') throw new HttpError(400, 'body: name must not be blank');
      const key = KEY_PREFIX + randomBytes(32).toString('base64url');
      const row = {
        id: randomUUID(),
        userId,
        name: name.trim(),
        start: key.slice(0, KEY_PREFIX.length + 6),
        keyHash: hashKey(key),
        readOnly: readOnly ? 1 : 0,
        createdAt: nowIso(),
        lastUsedAt: null,
      };
      await db.insertInto('apikey').values(row).execute();
      return { ...present(row), key };
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
      const rows = await db
        .selectFrom('apikey')
        .selectAll()
        .where('userId', '=', userId)
        .orderBy('createdAt', 'desc')
        .orderBy('id')
        .execute();
      return { apiKeys: rows.map(present) };
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
      const result = await db.deleteFrom('apikey').where('id', '=', keyId).where('userId', '=', userId).executeTakeFirst();
      if (Number(result.numDeletedRows) === 0) throw notFound('API key not found');
      bus.revoke({ userId, keyId });
      return { success: true };
    },
  );
}

function present(row: {
  id: string;
  name: string;
  start: string;
  readOnly: number;
  createdAt: Date | string;
  lastUsedAt: Date | string | null;
}) {
  return {
    id: row.id,
    name: row.name,
    start: row.start,
    readOnly: row.readOnly === 1,
    createdAt: toIso(row.createdAt),
    lastUsedAt: toIso(row.lastUsedAt),
  };
}
