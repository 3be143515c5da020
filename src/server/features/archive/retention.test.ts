import { expect, it } from 'vitest';
import { cardNames, seedBoard } from '../../../../test/factories.js';
import { eachDialect } from '../../../../test/harness.js';
import { purgeArchived } from './retention.js';

eachDialect(
  'archive retention',
  (t) => {
    it('removes for good what stayed archived longer than ARCHIVE_RETENTION_DAYS, and nothing else', async () => {
      const user = await t.signUp();
      const old = await seedBoard(t, user, { A: ['x'] });
      const kept = await seedBoard(t, user, { A: ['stays', 'old card', 'new card'], B: ['in old area'], C: ['in new area'] });
      await t.inject(user, { method: 'DELETE', url: `/api/data/board?id=${old.board.id}&userId=${user.id}` });
      for (const name of ['old card', 'new card'])
        await t.inject(user, { method: 'DELETE', url: '/api/data/card', payload: { cardID: kept.cards[name]!.id } });
      for (const area of ['B', 'C'])
        await t.inject(user, { method: 'DELETE', url: `/api/data/area?id=${kept.areas[area]!.id}&boardId=${kept.board.id}` });
      const longAgo = new Date(Date.now() - 40 * 86_400_000).toISOString();
      await t.db.updateTable('boards').set({ archivedAt: longAgo }).where('id', '=', old.board.id).execute();
      await t.db.updateTable('cards').set({ archivedAt: longAgo }).where('id', '=', kept.cards['old card']!.id).execute();
      await t.db.updateTable('areas').set({ archivedAt: longAgo }).where('id', '=', kept.areas.B!.id).execute();

      expect(await purgeArchived(t.app.deps, new Date())).toBe(3);
      expect(await t.db.selectFrom('boards').select('id').where('id', '=', old.board.id).execute()).toEqual([]);
      expect(await t.db.selectFrom('areas').select('id').where('id', '=', kept.areas.B!.id).execute()).toEqual([]);
      const left = (
        await t.db.selectFrom('cards').select('name').where('boardId', '=', kept.board.id).orderBy('name').execute()
      ).map((c) => c.name);
      expect(left).toEqual(['in new area', 'new card', 'stays']);
      expect(await cardNames(t, user, kept.areas.A!.id)).toEqual(['stays']);
      // Restoring still works for what was archived recently.
      await t.inject(user, {
        method: 'POST',
        url: '/api/data/archive',
        payload: { type: 'card', id: kept.cards['new card']!.id },
      });
      expect(await cardNames(t, user, kept.areas.A!.id)).toEqual(['stays', 'new card']);
      expect(await purgeArchived(t.app.deps, new Date())).toBe(0);
    });
  },
  { env: { ARCHIVE_RETENTION_DAYS: '30' } },
);
