const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** When something happened: relative while recent ("5 minutes ago"), else a date; `full` is the exact moment. */
export function formatWhen(iso: string, now: number, language: string): { short: string; full: string } {
  const at = new Date(iso);
  const full = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(at);
  const ago = now - at.getTime();
  const relative = new Intl.RelativeTimeFormat(language, { numeric: 'auto' });
  let short: string;
  if (ago < MINUTE) short = relative.format(0, 'second');
  else if (ago < HOUR) short = relative.format(-Math.floor(ago / MINUTE), 'minute');
  else if (ago < DAY) short = relative.format(-Math.floor(ago / HOUR), 'hour');
  else if (ago < 7 * DAY) short = relative.format(-Math.floor(ago / DAY), 'day');
  else short = new Intl.DateTimeFormat(language, { dateStyle: 'medium' }).format(at);
  return { short, full };
}
