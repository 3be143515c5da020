import type { Actor } from '../../auth/actor.js';
import { requireBoard } from '../../access/index.js';
import type { Db } from '../../db/database.js';
import { nowIso } from '../../db/dialect.js';
import type { ServiceDeps } from '../../deps.js';
import { writeBoard } from '../../events/board-write.js';
import { badRequest } from '../../http/errors.js';
import * as repo from './labels.repository.js';
import type { Label } from './labels.repository.js';

// Cards, areas and templates read and prune a board's labels through this module.
export { boardLabels, pruneUnusedLabels, type Label } from './labels.repository.js';

export const MAX_LABELS = 30;

export async function listLabels(deps: ServiceDeps, actor: Actor, boardId: number): Promise<Label[]> {
  await requireBoard(deps.database.db, actor, boardId, 'read');
  return repo.boardLabels(deps.database.db, boardId);
}

/** The board's label for a word, made when the board does not use it yet (at most 30 per board). */
export async function ensureLabel(deps: ServiceDeps, actor: Actor, boardId: number, rawName: string): Promise<Label> {
  const name = rawName.trim();
  if (name.length < 1 || name.length > 64) throw badRequest('body: name must be 1 to 64 characters after trimming');
  const nameKey = name.toLowerCase();
  return writeBoard(deps, actor, boardId, 'edit', async ({ trx, board, emit }) => {
    const existing = await repo.findLabelByKey(trx, board.id, nameKey);
    if (existing) return existing;
    if ((await repo.countLabels(trx, board.id)) >= MAX_LABELS) throw badRequest('TOO_MANY_LABELS');
    const label = await repo.insertLabel(trx, board.id, name, nameKey, nowIso());
    emit('labels.changed', { labels: await repo.boardLabels(trx, board.id) });
    return label;
  });
}

/**
 * Replaces a card's labels; ids must be labels of the card's board. Labels
 * dropped here that no card wears any more (archived cards count) go too.
 * Answers the names added and removed, and whether the board's labels changed.
 */
export async function setCardLabels(
  db: Db,
  boardId: number,
  cardId: number,
  labelIds: number[],
): Promise<{ added: string[]; removed: string[]; boardLabelsChanged: boolean }> {
  const wanted = [...new Set(labelIds)];
  const names = new Map((await repo.boardLabels(db, boardId)).map((l) => [l.id, l.name]));
  if (!wanted.every((id) => names.has(id))) throw badRequest('body: labelIds must be labels of this board');
  const current = await repo.labelIdsOfCard(db, cardId);
  const removed = current.filter((id) => !wanted.includes(id));
  const added = wanted.filter((id) => !current.includes(id));
  if (removed.length > 0) await repo.removeCardLabels(db, cardId, removed);
  if (added.length > 0) await repo.addCardLabels(db, cardId, added);
  return {
    added: added.map((id) => names.get(id)!),
    removed: removed.map((id) => names.get(id)!),
    boardLabelsChanged: await repo.pruneUnusedLabels(db, boardId, removed),
  };
}
