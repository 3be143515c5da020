/**
 * The dates of a repeating card's series, in UTC: the server dates a successor
 * with them and the web calendar shows the coming ones, so both agree.
 */
export const RHYTHMS = ['day', 'week', 'twoWeeks', 'month', 'year'] as const;
export type Rhythm = (typeof RHYTHMS)[number];

const DAY = 86_400_000;
const FIXED: Partial<Record<Rhythm, number>> = { day: DAY, week: 7 * DAY, twoWeeks: 14 * DAY };
const MONTHS: Partial<Record<Rhythm, number>> = { month: 1, year: 12 };

/** The k-th date of a series starting at `anchor`; months keep the anchor's day, clamped to short months. */
export function nthDate(anchor: Date, rhythm: Rhythm, k: number): Date {
  const fixed = FIXED[rhythm];
  if (fixed !== undefined) return new Date(anchor.getTime() + k * fixed);
  const months = (MONTHS[rhythm] ?? 1) * k;
  const year = anchor.getUTCFullYear();
  const month = anchor.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const date = new Date(anchor);
  date.setUTCFullYear(year, month, Math.min(anchor.getUTCDate(), lastDay));
  return date;
}

/** The first date of the series strictly after `after`. */
export function nextDueDate(anchor: Date, rhythm: Rhythm, after: Date): Date {
  const fixed = FIXED[rhythm];
  // Jump close to the answer first, so a series years in the past costs no long walk.
  let k =
    fixed !== undefined
      ? Math.floor((after.getTime() - anchor.getTime()) / fixed)
      : monthsBetween(anchor, after) / (MONTHS[rhythm] ?? 1);
  k = Math.max(1, Math.floor(k) - 1);
  while (nthDate(anchor, rhythm, k).getTime() <= after.getTime()) k++;
  return nthDate(anchor, rhythm, k);
}

function monthsBetween(a: Date, b: Date): number {
  return (b.getUTCFullYear() - a.getUTCFullYear()) * 12 + (b.getUTCMonth() - a.getUTCMonth());
}
