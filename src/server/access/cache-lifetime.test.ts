import { describe, expect, it } from 'vitest';
import { ActorCache } from '../auth/actor-cache.js';
import type { Actor } from '../auth/actor.js';
import type { AreaRow, BoardRow } from '../db/schema.js';
import { BoardAccessCache } from './board-access-cache.js';
import { CACHE_LIFETIME_MS } from './cache-lifetime.js';

const actor: Actor = {
  id: 'u1',
  name: 'Ada',
  image: null,
  role: 'user',
  via: 'key',
  readOnly: false,
  credential: { kind: 'key', id: 'k1' },
};

describe('cached actors and board access live CACHE_LIFETIME_MS at most (a revocation never heard of)', () => {
  it('an actor is served until its lifetime is over, then read again', () => {
    let now = 1_000_000;
    const cache = new ActorCache(10, () => now);
    cache.setLive(true);
    cache.store(cache.begin(), 'hash', actor);
    now += CACHE_LIFETIME_MS - 1;
    expect(cache.get('hash')).toEqual(actor);
    now += 1;
    expect(cache.get('hash')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('a board’s access is served until its lifetime is over, then read again', () => {
    let now = 1_000_000;
    const cache = new BoardAccessCache(10, () => now);
    cache.setLive(true);
    const board = { id: 1, version: 4 } as BoardRow;
    const area = { id: 2, boardId: 1 } as AreaRow;
    cache.storeArea(cache.begin(), 'u1', { board, area, permission: 'edit' });
    now += CACHE_LIFETIME_MS - 1;
    expect(cache.lookupArea(2, 'u1')).toEqual({ board, area, permission: 'edit' });
    now += 1;
    expect(cache.lookupArea(2, 'u1')).toBeUndefined();
    // Read again, it is stored afresh and served for another lifetime.
    cache.storeArea(cache.begin(), 'u1', { board, area, permission: null });
    expect(cache.lookupArea(2, 'u1')).toEqual({ board, area, permission: null });
  });

  it('a revocation of one key forgets that key alone; of the account, every key', () => {
    const cache = new ActorCache();
    cache.setLive(true);
    const other: Actor = { ...actor, credential: { kind: 'key', id: 'k2' } };
    cache.store(cache.begin(), 'h1', actor);
    cache.store(cache.begin(), 'h2', other);
    cache.forgetRevoked({ userId: 'u1', sessionId: 's1' });
    expect([cache.get('h1'), cache.get('h2')]).toEqual([actor, other]);
    cache.forgetRevoked({ userId: 'u1', keyId: 'k1' });
    expect([cache.get('h1'), cache.get('h2')]).toEqual([undefined, other]);
    cache.forgetRevoked({ userId: 'u1' });
    expect(cache.get('h2')).toBeUndefined();
  });
});
