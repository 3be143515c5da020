import { writeBoard } from '../../events/board-write.js';
import { randomBytes } from 'node:crypto';
import type { PublicBoard, PublicLinkState } from '../../../shared/api/public-links.js';
import type { Actor } from '../../auth/actor.js';
import { requireVerified } from '../../auth/identify.js';
import { requireBoard } from '../../access/index.js';
import type { Db } from '../../db/database.js';
import { nowIso, toIso } from '../../db/dialect.js';
import type { ServiceDeps } from '../../deps.js';
import { notFound } from '../../http/errors.js';
import { visibleAreas } from '../areas/areas.service.js';
import { visibleCardsWithHtml } from '../cards/cards.service.js';
import { boardFields } from '../fields/fields.service.js';
import { hashToken } from '../sharing/sharing.service.js';
import { IMAGE_SERVED_TYPES } from '../attachments/attachments.service.js';
import { fileStore, type OpenedFile } from '../../files/store.js';
import { publicBoardInfo, publicCard } from './public-shape.js';
import * as repo from './public-links.repository.js';

/** Unknown, revoked and archived-board links all answer this, so none can be told from another. */
export const linkGone = () => notFound('This link does not work (any more)');

/** Whether the owner's board has a public link, and since when. */
export async function readPublicLink(deps: ServiceDeps, actor: Actor, boardId: number): Promise<PublicLinkState> {
  const { db } = deps.database;
  await requireBoard(db, actor, boardId, 'owner');
  const row = await repo.findLink(db, boardId);
  return { link: row ? { createdAt: toIso(row.createdAt) } : null };
}

/**
 * Makes a new public link, replacing the board's previous one (which stops
 * working). Only the hash is kept, so the address is in this answer alone:
 * whoever needs it again makes a new one.
 */
export async function createPublicLink(deps: ServiceDeps, actor: Actor, boardId: number): Promise<PublicLinkState> {
  requireVerified(actor, 'public links');
  const token = randomBytes(32).toString('hex');
  const createdAt = nowIso();
  // The board's write path: its lock, the owner's check, and the Idempotency-Key's record in the same transaction.
  // The replaced link's open views close once it commits (the `link.changed` subscriber, on-change.ts).
  await writeBoard(deps, actor, boardId, 'owner', async ({ trx, tell }) => {
    await repo.deleteLinks(trx, boardId);
    await repo.insertLink(trx, boardId, hashToken(token), actor.id, createdAt);
    tell('link.changed', {});
  });
  return { link: { url: `${deps.config.baseUrl}/p/${token}`, createdAt } };
}

/** Ends the board's public link; its open views close at once, in every process. */
export async function revokePublicLink(deps: ServiceDeps, actor: Actor, boardId: number): Promise<PublicLinkState> {
  await writeBoard(
    deps,
    actor,
    boardId,
    'owner',
    async ({ trx, tell }) => {
      await repo.deleteLinks(trx, boardId);
      tell('link.changed', {});
    },
    { allowArchived: true },
  );
  return { link: null };
}

/** The active board a token opens, or 404. */
export async function linkedBoard(db: Db, token: string) {
  const board = await repo.boardOfLink(db, hashToken(token));
  if (!board || board.archivedAt !== null) throw linkGone();
  return board;
}

/** The board's version alone: what an open public view polls to know when to read the board again. */
export async function publicVersion(db: Db, token: string): Promise<number> {
  return (await linkedBoard(db, token)).version;
}

/**
 * The board as anyone with the link sees it. People stay out altogether (no
 * assignees, names, pictures or addresses), as do comments, attachments and
 * activity: a viewer without an account sees the work, not who does it.
 */
export async function publicBoard(db: Db, token: string): Promise<PublicBoard> {
  const board = await linkedBoard(db, token);
  const areas = await visibleAreas(db, board.id);
  return {
    board: publicBoardInfo(board),
    version: board.version,
    areas: await Promise.all(
      areas.map(async (area) => ({
        id: area.id,
        name: area.name,
        cards: (await visibleCardsWithHtml(db, area.id)).map((c) => publicCard(c, token)),
      })),
    ),
    fields: await boardFields(db, board.id),
  };
}

/**
 * A picture pasted into the text of the board the link opens, for the
 * public view; a picture of any other board is as unknown as a wrong name.
 */
export async function publicImage(
  deps: ServiceDeps,
  token: string,
  storedName: string,
): Promise<{ file: OpenedFile; contentType: string }> {
  const { db } = deps.database;
  const board = await linkedBoard(db, token);
  const row = await repo.findBoardImage(db, board.id, storedName);
  const file = row ? await fileStore(deps.config).open(row.storedName) : null;
  if (!row || !file) throw notFound('Image not found');
  return { file, contentType: IMAGE_SERVED_TYPES.has(row.filetype) ? row.filetype : 'application/octet-stream' };
}
