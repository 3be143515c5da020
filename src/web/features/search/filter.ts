import type { CardListItem } from '../../api/types';

export type DueFilter = 'overdue' | 'week' | 'none';
export type StatusFilter = 'open' | 'done';

/** What the board filter asks for; empty parts ask for nothing. */
export interface Filter {
  text: string;
  labels: number[];
  /** Account ids; `none` stands for cards nobody is on. */
  assignees: string[];
  due: DueFilter | null;
  status: StatusFilter | null;
  /** A custom field's id, and the value its cards must have (empty: any value). */
  field: number | null;
  fieldValue: string;
}

const DAY = 24 * 60 * 60 * 1000;
const DUE: readonly string[] = ['overdue', 'week', 'none'];
const STATUS: readonly string[] = ['open', 'done'];

/** The search params the filter owns (the rest, such as `card`, belong to others). */
export const FILTER_PARAMS = ['q', 'labels', 'assignees', 'due', 'status', 'field', 'fvalue'] as const;

function list(value: string | null): string[] {
  return (value ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
}

export function filterFromParams(params: URLSearchParams): Filter {
  const due = params.get('due');
  const status = params.get('status');
  return {
    text: params.get('q') ?? '',
    labels: list(params.get('labels'))
      .map(Number)
      .filter((n) => Number.isInteger(n) && n > 0),
    assignees: list(params.get('assignees')),
    due: due && DUE.includes(due) ? (due as DueFilter) : null,
    status: status && STATUS.includes(status) ? (status as StatusFilter) : null,
    field: Number.isInteger(Number(params.get('field'))) && Number(params.get('field')) > 0 ? Number(params.get('field')) : null,
    fieldValue: params.get('fvalue') ?? '',
  };
}

/** A copy of `params` with the filter written in (empty parts left out); every other param stays. */
export function writeFilter(params: URLSearchParams, filter: Filter): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const key of FILTER_PARAMS) next.delete(key);
  if (filter.text) next.set('q', filter.text);
  if (filter.labels.length > 0) next.set('labels', filter.labels.join(','));
  if (filter.assignees.length > 0) next.set('assignees', filter.assignees.join(','));
  if (filter.due) next.set('due', filter.due);
  if (filter.status) next.set('status', filter.status);
  if (filter.field !== null) {
    next.set('field', String(filter.field));
    if (filter.fieldValue) next.set('fvalue', filter.fieldValue);
  }
  return next;
}

export const EMPTY: Filter = { text: '', labels: [], assignees: [], due: null, status: null, field: null, fieldValue: '' };

/** The filter as the search params it writes, for comparing two filters. */
export function filterKey(filter: Filter): string {
  return writeFilter(new URLSearchParams(), filter).toString();
}

export function isActive(filter: Filter): boolean {
  return (
    filter.text.trim() !== '' ||
    filter.labels.length > 0 ||
    filter.assignees.length > 0 ||
    filter.due !== null ||
    filter.status !== null ||
    filter.field !== null
  );
}

/**
 * A card matches when it passes every part that is set: its name holds the
 * text (any case), it wears any of the labels, any of the people is on it
 * (or nobody, for `none`), its due date fits and its status fits.
 */
export function matcherFor(filter: Filter, now = Date.now()): (card: CardListItem) => boolean {
  const text = filter.text.trim().toLocaleLowerCase();
  const labels = new Set(filter.labels);
  const people = new Set(filter.assignees);
  return (card) => {
    if (text && !card.name.toLocaleLowerCase().includes(text)) return false;
    if (labels.size > 0 && !card.labels.some((label) => labels.has(label.id))) return false;
    if (people.size > 0) {
      const nobody = card.assignees.length === 0;
      if (!(nobody && people.has('none')) && !card.assignees.some((person) => people.has(person.id))) return false;
    }
    if (filter.due) {
      const due = card.dueDate ? Date.parse(card.dueDate) : null;
      if (filter.due === 'none' && due !== null) return false;
      if (filter.due === 'overdue' && (due === null || due >= now || card.status === 1)) return false;
      if (filter.due === 'week' && (due === null || due < now || due > now + 7 * DAY)) return false;
    }
    if (filter.status === 'open' && card.status === 1) return false;
    if (filter.status === 'done' && card.status !== 1) return false;
    if (filter.field !== null && !fieldMatches(card.fields[filter.field], filter.fieldValue)) return false;
    return true;
  };
}

/** As the API's `field`/`value` filter: any value when none is asked; text by a part (any case), the others exactly; `false` also takes an unset checkbox. */
function fieldMatches(value: string | number | boolean | undefined, wanted: string): boolean {
  if (wanted === '') return value !== undefined && value !== false;
  if (wanted === 'false') return value === undefined || value === false;
  if (value === undefined) return false;
  if (typeof value === 'string') return value.toLocaleLowerCase().includes(wanted.toLocaleLowerCase());
  return String(value) === wanted;
}
