import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createArea, createCard } from '../../../../test/factories.js';
import { eachDialect, type TestContext, type TestUser } from '../../../../test/harness.js';
import { multipart } from '../../../../test/multipart.js';
import { loadConfig } from '../../config.js';

/**
 * A download whose reader stops reading: the request is sent, the first
 * bytes of the answer are taken (to see its status), then the socket is
 * paused and never read again, so the server's buffers fill and its writes wait.
 */
interface Download {
  status: number;
  head: string;
  socket: net.Socket;
}

const open: net.Socket[] = [];
afterEach(() => {
  for (const socket of open.splice(0)) socket.destroy();
});

async function stalledDownload(base: string, path: string, key: string): Promise<Download> {
  const url = new URL(base);
  const socket = net.connect(Number(url.port), url.hostname);
  open.push(socket);
  return new Promise((resolve, reject) => {
    socket.once('error', reject);
    socket.once('data', (chunk: Buffer) => {
      socket.pause();
      const head = chunk.toString('latin1').split('\r\n\r\n')[0]!;
      resolve({ status: Number(head.split(' ')[1]), head, socket });
    });
    socket.write(`GET ${path} HTTP/1.1\r\nHost: ${url.host}\r\nx-api-key: ${key}\r\n\r\n`);
  });
}

/** Polls until `check` holds, for at most `ms`. */
async function until(check: () => Promise<boolean>, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`not reached within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** A board whose export is large enough (an incompressible attachment) to fill every buffer between server and a reader that stops. */
async function bigBoard(t: TestContext, owner: TestUser, members: TestUser[] = []) {
  const board = await t.createBoard(owner, { name: 'Big' });
  for (const member of members) {
    const res = await t.inject(owner, {
      method: 'POST',
      url: '/api/data/invite',
      payload: { boardId: board.id, userId: member.id, permission: 'read' },
    });
    expect(res.statusCode, res.body).toBe(200);
  }
  const area = await createArea(t, owner, board.id, 'Todo');
  const card = await createCard(t, owner, area.id as number, 'Heavy');
  const body = multipart([
    { name: 'cardId', value: String(card.id) },
    { name: 'file', filename: 'noise.bin', data: randomBytes(6 * 1024 * 1024) },
  ]);
  const res = await t.inject(owner, { method: 'POST', url: '/api/data/attachment', ...body });
  expect(res.statusCode, res.body).toBe(200);
  return { board, area };
}

/** Answers within 2 s, or fails (a fetch that waits on a held database would not). */
async function quick(url: string, init: RequestInit & { key: string }): Promise<Response> {
  const started = Date.now();
  const res = await fetch(url, {
    ...init,
    headers: { 'x-api-key': init.key, 'content-type': 'application/json' },
    signal: AbortSignal.timeout(2000),
  });
  expect(Date.now() - started).toBeLessThan(2000);
  return res;
}

describe('export limits configuration', () => {
  const env = { AUTH_SECRET: 'a'.repeat(40), DATA_DIR: '/nonexistent' };
  it('defaults to two exports per account, four per instance and a 60 s stall timeout', () => {
    expect(loadConfig(env)).toMatchObject({ exportsPerAccount: 2, exportsPerInstance: 4, exportStallSeconds: 60 });
  });
  it('refuses values that are not whole numbers in range', () => {
    expect(() => loadConfig({ ...env, EXPORTS_PER_ACCOUNT: '0' })).toThrow(/EXPORTS_PER_ACCOUNT must be a whole number/);
    expect(() => loadConfig({ ...env, EXPORTS_PER_INSTANCE: 'many' })).toThrow(/EXPORTS_PER_INSTANCE must be a whole number/);
    expect(() => loadConfig({ ...env, EXPORT_STALL_SECONDS: '0.5' })).toThrow(/EXPORT_STALL_SECONDS must be a whole number/);
  });
});

eachDialect(
  'stalled export downloads',
  (t) => {
    it('14 stalled downloads: at most the caps run (429 beyond), and a list and a write still answer within 2 s', async () => {
      const owner = await t.signUp('Owner');
      const readers = [owner];
      for (let i = 0; i < 6; i++) readers.push(await t.signUp(`Reader ${i}`));
      const { board, area } = await bigBoard(t, owner, readers.slice(1));
      const base = await t.listen();

      const downloads: Download[] = [];
      for (const reader of readers) {
        for (let i = 0; i < 2; i++)
          downloads.push(await stalledDownload(base, `/api/data/board-export?boardId=${board.id}`, reader.key));
      }
      expect(downloads).toHaveLength(14);
      const statuses = downloads.map((d) => d.status);
      // Two per account and four for the instance: the rest are refused, and told when to come back.
      expect(statuses.filter((s) => s === 200)).toHaveLength(4);
      expect(statuses.filter((s) => s === 429)).toHaveLength(10);
      for (const refused of downloads.filter((d) => d.status === 429)) expect(refused.head).toMatch(/\r\nretry-after: \d+/i);

      const list = await quick(`${base}/api/data/cards?areaId=${area.id as number}`, { key: owner.key });
      expect(list.status).toBe(200);
      const write = await quick(`${base}/api/data/card`, {
        key: owner.key,
        method: 'POST',
        body: JSON.stringify({ areaId: area.id, name: 'Still answering' }),
      });
      expect(write.status).toBe(200);
      const boards = await quick(`${base}/api/data/boards`, {
        key: readers[3]!.key,
        method: 'POST',
        body: JSON.stringify({ shared: true }),
      });
      expect(boards.status).toBe(200);

      // The four are really held (the zips are far from done): a fifth is still refused.
      const fifth = await t.inject(readers[5]!, { method: 'GET', url: `/api/data/board-export?boardId=${board.id}&format=csv` });
      expect(fifth.statusCode).toBe(429);
      expect(fifth.json()).toEqual({ error: expect.stringMatching(/exports/i) });

      // Readers that go away give their slots back.
      for (const download of downloads) download.socket.destroy();
      await until(async () => {
        const res = await t.inject(owner, { method: 'GET', url: `/api/data/board-export?boardId=${board.id}&format=csv` });
        return res.statusCode === 200;
      }, 10_000);
    });
  },
  { env: { EXPORTS_PER_ACCOUNT: '2', EXPORTS_PER_INSTANCE: '4' } },
);

eachDialect(
  'export caps and the stall timeout',
  (t) => {
    let admin: TestUser;
    let other: TestUser;
    let boardId: number;

    it('sets up a large board', async () => {
      admin = await t.signUp('Admin'); // the first account administers the instance
      other = await t.signUp('Other');
      boardId = (await bigBoard(t, admin, [other])).board.id;
    });

    it('caps exports per account and per instance (429 with Retry-After), the instance export and CSV included', async () => {
      const base = await t.listen();
      const held = await stalledDownload(base, '/api/data/export', admin.key);
      expect(held.status).toBe(200);

      // One per account: the administrator's CSV waits for their instance export.
      const mine = await t.inject(admin, { method: 'GET', url: `/api/data/board-export?boardId=${boardId}&format=csv` });
      expect(mine.statusCode).toBe(429);
      expect(mine.headers['retry-after']).toMatch(/^\d+$/);
      expect(mine.json()).toEqual({ error: expect.stringMatching(/exports of yours/) });

      // Another account may still export, and a finished download gives its slot back at once.
      const theirs = await t.inject(other, { method: 'GET', url: `/api/data/board-export?boardId=${boardId}` });
      expect(theirs.statusCode).toBe(200);
      expect(theirs.rawPayload.length).toBeGreaterThan(6 * 1024 * 1024);

      // Two for the instance: with both taken, everyone is refused.
      const second = await stalledDownload(base, `/api/data/board-export?boardId=${boardId}`, other.key);
      expect(second.status).toBe(200);
      const full = await t.inject(other, { method: 'GET', url: `/api/data/board-export?boardId=${boardId}&format=csv` });
      expect(full.statusCode).toBe(429);
      const instance = await t.inject(admin, { method: 'GET', url: '/api/data/export' });
      expect(instance.statusCode).toBe(429);
      // HEAD makes no export and needs no slot.
      const head = await t.inject(admin, { method: 'HEAD', url: `/api/data/board-export?boardId=${boardId}` });
      expect(head.statusCode).toBe(200);

      held.socket.destroy();
      second.socket.destroy();
      for (const user of [admin, other])
        await until(async () => {
          const res = await t.inject(user, { method: 'GET', url: `/api/data/board-export?boardId=${boardId}&format=csv` });
          return res.statusCode === 200;
        }, 10_000);
    });

    it('drops a download that takes nothing for the stall timeout, and its slot is free again', async () => {
      const base = await t.listen();
      const started = Date.now();
      const held = await stalledDownload(base, `/api/data/board-export?boardId=${boardId}`, admin.key);
      expect(held.status).toBe(200);
      const refused = await t.inject(admin, { method: 'GET', url: `/api/data/board-export?boardId=${boardId}&format=csv` });
      expect(refused.statusCode).toBe(429);

      // Nobody closes the socket here: the server drops it after the (shortened) 5 s.
      await until(async () => {
        const res = await t.inject(admin, { method: 'GET', url: `/api/data/board-export?boardId=${boardId}&format=csv` });
        return res.statusCode === 200;
      }, 15_000);
      expect(Date.now() - started).toBeGreaterThanOrEqual(5000);
    });
  },
  { env: { EXPORTS_PER_ACCOUNT: '1', EXPORTS_PER_INSTANCE: '2', EXPORT_STALL_SECONDS: '5' } },
);
