import type { Board } from '../../shared/api/boards.js';
import type { Card, CardListItem, Person } from '../../shared/api/cards.js';
import type { BoardEventMap, BoardEventName } from '../../shared/events.js';

/** A visible card as a rewind shows it; its `sort` is its place in its area's list. */
export interface PastCard {
  id: number;
  name: string;
  content: string;
  labels: Array<{ id: number; name: string }>;
  assignees: Person[];
  dueDate: string | null;
  done: boolean;
  /** Custom field values by field id, as card events carry them (absent ones are not set). */
  fields: Record<string, unknown>;
}

export interface PastArea {
  id: number;
  name: string;
  cards: PastCard[];
}

/** A board's visible state at a version: what a snapshot stores and a replay changes. */
export interface BoardState {
  board: Board;
  /** Visible areas in order, each with its visible cards in order. */
  areas: PastArea[];
}

/** The stored event shape a replay reads: its name and parsed data. */
export interface StoredEvent {
  name: string;
  data: unknown;
}

function insertAt<T>(list: T[], index: number, item: T): void {
  list.splice(Math.max(0, Math.min(index, list.length)), 0, item);
}

const record = (value: unknown) => (value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : undefined);

/**
 * A card event's custom fields: the card it carries holds all its set values
 * (`card.fields`, the whole set); a `card.updated` also names what it changed
 * (`fields`, `null` clearing one). Older events carry neither.
 */
interface EventFields {
  all?: Record<string, unknown> | undefined;
  changed?: Record<string, unknown> | undefined;
}

function fieldsOf(data: { card?: unknown; fields?: unknown }): EventFields {
  return { all: record((data.card as { fields?: unknown } | undefined)?.fields), changed: record(data.fields) };
}

/** A card as events show it: its whole set of field values when the event has it, else the ones before with the event's changes. */
export function pastCard(card: CardListItem, fields: EventFields, before?: PastCard): PastCard {
  const merged = { ...(fields.all ?? before?.fields ?? {}) };
  for (const [id, value] of Object.entries(fields.changed ?? {})) {
    if (value === null) delete merged[id];
    else merged[id] = value;
  }
  return {
    id: card.id,
    name: card.name,
    content: card.content,
    labels: card.labels.map((l) => ({ id: l.id, name: l.name })),
    assignees: card.assignees.map((p) => ({ id: p.id, name: p.name, image: p.image, type: p.type })),
    dueDate: card.dueDate,
    done: card.status === 1,
    fields: merged,
  };
}

/** Where a card is: its area and place. */
function locate(state: BoardState, cardId: number): { area: PastArea; index: number } | undefined {
  for (const area of state.areas) {
    const index = area.cards.findIndex((c) => c.id === cardId);
    if (index >= 0) return { area, index };
  }
  return undefined;
}

function take(state: BoardState, cardId: number): PastCard | undefined {
  const at = locate(state, cardId);
  return at?.area.cards.splice(at.index, 1)[0];
}

function placeCard(state: BoardState, card: Card, fields: EventFields): void {
  const before = take(state, card.id);
  if (card.archivedAt) return;
  const area = state.areas.find((a) => a.id === card.area);
  if (area) insertAt(area.cards, card.sort, pastCard(card, fields, before));
}

/**
 * Applies one stored event to the state, in place. Events that change
 * nothing visible (comments, members, attachments, redacted ones) pass; an
 * event about a card or area the state does not hold (erased, or archived
 * at the time) changes nothing.
 */
export function applyEvent(state: BoardState, event: StoredEvent): void {
  const name = event.name as BoardEventName;
  const is = <K extends BoardEventName>(k: K, _d: unknown): _d is BoardEventMap[K] => name === k;
  const data = event.data;
  if (is('board.updated', data) || is('board.archived', data) || is('board.restored', data) || is('board.created', data)) {
    state.board = data.board;
  } else if (is('area.created', data)) {
    insertAt(state.areas, data.area.sort, { id: data.area.id, name: data.area.name, cards: [] });
  } else if (is('area.updated', data)) {
    const area = state.areas.find((a) => a.id === data.area.id);
    if (area) area.name = data.area.name;
  } else if (is('area.archived', data) || is('area.deleted', data)) {
    state.areas = state.areas.filter((a) => a.id !== data.areaId);
  } else if (is('area.restored', data)) {
    state.areas = state.areas.filter((a) => a.id !== data.area.id);
    const cards = [...data.cards].sort((a, b) => a.sort - b.sort).map((c) => pastCard(c, fieldsOf({ card: c })));
    insertAt(state.areas, data.area.sort, { id: data.area.id, name: data.area.name, cards });
  } else if (is('areas.reordered', data)) {
    const order = new Map(data.areas.map((a, i) => [a.id, i]));
    state.areas.sort((a, b) => (order.get(a.id) ?? order.size) - (order.get(b.id) ?? order.size));
    for (const area of state.areas) {
      const renamed = data.areas.find((a) => a.id === area.id);
      if (renamed) area.name = renamed.name;
    }
  } else if (is('card.created', data) || is('card.restored', data)) {
    placeCard(state, data.card, fieldsOf(data));
  } else if (is('card.updated', data)) {
    const at = locate(state, data.card.id);
    if (data.card.archivedAt) {
      if (at) at.area.cards.splice(at.index, 1);
    } else if (at) {
      at.area.cards[at.index] = pastCard(data.card, fieldsOf(data), at.area.cards[at.index]);
    }
  } else if (is('card.moved', data)) {
    const to = state.areas.find((a) => a.id === data.toAreaId);
    if (!to || !locate(state, data.cardId)) return;
    insertAt(to.cards, data.newIndex, take(state, data.cardId)!);
  } else if (is('card.archived', data) || is('card.deleted', data)) {
    take(state, data.cardId);
  } else if (is('field.deleted', data)) {
    for (const area of state.areas) for (const card of area.cards) delete card.fields[String(data.fieldId)];
  } else if (is('labels.changed', data)) {
    const names = new Map(data.labels.map((l) => [l.id, l.name]));
    for (const area of state.areas)
      for (const card of area.cards)
        card.labels = card.labels.filter((l) => names.has(l.id)).map((l) => ({ id: l.id, name: names.get(l.id)! }));
  } else if (is('member.removed', data)) {
    // Someone leaving the board leaves its cards (their card.updated events say so too, when they come).
    for (const area of state.areas)
      for (const card of area.cards) card.assignees = card.assignees.filter((p) => p.id !== data.userId);
  } else if (is('person.updated', data)) {
    const { person } = data;
    for (const area of state.areas)
      for (const card of area.cards)
        card.assignees = card.assignees.map((p) => (p.id === person.id ? { ...p, name: person.name, image: person.image } : p));
  }
}

/** The state as the API answers it: every area and card with its place. */
export function presentState(state: BoardState) {
  return {
    board: state.board,
    areas: state.areas.map((area, sort) => ({
      id: area.id,
      name: area.name,
      sort,
      cards: area.cards.map((card, i) => ({ ...card, sort: i })),
    })),
  };
}
