import type { Deps } from '../../deps.js';
import { systemWrite } from '../../events/board-write.js';
import { removeBoard } from './boards.service.js';
import { ownedBoardIds } from './boards.repository.js';

/**
 * An account about to be deleted: each board it owns goes the way of a
 * permanent delete (rows, the files behind its attachments and pictures,
 * and a `board.deleted` to whoever is looking), before the account's row goes.
 */
export async function removeOwnedBoards(deps: Pick<Deps, 'database' | 'bus' | 'log' | 'config'>, userId: string): Promise<void> {
  for (const id of await ownedBoardIds(deps.database.db, userId))
    await systemWrite(deps, id, (scope) => removeBoard(scope, deps));
}
