import { expect, it } from 'vitest';
import { eachDialect } from '../../../../test/harness.js';

eachDialect('health', (t) => {
  it('answers ok while the database answers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', database: 'ok' });
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
});
