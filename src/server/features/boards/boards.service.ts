import { isSafeImage } from '../../../shared/addresses.js';
import type { Board, BoardWrite } from '../../../shared/api/boards.js';
import type { Actor } from '../../auth/actor.js';
import { atLeast, boardAudience, requireBoard } from '../../access/index.js';
import { nowIso } from '../../db/dialect.js';
import type { BoardRow } from '../../db/schema.js';
import type { Deps, ServiceDeps } from '../../deps.js';
import { createBoardWrite, writeBoard, type SystemScope } from '../../events/board-write.js';
import { discardAfterCommit } from '../../files/store.js';
import { badRequest, forbidden } from '../../http/errors.js';
import { normalizeColor } from './color.js';
import { presentBoard } from '../../events/present-board.js';
import * as repo from './boards.repository.js';

export async function listBoards(deps: ServiceDeps, actor: Actor, shared: boolean): Promise<Board[]> {
  const rows = shared ? await repo.listShared(deps.database.db, actor.id) : await repo.listOwned(deps.database.db, actor.id);
  return rows.map(presentBoard);
}

export async function getBoard(deps: ServiceDeps, actor: Actor, id: number) {
  const { board, level } = await requireBoard(deps.database.db, actor, id, 'read');
  return { board: presentBoard(board), writeAccess: atLeast(level, 'edit') };
}

const REQUIRED = ['userId', 'name', 'style', 'status'] as const;

/** Create (no `id`) or change the settings (owner only) of a board. */
export async function saveBoard(deps: ServiceDeps, actor: Actor, input: BoardWrite): Promise<Board> {
  const missing = REQUIRED.filter((field) => input[field] === undefined || input[field] === '');
  if (missing.length > 0) {
    throw badRequest(`userId, name, style and status are required (missing: ${missing.join(', ')})`);
  }
  if (input.userId !== actor.id) throw forbidden('userId must be your own account id');
  const name = input.name!.trim();
  if (name === '') throw badRequest('body: name must not be blank');
  if (input.image && !isSafeImage(input.image, deps.config.baseUrl))
    throw badRequest('body: image must be an http(s) address or a picture uploaded here');
  const fields = { name, style: input.style!, status: input.status! };

  if (input.id === undefined) {
    const now = nowIso();
    return createBoardWrite(deps, actor, async ({ trx, emit }) => {
      const row = await repo.insertBoard(trx, {
        ownerId: actor.id,
        ...fields,
        ...appearance(input, null),
        createdAt: now,
        updatedAt: now,
      });
      const board = presentBoard(row);
      emit('board.created', { board });
      return { board: row, result: board };
    });
  }

  return writeBoard(deps, actor, input.id, 'owner', async ({ trx, board, emit }) => {
    // Whoever reads it only for being public replays nothing from before.
    const publicFrom = fields.status === 'public' && board.status !== 'public' ? { publicFrom: board.version } : {};
    const row = await repo.updateBoard(trx, board.id, {
      ...fields,
      ...publicFrom,
      ...appearance(input, board),
      updatedAt: nowIso(),
    });
    const presented = presentBoard(row);
    emit('board.updated', { board: presented });
    return presented;
  });
}

/** Archive (the default) or remove a board for good; owner only. */
export async function deleteBoard(deps: ServiceDeps, actor: Actor, id: number, permanent: boolean): Promise<string> {
  return writeBoard(
    deps,
    actor,
    id,
    'owner',
    async ({ trx, board, emit, afterCommit }) => {
      if (permanent) {
        await removeBoard({ trx, board, emit, afterCommit }, deps);
        return 'Board deleted permanently';
      }
      if (board.archivedAt === null) {
        const row = await repo.updateBoard(trx, board.id, { archivedAt: nowIso(), updatedAt: nowIso() });
        emit('board.archived', { board: presentBoard(row) });
      }
      return 'Board archived';
    },
    { allowArchived: true },
  );
}

/** Removes a board and everything on it; its files go after the commit, unless still used elsewhere. */
export async function removeBoard(
  scope: Pick<SystemScope, 'trx' | 'board' | 'emit' | 'afterCommit'>,
  deps: Pick<Deps, 'config' | 'database'>,
): Promise<void> {
  const { trx, board } = scope;
  discardAfterCommit(scope.afterCommit, deps, await repo.storedNamesOfBoard(trx, board.id));
  // Whose dashboards show the board: the owner and the members.
  const memberIds = await boardAudience(trx, board.id);
  await repo.deleteBoard(trx, board.id);
  scope.emit('board.deleted', { boardId: board.id, memberIds });
}

/** A board shows an image or a colour, never both; the later-named wins when both are sent. */
function appearance(input: BoardWrite, current: Pick<BoardRow, 'image' | 'color'> | null) {
  let image = current?.image ?? null;
  let color = current?.color ?? null;
  if ('color' in input) {
    color = normalizeColor(input.color);
    if (color !== null) image = null;
  }
  if ('image' in input) {
    image = input.image || null;
    if (image !== null) color = null;
  }
  return { image, color };
}
