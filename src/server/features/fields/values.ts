import { FIELD_TEXT_MAX_LENGTH, type Field, type FieldValue } from '../../../shared/api/fields.js';
import { badRequest } from '../../http/errors.js';

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** A calendar day (`YYYY-MM-DD`) as given, a date-time as UTC ISO, or undefined when it is neither. */
export function isoDate(raw: string): string | undefined {
  const day = DAY.exec(raw);
  if (day) {
    const [y, m, d] = [Number(day[1]), Number(day[2]), Number(day[3])];
    const date = new Date(Date.UTC(y, m - 1, d));
    // 2026-02-30 parses as March 2nd: a day that does not exist is refused, not moved.
    return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d ? raw : undefined;
  }
  if (!DATE_TIME.test(raw)) return undefined;
  const time = Date.parse(raw);
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}

function isHttpUrl(raw: string): boolean {
  if (raw.length > 2048 || /\s/.test(raw)) return false;
  try {
    const url = new URL(raw);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/**
 * The value to store for a field, in its one form (a date-time in UTC, a
 * select option in the field's spelling), or a 400 naming the field.
 */
export function checkedValue(field: Pick<Field, 'id' | 'name' | 'type' | 'options'>, raw: FieldValue): FieldValue {
  const refuse = (what: string) => badRequest(`body: fields/${field.id} (${field.name}) must be ${what}`);
  switch (field.type) {
    case 'text':
      if (typeof raw !== 'string' || raw.length > FIELD_TEXT_MAX_LENGTH)
        throw refuse(`text of at most ${FIELD_TEXT_MAX_LENGTH} characters`);
      return raw;
    case 'number':
      if (typeof raw !== 'number' || !Number.isFinite(raw)) throw refuse('a finite number');
      return raw;
    case 'date': {
      const date = typeof raw === 'string' ? isoDate(raw) : undefined;
      if (date === undefined) throw refuse('an ISO date (YYYY-MM-DD or a date-time)');
      return date;
    }
    case 'select': {
      const option = typeof raw === 'string' ? field.options.find((o) => o.toLowerCase() === raw.toLowerCase()) : undefined;
      if (option === undefined) throw refuse('one of its options');
      return option;
    }
    case 'checkbox':
      if (typeof raw !== 'boolean') throw refuse('true or false');
      return raw;
    case 'url':
      if (typeof raw !== 'string' || !isHttpUrl(raw)) throw refuse('an http(s) URL');
      return raw;
  }
}

/**
 * Whether a card's value matches a list filter's `value` (as the query
 * string gives it): text by a case-insensitive part, the others exactly.
 */
export function valueMatches(field: Pick<Field, 'type'>, value: FieldValue | undefined, wanted: string | undefined): boolean {
  if (wanted === undefined) return value !== undefined;
  if (field.type === 'checkbox') return (value ?? false) === (wanted === 'true');
  if (value === undefined) return false;
  switch (field.type) {
    case 'text':
      return String(value).toLowerCase().includes(wanted.toLowerCase());
    case 'number':
      return wanted.trim() !== '' && value === Number(wanted);
    case 'date':
      return value === (isoDate(wanted) ?? wanted);
    default:
      return String(value).toLowerCase() === wanted.toLowerCase();
  }
}
