import { nextDueDate, type Rhythm } from '../../../shared/repeat.js';

/**
 * The calendar's date arithmetic, in the browser's time zone. Days are built
 * from year, month and day (`new Date(y, m, d)`), never by adding 24 hours, so
 * a day that is 23 or 25 hours long (a DST change) is still one day.
 */

/** The first day of the week for a locale, as `Date.getDay()` counts (0 Sunday … 6 Saturday); Monday when unknown. */
export function weekStart(locale: string): number {
  try {
    const info = new Intl.Locale(locale) as Intl.Locale & {
      getWeekInfo?: () => { firstDay: number };
      weekInfo?: { firstDay: number };
    };
    // Intl counts 1 Monday … 7 Sunday; older engines have the getter, newer ones the method.
    const firstDay = info.getWeekInfo?.().firstDay ?? info.weekInfo?.firstDay;
    if (firstDay && firstDay >= 1 && firstDay <= 7) return firstDay % 7;
  } catch {
    // An unknown or malformed tag: the default below.
  }
  return 1;
}

/**
 * The week start for the interface language, taken from the browser's own
 * tag for that language when it has one (English read in Britain starts on
 * Monday, in the US on Sunday).
 */
export function weekStartFor(language: string, preferred: readonly string[]): number {
  const base = language.split('-')[0]!.toLowerCase();
  const regional = preferred.find((tag) => tag.split('-')[0]!.toLowerCase() === base && tag.includes('-'));
  return weekStart(regional ?? language);
}

/** `YYYY-MM-DD` of a moment's local day: the key that places a card on a day. */
export function dayKey(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** The local midnight of a `YYYY-MM-DD` key. */
export function fromDayKey(key: string): Date {
  const [y, m, d] = key.split('-').map(Number);
  return new Date(y!, m! - 1, d);
}

export function addDays(day: Date, days: number): Date {
  return new Date(day.getFullYear(), day.getMonth(), day.getDate() + days);
}

/** The first day of the week holding `day`. */
export function startOfWeek(day: Date, firstDay: number): Date {
  return addDays(day, -((day.getDay() - firstDay + 7) % 7));
}

/** The seven days of the week holding `day`. */
export function weekOf(day: Date, firstDay: number): Date[] {
  const start = startOfWeek(day, firstDay);
  return Array.from({ length: 7 }, (_, i) => addDays(start, i));
}

/** The whole weeks that cover a month (`month` 0–11): four to six rows of seven days. */
export function monthGrid(year: number, month: number, firstDay: number): Date[][] {
  const first = new Date(year, month, 1);
  const last = new Date(year, month + 1, 0);
  const weeks: Date[][] = [];
  for (let start = startOfWeek(first, firstDay); start <= last; start = addDays(start, 7)) weeks.push(weekOf(start, firstDay));
  return weeks;
}

/** The hour a card without a due date gets when it is put on a day. */
export const DEFAULT_HOUR = 9;

/**
 * A due date moved to another day, keeping its local time of day (wall-clock
 * time, so 17:00 stays 17:00 across a DST change); a card with no date gets
 * `DEFAULT_HOUR`. Answers ISO 8601 UTC, as the API takes it.
 */
export function moveToDay(dueDate: string | null, day: Date): string {
  const y = day.getFullYear();
  const m = day.getMonth();
  const d = day.getDate();
  if (!dueDate) return new Date(y, m, d, DEFAULT_HOUR).toISOString();
  const t = new Date(dueDate);
  return new Date(y, m, d, t.getHours(), t.getMinutes(), t.getSeconds(), t.getMilliseconds()).toISOString();
}

/** At most this many ghosts per card and range (a daily card over six weeks is 42). */
const MAX_OCCURRENCES = 62;

/**
 * The coming dates of a repeating card that fall in [from, to): the date its
 * successor would get if it were done now (the first of the series after both
 * its due date and now, as the server decides), then each next one after that.
 * The series keeps the day of its anchor (`repeatAnchor`, which the list
 * carries for a repeating card): a monthly card anchored on the 31st that is
 * due on February 28 comes back on March 31, not March 28. Without one the
 * due date is the anchor.
 */
export function occurrences(
  dueDate: string,
  rhythm: Rhythm,
  from: Date,
  to: Date,
  now = new Date(),
  repeatAnchor: string | null = null,
): Date[] {
  const due = new Date(dueDate);
  const anchor = repeatAnchor ? new Date(repeatAnchor) : due;
  const found: Date[] = [];
  let next = nextDueDate(anchor, rhythm, new Date(Math.max(due.getTime(), now.getTime())));
  while (next < to && found.length < MAX_OCCURRENCES) {
    if (next >= from) found.push(next);
    next = nextDueDate(anchor, rhythm, next);
  }
  return found;
}
