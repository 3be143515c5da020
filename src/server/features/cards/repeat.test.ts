import { describe, expect, it } from 'vitest';
import { nextDueDate, nthDate, untick } from './repeat.js';

const d = (s: string) => new Date(s);

describe('repeating due dates', () => {
  it('steps days and weeks from the anchor', () => {
    expect(nextDueDate(d('2026-01-01T09:00:00Z'), 'day', d('2026-01-01T09:00:00Z')).toISOString()).toBe(
      '2026-01-02T09:00:00.000Z',
    );
    expect(nextDueDate(d('2026-01-01T09:00:00Z'), 'week', d('2026-01-20T00:00:00Z')).toISOString()).toBe(
      '2026-01-22T09:00:00.000Z',
    );
    expect(nextDueDate(d('2026-01-01T09:00:00Z'), 'twoWeeks', d('2026-01-01T10:00:00Z')).toISOString()).toBe(
      '2026-01-15T09:00:00.000Z',
    );
  });

  it('keeps the anchor day across short months', () => {
    const anchor = d('2026-01-31T12:00:00Z');
    expect(nthDate(anchor, 'month', 1).toISOString()).toBe('2026-02-28T12:00:00.000Z');
    expect(nthDate(anchor, 'month', 2).toISOString()).toBe('2026-03-31T12:00:00.000Z');
    expect(nextDueDate(anchor, 'month', d('2026-02-28T12:00:00Z')).toISOString()).toBe('2026-03-31T12:00:00.000Z');
    expect(nthDate(d('2024-02-29T00:00:00Z'), 'year', 1).toISOString()).toBe('2025-02-28T00:00:00.000Z');
  });

  it('skips past dates long gone without a flood: strictly after the given moment', () => {
    const next = nextDueDate(d('2020-03-15T08:00:00Z'), 'month', d('2026-11-23T10:00:00Z'));
    expect(next.toISOString()).toBe('2026-12-15T08:00:00.000Z');
    expect(nextDueDate(d('2020-03-15T08:00:00Z'), 'day', d('2026-11-23T10:00:00Z')).toISOString()).toBe(
      '2026-11-24T08:00:00.000Z',
    );
  });

  it('unticks the checklist', () => {
    expect(untick('- [x] one\n- [ ] two\n  * [X] three\ntext [x]')).toBe('- [ ] one\n- [ ] two\n  * [ ] three\ntext [x]');
  });
});
