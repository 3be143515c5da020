import { randomBytes } from 'node:crypto';
import { expect, it } from 'vitest';
import { BASE_URL, eachDialect } from '../../../test/harness.js';
import { API_KEY_HANDOUT, handOut } from '../../../test/standing-access.js';

const EVIL = 'https://evil.example';
/** A name the attacker points at this server (DNS rebinding): the browser sends it as both Host and Origin. */
const REBOUND = { host: 'rebound.example:3000', origin: 'http://rebound.example:3000' };

eachDialect('identity: origins', (t) => {
  it('refuses cookie writes from a foreign origin, or one that only matches Host, outside /api/data too, changing nothing', async () => {
    const ada = await t.signUp('Ada');
    const keysBefore = await t.db.selectFrom('apikey').select('id').where('userId', '=', ada.id).execute();
    for (const headers of [{ origin: EVIL }, REBOUND]) {
      const created = await handOut(t, ada, API_KEY_HANDOUT, 0, headers);
      expect(created.statusCode).toBe(403);
      expect(created.json()).toEqual({ error: 'Cross-site request refused' });

      const deleted = await t.app.inject({
        method: 'POST',
        url: '/api/auth/api-key/delete',
        headers: { cookie: ada.cookie, ...headers },
        payload: { keyId: keysBefore[0]!.id },
      });
      expect(deleted.statusCode).toBe(403);

      const accepted = await t.app.inject({
        method: 'POST',
        url: `/api/invitations/${randomBytes(32).toString('hex')}/accept`,
        headers: { cookie: ada.cookie, ...headers },
        payload: {},
      });
      expect(accepted.statusCode).toBe(403);
      expect(accepted.json()).toEqual({ error: 'Cross-site request refused' });

      const board = await t.app.inject({
        method: 'POST',
        url: '/api/data/board',
        headers: { cookie: ada.cookie, ...headers },
        payload: { userId: ada.id, name: 'Forged', style: 'kanban', status: 'private' },
      });
      expect(board.statusCode).toBe(403);
    }
    expect(await t.db.selectFrom('apikey').select('id').where('userId', '=', ada.id).execute()).toEqual(keysBefore);
    expect((await t.inject(ada, { method: 'POST', url: '/api/data/boards' })).statusCode).toBe(200);
    expect(await t.db.selectFrom('boards').select('id').where('ownerId', '=', ada.id).execute()).toEqual([]);

    // The same requests from our own origin, or from a script without one, go through.
    const own = await handOut(t, ada, API_KEY_HANDOUT, 0, { origin: BASE_URL });
    expect(own.statusCode).toBe(200);
  });

  it('/mcp accepts no Origin or BASE_URL’s only, not one equal to its own Host', async () => {
    const ada = await t.signUp('Ada');
    const base = await t.listen();
    const post = (headers: Record<string, string>) =>
      fetch(`${base}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: `Bearer ${ada.key}`,
          ...headers,
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
        }),
      });
    const rebound = await post({ origin: base });
    expect(rebound.status).toBe(403);
    expect(await rebound.json()).toEqual({ error: 'Cross-site request refused' });
    expect((await post({})).status).toBe(200);
    expect((await post({ origin: BASE_URL })).status).toBe(200);
  });
});

/** The value a route's schema would take, as far as this walk needs: a read-only key is refused before validation anyway. */
const pathOf = (path: string) => path.replace(/\{[^}]+\}/g, '1');

eachDialect('identity: read-only keys', (t) => {
  it('reads every read of the OpenAPI document, POST /boards included, and is refused every write', async () => {
    const ada = await t.signUp('Ada');
    await t.createBoard(ada);
    const readOnly = { key: await t.createKey(ada, true) };
    const listed = await t.inject(readOnly, { method: 'POST', url: '/api/data/boards', payload: {} });
    expect(listed.statusCode).toBe(200);
    expect(listed.json<{ boards: unknown[] }>().boards).toHaveLength(1);

    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json<{ paths: Record<string, object> }>();
    const reads = new Set(['GET /api/data/boards', 'POST /api/data/boards']);
    let walked = 0;
    for (const [path, operations] of Object.entries(doc.paths)) {
      if (!path.startsWith('/api/data/')) continue;
      for (const method of Object.keys(operations)) {
        const upper = method.toUpperCase();
        const read = upper === 'GET' || upper === 'HEAD' || reads.has(`${upper} ${path}`);
        const res = await t.inject(readOnly, {
          method: upper,
          url: pathOf(path),
          payload: read && upper === 'GET' ? undefined : {},
        });
        const error = String(res.headers['content-type']).includes('json') ? (res.json<{ error?: string }>().error ?? '') : '';
        if (read) expect(error, `${upper} ${path}`).not.toBe('This API key is read-only');
        else expect([res.statusCode, error], `${upper} ${path}`).toEqual([403, 'This API key is read-only']);
        walked++;
      }
    }
    expect(walked).toBeGreaterThan(40);
  });

  it('MCP’s list_boards works with a read-only key', async () => {
    const ada = await t.signUp('Ada');
    await t.createBoard(ada, { name: 'Visible' });
    const readOnly = await t.createKey(ada, true);
    const res = await t.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-api-key': readOnly },
      payload: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_boards', arguments: {} } },
    });
    expect(res.statusCode).toBe(200);
    const result = res.json<{ result: { isError?: boolean; structuredContent: { owned: { name: string }[] } } }>().result;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent.owned.map((b) => b.name)).toEqual(['Visible']);
  });
});

eachDialect('identity: administrators', (t) => {
  it('makes exactly one administrator of 20 simultaneous first sign-ups, twice over', async () => {
    for (let round = 0; round < 2; round++) {
      await t.db.deleteFrom('user').execute();
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          t.app.inject({
            method: 'POST',
            url: '/api/auth/sign-up/email',
            headers: { origin: BASE_URL },
            payload: { name: `First ${i}`, email: `first-${round}-${i}@example.test`, password: 'first sign-up 123' },
          }),
        ),
      );
      expect(answers.map((a) => a.statusCode)).toEqual(Array.from({ length: 20 }, () => 200));
      const admins = await t.db.selectFrom('user').select('id').where('role', '=', 'admin').execute();
      expect(admins, `round ${round}`).toHaveLength(1);
    }
  }, 120_000);

  it('refuses impersonation unless ADMIN_IMPERSONATION=true', async () => {
    await t.db.deleteFrom('user').execute();
    const admin = await t.signUp('Admin');
    const other = await t.signUp('Other');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/admin/impersonate-user',
      headers: { cookie: admin.cookie, origin: BASE_URL },
      payload: { userId: other.id },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json<{ error: string }>().error).toMatch(/Impersonation is turned off/);
    expect(res.cookies.filter((c) => c.name.endsWith('session_token'))).toEqual([]);
    expect(await t.db.selectFrom('session').select('id').where('userId', '=', other.id).execute()).toHaveLength(1);
  });
});

const logged: string[] = [];
eachDialect(
  'identity: impersonation allowed',
  (t) => {
    it('lets an administrator impersonate with ADMIN_IMPERSONATION=true, and logs each time', async () => {
      const admin = await t.signUp('Admin');
      const other = await t.signUp('Other');
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/admin/impersonate-user',
        headers: { cookie: admin.cookie, origin: BASE_URL },
        payload: { userId: other.id },
      });
      expect(res.statusCode).toBe(200);
      const opened = await t.db.selectFrom('session').selectAll().where('userId', '=', other.id).execute();
      expect(opened.map((row) => (row as { impersonatedBy?: string | null }).impersonatedBy)).toContain(admin.id);
      const line = logged
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .find((l) => l.msg === 'administrator impersonates an account' && l.adminId === admin.id);
      expect(line).toMatchObject({ adminId: admin.id, userId: other.id });
    });
  },
  {
    env: { ADMIN_IMPERSONATION: 'true' },
    logger: { level: 'info', stream: { write: (line: string) => void logged.push(line) } },
  },
);
