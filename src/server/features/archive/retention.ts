import { toIso } from '../../db/dialect.js';
import type { Deps } from '../../deps.js';
import { systemWrite } from '../../events/board-write.js';
import { findArea } from '../areas/areas.repository.js';
import { removeArea } from '../areas/areas.service.js';
import { removeBoard } from '../boards/boards.service.js';
import { findCard } from '../cards/cards.repository.js';
import { removeCard } from '../cards/cards.service.js';
import * as repo from './archive.repository.js';

/**
 * With `ARCHIVE_RETENTION_DAYS` above 0, removes for good what has stayed
 * archived longer: boards, then areas, then cards, each through the same
 * removal as a permanent delete (files included), one board at a time.
 */
export async function purgeArchived(deps: Pick<Deps, 'database' | 'bus' | 'log' | 'config'>, now: Date): Promise<number> {
  const days = deps.config.archiveRetentionDays;
  if (days <= 0) return 0;
  const { db } = deps.database;
  const cutoff = new Date(now.getTime() - days * 86_400_000).toISOString();
  let removed = 0;

  for (const { id } of await repo.boardsArchivedBefore(db, cutoff)) {
    await systemWrite(deps, id, async (scope) => {
      if (scope.board.archivedAt === null) return; // restored meanwhile
      await removeBoard(scope, deps);
      removed++;
    });
  }
  const areas = await repo.areasArchivedBefore(db, cutoff);
  for (const { id, boardId } of areas) {
    await systemWrite(deps, boardId, async (scope) => {
      const area = await findArea(scope.trx, id);
      if (!area?.archivedAt || toIso(area.archivedAt) > cutoff) return;
      await removeArea(scope, deps, area);
      removed++;
    });
  }
  const cards = await repo.cardsArchivedBefore(db, cutoff);
  for (const { id, boardId } of cards) {
    await systemWrite(deps, boardId, async (scope) => {
      const card = await findCard(scope.trx, id);
      if (!card?.archivedAt) return;
      await removeCard(scope, deps, card);
      removed++;
    });
  }
  return removed;
}
