import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../src/server/version.js';
import { createTestDatabase, dialects, type TestDatabase } from './databases.js';
import { account, healthy, start, stop, type ServerProcess } from './processes.js';
import { Viewer } from './realtime-client.js';

const run = promisify(execFile);

/** The parts of the API's answers this test reads. */
interface Answer {
  board: { id: number };
  area: { id: number };
  cards: Array<{ name: string }>;
}

/**
 * What `npm start` and the container run is the bundle `npm run build` makes
 * (scripts/build-server.mjs), not the sources the other tests load: this
 * builds it the same way and drives it from outside, the code it loads only
 * when first asked (exports, MCP) and the restore command included.
 */
describe('the built server bundle', () => {
  // Inside the project, as dist/server is: the bundle finds package.json above itself.
  const outdir = path.join('dist', `test-bundle-${process.pid}-${Date.now()}`);
  const main = path.join(projectRoot, outdir, 'main.js');
  const restore = path.join(projectRoot, outdir, 'restore.js');
  // What `tavla` runs in the container (bin/tavla.mjs, where the sources are not).
  const cli = path.join(projectRoot, outdir, 'cli.js');

  beforeAll(async () => {
    await run(process.execPath, ['scripts/build-server.mjs', outdir], { cwd: projectRoot, timeout: 60_000 });
  }, 90_000);
  afterAll(() => rmSync(path.join(projectRoot, outdir), { recursive: true, force: true }));

  describe.each(dialects)('on %s', (dialect) => {
    const databases: TestDatabase[] = [];
    const servers: ServerProcess[] = [];
    const scratch = mkdtempSync(path.join(os.tmpdir(), 'tavla-bundle-'));
    afterAll(async () => {
      for (const server of servers) await stop(server);
      for (const db of databases) await db.drop();
      rmSync(scratch, { recursive: true, force: true });
    });
    const serve = async (db: TestDatabase) => {
      const server = await start(db.url, {}, { dataDir: db.dataDir, main });
      servers.push(server);
      await healthy(server.url);
      return server;
    };
    const fresh = async () => {
      const db = await createTestDatabase(dialect);
      databases.push(db);
      return db;
    };

    let server: ServerProcess;
    let key = '';
    const data = async (method: string, route: string, body?: unknown, base = server.url) => {
      const res = await fetch(`${base}/api/data/${route}`, {
        method,
        headers: { 'x-api-key': key, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      return { status: res.status, body: (await res.json()) as Answer };
    };
    let areaId = 0;
    let boardId = 0;

    beforeAll(async () => {
      server = await serve(await fresh());
      const owner = await account(server.url);
      key = owner.key;
      const board = await data('POST', 'board', { userId: owner.userId, name: 'Bundled', style: 'kanban', status: 'private' });
      expect(board.status).toBe(200);
      boardId = board.body.board.id;
      areaId = (await data('POST', 'area', { boardId, name: 'To do' })).body.area.id;
      expect((await data('POST', 'card', { areaId, name: 'Survives a restore' })).status).toBe(200);
    }, 60_000);

    it('serves the API, a realtime change and the reference page', async () => {
      const cards = await data('GET', `cards?areaId=${areaId}`);
      expect(cards.status).toBe(200);
      expect(cards.body.cards.map((c) => c.name)).toEqual(['Survives a restore']);
      const viewer = await Viewer.connect(server.url, { 'x-api-key': key });
      try {
        viewer.send({ type: 'subscribe', boardId });
        await viewer.next('subscribed');
        expect((await data('POST', 'card', { areaId, name: 'Seen live' })).status).toBe(200);
        const event = await viewer.next('event', (m) => m.name === 'card.created');
        expect(event.data).toMatchObject({ card: { name: 'Seen live' } });
      } finally {
        viewer.close();
      }
      // The reference page's files come from @fastify/swagger-ui's own folder, outside the bundle.
      const docs = await fetch(`${server.url}/api/docs/static/index.html`);
      expect(docs.status).toBe(200);
      expect(await docs.text()).toContain('swagger');
      const spec = (await (await fetch(`${server.url}/api/docs/json`)).json()) as { paths: Record<string, unknown> };
      expect(Object.keys(spec.paths)).toContain('/api/data/cardMove');
    });

    it('loads the board export and MCP when first asked', async () => {
      const zip = await fetch(`${server.url}/api/data/board-export?boardId=${boardId}`, { headers: { 'x-api-key': key } });
      expect(zip.status).toBe(200);
      expect(
        Buffer.from(await zip.arrayBuffer())
          .subarray(0, 2)
          .toString(),
      ).toBe('PK');
      const mcp = await fetch(`${server.url}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bundle-test', version: '1' } },
        }),
      });
      expect(mcp.status).toBe(200);
      expect(await mcp.text()).toContain('"serverInfo"');
    });

    it('runs the bundled command line on the running instance: its accounts, and a backup', async () => {
      const env = {
        ...process.env,
        BASE_URL: server.url,
        DATABASE_URL: databases[0]!.url,
        DATA_DIR: databases[0]!.dataDir,
        AUTH_SECRET: 'scale-out-secret-scale-out-secret-0123',
      };
      const listed = await run(process.execPath, [cli, 'user', 'list'], { cwd: projectRoot, env, timeout: 60_000 });
      expect(listed.stdout).toMatch(/^scale@example\.test\tadmin\tconfirmed/);
      const file = path.join(scratch, 'cli-backup.zip');
      const backedUp = await run(process.execPath, [cli, 'backup', file], { cwd: projectRoot, env, timeout: 60_000 });
      expect(backedUp.stdout).toMatch(/^Backup written/);
      expect(readFileSync(file).subarray(0, 2).toString()).toBe('PK');
    }, 60_000);

    it('restores its instance export into an empty database with the bundled restore command', async () => {
      const exported = await fetch(`${server.url}/api/data/export`, { headers: { 'x-api-key': key } });
      expect(exported.status).toBe(200);
      const zipFile = path.join(scratch, 'instance.zip');
      writeFileSync(zipFile, Buffer.from(await exported.arrayBuffer()));

      const target = await fresh();
      const restored = await run(process.execPath, [restore, zipFile], {
        cwd: projectRoot,
        env: {
          ...process.env,
          BASE_URL: server.url,
          DATABASE_URL: target.url,
          DATA_DIR: target.dataDir,
          AUTH_SECRET: 'scale-out-secret-scale-out-secret-0123',
        },
        timeout: 60_000,
      });
      expect(restored.stdout).toMatch(/Restored \((sqlite|postgres)\)/);

      const again = await serve(target);
      const cards = await data('GET', `cards?areaId=${areaId}`, undefined, again.url);
      expect(cards.status).toBe(200);
      expect(cards.body.cards.map((c) => c.name)).toEqual(['Survives a restore', 'Seen live']);
    }, 60_000);
  });
});
