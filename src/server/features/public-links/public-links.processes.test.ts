import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dialects, type TestDatabase } from '../../../../test/databases.js';
import { startApp } from '../../../../test/harness.js';
import { seedBoard } from '../../../../test/factories.js';

type App = Awaited<ReturnType<typeof startApp>>;

/**
 * Two instances of the service on one database, as several processes run on
 * one PostgreSQL: a link made or revoked through one works or stops on the
 * other at once, as nothing about it lives in a process's memory.
 */
for (const dialect of dialects) {
  describe(`public links across instances [${dialect}]`, () => {
    let database: TestDatabase;
    let one: App;
    let other: App;

    beforeAll(async () => {
      database = await createTestDatabase(dialect);
      one = await startApp(dialect, database.url, database.dataDir);
      other = await startApp(dialect, database.url, database.dataDir);
    }, 60_000);

    afterAll(async () => {
      for (const app of [one, other]) {
        await app?.app.close();
        await app?.database.close();
      }
      await database?.drop();
    });

    it('shows a move made on one instance to a viewer of the other, and stops there when revoked on the first', async () => {
      const owner = await one.signUp();
      const { board, areas, cards } = await seedBoard(one, owner, { Todo: ['Card'], Done: [] });
      const made = await one.inject(owner, { method: 'POST', url: '/api/data/public-link', payload: { boardId: board.id } });
      const token = made.json<{ link: { url: string } }>().link.url.split('/p/')[1]!;
      const look = (suffix = '') => other.inject(null, { method: 'GET', url: `/api/public/${token}${suffix}` });

      const before = (await look('/version')).json<{ version: number }>().version;
      const moved = await one.inject(owner, {
        method: 'POST',
        url: '/api/data/cardMove',
        payload: { cardId: cards.Card!.id, fromAreaId: areas.Todo!.id, toAreaId: areas.Done!.id, newIndex: 0 },
      });
      expect(moved.statusCode).toBe(200);
      expect((await look('/version')).json<{ version: number }>().version).toBeGreaterThan(before);
      const view = (await look()).json<{ areas: Array<{ cards: Array<{ name: string }> }> }>();
      expect(view.areas.map((a) => a.cards.map((c) => c.name))).toEqual([[], ['Card']]);

      expect((await one.inject(owner, { method: 'DELETE', url: `/api/data/public-link?boardId=${board.id}` })).statusCode).toBe(
        200,
      );
      expect((await look('/version')).statusCode).toBe(404);
      expect((await look()).statusCode).toBe(404);
    });
  });
}
