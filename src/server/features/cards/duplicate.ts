import type { Card } from '../../../shared/api/cards.js';
import type { Actor } from '../../auth/actor.js';
import { boardIdForWrite } from '../../access/index.js';
import { nowIso, toIso } from '../../db/dialect.js';
import type { ServiceDeps } from '../../deps.js';
import { writeBoard } from '../../events/board-write.js';
import { fileStore } from '../../files/store.js';
import { recordActivity } from '../activity/activity.service.js';
import { writableBoard, writableCard } from './guards.js';
import { copyCardRelations, insertCard } from './cards.repository.js';
import { loadCard } from './cards.service.js';
import { keyAfter } from './ordering.repository.js';
import { overWipLimit } from '../areas/areas.service.js';
import { attachmentsOfCard, copyAttachment, storedAttachmentsOfCard } from '../attachments/attachments.repository.js';

/**
 * Copies a card right under the original: content, due date and repeat,
 * reminders, assignees in their order, labels and attachments (each stored
 * file copied under a new name). Comments and history stay with the
 * original; the copy's history starts with `created {duplicatedFrom}`.
 *
 * The files are copied before the write transaction (so a large copy never
 * holds the board's write lock); copies the transaction does not use, or all
 * of them when it fails, are removed again.
 */
export async function duplicateCard(deps: ServiceDeps, actor: Actor, cardId: number): Promise<{ card: Card; overLimit?: true }> {
  const { db } = deps.database;
  const boardId = await boardIdForWrite(db, 'cards', cardId);
  await writableBoard(deps, actor, boardId, 'Card');
  // A copy is made of a card that could take a change: on this board, neither it nor its area archived.
  await writableCard(db, boardId, cardId);

  const store = fileStore(deps.config);
  const stored = await storedAttachmentsOfCard(db, cardId);
  /** Attachment id → the copy of its file; a file missing on disk has no copy and its row is skipped. */
  const copies = new Map<number, string>();
  try {
    for (const { id, storedName } of stored) {
      const copy = storedName === null ? null : await store.copy(storedName);
      if (copy !== null) copies.set(id, copy);
    }
  } catch (error) {
    await store.remove(copies.values());
    throw error;
  }

  const used = new Set<string>();
  let made: { card: Card; overLimit?: true };
  try {
    made = await writeBoard(deps, actor, { boardId, subject: 'Card' }, 'edit', async (scope) => {
      const { trx, board, emit } = scope;
      const original = await writableCard(trx, board.id, cardId);
      const now = nowIso();
      const sort = await keyAfter(trx, original);
      const row = await insertCard(trx, {
        areaId: original.areaId,
        boardId: board.id,
        name: original.name,
        content: original.content,
        status: original.status,
        sort,
        dueDate: toIso(original.dueDate),
        repeatEvery: original.repeatEvery,
        repeatAnchor: toIso(original.repeatAnchor),
        repeatAreaId: original.repeatAreaId,
        createdAt: now,
        updatedAt: now,
      });

      await copyCardRelations(trx, original.id, row.id, now);

      const attachments = await attachmentsOfCard(trx, original.id);
      for (const a of attachments) {
        // A linked attachment is copied as it is; a stored one only when its file was copied.
        const storedName = a.storedName === null ? null : copies.get(a.id);
        if (storedName === undefined || (storedName === null && a.url === null)) continue;
        if (storedName !== null) used.add(storedName);
        await copyAttachment(trx, row.id, a, storedName, now);
      }

      await recordActivity(trx, row.id, actor.id, 'created', { duplicatedFrom: original.id });
      const card = await loadCard(trx, row);
      emit('card.created', { card });
      scope.tell('card.made', { cardId: card.id, card: card.name });
      // The copy joins the original's area: one more card there, which may pass its work-in-progress limit.
      return (await overWipLimit(trx, card.area)) ? { card, overLimit: true as const } : { card };
    });
  } catch (error) {
    await store.remove(copies.values());
    throw error;
  }
  // Copies of attachments removed meanwhile: nothing refers to them.
  await store
    .remove([...copies.values()].filter((name) => !used.has(name)))
    .catch((error: unknown) => deps.log.error({ err: error }, 'removing unused copies failed'));
  return made;
}
