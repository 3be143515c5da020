import type { Card } from '../../../shared/api/cards.js';
import type { Actor } from '../../auth/actor.js';
import { boardIdForWrite } from '../../access/index.js';
import { nowIso } from '../../db/dialect.js';
import type { ServiceDeps } from '../../deps.js';
import { writeBoard } from '../../events/board-write.js';
import { HttpError } from '../../http/errors.js';
import { recordActivity } from '../activity/activity.service.js';
import { loadCard } from './cards.service.js';
import { writableCard } from './guards.js';
import { addAssignees, updateCard } from './cards.repository.js';

/**
 * Takes a card nobody is on: the caller becomes its assignee. The board's
 * write turn (its row lock) makes the check and the insert one step, so of
 * any number of claims at once exactly one wins and the rest are told who has it.
 */
export async function claimCard(deps: ServiceDeps, actor: Actor, cardId: number): Promise<Card> {
  const boardId = await boardIdForWrite(deps.database.db, 'cards', cardId);
  return writeBoard(deps, actor, boardId, 'edit', async ({ trx, board, emit }) => {
    const row = await writableCard(trx, board.id, cardId);
    const current = await loadCard(trx, row);
    if (current.assignees.length > 0) {
      throw new HttpError(409, 'The card is already assigned', {}, { assignees: current.assignees });
    }
    await addAssignees(trx, cardId, [actor.id], nowIso());
    await recordActivity(trx, cardId, actor.id, 'assigned', { assigneeId: actor.id });
    const updated = await updateCard(trx, cardId, {}, nowIso());
    const card = await loadCard(trx, updated);
    emit('card.updated', { card });
    return card;
  });
}
