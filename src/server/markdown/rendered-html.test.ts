import { describe, expect, it } from 'vitest';
import { RenderedHtmlCache } from './rendered-html.js';

function counting() {
  const calls: string[] = [];
  const render = (markdown: string) => {
    calls.push(markdown);
    return `<p>${markdown}</p>`;
  };
  return { calls, render };
}

describe('rendered Markdown cache', () => {
  it('renders a version of a card or comment once, and again after a change', () => {
    const { calls, render } = counting();
    const cache = new RenderedHtmlCache(1024 * 1024, render);
    const card = { kind: 'card' as const, id: 1, updatedAt: '2026-01-01T00:00:00.000Z' };
    expect(cache.html(card, 'a')).toBe('<p>a</p>');
    expect(cache.html({ ...card, updatedAt: new Date(card.updatedAt) }, 'a')).toBe('<p>a</p>');
    expect(calls).toEqual(['a']);
    expect(cache.html({ ...card, updatedAt: '2026-01-02T00:00:00.000Z' }, 'b')).toBe('<p>b</p>');
    expect(cache.html({ ...card, kind: 'comment' }, 'a')).toBe('<p>a</p>');
    expect(calls).toEqual(['a', 'b', 'a']);
  });

  it('never answers a rendering of another text under the same id and time', () => {
    const { calls, render } = counting();
    const cache = new RenderedHtmlCache(1024 * 1024, render);
    const version = { kind: 'card' as const, id: 7, updatedAt: '2026-01-01T00:00:00.000Z' };
    cache.html(version, 'old');
    expect(cache.html(version, 'new')).toBe('<p>new</p>');
    expect(cache.html(version, 'new')).toBe('<p>new</p>');
    expect(calls).toEqual(['old', 'new']);
  });

  it('stays within its byte bound, dropping the least recently used first', () => {
    const { calls, render } = counting();
    const cache = new RenderedHtmlCache(400, render);
    const at = (id: number) => ({ kind: 'card' as const, id, updatedAt: 'T' });
    cache.html(at(1), 'x'.repeat(40));
    cache.html(at(2), 'y'.repeat(40));
    cache.html(at(1), 'x'.repeat(40)); // 2 is now the least recently used
    cache.html(at(3), 'z'.repeat(40));
    expect(cache.bytes).toBeLessThanOrEqual(400);
    cache.html(at(1), 'x'.repeat(40));
    cache.html(at(2), 'y'.repeat(40));
    expect(calls.map((c) => c[0])).toEqual(['x', 'y', 'z', 'y']);
  });
});
