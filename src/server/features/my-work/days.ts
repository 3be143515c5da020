/** Calendar days in a time zone, as `YYYY-MM-DD` strings (which sort like the days they name). */

const formats = new Map<string, Intl.DateTimeFormat>();

function format(timeZone: string): Intl.DateTimeFormat {
  let f = formats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    // Bounded: only names Intl accepted get here, and there are a few hundred of them.
    if (formats.size < 1000) formats.set(timeZone, f);
  }
  return f;
}

/** Whether Intl knows the zone (an IANA name such as `Europe/Berlin`, or `UTC`). */
export function isTimeZone(timeZone: string): boolean {
  try {
    format(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** The day an instant falls on in the zone. */
export function dayIn(instant: Date, timeZone: string): string {
  const parts = Object.fromEntries(
    format(timeZone)
      .formatToParts(instant)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}`;
}

const asUtc = (day: string) => new Date(`${day}T00:00:00Z`);

export function addDays(day: string, days: number): string {
  const date = asUtc(day);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** The Sunday that ends the ISO week (Monday to Sunday) the day is in. */
export function weekEndOf(day: string): string {
  const weekday = asUtc(day).getUTCDay(); // 0 = Sunday
  return addDays(day, weekday === 0 ? 0 : 7 - weekday);
}
