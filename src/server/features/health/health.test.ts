import { expect, it } from 'vitest';
import Fastify from 'fastify';
import { sql } from 'kysely';
import { eachDialect } from '../../../../test/harness.js';
import { openDatabase } from '../../db/database.js';
import { healthRoutes } from './health.routes.js';

eachDialect('health', (t) => {
  it('answers ok while the database answers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', database: 'ok' });
  });

  it('answers 503 while the database does not answer: every connection held past the timeout', async () => {
    // SQLite has one connection, the PostgreSQL pool ten: all held, the probe waits out its two seconds.
    const connections = t.dialect === 'postgres' ? 10 : 1;
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let holding = 0;
    const held = Array.from({ length: connections }, () =>
      t.db.transaction().execute(async (trx) => {
        await sql`select 1`.execute(trx);
        holding++;
        await released;
      }),
    );
    try {
      while (holding < connections) await new Promise((resolve) => setTimeout(resolve, 10));
      const res = await t.app.inject({ method: 'GET', url: '/api/health' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ status: 'error', database: 'unreachable' });
    } finally {
      release();
      await Promise.all(held);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
  });

  it.runIf(t.dialect === 'postgres')('answers 503 when nobody listens at the database address', async () => {
    const database = openDatabase('postgres://postgres@127.0.0.1:1/none');
    const app = Fastify();
    healthRoutes(app, database);
    try {
      const res = await app.inject({ method: 'GET', url: '/api/health' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ status: 'error', database: 'unreachable' });
    } finally {
      await app.close();
      await database.close();
    }
  });

  it('does not take an event loop held past the timeout for an unreachable database', async () => {
    // The answer comes while the loop is held (the turn after the query is sent); the timer
    // fires late, before the loop reads that answer.
    const held = new Promise<void>((resolve) =>
      setImmediate(() => {
        const until = performance.now() + 150;
        while (performance.now() < until);
        resolve();
      }),
    );
    const answered = t.database.ping(20);
    await held;
    expect(await answered).toBe(true);
  });

  it('refuses other methods with 405', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/health' });
    expect(res.statusCode).toBe(405);
    expect(res.json()).toEqual({ error: 'Method not allowed' });
  });

  it('serves the OpenAPI document and its reference page', async () => {
    const doc = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(doc.statusCode).toBe(200);
    const paths = Object.keys(doc.json<{ paths: Record<string, unknown> }>().paths);
    expect(paths).toEqual(expect.arrayContaining(['/api/data/boards', '/api/data/board', '/api/health']));
    const page = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
  });

  it('documents the team routes (fields, mentions, WIP limits, rewind) and the overLimit of every way into an area', async () => {
    type Op = {
      requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown> } }> };
      responses: Record<string, { content?: Record<string, { schema: { properties?: Record<string, unknown> } }> }>;
    };
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json<{
      paths: Record<string, Record<string, Op>>;
    }>();
    const methods = (path: string) => Object.keys(doc.paths[path] ?? {}).sort();
    expect(methods('/api/data/field')).toEqual(['delete', 'post', 'put']);
    expect(methods('/api/data/fields')).toEqual(['get']);
    expect(methods('/api/data/mentionable')).toEqual(['get']);
    expect(methods('/api/data/area')).toEqual(expect.arrayContaining(['patch']));
    expect(methods('/api/data/board-history')).toEqual(['get']);
    expect(methods('/api/data/board-at')).toEqual(['get']);
    expect(methods('/api/data/card-restore')).toEqual(['post']);
    const answer = (path: string, method: string) =>
      Object.keys(doc.paths[path]![method]!.responses['200']!.content!['application/json']!.schema.properties ?? {});
    for (const [path, method] of [
      ['/api/data/card', 'post'],
      ['/api/data/card', 'put'],
      ['/api/data/cardMove', 'post'],
      ['/api/data/card-duplicate', 'post'],
      ['/api/data/archive', 'post'],
    ] as const)
      expect(answer(path, method), `${method} ${path}`).toContain('overLimit');
    const body = (path: string, method: string) =>
      Object.keys(doc.paths[path]![method]!.requestBody!.content['application/json']!.schema.properties ?? {});
    expect(body('/api/data/card', 'post')).toContain('fields');
    expect(body('/api/data/card', 'put')).toContain('fields');
  });
});
