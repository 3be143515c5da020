import { expect, it } from 'vitest';
import { share } from '../../../test/factories.js';
import { eachDialect, type TestUser } from '../../../test/harness.js';
import {
  boardAudience,
  boardReaders,
  boardsJoinedBy,
  joinedBy,
  levelOf,
  ownedBy,
  readableBy,
  sharedWith,
  sharesBoardWith,
} from './index.js';

/**
 * Every form of the access rule that runs outside one request's check (the
 * boards lists, the archive, search and my-work, the profile's fan-out, a
 * board's audience and readers) answers what `levelOf` answers, board by
 * board and account by account.
 */
eachDialect('the query forms of the access rule', (t) => {
  it('agree with levelOf for owners, members, public boards and strangers', async () => {
    const owner = await t.signUp('Owner');
    const reader = await t.signUp('Reader');
    const editor = await t.signUp('Editor');
    const stranger = await t.signUp('Stranger');
    const accounts = [owner, reader, editor, stranger];

    const shared = await t.createBoard(owner, { name: 'Shared' });
    await t.createBoard(owner, { name: 'Open', status: 'public' });
    await t.createBoard(owner, { name: 'Alone' });
    const archived = await t.createBoard(owner, { name: 'Archived' });
    const theirs = await t.createBoard(stranger, { name: 'Theirs' });
    await share(t, shared.id, reader, 'read');
    await share(t, shared.id, editor, 'edit');
    await share(t, archived.id, editor, 'edit');
    await share(t, theirs.id, owner, 'read');
    const archiving = await t.inject(owner, { method: 'DELETE', url: `/api/data/board?id=${archived.id}&userId=${owner.id}` });
    expect(archiving.statusCode).toBe(200);

    const boards = await t.db.selectFrom('boards').select(['id', 'ownerId', 'status', 'archivedAt']).orderBy('id').execute();
    const members = await t.db.selectFrom('board_members').select(['boardId', 'userId', 'permission']).orderBy('id').execute();
    const permission = (boardId: number, userId: string) =>
      members.find((m) => m.boardId === boardId && m.userId === userId)?.permission ?? null;
    const where = (keep: (b: (typeof boards)[number]) => boolean) => boards.filter(keep).map((b) => b.id);
    const ids = async (rows: Promise<Array<{ id: number }>>) => (await rows).map((r) => r.id).sort((a, b) => a - b);
    const listed = async (user: TestUser, sharedList: boolean) => {
      const res = await t.inject(user, { method: 'POST', url: '/api/data/boards', payload: { shared: sharedList } });
      expect(res.statusCode).toBe(200);
      return (res.json().boards as Array<{ id: number }>).map((b) => b.id);
    };

    for (const user of accounts) {
      const level = (b: (typeof boards)[number]) => levelOf(b, user.id, permission(b.id, user.id));
      const member = (b: (typeof boards)[number]) => permission(b.id, user.id) !== null;
      const select = t.db.selectFrom('boards').select('id');

      expect(await ids(select.where((eb) => readableBy(eb, user.id)).execute()), user.name).toEqual(
        where((b) => level(b) !== 'none'),
      );
      expect(await ids(select.where((eb) => ownedBy(eb, user.id)).execute()), user.name).toEqual(
        where((b) => level(b) === 'owner'),
      );
      expect(await ids(select.where((eb) => sharedWith(eb, user.id)).execute()), user.name).toEqual(where(member));
      const joined = where((b) => level(b) === 'owner' || member(b));
      expect(await ids(select.where((eb) => joinedBy(eb, user.id)).execute()), user.name).toEqual(joined);
      expect(
        (await boardsJoinedBy(t.db, user.id)).sort((a, b) => a - b),
        user.name,
      ).toEqual(joined);

      // What a user sees: its own boards, the boards shared with it, and its archived boards.
      const live = (b: (typeof boards)[number]) => b.archivedAt === null;
      expect(await listed(user, false), user.name).toEqual(where((b) => live(b) && level(b) === 'owner'));
      expect(await listed(user, true), user.name).toEqual(where((b) => live(b) && member(b)));
      const archive = await t.inject(user, { method: 'GET', url: '/api/data/archive' });
      expect(
        (archive.json().boards as Array<{ id: number }>).map((b) => b.id),
        user.name,
      ).toEqual(where((b) => !live(b) && level(b) === 'owner'));

      const audiences = await Promise.all(joined.map((id) => boardAudience(t.db, id)));
      const people = await t.db
        .selectFrom('user')
        .select('id')
        .where((eb) => sharesBoardWith(eb, user.id))
        .execute();
      expect(people.map((p) => p.id).sort(), user.name).toEqual([...new Set([user.id, ...audiences.flat()])].sort());
    }

    for (const board of boards) {
      const audience = [board.ownerId, ...members.filter((m) => m.boardId === board.id).map((m) => m.userId)];
      expect(await boardAudience(t.db, board.id)).toEqual(audience);
      const readers = await boardReaders(t.db, board.id);
      for (const user of accounts)
        expect(readers(user.id)).toBe(levelOf(board, user.id, permission(board.id, user.id)) !== 'none');
    }
  });
});
