import { parseLanes } from '../../../../shared/api/board-views.js';
import type { CardListItem, Field, Label, Person } from '../../../api/types';
import type { CardPatch } from '../../card/api';

/**
 * Swimlanes: the board's areas stay columns and its cards are grouped into
 * horizontal lanes by assignee, by label, or by the option of a `select`
 * custom field, with a "none" lane for the cards without one.
 *
 * A card with several assignees (or labels) is in each of their lanes: it is
 * shown, and counted, once per lane. Dragging it from lane X to lane Y
 * replaces X by Y on the card (its other assignees or labels stay); dropping
 * it on "none" clears them all; from "none" it gets Y alone. A field has one
 * value: the drop sets it, or clears it on "none".
 */

export type LaneBy = { by: 'assignee' } | { by: 'label' } | { by: 'field'; field: Field };

export const NONE = 'none';

export interface Lane {
  /** `none`, `p:<userId>`, `l:<labelId>` or `o:<option>`. */
  key: string;
  name: string;
  person?: Person;
  labelId?: number;
  option?: string;
}

/** The grouping a lanes value (`assignee`, `label`, `field:<id>`) asks for on this board; null for none or one it does not offer. */
export function laneByOf(value: string | null | undefined, fields: readonly Field[] | undefined): LaneBy | null {
  const parsed = parseLanes(value);
  if (!parsed) return null;
  if (parsed.by !== 'field') return parsed;
  const field = fields?.find((f) => f.id === parsed.fieldId && f.type === 'select');
  return field ? { by: 'field', field } : null;
}

/** The keys of the lanes a card is in. */
export function laneKeysOf(card: CardListItem, by: LaneBy): string[] {
  if (by.by === 'assignee') return card.assignees.length ? card.assignees.map((p) => `p:${p.id}`) : [NONE];
  if (by.by === 'label') return card.labels.length ? card.labels.map((l) => `l:${l.id}`) : [NONE];
  const value = card.fields[String(by.field.id)];
  return typeof value === 'string' && by.field.options.includes(value) ? [`o:${value}`] : [NONE];
}

/**
 * One area's cards by lane key, in the area's order. A lane without cards in
 * the area has no entry.
 */
export function groupArea(cards: readonly CardListItem[], by: LaneBy): Map<string, CardListItem[]> {
  const groups = new Map<string, CardListItem[]>();
  for (const card of cards) {
    for (const key of laneKeysOf(card, by)) {
      const list = groups.get(key);
      if (list) list.push(card);
      else groups.set(key, [card]);
    }
  }
  return groups;
}

/**
 * `groupArea` remembered per area list: a list that did not change (the
 * query cache keeps its identity) is not grouped again.
 */
export function areaGrouper(
  by: LaneBy,
  matches: ((card: CardListItem) => boolean) | null,
): (cards: readonly CardListItem[]) => Map<string, CardListItem[]> {
  const cache = new WeakMap<readonly CardListItem[], Map<string, CardListItem[]>>();
  return (cards) => {
    let groups = cache.get(cards);
    if (!groups) cache.set(cards, (groups = groupArea(matches ? cards.filter(matches) : cards, by)));
    return groups;
  };
}

/** What the board offers as lanes, besides the cards' own values. */
export interface LaneSources {
  /** People who may be assigned (me, the board's members when known); those on cards are added. */
  people: readonly Person[];
  /** The board's labels in order. */
  labels: readonly Label[];
  /** The interface language, to sort people by name. */
  language: string;
  /** The name of the "none" lane. */
  noneName: string;
}

/**
 * The lanes in order: people by name, labels and options in the board's
 * order; "none" last. Values found on cards but unknown to the sources (an
 * assignee who is no member, a label not yet in the list) get a lane too.
 */
export function laneList(
  by: LaneBy,
  sources: LaneSources,
  areaCards: ReadonlyArray<readonly CardListItem[] | undefined>,
): Lane[] {
  const none: Lane = { key: NONE, name: sources.noneName };
  if (by.by === 'field') return [...by.field.options.map((option) => ({ key: `o:${option}`, name: option, option })), none];
  if (by.by === 'label') {
    const labels = new Map<number, Label>(sources.labels.map((l) => [l.id, l]));
    for (const cards of areaCards)
      for (const card of cards ?? []) for (const l of card.labels) if (!labels.has(l.id)) labels.set(l.id, l);
    return [...[...labels.values()].map((l) => ({ key: `l:${l.id}`, name: l.name, labelId: l.id })), none];
  }
  const people = new Map<string, Person>(sources.people.map((p) => [p.id, p]));
  for (const cards of areaCards)
    for (const card of cards ?? []) for (const p of card.assignees) if (!people.has(p.id)) people.set(p.id, p);
  const collator = new Intl.Collator(sources.language, { sensitivity: 'base' });
  const sorted = [...people.values()].sort((a, b) => collator.compare(a.name, b.name) || a.id.localeCompare(b.id));
  return [...sorted.map((person) => ({ key: `p:${person.id}`, name: person.name, person })), none];
}

/**
 * The change that takes a card from lane `from` to lane `to` (see above);
 * null when there is none (the same lane, or a lane the list does not know).
 */
export function lanePatch(card: CardListItem, by: LaneBy, from: string, to: string, lanes: readonly Lane[]): CardPatch | null {
  if (from === to) return null;
  const target = to === NONE ? null : lanes.find((l) => l.key === to);
  if (target === undefined) return null;
  if (by.by === 'field') return { fields: { [String(by.field.id)]: target?.option ?? null } };
  if (by.by === 'assignee') {
    if (!target) return { assignees: [] };
    const person = target.person!;
    if (card.assignees.some((p) => `p:${p.id}` === from)) {
      return { assignees: card.assignees.flatMap((p) => (`p:${p.id}` === from ? [person] : p.id === person.id ? [] : [p])) };
    }
    return card.assignees.some((p) => p.id === person.id) ? null : { assignees: [...card.assignees, person] };
  }
  if (!target) return { labelIds: [] };
  const labelId = target.labelId!;
  const ids = card.labels.map((l) => l.id);
  if (ids.some((id) => `l:${id}` === from)) {
    return { labelIds: ids.flatMap((id) => (`l:${id}` === from ? [labelId] : id === labelId ? [] : [id])) };
  }
  return ids.includes(labelId) ? null : { labelIds: [...ids, labelId] };
}
