// A zone with DST changes (29 March and 25 October 2026), set before any date is made.
// (The web's types know no `process`: tests run in Node, which reads TZ on every change.)
(globalThis as unknown as { process: { env: Record<string, string> } }).process.env.TZ = 'Europe/Berlin';

import { describe, expect, it } from 'vitest';
import { dayKey, fromDayKey, monthGrid, moveToDay, occurrences, weekOf, weekStart, weekStartFor } from './calendarDates';

const keys = (days: Date[]) => days.map(dayKey);

describe('calendar dates', () => {
  it('starts the week where the locale does, Monday when it cannot tell', () => {
    expect(weekStart('de')).toBe(1);
    expect(weekStart('en-US')).toBe(0);
    expect(weekStart('cs')).toBe(1);
    expect(weekStart('not a locale!')).toBe(1);
    // The browser's region for the same language decides; another language's region does not.
    expect(weekStartFor('en', ['en-GB', 'en'])).toBe(1);
    expect(weekStartFor('en', ['en-US'])).toBe(0);
    expect(weekStartFor('en', ['de-DE'])).toBe(0);
    expect(weekStartFor('fr', ['fr-CA'])).toBe(0);
    expect(weekStartFor('fr', ['fr-FR', 'en-US'])).toBe(1);
  });

  it('covers a month with whole weeks from the week start', () => {
    // November 2026 begins on a Sunday and ends on a Monday.
    const monday = monthGrid(2026, 10, 1);
    expect(monday).toHaveLength(6);
    expect(dayKey(monday[0]![0]!)).toBe('2026-10-26');
    expect(dayKey(monday[5]![6]!)).toBe('2026-12-06');
    const sunday = monthGrid(2026, 10, 0);
    expect(sunday).toHaveLength(5);
    expect(dayKey(sunday[0]![0]!)).toBe('2026-11-01');
    expect(dayKey(sunday[4]![6]!)).toBe('2026-12-05');
    // February 2027 fits four Monday weeks exactly.
    expect(monthGrid(2027, 1, 1)).toHaveLength(4);
    for (const week of monday) expect(week.every((day) => day.getHours() === 0)).toBe(true);
  });

  it('counts days, not 24-hour steps, through a DST change', () => {
    expect(keys(monthGrid(2026, 2, 1).at(-1)!)).toEqual([
      '2026-03-30',
      '2026-03-31',
      '2026-04-01',
      '2026-04-02',
      '2026-04-03',
      '2026-04-04',
      '2026-04-05',
    ]);
    expect(keys(weekOf(fromDayKey('2026-10-25'), 1))).toEqual([
      '2026-10-19',
      '2026-10-20',
      '2026-10-21',
      '2026-10-22',
      '2026-10-23',
      '2026-10-24',
      '2026-10-25',
    ]);
  });

  it('moves a due date to another day keeping its local time, across DST changes', () => {
    // 17:30 in Berlin in winter (UTC+1) → the same 17:30 in summer (UTC+2).
    expect(moveToDay('2026-03-20T16:30:00.000Z', fromDayKey('2026-04-02'))).toBe('2026-04-02T15:30:00.000Z');
    // And back to winter time.
    expect(moveToDay('2026-10-20T15:30:00.000Z', fromDayKey('2026-10-27'))).toBe('2026-10-27T16:30:00.000Z');
    // Onto the very day of the change.
    expect(moveToDay('2026-03-20T08:00:00.000Z', fromDayKey('2026-03-29'))).toBe('2026-03-29T07:00:00.000Z');
    // Midnight stays midnight (a date without a time).
    expect(moveToDay('2026-03-19T23:00:00.000Z', fromDayKey('2026-04-01'))).toBe('2026-03-31T22:00:00.000Z');
    // No date yet: nine in the morning, local.
    expect(moveToDay(null, fromDayKey('2026-07-01'))).toBe('2026-07-01T07:00:00.000Z');
  });

  it('shows the coming dates of a series as the server would date its successors', () => {
    const now = new Date('2026-11-25T12:00:00Z');
    const december = [fromDayKey('2026-11-30'), fromDayKey('2027-01-04')] as const;
    // Weekly, due in the future: every week after the due date.
    expect(occurrences('2026-11-27T09:00:00.000Z', 'week', ...december, now).map((d) => d.toISOString())).toEqual([
      '2026-12-04T09:00:00.000Z',
      '2026-12-11T09:00:00.000Z',
      '2026-12-18T09:00:00.000Z',
      '2026-12-25T09:00:00.000Z',
      '2027-01-01T09:00:00.000Z',
    ]);
    // Overdue: missed dates are skipped, the first is after now.
    expect(
      occurrences('2026-11-02T09:00:00.000Z', 'week', fromDayKey('2026-11-01'), fromDayKey('2026-12-01'), now).map(dayKey),
    ).toEqual(['2026-11-30']);
    // Monthly on the 31st: clamped in short months.
    expect(
      occurrences('2026-10-31T10:00:00.000Z', 'month', fromDayKey('2026-11-01'), fromDayKey('2027-03-01'), now).map(dayKey),
    ).toEqual(['2026-11-30', '2026-12-31', '2027-01-31', '2027-02-28']);
    // A monthly series anchored on January 31, now due on the clamped February 28: it keeps the 31st (as the server does).
    const anchoredNow = new Date('2027-02-20T12:00:00Z');
    expect(
      occurrences(
        '2027-02-28T10:00:00.000Z',
        'month',
        fromDayKey('2027-03-01'),
        fromDayKey('2027-06-01'),
        anchoredNow,
        '2027-01-31T10:00:00.000Z',
      ).map(dayKey),
    ).toEqual(['2027-03-31', '2027-04-30', '2027-05-31']);
    // Yearly, anchored on January 31: the same day every year.
    expect(
      occurrences(
        '2027-01-31T10:00:00.000Z',
        'year',
        fromDayKey('2027-02-01'),
        fromDayKey('2030-02-01'),
        new Date('2027-01-20T12:00:00Z'),
        '2026-01-31T10:00:00.000Z',
      ).map(dayKey),
    ).toEqual(['2028-01-31', '2029-01-31', '2030-01-31']);
    // Nothing in a range before the series.
    expect(occurrences('2026-12-10T09:00:00.000Z', 'day', fromDayKey('2026-11-01'), fromDayKey('2026-12-01'), now)).toEqual([]);
  });
});
