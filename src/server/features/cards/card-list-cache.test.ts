import { describe, expect, it } from 'vitest';
import { CardListCache, filterKey } from './card-list-cache.js';

/** An answer of exactly `bytes` as the cache counts them. */
const answer = (bytes: number, fill = 'x') => fill.repeat(bytes / 2);

describe('card-list cache', () => {
  it('keys by the filter that applies: an assignee beside unassigned=true is ignored', () => {
    expect(filterKey({ unassigned: true, assignee: 'a' })).toBe(filterKey({ unassigned: true }));
    expect(filterKey({ unassigned: false })).toBe(filterKey({}));
    expect(filterKey({ assignee: 'a' })).not.toBe(filterKey({ assignee: 'b' }));
    expect(filterKey({ assignee: 'a' })).not.toBe(filterKey({}));

    const cache = new CardListCache(1024);
    cache.set(1, 5, { unassigned: true, assignee: 'someone' }, 'json');
    cache.set(1, 5, { unassigned: true, assignee: 'someone else' }, 'json');
    expect(cache.size).toBe(1);
    expect(cache.get(1, 5, { unassigned: true })).toBe('json');
  });

  it('stays within its byte bound, dropping the least recently used answers first', () => {
    const cache = new CardListCache(300);
    cache.set(1, 1, {}, answer(100, 'a'));
    cache.set(2, 1, {}, answer(100, 'b'));
    cache.set(3, 1, {}, answer(100, 'c'));
    expect(cache.bytes).toBe(300);
    expect(cache.get(1, 1, {})).toBe(answer(100, 'a')); // area 2 is now the least recently used
    cache.set(4, 1, {}, answer(100, 'd'));
    expect(cache.bytes).toBe(300);
    expect(cache.get(2, 1, {})).toBeUndefined();
    expect([1, 3, 4].map((area) => cache.get(area, 1, {}) !== undefined)).toEqual([true, true, true]);

    cache.set(5, 1, {}, answer(400));
    expect(cache.get(5, 1, {})).toBeUndefined(); // larger than the whole bound: not kept, nothing else dropped
    expect(cache.size).toBe(3);

    const none = new CardListCache(0);
    none.set(1, 1, {}, 'json');
    expect(none.size).toBe(0);
  });

  it('drops the answers of older versions of an area when a newer one is stored, and ignores late older ones', () => {
    const cache = new CardListCache(10_000);
    cache.set(1, 1, {}, 'v1 all');
    cache.set(1, 1, { unassigned: true }, 'v1 nobody');
    cache.set(1, 1, { assignee: 'a' }, 'v1 a');
    cache.set(2, 1, {}, 'other area');
    expect(cache.size).toBe(4);

    cache.set(1, 2, {}, 'v2 all');
    expect(cache.size).toBe(2);
    expect(cache.get(1, 1, { unassigned: true })).toBeUndefined();
    expect(cache.get(1, 2, {})).toBe('v2 all');
    expect(cache.get(2, 1, {})).toBe('other area');
    expect(cache.bytes).toBe(('v2 all'.length + 'other area'.length) * 2);

    cache.set(1, 1, { assignee: 'a' }, 'late v1');
    expect(cache.get(1, 1, { assignee: 'a' })).toBeUndefined();
    expect(cache.size).toBe(2);
  });

  it('builds an answer once for the readers of one version at a time; a failed build is retried by the next reader', async () => {
    const cache = new CardListCache(10_000);
    let builds = 0;
    let finish: (json: string) => void = () => undefined;
    const build = () => {
      builds += 1;
      return new Promise<string>((resolve) => (finish = resolve));
    };
    const readers = [cache.load(1, 7, {}, build), cache.load(1, 7, {}, build), cache.load(1, 7, {}, build)];
    // Another filter or version is another answer.
    const other = cache.load(1, 7, { unassigned: true }, () => Promise.resolve('unassigned'));
    expect(builds).toBe(1);
    finish('v7');
    expect(await Promise.all(readers)).toEqual(['v7', 'v7', 'v7']);
    expect(await other).toBe('unassigned');
    expect(await cache.load(1, 7, {}, build)).toBe('v7');
    expect(builds).toBe(1);

    await expect(cache.load(1, 8, {}, () => Promise.reject(new Error('no connection')))).rejects.toThrow('no connection');
    expect(await cache.load(1, 8, {}, () => Promise.resolve('v8'))).toBe('v8');
    expect(cache.get(1, 8, {})).toBe('v8');
  });
});
