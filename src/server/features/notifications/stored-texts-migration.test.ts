import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dialects, type TestDatabase } from '../../../../test/databases.js';
import { openDatabase, type Database } from '../../db/database.js';
import { migrate } from '../../db/migrations/index.js';
import { formatDate } from '../../i18n/messages.js';
import { listNotifications } from './notifications.service.js';

/**
 * Rows written while notifications were stored as sentences (in whatever the
 * instance language was then) are read in each reader's language after the
 * migration, where the sentence can be read back; the others keep their text.
 */
for (const name of dialects) {
  describe(`migrating stored notification texts [${name}]`, () => {
    let testDb: TestDatabase;
    let database: Database;
    const due = '2026-03-04T09:30:00.000Z';
    const other = '2020-01-01T09:30:00.000Z';

    beforeAll(async () => {
      testDb = await createTestDatabase(name);
      database = openDatabase(testDb.url);
      await migrate(database.db, database.dialect, '0008-card-sort-keys');
      const { db } = database;
      const now = new Date().toISOString();
      const flag = name === 'postgres' ? (false as unknown as number) : 0;
      for (const [id, language] of [
        ['owner', null],
        ['reader', 'fr'],
      ] as const) {
        await db
          .insertInto('user')
          .values({ id, name: id, email: `${id}@example.test`, emailVerified: flag, createdAt: now, updatedAt: now, language })
          .execute();
      }
      const board = await db
        .insertInto('boards')
        .values({ ownerId: 'owner', name: 'Ops', style: 'kanban', status: 'private', createdAt: now, updatedAt: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      const area = await db
        .insertInto('areas')
        .values({ boardId: board.id, name: 'Todo', sort: 0, createdAt: now, updatedAt: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      const card = await db
        .insertInto('cards')
        .values({
          areaId: area.id,
          boardId: board.id,
          name: 'Patch servers',
          sort: 0,
          dueDate: due,
          repeatEvery: null,
          repeatAnchor: null,
          repeatAreaId: null,
          createdAt: now,
          updatedAt: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const rows: Array<[string, number | null, string]> = [
        ['card_created', card.id, 'Owner created the card “Patch servers” on “Ops”'],
        // Written while the instance spoke German.
        ['card_status_changed', card.id, 'Owner hat die Karte “Patch servers” wieder geöffnet'],
        ['card_due', card.id, `The card “Patch servers” on “Ops” is due ${formatDate(due, 'en')}`],
        // No due date of the card's matches: the text stays.
        ['card_due', card.id, `The card “Patch servers” on “Ops” is due ${formatDate(other, 'en')}`],
        ['comment', card.id, 'Owner commented on “Patch servers”: a “quoted”: reply'],
        ['invitation', null, 'Something no template wrote'],
        ['some_future_type', null, 'From a newer version'],
      ];
      for (const [type, cardId, message] of rows) {
        await db
          .insertInto('notifications')
          .values({ userId: 'reader', type, boardId: board.id, cardId, message, actorId: null, createdAt: now })
          .execute();
      }
      await migrate(database.db, database.dialect);
    });
    afterAll(async () => {
      await database?.close();
      await testDb?.drop();
    });

    it('reads the rows it can back in the reader’s language and keeps the text of the others', async () => {
      const page = await listNotifications(database.db, 'reader', {}, { acceptLanguage: undefined, instance: 'en' });
      expect(page.notifications.map((n) => n.message).reverse()).toEqual([
        'Owner a créé la carte “Patch servers” sur “Ops”',
        'Owner a rouvert la carte “Patch servers”',
        `La carte “Patch servers” sur “Ops” arrive à échéance : ${formatDate(due, 'fr')}`,
        `The card “Patch servers” on “Ops” is due ${formatDate(other, 'en')}`,
        'Owner a commenté “Patch servers” : a “quoted”: reply',
        'Something no template wrote',
        'From a newer version',
      ]);
      const stored = await database.db.selectFrom('notifications').select(['type', 'params']).orderBy('id').execute();
      expect(stored.map((r) => (r.params === null ? null : JSON.parse(r.params)))).toEqual([
        { actor: 'Owner', card: 'Patch servers', board: 'Ops' },
        { actor: 'Owner', card: 'Patch servers', done: false },
        { card: 'Patch servers', board: 'Ops', due },
        null,
        { actor: 'Owner', card: 'Patch servers', excerpt: 'a “quoted”: reply' },
        null,
        null,
      ]);
    });
  });
}
