import i18n from '../../app/i18n';

const DAY = 24 * 60 * 60 * 1000;

export type DueState = 'overdue' | 'soon' | 'later' | 'done';

/** Overdue once the moment has passed, due soon within a day; a done card is neither. */
export function dueState(dueDate: string, done: boolean, now = Date.now()): DueState {
  if (done) return 'done';
  const due = Date.parse(dueDate);
  if (due < now) return 'overdue';
  if (due - now < DAY) return 'soon';
  return 'later';
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(key: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const id = `${i18n.language}|${key}`;
  let f = formatters.get(id);
  if (!f) {
    f = new Intl.DateTimeFormat(i18n.language, options);
    formatters.set(id, f);
  }
  return f;
}

/** "Nov 24" this year, "Nov 24, 2027" otherwise; with the time when it is not midnight. */
export function shortDate(iso: string): string {
  const date = new Date(iso);
  const sameYear = date.getFullYear() === new Date().getFullYear();
  const withTime = date.getHours() !== 0 || date.getMinutes() !== 0;
  const options: Intl.DateTimeFormatOptions = { month: 'short', day: 'numeric', ...(sameYear ? {} : { year: 'numeric' }) };
  if (withTime) Object.assign(options, { hour: 'numeric', minute: '2-digit' });
  return formatter(`short${sameYear ? '' : 'y'}${withTime ? 't' : ''}`, options).format(date);
}

export function dateTime(iso: string): string {
  return formatter('full', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}

/** "3 minutes ago", "yesterday"… */
export function relativeTime(iso: string, now = Date.now()): string {
  const seconds = Math.round((Date.parse(iso) - now) / 1000);
  const rtf = new Intl.RelativeTimeFormat(i18n.language, { numeric: 'auto' });
  const abs = Math.abs(seconds);
  if (abs < 45) return rtf.format(0, 'second');
  if (abs < 45 * 60) return rtf.format(Math.round(seconds / 60), 'minute');
  if (abs < 22 * 3600) return rtf.format(Math.round(seconds / 3600), 'hour');
  if (abs < 26 * 86400) return rtf.format(Math.round(seconds / 86400), 'day');
  return shortDate(iso);
}

function capitalise(text: string): string {
  return text.charAt(0).toLocaleUpperCase(i18n.language) + text.slice(1);
}

/** What a card tile shows: "Today 5:00 PM", "Tomorrow", "Yesterday", else "Nov 24" (with the year when not this year). */
export function tileDate(iso: string, now = new Date()): string {
  const date = new Date(iso);
  const startOfDay = (d: Date) => new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
  const days = Math.round((startOfDay(date) - startOfDay(now)) / DAY);
  if (days >= -1 && days <= 1) {
    const word = capitalise(new Intl.RelativeTimeFormat(i18n.language, { numeric: 'auto' }).format(days, 'day'));
    if (days !== 0 || (date.getHours() === 0 && date.getMinutes() === 0)) return word;
    return `${word} ${formatter('time', { hour: 'numeric', minute: '2-digit' }).format(date)}`;
  }
  const sameYear = date.getFullYear() === now.getFullYear();
  return formatter(sameYear ? 'day' : 'dayy', {
    month: 'short',
    day: 'numeric',
    ...(sameYear ? {} : { year: 'numeric' }),
  }).format(date);
}
