import { redactEvents } from '../../realtime/event-log.js';
import type { Card, CardCreate, CardListItem, CardUpdate } from '../../../shared/api/cards.js';
import type { FieldValue } from '../../../shared/api/fields.js';
import type { Actor } from '../../auth/actor.js';
import { boardIdForWrite, requireArea, requireBoard, missing } from '../../access/index.js';
import type { Db } from '../../db/database.js';
import { nowIso, toIso } from '../../db/dialect.js';
import type { Updateable } from 'kysely';
import type { CardRow, CardTable } from '../../db/schema.js';
import type { Deps, ServiceDeps } from '../../deps.js';
import { writeBoard, type SystemScope, type WriteScope } from '../../events/board-write.js';
import { discardAfterCommit } from '../../files/store.js';
import { badRequest } from '../../http/errors.js';
import { findArea } from '../areas/areas.repository.js';
import { overLimit, overWipLimit } from '../areas/areas.service.js';
import { areaOfBoard, checkMove, writableArea, writableCard } from './guards.js';
import {
  moveEntryStatement,
  recordActivity,
  recordMoveAhead,
  type ActivityData,
  type ActivityType,
} from '../activity/activity.service.js';
import { boardLabels, pruneUnusedLabels, setCardLabels } from '../labels/labels.service.js';
import { cardFieldsOf, fieldOfBoard, setCardFields } from '../fields/fields.service.js';
import { valueMatches } from '../fields/values.js';
import { presentCard, presentListCard } from './cards.presenter.js';
import { renderedHtml } from '../../markdown/rendered-html.js';
import { cardListCacheOf, type CardListFilter } from './card-list-cache.js';
import * as repo from './cards.repository.js';
import { storedNamesOfCard } from '../attachments/attachments.repository.js';
import { assigneesOf } from '../notifications/notifications.repository.js';
import { bottomKey, placeWith, quickMove, quickMoveAnswer, quickMoveStatement, type QuickMove } from './ordering.repository.js';
import { nextDueDate, untick, type Rhythm } from './repeat.js';

/** A card with its labels, assignees, reminders and visible position: the shape the card routes answer with. */
export async function loadCard(db: Db, row: CardRow): Promise<Card> {
  const [{ labels, assignees, values }, reminders, position] = await Promise.all([
    repo.listExtras(db, [row.id]),
    repo.remindersOf(db, row.id),
    repo.positionOf(db, row),
  ]);
  return presentCard(row, {
    position,
    labels: labels.get(row.id) ?? [],
    assignees: assignees.get(row.id) ?? [],
    fields: cardFieldsOf(values).get(row.id) ?? {},
    reminders,
  });
}

/**
 * The `{cards}` answer of an area, as JSON. Every change to a board raises
 * its version, so the answer for (area, version, filter) never changes: it
 * is kept, and a repeated read costs the access check alone. The version is
 * read from the database each time, so this holds across processes too.
 */
export async function cardListJson(
  deps: Pick<ServiceDeps, 'database' | 'config'>,
  actor: Actor,
  areaId: number,
  filter: CardListFilter,
): Promise<string> {
  const { db } = deps.database;
  const { area, board } = await requireArea(db, actor, areaId, 'read');
  const cache = cardListCacheOf(db, deps.config.cardListCacheMb * 1024 * 1024);
  return cache.load(areaId, board.version, filter, async () => {
    // The cards of an archived area are out of sight until it is restored.
    let cards = area.archivedAt === null ? await visibleCards(db, areaId) : [];
    if (filter.unassigned) cards = cards.filter((c) => c.assignees.length === 0);
    else if (filter.assignee !== undefined) cards = cards.filter((c) => c.assignees.some((p) => p.id === filter.assignee));
    if (filter.field !== undefined) {
      const field = await fieldOfBoard(db, board.id, filter.field);
      cards = cards.filter((c) => valueMatches(field, c.fields[field.id], filter.value));
    }
    return JSON.stringify({ cards });
  });
}

/** The visible cards of an area in the list shape, top to bottom. */
export async function visibleCards(db: Db, areaId: number): Promise<CardListItem[]> {
  return (await visibleCardsWithRows(db, areaId)).map(({ item }) => item);
}

async function visibleCardsWithRows(db: Db, areaId: number): Promise<Array<{ row: CardRow; item: CardListItem }>> {
  const rows = await repo.visibleCardsOfArea(db, areaId);
  const { labels, assignees, values } = await repo.listExtras(
    db,
    rows.map((r) => r.id),
  );
  const fields = cardFieldsOf(values);
  return rows.map((row, position) => ({
    row,
    item: presentListCard(row, {
      position,
      labels: labels.get(row.id) ?? [],
      assignees: assignees.get(row.id) ?? [],
      fields: fields.get(row.id) ?? {},
    }),
  }));
}

/** The visible cards of an area with their rendered text, top to bottom (for the public read-only view). */
export async function visibleCardsWithHtml(db: Db, areaId: number): Promise<Array<CardListItem & { html: string }>> {
  return (await visibleCardsWithRows(db, areaId)).map(({ row, item }) => ({
    ...item,
    html: renderedHtml({ kind: 'card', id: row.id, updatedAt: row.updatedAt }, row.content),
  }));
}

export async function getCard(deps: ServiceDeps, actor: Actor, cardId: number): Promise<Card> {
  const { db } = deps.database;
  const row = await repo.findCard(db, cardId);
  if (!row) throw missing('Card');
  await requireBoard(db, actor, row.boardId, 'read', { subject: 'Card' });
  return loadCard(db, row);
}

export async function createCard(deps: ServiceDeps, actor: Actor, input: CardCreate): Promise<{ card: Card; overLimit?: true }> {
  const name = input.name.trim();
  if (name === '') throw badRequest('body: name must not be blank');
  const boardId = await boardIdForWrite(deps.database.db, 'areas', input.areaId);
  return writeBoard(deps, actor, { boardId, subject: 'Area' }, 'edit', async (scope) => {
    const { trx, board, emit } = scope;
    const now = nowIso();
    const fields = {
      areaId: input.areaId,
      boardId: board.id,
      name,
      content: input.content ?? '',
      status: input.status ?? 0,
      dueDate: input.dueDate ? new Date(input.dueDate).toISOString() : null,
      repeatEvery: null,
      repeatAnchor: null,
      repeatAreaId: null,
      createdAt: now,
      updatedAt: now,
    };
    const { visible, wipLimit, ...row } = (await repo.appendCard(trx, fields)) ?? (await appendSlowly(trx, fields));
    await recordActivity(trx, row.id, actor.id, 'created', null);
    const values: Record<string, FieldValue> = {};
    if (input.fields !== undefined && Object.keys(input.fields).length > 0) {
      for (const { field, value } of await setCardFields(trx, board.id, row.id, input.fields)) {
        if (value === null) continue;
        values[field.id] = value;
        await recordActivity(trx, row.id, actor.id, 'field', {
          fieldId: field.id,
          name: field.name,
          fieldType: field.type,
          value,
        });
      }
    }
    // A new card has no labels, assignees or reminders yet (only the values given), and comes after every visible card.
    const card = presentCard(row, { position: visible, labels: [], assignees: [], fields: values, reminders: [] });
    emit('card.created', { card });
    scope.tell('card.made', { cardId: card.id, card: name });
    if (fields.content !== '') scope.tell('text.mentioned', { cardId: card.id, card: name, before: '', after: fields.content });
    // `appendCard` read the area's limit with its count (the new card is visible, so one more); the slow way did not.
    const over = wipLimit !== undefined ? overLimit({ limit: wipLimit, cards: visible + 1 }) : await overWipLimit(trx, card.area);
    return over ? { card, overLimit: true } : { card };
  });
}

/**
 * What `appendCard` did not do: refuses as `writableArea` does (the area is
 * gone, on another board, or archived), else renumbers an area with no room
 * left below its last key and stores the card.
 */
async function appendSlowly(
  trx: Db,
  fields: Omit<repo.NewCard, 'sort'>,
): Promise<CardRow & { visible: number; wipLimit?: undefined }> {
  const area = areaOfBoard(await repo.createFacts(trx, fields.areaId), fields.boardId);
  const row = await repo.insertCard(trx, { ...fields, sort: await bottomKey(trx, fields.areaId, area.lastSort) });
  return { ...row, visible: area.visible };
}

/** Changes the fields given (a field left out stays, `null` clears). */
export async function updateCard(
  deps: ServiceDeps,
  actor: Actor,
  input: CardUpdate,
): Promise<{ card: Card; next: Card | null; overLimit?: true }> {
  const boardId = await boardIdForWrite(deps.database.db, 'cards', input.cardID);
  return writeBoard(deps, actor, { boardId, subject: 'Card' }, 'edit', async (scope) => {
    const { trx, board, emit } = scope;
    const card = await writableCard(trx, board.id, input.cardID);
    const changes: Updateable<CardTable> = {};

    if (input.name !== undefined) {
      changes.name = input.name.trim();
      if (changes.name === '') throw badRequest('body: name must not be blank');
    }
    if (input.content !== undefined) changes.content = input.content;
    if (input.status !== undefined) changes.status = input.status;
    const newDue =
      input.dueDate === undefined ? undefined : input.dueDate === null ? null : new Date(input.dueDate).toISOString();
    if (newDue !== undefined) changes.dueDate = newDue;

    const dueDate = newDue !== undefined ? newDue : toIso(card.dueDate);
    const rhythm = input.repeatEvery !== undefined ? input.repeatEvery : (card.repeatEvery as Rhythm | null);
    if (rhythm !== null && dueDate === null) throw badRequest('body: repeatEvery needs a dueDate');
    // Setting the rhythm or moving the date starts the series afresh from this date and area.
    const restart = input.repeatEvery !== undefined || newDue !== undefined;
    const series = restart
      ? { anchor: dueDate, areaId: rhythm === null ? null : card.areaId }
      : { anchor: toIso(card.repeatAnchor) ?? dueDate, areaId: card.repeatAreaId };
    if (restart)
      Object.assign(changes, { repeatEvery: rhythm, repeatAnchor: rhythm && series.anchor, repeatAreaId: series.areaId });

    const record = <K extends ActivityType>(type: K, data: ActivityData[K]) => recordActivity(trx, card.id, actor.id, type, data);
    let labelsChanged = false;
    if (input.labelIds !== undefined) {
      const { added, removed, boardLabelsChanged } = await setCardLabels(trx, board.id, card.id, input.labelIds);
      labelsChanged = boardLabelsChanged;
      if (added.length + removed.length > 0) await record('labels', { added, removed });
    }
    const people = input.assignees ?? (input.assignee === undefined ? undefined : input.assignee ? [input.assignee] : []);
    if (people !== undefined) {
      // Only people on the board can be put on its cards: its audience, which the write has read already.
      const { added, removed } = await setAssignees(trx, new Set(await scope.audience()), card.id, people);
      for (const assigneeId of added) await record('assigned', { assigneeId });
      if (added.length > 0) scope.tell('card.assigned', { cardId: card.id, card: changes.name ?? card.name, assignees: added });
      for (const assigneeId of removed) await record('assigned', { assigneeId, removed: true });
    }
    if (input.reminders !== undefined) await setReminders(trx, card.id, input.reminders);
    const fields: Record<string, FieldValue | null> = {};
    for (const { field, value } of input.fields === undefined ? [] : await setCardFields(trx, board.id, card.id, input.fields)) {
      fields[field.id] = value;
      await record('field', { fieldId: field.id, name: field.name, fieldType: field.type, value });
    }
    if (changes.status !== undefined && changes.status !== card.status) {
      await record('status', { done: changes.status === 1 });
      scope.tell('card.status', { cardId: card.id, card: changes.name ?? card.name, done: changes.status === 1 });
    }
    if (newDue !== undefined && newDue !== toIso(card.dueDate)) await record('due', { dueDate: newDue });
    if (input.repeatEvery !== undefined && input.repeatEvery !== card.repeatEvery)
      await record('repeat', { every: input.repeatEvery });

    const completed = card.status === 0 && changes.status === 1 && rhythm !== null;
    if (completed) Object.assign(changes, { repeatEvery: null, repeatAnchor: null, repeatAreaId: null });
    const row = await repo.updateCard(trx, card.id, changes, nowIso());
    const updated = await loadCard(trx, row);
    emit('card.updated', Object.keys(fields).length > 0 ? { card: updated, fields } : { card: updated });
    if (changes.content !== undefined && changes.content !== card.content)
      scope.tell('text.mentioned', { cardId: card.id, card: row.name, before: card.content, after: changes.content });
    if (labelsChanged) emit('labels.changed', { labels: await boardLabels(trx, board.id) });

    const next = completed ? await createSuccessor(scope, row, { rhythm, due: dueDate!, ...series }) : null;
    if (next) await record('repeated', { nextId: next.id, dueDate: next.dueDate! });
    // A successor joins its series' area: one more card there, which may pass its work-in-progress limit.
    if (next && (await overWipLimit(trx, next.area))) return { card: updated, next, overLimit: true as const };
    return { card: updated, next };
  });
}

/**
 * A repeating card marked done makes its successor, once: the rhythm moves
 * to the new card, so marking the old one done again makes no second one.
 */
async function createSuccessor(
  { trx, board, actor, emit }: WriteScope,
  after: CardRow,
  series: { rhythm: Rhythm; due: string; anchor: string | null; areaId: number | null },
): Promise<Card> {
  const { rhythm } = series;
  const anchor = series.anchor ?? series.due;
  const due = nextDueDate(new Date(anchor), rhythm, new Date(Math.max(Date.parse(series.due), Date.now())));
  const home = series.areaId === null ? undefined : await findArea(trx, series.areaId);
  const areaId = home && home.boardId === board.id && home.archivedAt === null ? home.id : after.areaId;
  const now = nowIso();
  const row = await repo.insertCard(trx, {
    areaId,
    boardId: board.id,
    name: after.name,
    content: untick(after.content),
    status: 0,
    sort: await bottomKey(trx, areaId),
    dueDate: due.toISOString(),
    repeatEvery: rhythm,
    repeatAnchor: anchor,
    repeatAreaId: home?.id ?? areaId,
    createdAt: now,
    updatedAt: now,
  });
  await repo.copyCardRelations(trx, after.id, row.id, now);
  await recordActivity(trx, row.id, actor.id, 'created', { repeatedFrom: after.id });
  const card = await loadCard(trx, row);
  emit('card.created', { card });
  return card;
}

/** Puts exactly these people on the card; those who stay keep their place in the order. */
async function setAssignees(
  db: Db,
  allowed: ReadonlySet<string>,
  cardId: number,
  ids: string[],
): Promise<{ added: string[]; removed: string[] }> {
  const wanted = [...new Set(ids.map((id) => id.trim()).filter((id) => id !== ''))];
  const outsider = wanted.find((id) => !allowed.has(id));
  if (outsider !== undefined) throw badRequest('body: assignees must be people with access to the board');
  const current = await assigneesOf(db, cardId);
  const removed = current.filter((id) => !wanted.includes(id));
  if (removed.length > 0) await repo.removeAssignees(db, cardId, removed);
  const added = wanted.filter((id) => !current.includes(id));
  if (added.length > 0) await repo.addAssignees(db, cardId, added, nowIso());
  return { added, removed };
}

async function setReminders(db: Db, cardId: number, minutes: number[]): Promise<void> {
  await repo.replaceReminders(
    db,
    cardId,
    [...new Set(minutes)].sort((a, b) => a - b),
  );
}

/** Archives a card, or removes it with everything on it (`permanent`). */
export async function deleteCard(deps: ServiceDeps, actor: Actor, cardId: number, permanent: boolean): Promise<string> {
  const boardId = await boardIdForWrite(deps.database.db, 'cards', cardId);
  return writeBoard(deps, actor, { boardId, subject: 'Card' }, 'edit', async ({ trx, board, emit, afterCommit }) => {
    const card = await repo.findCard(trx, cardId);
    if (!card) throw missing('Card');
    if (permanent) {
      await removeCard({ trx, board, emit, afterCommit }, deps, card);
      return 'Card deleted permanently';
    }
    if (card.archivedAt !== null) return 'Card archived';
    await writableArea(trx, board.id, card.areaId);
    await repo.updateCard(trx, card.id, { archivedAt: nowIso() }, nowIso());
    await recordActivity(trx, card.id, actor.id, 'archived', null);
    emit('card.archived', { cardId: card.id, areaId: card.areaId });
    return 'Card archived';
  });
}

/** Removes a card with its comments, attachments (files after the commit) and the labels only it wore. */
export async function removeCard(
  scope: Pick<SystemScope, 'trx' | 'board' | 'emit' | 'afterCommit'>,
  deps: Pick<Deps, 'config' | 'database'>,
  card: CardRow,
): Promise<void> {
  const { trx, board, emit } = scope;
  const files = await storedNamesOfCard(trx, card.id);
  discardAfterCommit(
    scope.afterCommit,
    deps,
    files.map((f) => f.storedName),
  );
  const labelIds = await repo.labelIdsOfCard(trx, card.id);
  await repo.deleteCardRow(trx, card.id);
  await redactEvents(trx, board.id, { cardIds: [card.id] });
  emit('card.deleted', { cardId: card.id, areaId: card.areaId });
  if (await pruneUnusedLabels(trx, board.id, labelIds)) emit('labels.changed', { labels: await boardLabels(trx, board.id) });
}

/** A move `quickMove` did not make: every check with its own refusal, and room made between the neighbours if need be. */
async function moveTheLongWay(
  trx: Db,
  actor: Actor,
  boardId: number,
  move: { cardId: number; fromAreaId: number; toAreaId: number; newIndex: number },
): Promise<QuickMove> {
  // One query for the card, both areas and where the card would go: the checks then cost no round trips.
  const card = await repo.moveFacts(trx, move);
  if (!card) throw missing('Card');
  if (card.fromBoardId !== boardId || card.toBoardId !== boardId) {
    // An area the caller cannot see answers like a missing one (ids cannot be probed);
    // only one they can read, on another board, is the client's mistake.
    for (const id of [move.fromAreaId, move.toAreaId]) await requireArea(trx, actor, id, 'read');
    throw badRequest("body: both areas must be on the card's board");
  }
  checkMove(card, move.fromAreaId, card);
  const position = await placeWith(trx, card, move.toAreaId, move.newIndex, card);
  return { name: card.name, fromName: card.fromName!, toName: card.toName!, position };
}

/** Moves a card to `newIndex` among the visible cards of `toAreaId` (its own area for a reorder). */
export async function moveCard(
  deps: ServiceDeps,
  actor: Actor,
  move: { cardId: number; fromAreaId: number; toAreaId: number; newIndex: number },
): Promise<{ overLimit?: true }> {
  const boardId = await boardIdForWrite(deps.database.db, 'cards', move.cardId);
  const { fromAreaId, toAreaId, cardId } = move;
  const between = fromAreaId !== toAreaId;
  return writeBoard(
    deps,
    actor,
    { boardId, subject: 'Card' },
    'edit',
    async (scope) => {
      const { trx, board } = scope;
      if (between) await recordMoveAhead(trx, cardId, actor.id, fromAreaId, toAreaId);
      const moved = (await quickMove(trx, board.id, move)) ?? (await moveTheLongWay(trx, actor, board.id, move));
      return movedAnswer(scope, move, moved) ?? ((await overWipLimit(trx, toAreaId)) ? { overLimit: true as const } : {});
    },
    {
      // The common case, sent back to back with the moves beside it: the history entry and `quickMove`'s statement.
      quick: {
        tells: between ? ['card.moved'] : [],
        statements: ({ trx, boardId }) => [
          ...(between ? [moveEntryStatement(trx, cardId, actor.id, fromAreaId, toAreaId)] : []),
          quickMoveStatement(trx, boardId, move),
        ],
        answered: quickMoveAnswer,
        finish: (scope, moved) => movedAnswer(scope, move, moved) ?? {},
      },
    },
  );
}

/** Tells and emits a move made; answers it, or undefined when the target area's WIP limit must still be read. */
function movedAnswer(
  scope: Pick<WriteScope, 'emit' | 'tell'>,
  move: { cardId: number; fromAreaId: number; toAreaId: number },
  moved: QuickMove,
): { overLimit?: true } | undefined {
  const { fromAreaId, toAreaId, cardId } = move;
  const between = fromAreaId !== toAreaId;
  if (between) scope.tell('card.moved', { cardId, card: moved.name, from: moved.fromName, to: moved.toName });
  scope.emit('card.moved', { cardId, fromAreaId, toAreaId, newIndex: moved.position });
  // Only a card coming in can fill an area: a reorder within it changes no count.
  if (!between) return {};
  if (!moved.wip) return undefined;
  return overLimit(moved.wip) ? { overLimit: true as const } : {};
}
