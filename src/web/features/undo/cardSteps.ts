import type { QueryClient } from '@tanstack/react-query';
import { findCard, getCards, upsertCard } from '../../api/cache';
import { api, ApiError } from '../../api/client';
import { attempt } from '../../api/optimistic';
import { keys } from '../../api/queries';
import type { Card, CardListItem, Label } from '../../api/types';
import { archiveCard, labelFor, updateCard, type CardPatch } from '../card/api';
import { moveCard } from '../board/api';
import { changedBy, lastChangedBy, now } from './others';
import { undoStackOf, type Conflict, type Direction, type UndoStep } from './stack';
import { whoChangedCard } from './who';

/**
 * The undo steps of card changes. Each compares only the parts of the card it
 * changed (its "aspects") with what this tab left there, and also asks the
 * realtime stream whether anyone else changed the card since: either way the
 * step stops instead of overwriting their change.
 */

type Aspect =
  | 'name'
  | 'content'
  | 'status'
  | 'dueDate'
  | 'repeatEvery'
  | 'labels'
  | 'assignees'
  | 'reminders'
  | 'area'
  | 'archived'
  | `field:${string}`;
type State = Record<string, unknown>;

/** The aspects of a card, in a form that compares by value (label names, assignee ids). */
export function project(card: Card | null, aspects: Aspect[]): State {
  if (!card) return { gone: true };
  const state: State = {};
  for (const aspect of aspects) {
    if (aspect.startsWith('field:')) state[aspect] = card.fields[aspect.slice(6)] ?? null;
    else if (aspect === 'labels') state.labels = card.labels.map((l) => l.name.toLowerCase()).sort();
    else if (aspect === 'assignees') state.assignees = card.assignees.map((a) => a.id);
    else if (aspect === 'archived') state.archived = card.archivedAt !== null;
    else state[aspect] = card[aspect as keyof Card] ?? null;
  }
  return state;
}

const same = (a: State, b: State) => JSON.stringify(a) === JSON.stringify(b);

async function fetchCard(cardId: number): Promise<Card | null> {
  try {
    return (await api<{ card: Card }>('/api/data/card', { query: { cardID: cardId } })).card;
  } catch (error) {
    if (error instanceof ApiError && (error.status === 404 || error.status === 403)) return null;
    throw error;
  }
}

interface CardMoves {
  /** Sends the request of a direction to the card as it now is; answers the state it leaves, or null when refused. */
  run(direction: Direction, current: Card): Promise<State | null>;
}

/** A step on one card whose state after this tab's change is `state`. */
function cardStep(boardId: number, cardId: number, aspects: Aspect[], state: State, moves: CardMoves): UndoStep {
  const item = `card:${cardId}`;
  let left = state;
  let mark = now();
  let current: Card | null = null;
  return {
    item,
    async check(): Promise<Conflict | null> {
      const other = changedBy(boardId, item, mark);
      const card = await fetchCard(cardId); // a failure to ask is thrown: the step stays for another try
      current = card;
      if (other) return { by: other };
      if (!same(project(card, aspects), left)) {
        return { by: lastChangedBy(boardId, item) ?? (await whoChangedCard(boardId, card?.name ?? null)) };
      }
      return null;
    },
    async run(direction) {
      if (!current) return false;
      const next = await moves.run(direction, current);
      if (!next) return false;
      left = next;
      mark = now();
      return true;
    },
  };
}

/** The card as the board's cache holds it, else as the server just answered. */
const cached = (qc: QueryClient, boardId: number, card: Card): CardListItem => findCard(qc, boardId, card.id) ?? card;

// Edits -------------------------------------------------------------------------

/** A card patch kept with its labels by name, so that a label dropped meanwhile can be made again. */
type KeptPatch = Omit<CardPatch, 'labelIds'> & { labels?: Label[] };

function aspectsOf(patch: CardPatch): Aspect[] {
  const aspects: Aspect[] = [];
  for (const key of Object.keys(patch) as (keyof CardPatch)[]) {
    if (key === 'fields') aspects.push(...Object.keys(patch.fields ?? {}).map((id) => `field:${id}` as const));
    else if (key === 'labelIds') aspects.push('labels');
    else aspects.push(key);
  }
  return aspects;
}

/** The values `patch` changes, as `before` had them: the patch that puts them back. */
function inverseOf(before: CardListItem | Card, patch: CardPatch): KeptPatch | null {
  const inverse: KeptPatch = {};
  if (patch.name !== undefined) inverse.name = before.name;
  if (patch.content !== undefined) inverse.content = before.content;
  if (patch.status !== undefined) inverse.status = before.status === 1 ? 1 : 0;
  if (patch.dueDate !== undefined) inverse.dueDate = before.dueDate;
  if (patch.repeatEvery !== undefined) inverse.repeatEvery = before.repeatEvery;
  if (patch.labelIds !== undefined) inverse.labels = before.labels;
  if (patch.assignees !== undefined) inverse.assignees = before.assignees;
  if (patch.fields !== undefined) {
    inverse.fields = Object.fromEntries(Object.keys(patch.fields).map((id) => [id, before.fields[id] ?? null]));
  }
  if (patch.reminders !== undefined) {
    if (!('reminders' in before)) return null;
    inverse.reminders = before.reminders;
  }
  return inverse;
}

/** A kept patch with label ids of the board as it is now (a label nobody wore any more is made again). */
async function sendable(qc: QueryClient, boardId: number, kept: KeptPatch): Promise<CardPatch | null> {
  const { labels, ...rest } = kept;
  if (!labels) return rest;
  const known = qc.getQueryData<Label[]>(keys.labels(boardId)) ?? [];
  const labelIds: number[] = [];
  for (const label of labels) {
    const found = known.find((l) => l.id === label.id) ?? (await labelFor(qc, boardId, label.name));
    if (!found) return null;
    labelIds.push(found.id);
  }
  return { ...rest, labelIds };
}

/** The patch that sends `patch` again, its labels kept by name as the server's answer `after` has them. */
function forwardOf(patch: CardPatch, after: Card): KeptPatch {
  const forward: KeptPatch = { ...patch };
  if (patch.labelIds) {
    delete (forward as CardPatch).labelIds;
    forward.labels = after.labels.filter((l) => patch.labelIds?.includes(l.id));
  }
  return forward;
}

/** Records an edit of a card (name, description, done, dates, labels, assignees, fields) that the server took. */
export function recordCardEdit(
  qc: QueryClient,
  boardId: number,
  before: CardListItem | Card,
  patch: CardPatch,
  after: Card,
): void {
  const inverse = inverseOf(before, patch);
  if (!inverse) return;
  const forward = forwardOf(patch, after);
  const aspects = aspectsOf(patch);
  undoStackOf(boardId).record(
    cardStep(boardId, after.id, aspects, project(after, aspects), {
      async run(direction, current) {
        const patchNow = await sendable(qc, boardId, direction === 'undo' ? inverse : forward);
        if (!patchNow) return null;
        const card = await updateCard(qc, boardId, cached(qc, boardId, current), patchNow, { record: false });
        return card ? project(card, aspects) : null;
      },
    }),
  );
}

// Moves -------------------------------------------------------------------------

/**
 * Records a move (to another area, or within one) that the server took;
 * answers the step for the toast's Undo. `fromIndex` is where the card stood
 * in its area before, counted as `newIndex` is.
 */
export function recordCardMove(
  qc: QueryClient,
  boardId: number,
  cardId: number,
  from: { areaId: number; index: number },
  to: { areaId: number; index: number },
): UndoStep {
  const aspects: Aspect[] = ['area', 'archived'];
  const step = cardStep(
    boardId,
    cardId,
    aspects,
    { area: to.areaId, archived: false },
    {
      async run(direction, current) {
        const target = direction === 'undo' ? from : to;
        const card = cached(qc, boardId, current);
        const ok = await moveCard(qc, boardId, card, target.areaId, target.index, { record: false });
        return ok ? { area: target.areaId, archived: false } : null;
      },
    },
  );
  undoStackOf(boardId).record(step);
  return step;
}

/**
 * Records a card taken to another lane and/or place in the lanes view as one
 * step: first its lane's value (`lane.patch`, which the server answered with
 * `lane.after`), then its move from `from` to `to` (null: it stayed). Undo
 * moves it back, then puts the value back; redo sends the value, then the
 * move. When the second request is refused, the first one is sent back, so
 * the card is never left half way. Answers the step for the toast's Undo.
 */
export function recordCardLaneMove(
  qc: QueryClient,
  boardId: number,
  before: CardListItem,
  lane: { patch: CardPatch; after: Card } | null,
  from: { areaId: number; index: number },
  to: { areaId: number; index: number } | null,
): UndoStep | null {
  const inverse = lane ? inverseOf(before, lane.patch) : null;
  if (lane && !inverse) return null;
  const forward = lane ? forwardOf(lane.patch, lane.after) : null;
  const valueAspects = lane ? aspectsOf(lane.patch) : [];
  const aspects: Aspect[] = [...valueAspects, 'area', 'archived'];
  const stateOf = (card: Card | null, areaId: number): State => ({
    ...(card && lane ? project(card, valueAspects) : {}),
    area: areaId,
    archived: false,
  });

  /** Sends a value; answers the card as the server now has it, or null when refused. */
  const value = async (kept: KeptPatch, current: Card): Promise<Card | null> => {
    const patch = await sendable(qc, boardId, kept);
    if (!patch) return null;
    return (await updateCard(qc, boardId, cached(qc, boardId, current), patch, { record: false })) ?? null;
  };
  const place = (target: { areaId: number; index: number }, current: Card) =>
    moveCard(qc, boardId, cached(qc, boardId, current), target.areaId, target.index, { record: false });

  const step = cardStep(boardId, before.id, aspects, stateOf(lane?.after ?? null, to?.areaId ?? from.areaId), {
    async run(direction, current) {
      if (direction === 'undo') {
        if (to && !(await place(from, current))) return null;
        const card = inverse ? await value(inverse, current) : current;
        if (!card) {
          if (to) await place(to, current); // the value stayed: so does the place
          return null;
        }
        return stateOf(card, from.areaId);
      }
      const card = forward ? await value(forward, current) : current;
      if (!card) return null;
      if (to && !(await place(to, card))) {
        if (inverse) await value(inverse, card); // the place stayed: so does the value
        return null;
      }
      return stateOf(card, to?.areaId ?? from.areaId);
    },
  });
  undoStackOf(boardId).record(step);
  return step;
}

/** Where a card stands among its area's cards in the cache (the index a move back asks for). */
export function indexInArea(qc: QueryClient, areaId: number, cardId: number): number {
  const index = getCards(qc, areaId)?.findIndex((c) => c.id === cardId) ?? -1;
  return index < 0 ? 0 : index;
}

// Archive and create ------------------------------------------------------------

/** Brings an archived card back, into the board's cache. */
async function restoreCard(qc: QueryClient, boardId: number, cardId: number): Promise<boolean> {
  const done = await attempt(() => api('/api/data/archive', { method: 'POST', body: { type: 'card', id: cardId } }));
  if (done === undefined) return false;
  const card = await fetchCard(cardId).catch(() => null);
  if (card) upsertCard(qc, boardId, card);
  return true;
}

/** A card there (`archived` false) or in the archive (true), one way and back. */
function archiveStep(qc: QueryClient, boardId: number, cardId: number, archivedAfter: boolean): UndoStep {
  return cardStep(
    boardId,
    cardId,
    ['archived'],
    { archived: archivedAfter },
    {
      async run(direction, current) {
        const archive = direction === 'undo' ? !archivedAfter : archivedAfter;
        const ok = archive
          ? await archiveCard(qc, boardId, cached(qc, boardId, current), { record: false })
          : await restoreCard(qc, boardId, cardId);
        return ok ? { archived: archive } : null;
      },
    },
  );
}

/** Records a card made here (added or duplicated): undo archives it, redo brings it back. */
export function recordCardCreated(qc: QueryClient, boardId: number, cardId: number): void {
  undoStackOf(boardId).record(archiveStep(qc, boardId, cardId, false));
}

/** Records an archived card: undo restores it; answers the step for the toast's Undo. */
export function recordCardArchived(qc: QueryClient, boardId: number, cardId: number): UndoStep {
  const step = archiveStep(qc, boardId, cardId, true);
  undoStackOf(boardId).record(step);
  return step;
}
