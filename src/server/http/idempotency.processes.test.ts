import { writeFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dialects, type TestDatabase } from '../../../test/databases.js';
import { account, healthy, kill, start, stop, type ServerProcess } from '../../../test/processes.js';

/** test/faults/crash-after-commit.ts kills a process after its next commit once this file is in its DATA_DIR. */
const ARM_FILE = 'crash-after-next-commit';

/**
 * Exactly once: a process that dies after a keyed write committed and before
 * it answered leaves a retry with the same key to answer, from the write's
 * stored result, without making the write again.
 */
for (const dialect of dialects) {
  describe(`Idempotency-Key across a crash between commit and answer [${dialect}]`, () => {
    let database: TestDatabase;
    const servers: ServerProcess[] = [];

    beforeAll(async () => {
      database = await createTestDatabase(dialect);
    });

    afterAll(async () => {
      for (const server of servers) await stop(server);
      await database?.drop();
    });

    /** Requests with an account's key, to whichever process is alive. */
    const caller =
      (key: string) =>
      async (url: string, method: string, body?: object, headers: Record<string, string> = {}) => {
        const res = await fetch(url, {
          method,
          headers: { 'x-api-key': key, ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
          ...(body ? { body: JSON.stringify(body) } : {}),
        });
        return { status: res.status, headers: res.headers, json: (await res.json()) as Record<string, unknown> };
      };
    type Call = ReturnType<typeof caller>;

    /** Arms the fault, sends `request` (the process dies after its commit, unanswered), and waits for the death. */
    const crash = async (dying: ServerProcess, request: () => Promise<unknown>) => {
      const armed = path.join(database.dataDir, ARM_FILE);
      writeFileSync(armed, '');
      await expect(request()).rejects.toThrow();
      await kill(dying); // already dead: waits for its exit
      expect(dying.child.signalCode).toBe('SIGKILL');
      rmSync(armed);
    };

    /** Retries while the first attempt counts as still being answered (a 409 that says so; it is answered within seconds). */
    const retried = async (request: () => ReturnType<Call>) => {
      let answer = await request();
      for (let i = 0; answer.status === 409 && /still being answered/.test(String(answer.json.error)) && i < 100; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        answer = await request();
      }
      return answer;
    };

    const server = async () => {
      const started = await start(
        database.url,
        {},
        { dataDir: database.dataDir, preload: ['test/faults/crash-after-commit.ts'] },
      );
      servers.push(started);
      await healthy(started.url);
      return started;
    };

    it('a retry after the crash is applied once and answers what the first request would have', async () => {
      const first = await server();
      const { key, userId } = await account(first.url);
      const call = caller(key);
      const { json: made } = await call(`${first.url}/api/data/board`, 'POST', {
        userId,
        name: 'Crash',
        style: 'kanban',
        status: 'private',
      });
      const boardId = (made.board as { id: number }).id;
      const { json: area } = await call(`${first.url}/api/data/area`, 'POST', { boardId, name: 'Todo' });
      const areaId = (area.area as { id: number }).id;
      const create = (url: string) =>
        call(`${url}/api/data/card`, 'POST', { areaId, name: 'Once' }, { 'idempotency-key': 'crash-between' });

      await crash(first, () => create(first.url));

      const second = await server();
      const cards = async () =>
        (
          (await call(`${second.url}/api/data/cards?areaId=${areaId}`, 'GET')).json.cards as Array<{ id: number; name: string }>
        ).map((c) => ({ id: c.id, name: c.name }));
      // The write committed before the crash: the card is there, its answer was never sent.
      const [card] = await cards();
      expect(card).toMatchObject({ name: 'Once' });

      const retry = await retried(() => create(second.url));
      expect(retry.status, JSON.stringify(retry.json)).toBe(200);
      expect(retry.headers.get('idempotent-replayed')).toBe('true');
      expect(retry.json.card).toMatchObject({ id: card!.id, name: 'Once', area: areaId });
      expect(await cards()).toEqual([card]);

      const again = await create(second.url);
      expect(again.status).toBe(200);
      expect(again.json).toEqual(retry.json);
      expect(await cards()).toEqual([card]);
    }, 120_000);

    it('a new board, a calendar feed (an answer shown once) and its revocation (no board write) are made once across a crash', async () => {
      const first = await server();
      const { key, userId } = await account(first.url, 'birth@example.test');
      const call = caller(key);

      // A new board: its answer is stored with it, so the retry gets it and makes no second board.
      const board = { userId, name: 'Born once', style: 'kanban', status: 'private' };
      const createBoard = (url: string) => call(`${url}/api/data/board`, 'POST', board, { 'idempotency-key': 'crash-board' });
      await crash(first, () => createBoard(first.url));
      const second = await server();
      const boards = async () =>
        ((await call(`${second.url}/api/data/boards`, 'POST', {})).json.boards as Array<{ id: number; name: string }>).map(
          (b) => ({ id: b.id, name: b.name }),
        );
      const [made] = await boards();
      expect(made).toMatchObject({ name: 'Born once' });
      const retry = await retried(() => createBoard(second.url));
      expect(retry.status, JSON.stringify(retry.json)).toBe(200);
      expect(retry.headers.get('idempotent-replayed')).toBe('true');
      expect(retry.json.board).toMatchObject({ id: made!.id, name: 'Born once' });
      expect(await boards()).toEqual([made]);

      // A calendar feed: its address is shown once and never kept; the retry is refused and makes no second feed.
      const createFeed = (url: string) =>
        call(`${url}/api/data/ical-feeds`, 'POST', { name: 'Once' }, { 'idempotency-key': 'crash-feed' });
      await crash(second, () => createFeed(second.url));
      const third = await server();
      const feeds = async () => (await call(`${third.url}/api/data/ical-feeds`, 'GET')).json.feeds as Array<{ name: string }>;
      expect(await feeds()).toHaveLength(1);
      const refused = await retried(() => createFeed(third.url));
      expect(refused.status, JSON.stringify(refused.json)).toBe(409);
      expect(String(refused.json.error)).toMatch(/shown only once/);
      expect(await feeds()).toHaveLength(1);

      // Revoking it, a write that changes no board: its record commits with it, so the retry is answered, not a 404.
      const [feed] = (await call(`${third.url}/api/data/ical-feeds`, 'GET')).json.feeds as Array<{ id: string }>;
      const revoke = (url: string) =>
        call(`${url}/api/data/ical-feeds?id=${feed!.id}`, 'DELETE', undefined, { 'idempotency-key': 'crash-revoke' });
      await crash(third, () => revoke(third.url));
      const fourth = await server();
      expect((await call(`${fourth.url}/api/data/ical-feeds`, 'GET')).json.feeds).toEqual([]);
      const revoked = await retried(() => revoke(fourth.url));
      expect(revoked.status, JSON.stringify(revoked.json)).toBe(200);
      expect(revoked.headers.get('idempotent-replayed')).toBe('true');
      expect(revoked.json).toEqual({ success: true });
    }, 240_000);
  });
}
