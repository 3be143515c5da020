import { describe, expect, it } from 'vitest';
import type { Dialect, ListenHandlers } from './dialects/index.js';
import { BOARD_VERSIONS, listenTo, NEW_NOTIFICATIONS, on, PRESENCE, PUBLIC_LINK_CHANGES, REVOCATIONS } from './channels.js';

/** A dialect whose listening connection the test plays: `deliver` is a notification arriving. */
function fakeDialect() {
  let handlers: ListenHandlers | undefined;
  const dialect = {
    listen: (_url: string, _channels: readonly string[], h: ListenHandlers) => {
      handlers = h;
      return { send: () => Promise.resolve(), stop: () => Promise.resolve() };
    },
  } as unknown as Dialect;
  return { dialect, deliver: (channel: string, payload: string) => handlers!.message(channel, payload) };
}

describe('NOTIFY channel registry', () => {
  it('hands each listener its channel’s payload, checked; a malformed one is warned of and dropped', () => {
    const { dialect, deliver } = fakeDialect();
    const heard: unknown[] = [];
    const warned: string[] = [];
    const dropped: string[] = [];
    listenTo(
      dialect,
      'postgres://unused',
      [on(REVOCATIONS, (r) => heard.push(['revocation', r])), on(PUBLIC_LINK_CHANGES, (l) => heard.push(['link', l]))],
      { connected: () => undefined, warn: (_e, text) => warned.push(text), dropped: (c) => dropped.push(c) },
    );

    deliver('tavla_revocations', JSON.stringify({ userId: 'u1', keyId: 'k1' }));
    deliver('tavla_public_links', JSON.stringify({ boardId: 7 }));
    // The old mixed shape, garbage, wrong types: none reaches a listener.
    deliver('tavla_revocations', JSON.stringify({ publicLinkBoardId: 7 }));
    deliver('tavla_revocations', 'not json');
    deliver('tavla_revocations', JSON.stringify({ userId: 'u1', keyId: 5 }));
    deliver('tavla_public_links', JSON.stringify({ boardId: '7' }));
    // A channel nobody here listens to is ignored.
    deliver('tavla_accounts', JSON.stringify({ userId: 'u1' }));

    expect(heard).toEqual([
      ['revocation', { userId: 'u1', keyId: 'k1' }],
      ['link', { boardId: 7 }],
    ]);
    expect(dropped).toEqual(['tavla_revocations', 'tavla_revocations', 'tavla_revocations', 'tavla_public_links']);
    expect(warned).toHaveLength(4);
  });

  it('reads a board version with or without the deleted board’s event', () => {
    expect(BOARD_VERSIONS.read({ boardId: 3, version: 9 })).toEqual({ boardId: 3, version: 9 });
    expect(BOARD_VERSIONS.read({ boardId: 3, version: 9, deleted: { name: 'board.deleted' } })).toEqual({
      boardId: 3,
      version: 9,
      deleted: { name: 'board.deleted' },
    });
    expect(BOARD_VERSIONS.read({ boardId: 3 })).toBeUndefined();
    expect(BOARD_VERSIONS.read([3, 9])).toBeUndefined();
  });

  it('reads presence announcements of each kind, and nothing of another shape', () => {
    const viewer = { id: 'u1', name: 'Ada', image: null, cardId: 4 };
    expect(PRESENCE.read({ p: 'proc', t: 'hello' })).toEqual({ p: 'proc', t: 'hello' });
    expect(PRESENCE.read({ p: 'proc', t: 'board', b: 3, v: [viewer] })).toEqual({ p: 'proc', t: 'board', b: 3, v: [viewer] });
    expect(PRESENCE.read({ p: 'proc', t: 'more', b: 3, v: [] })).toEqual({ p: 'proc', t: 'more', b: 3, v: [] });
    for (const wrong of [
      { t: 'hello' },
      { p: 'proc', t: 'shout' },
      { p: 'proc', t: 'board', b: '3', v: [] },
      { p: 'proc', t: 'board', b: 3 },
      { p: 'proc', t: 'board', b: 3, v: [{ ...viewer, name: 7 }] },
      { p: 'proc', t: 'board', b: 3, v: [{ ...viewer, cardId: -1 }] },
    ]) {
      expect(PRESENCE.read(wrong), JSON.stringify(wrong)).toBeUndefined();
    }
    expect(NEW_NOTIFICATIONS.read({ ids: [1, 2] })).toEqual({ ids: [1, 2] });
    expect(NEW_NOTIFICATIONS.read({ ids: [1, 'x'] })).toBeUndefined();
  });
});
