import { toIso } from '../../db/dialect.js';
import type { Deps } from '../../deps.js';
import { systemWrite } from '../../events/board-write.js';
import { removeArea } from '../areas/areas.service.js';
import { removeBoard } from '../boards/boards.service.js';
import { removeCard } from '../cards/cards.service.js';

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

  for (const { id } of await db.selectFrom('boards').select('id').where('archivedAt', '<', cutoff).execute()) {
    await systemWrite(deps, id, async (scope) => {
      if (scope.board.archivedAt === null) return; // restored meanwhile
      await removeBoard(scope, deps);
      removed++;
    });
  }
  const areas = await db.selectFrom('areas').select(['id', 'boardId']).where('archivedAt', '<', cutoff).execute();
  for (const { id, boardId } of areas) {
    await systemWrite(deps, boardId, async (scope) => {
      const area = await scope.trx.selectFrom('areas').selectAll().where('id', '=', id).executeTakeFirst();
      if (!area?.archivedAt || toIso(area.archivedAt) > cutoff) return;
      await removeArea(scope, deps, area);
      removed++;
    });
  }
  const cards = await db.selectFrom('cards').select(['id', 'boardId']).where('archivedAt', '<', cutoff).execute();
  for (const { id, boardId } of cards) {
    await systemWrite(deps, boardId, async (scope) => {
      const card = await scope.trx.selectFrom('cards').selectAll().where('id', '=', id).executeTakeFirst();
      if (!card?.archivedAt) return;
      await removeCard(scope, deps, card);
      removed++;
    });
  }
  return removed;
}
