import { parseLanes, type BoardView, type BoardViewUpdate } from '../../../shared/api/board-views.js';
import { requireBoard } from '../../access/index.js';
import type { Actor } from '../../auth/actor.js';
import type { Db } from '../../db/database.js';
import { nowIso } from '../../db/dialect.js';
import type { Deps } from '../../deps.js';
import { recordedWrite } from '../../events/write-record.js';
import { badRequest } from '../../http/errors.js';
import { boardFields } from '../fields/fields.service.js';
import * as repo from './board-views.repository.js';

/**
 * A person's own view of a board (its swimlanes). It is theirs alone: reading
 * the board is enough to keep one, nobody else sees it, and it changes no
 * board (no event, no version).
 */

/** Whether `lanes` is a grouping the board offers now (a lane field must still be one of its select fields). */
async function lanesValid(db: Db, boardId: number, lanes: string | null): Promise<boolean> {
  if (lanes === null) return true;
  const parsed = parseLanes(lanes);
  if (!parsed) return false;
  if (parsed.by !== 'field') return true;
  return (await boardFields(db, boardId)).some((f) => f.id === parsed.fieldId && f.type === 'select');
}

export async function getBoardView(deps: Pick<Deps, 'database'>, actor: Actor, boardId: number): Promise<BoardView> {
  const { db } = deps.database;
  await requireBoard(db, actor, boardId, 'read');
  const lanes = (await repo.storedLanes(db, actor.id, boardId)) ?? null;
  // A lane field removed (or no longer on the board) since: no lanes.
  return { lanes: (await lanesValid(db, boardId, lanes)) ? lanes : null };
}

export async function putBoardView(deps: Pick<Deps, 'database'>, actor: Actor, input: BoardViewUpdate): Promise<BoardView> {
  const { db } = deps.database;
  await requireBoard(db, actor, input.boardId, 'read');
  return recordedWrite(db, async (trx) => {
    if (!(await lanesValid(trx, input.boardId, input.lanes)))
      throw badRequest('body: lanes must be assignee, label, field:<id of a select field of this board> or null');
    await repo.putLanes(trx, actor.id, input.boardId, input.lanes, nowIso());
    return { lanes: input.lanes };
  });
}
