import type { Actor } from '../../auth/actor.js';
import { requireBoard } from '../../access/policy.js';
import type { Db } from '../../db/database.js';
import { nowIso } from '../../db/dialect.js';
import type { ServiceDeps } from '../../deps.js';
import { writeBoard } from '../../events/board-write.js';
import { badRequest } from '../../http/errors.js';

export const MAX_LABELS = 30;
export type Label = { id: number; name: string };

export function boardLabels(db: Db, boardId: number): Promise<Label[]> {
  return db.selectFrom('labels').select(['id', 'name']).where('boardId', '=', boardId).orderBy('id').execute();
}

export async function listLabels(deps: ServiceDeps, actor: Actor, boardId: number): Promise<Label[]> {
  await requireBoard(deps.database.db, actor, boardId, 'read');
  return boardLabels(deps.database.db, boardId);
}

/** The board's label for a word, made when the board does not use it yet (at most 30 per board). */
export async function ensureLabel(deps: ServiceDeps, actor: Actor, boardId: number, rawName: string): Promise<Label> {
  const name = rawName.trim();
  if (name.length < 1 || name.length > 64) throw badRequest('body: name must be 1 to 64 characters after trimming');
  const nameKey = name.toLowerCase();
  return writeBoard(deps, actor, boardId, 'edit', async ({ trx, board, emit }) => {
    const existing = await trx
      .selectFrom('labels')
      .select(['id', 'name'])
      .where('boardId', '=', board.id)
      .where('nameKey', '=', nameKey)
      .executeTakeFirst();
    if (existing) return existing;
    const count = await trx
      .selectFrom('labels')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('boardId', '=', board.id)
      .executeTakeFirstOrThrow();
    if (Number(count.n) >= MAX_LABELS) throw badRequest('TOO_MANY_LABELS');
    const label = await trx
      .insertInto('labels')
      .values({ boardId: board.id, name, nameKey, createdAt: nowIso() })
      .returning(['id', 'name'])
      .executeTakeFirstOrThrow();
    emit('labels.changed', { labels: await boardLabels(trx, board.id) });
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
  const names = new Map((await boardLabels(db, boardId)).map((l) => [l.id, l.name]));
  if (!wanted.every((id) => names.has(id))) throw badRequest('body: labelIds must be labels of this board');
  const current = (await db.selectFrom('card_labels').select('labelId').where('cardId', '=', cardId).execute()).map(
    (r) => r.labelId,
  );
  const removed = current.filter((id) => !wanted.includes(id));
  const added = wanted.filter((id) => !current.includes(id));
  if (removed.length > 0)
    await db.deleteFrom('card_labels').where('cardId', '=', cardId).where('labelId', 'in', removed).execute();
  if (added.length > 0)
    await db
      .insertInto('card_labels')
      .values(added.map((labelId) => ({ cardId, labelId })))
      .execute();
  return {
    added: added.map((id) => names.get(id)!),
    removed: removed.map((id) => names.get(id)!),
    boardLabelsChanged: await pruneUnusedLabels(db, boardId, removed),
  };
}

/** Of these labels, those no card wears any more (archived cards count) are removed. */
export async function pruneUnusedLabels(db: Db, boardId: number, labelIds: number[]): Promise<boolean> {
  if (labelIds.length === 0) return false;
  const result = await db
    .deleteFrom('labels')
    .where('boardId', '=', boardId)
    .where('id', 'in', labelIds)
    .where((eb) =>
      eb.not(eb.exists(eb.selectFrom('card_labels').select('cardId').whereRef('card_labels.labelId', '=', 'labels.id'))),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
