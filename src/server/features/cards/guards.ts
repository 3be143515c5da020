import type { Actor } from '../../auth/actor.js';
import { archived, missing, requireBoard, unarchivedBoard, type Subject } from '../../access/index.js';
import type { Db } from '../../db/database.js';
import type { AreaRow, BoardRow, CardRow } from '../../db/schema.js';
import type { ServiceDeps } from '../../deps.js';
import { conflict } from '../../http/errors.js';
import { findArea } from '../areas/areas.repository.js';
import { findCard } from './cards.repository.js';

/*
 * The rules that say whether a board, an area or a card can take a change,
 * each written once: an archived thing must be restored before it changes
 * (409), and a thing that is not on the board being written is missing (404).
 */

/**
 * A board the caller may edit and that is not archived, checked outside a
 * write transaction (before a file is read or copied, so a refusal costs
 * nothing): the same checks writeBoard makes again inside it.
 */
export async function writableBoard(deps: ServiceDeps, actor: Actor, boardId: number, subject: Subject): Promise<BoardRow> {
  const { board } = await requireBoard(deps.database.db, actor, boardId, 'edit', { subject });
  return unarchivedBoard(board);
}

/** An area of this board that can take changes: 404 when it is not on the board, 409 when archived. */
export function areaOfBoard<A extends Pick<AreaRow, 'boardId' | 'archivedAt'>>(area: A | undefined, boardId: number): A {
  if (!area || area.boardId !== boardId) throw missing('Area');
  if (area.archivedAt !== null) throw archived('area');
  return area;
}

/** `areaOfBoard` for an area known by its id. */
export async function writableArea(db: Db, boardId: number, areaId: number): Promise<AreaRow> {
  return areaOfBoard(await findArea(db, areaId), boardId);
}

/** A card of this board that can take changes: 404 when gone, 409 when it or its area is archived. */
export async function writableCard(db: Db, boardId: number, cardId: number): Promise<CardRow> {
  const card = await findCard(db, cardId);
  if (!card || card.boardId !== boardId) throw missing('Card');
  if (card.archivedAt !== null) throw archived('card');
  await writableArea(db, boardId, card.areaId);
  return card;
}

/**
 * What a move needs once both areas are known to be on the card's board: the
 * card still in the area the client saw it in (else it was moved meanwhile),
 * and neither the card nor either area archived.
 */
export function checkMove(
  card: Pick<CardRow, 'areaId' | 'archivedAt'>,
  fromAreaId: number,
  areas: { fromArchivedAt: string | null; toArchivedAt: string | null },
): void {
  if (card.areaId !== fromAreaId) throw conflict('The card is not in that area (it may have been moved meanwhile)');
  if (card.archivedAt !== null) throw archived('card');
  if (areas.fromArchivedAt !== null || areas.toArchivedAt !== null) throw archived('area');
}
