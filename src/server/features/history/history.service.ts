import type { Actor } from '../../auth/actor.js';
import { boardIdOf, readableFrom, requireBoard } from '../../access/index.js';
import type { BoardRow } from '../../db/schema.js';
import { toIso } from '../../db/dialect.js';
import type { ServiceDeps } from '../../deps.js';
import { presentState as presentStateOf } from '../../events/board-state.js';
import { notKept, presentState, stateAt, versionAtTime } from '../../events/snapshots.js';
import { HttpError, badRequest, forbidden, notFound } from '../../http/errors.js';
import type { BoardAt, HistoryEntry, PastCard } from '../../../shared/api/history.js';
import type { Card } from '../../../shared/api/cards.js';
import { updateCard } from '../cards/cards.service.js';
import { boardFields } from '../fields/fields.service.js';
import type { FieldValue } from '../../../shared/api/fields.js';
import { boardLabels, ensureLabel } from '../labels/labels.service.js';
import * as repo from './history.repository.js';

/** What an event's data names: the card, area, board or person it changed. */
function summaryOf(name: string, data: Record<string, { name?: unknown } | undefined>): string | null {
  if (name === 'redacted') return null;
  for (const key of ['card', 'area', 'board', 'member', 'person'] as const) {
    const named = data[key]?.name;
    if (typeof named === 'string') return named;
  }
  return null;
}

/**
 * The first version the caller may see: the owner's is 0, a member's the one
 * they joined at, anyone's on a public board the one it became public at (as
 * a resuming viewer replays). Changes up to it are not theirs to see.
 */
async function floorFor(deps: Pick<ServiceDeps, 'database'>, board: BoardRow, actor: Actor): Promise<number> {
  return readableFrom(deps.database.db, board, actor.id);
}

export async function boardHistory(
  deps: Pick<ServiceDeps, 'database'>,
  actor: Actor,
  query: { boardId: number; before?: number; limit?: number },
): Promise<HistoryEntry[]> {
  const { db } = deps.database;
  const { board } = await requireBoard(db, actor, query.boardId, 'read');
  const floor = await floorFor(deps, board, actor);
  const rows = await repo.historyRows(db, board.id, floor, query.before ?? board.version + 1, query.limit ?? 50);
  return rows.map((row) => ({
    version: row.version,
    at: toIso(row.createdAt),
    actor: row.actorId === null ? null : { id: row.actorId, name: row.actorName ?? '' },
    name: row.name,
    summary: summaryOf(row.name, JSON.parse(row.data) as Record<string, { name?: unknown }>),
  }));
}

/**
 * The board's visible state at a version (or moment), which the caller may
 * see: from the event log on top of the newest snapshot before it. The
 * present version is answered even when the events leading to it are pruned.
 */
async function stateFor(deps: Pick<ServiceDeps, 'database'>, board: BoardRow, actor: Actor, version: number) {
  const { db } = deps.database;
  if (version > board.version) throw notFound(`The board has no version ${version} yet`);
  const floor = await floorFor(deps, board, actor);
  if (version < floor) throw forbidden(`You can see this board's history from version ${floor}, when you could first read it`);
  try {
    return await stateAt(db, board.id, version);
  } catch (error) {
    if (!(error instanceof HttpError) || version !== board.version) throw error;
    const present = await deps.database.snapshot((view) => presentState(view, board.id));
    if (present?.version !== version) throw notKept(`The board changed meanwhile: ask again`);
    return present.state;
  }
}

export async function boardAt(
  deps: Pick<ServiceDeps, 'database'>,
  actor: Actor,
  query: { boardId: number; version?: number; at?: string },
): Promise<BoardAt> {
  if ((query.version === undefined) === (query.at === undefined)) throw badRequest('query: give either version or at');
  const { db } = deps.database;
  const { board } = await requireBoard(db, actor, query.boardId, 'read');
  const version = query.version ?? (await versionAtTime(db, board.id, board.version, new Date(query.at!).toISOString()));
  const state = await stateFor(deps, board, actor, version);
  return { version, ...presentStateOf(state) };
}

/**
 * Puts a card's name, content, labels, due date, done and custom field values back as they were
 * at a version: one ordinary card update (so its activity, events and
 * notifications are those of an edit). Labels the board has dropped since
 * are made again by name first.
 */
export async function restoreCard(deps: ServiceDeps, actor: Actor, input: { cardID: number; version: number }): Promise<Card> {
  const { db } = deps.database;
  const boardId = await boardIdOf(db, 'cards', input.cardID);
  const { board } = await requireBoard(db, actor, boardId, 'edit', { subject: 'Card' });
  const state = await stateFor(deps, board, actor, input.version);
  const past: PastCard | undefined = state.areas.flatMap((a) => a.cards).find((c) => c.id === input.cardID) as
    PastCard | undefined;
  if (!past) throw notFound(`The card was not on the board at version ${input.version}`);
  const labels = new Map((await boardLabels(db, board.id)).map((l) => [l.id, l]));
  const labelIds: number[] = [];
  for (const label of past.labels) {
    labelIds.push(labels.get(label.id)?.id ?? (await ensureLabel(deps, actor, board.id, label.name)).id);
  }
  // Each field the board still has takes its value then (none: cleared); a choice since dropped from a list stays as it is.
  const fields: Record<string, FieldValue | null> = {};
  for (const field of await boardFields(db, board.id)) {
    const value = (past.fields[String(field.id)] ?? null) as FieldValue | null;
    if (field.type === 'select' && value !== null && !field.options.includes(String(value))) continue;
    fields[String(field.id)] = value;
  }
  const { card } = await updateCard(deps, actor, {
    cardID: input.cardID,
    name: past.name,
    content: past.content,
    status: past.done ? 1 : 0,
    dueDate: past.dueDate,
    labelIds,
    ...(Object.keys(fields).length > 0 ? { fields } : {}),
  });
  return card;
}
