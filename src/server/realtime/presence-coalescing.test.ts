import { afterEach, expect, it } from 'vitest';
import { createCard, seedBoard } from '../../../test/factories.js';
import { eachDialect, type TestUser } from '../../../test/harness.js';
import { Viewer } from '../../../test/realtime-client.js';
import type { ServerMessage } from '../../shared/events.js';
import { PRESENCE_INTERVAL_MS } from './hub.js';

type PresenceMessage = Extract<ServerMessage, { type: 'presence' | 'presenceChange' }>;

const presenceMessages = (viewer: Viewer) =>
  viewer.messages.filter((m): m is PresenceMessage => m.type === 'presence' || m.type === 'presenceChange');

/**
 * Presence is coalesced per board: a burst of joins reaches the viewers as
 * one message per flush (not one per join), as a change where that is
 * shorter than the list, and each newcomer gets the whole list first.
 */
eachDialect('presence coalescing', (t) => {
  const open: Viewer[] = [];
  afterEach(() => {
    for (const v of open.splice(0)) v.close();
  });
  const watch = async (user: TestUser, boardId: number) => {
    const viewer = await Viewer.connect(await t.listen(), { 'x-api-key': user.key });
    open.push(viewer);
    viewer.send({ type: 'subscribe', boardId });
    await viewer.next('subscribed', (m) => m.boardId === boardId);
    return viewer;
  };
  const ids = (viewers: Array<{ id: string }> | undefined) => (viewers ?? []).map((v) => v.id).sort();

  /** A board of the owner's shared with four members. */
  const sharedBoard = async () => {
    const owner = await t.signUp('Owner');
    const members = [await t.signUp('M1'), await t.signUp('M2'), await t.signUp('M3'), await t.signUp('M4')];
    const { board, areas } = await seedBoard(t, owner, { A: [] });
    for (const member of members) {
      const shared = await t.inject(owner, {
        method: 'POST',
        url: '/api/data/invite',
        payload: { boardId: board.id, userId: member.id, permission: 'read' },
      });
      expect(shared.statusCode).toBe(200);
    }
    return { owner, members, boardId: board.id, areaId: areas.A!.id };
  };

  it('tells a viewer of a burst of 40 joins in a few changes, and each newcomer the whole list first', async () => {
    const { owner, members, boardId } = await sharedBoard();
    const observer = await watch(owner, boardId);
    await observer.nextPresence((p) => p.viewers.length === 1);
    observer.messages.length = 0;

    const started = Date.now();
    const joined = await Promise.all(Array.from({ length: 40 }, (_, i) => watch(members[i % 4]!, boardId)));
    const span = Date.now() - started;
    const everyone = ids([owner, ...members]);
    await observer.nextPresence((p) => p.viewers.length === 5, 5000);
    for (const viewer of joined) await viewer.nextPresence((p) => p.viewers.length === 5, 5000);
    await observer.quiet('presence', 2 * PRESENCE_INTERVAL_MS);

    // One message per join before; now at most one per flush, and the second tab of an account changes nothing.
    const told = presenceMessages(observer);
    expect(told.length).toBeLessThan(40);
    expect(told.length).toBeLessThanOrEqual(Math.ceil(span / PRESENCE_INTERVAL_MS) + 2);
    expect(told.every((m) => m.type === 'presenceChange')).toBe(true);
    expect(ids(observer.viewersOf(boardId))).toEqual(everyone);
    for (const viewer of joined) {
      expect(presenceMessages(viewer)[0]?.type).toBe('presence');
      expect(ids(viewer.viewersOf(boardId))).toEqual(everyone);
    }
  });

  it('sends only what changed: a card opened, an account gone, and nothing for a tab closed beside another', async () => {
    const { owner, members, boardId, areaId } = await sharedBoard();
    const card = await createCard(t, owner, areaId, 'Open me');
    const observer = await watch(owner, boardId);
    const firstTab = await watch(members[0]!, boardId);
    const secondTab = await watch(members[0]!, boardId);
    const other = await watch(members[1]!, boardId);
    await observer.nextPresence((p) => p.viewers.length === 3, 5000);
    await observer.quiet('presence', 2 * PRESENCE_INTERVAL_MS);

    // Closing one of two tabs of an account leaves the list as it was: no message.
    observer.messages.length = 0;
    secondTab.close();
    expect(await observer.quiet('presenceChange', 1000)).toEqual([]);
    expect(presenceMessages(observer)).toEqual([]);

    other.send({ type: 'presence', boardId, cardId: card.id });
    const opened = await observer.next('presenceChange', () => true, 5000);
    expect(opened.left).toEqual([]);
    expect(opened.viewers).toEqual([{ id: members[1]!.id, name: 'M2', image: null, cardId: card.id }]);

    firstTab.close();
    const gone = await observer.next('presenceChange', () => true, 5000);
    expect(gone).toEqual({ type: 'presenceChange', boardId, viewers: [], left: [members[0]!.id] });
    expect(ids(observer.viewersOf(boardId))).toEqual(ids([owner, members[1]!]));
    expect(observer.viewersOf(boardId)!.find((v) => v.id === members[1]!.id)?.cardId).toBe(card.id);
  });
});
