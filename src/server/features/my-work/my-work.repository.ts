import { readableBy } from '../../access/index.js';
import type { Db } from '../../db/database.js';

/** Open cards, not archived (nor their area or board), on boards the actor can read. */
export function openCardsReadableBy(db: Db, actorId: string) {
  return db
    .selectFrom('cards')
    .innerJoin('areas', 'areas.id', 'cards.areaId')
    .innerJoin('boards', 'boards.id', 'cards.boardId')
    .where('cards.status', '=', 0)
    .where('cards.archivedAt', 'is', null)
    .where('areas.archivedAt', 'is', null)
    .where('boards.archivedAt', 'is', null)
    .where((eb) => readableBy(eb, actorId));
}

const assignedOpenCards = (db: Db, actorId: string) =>
  openCardsReadableBy(db, actorId)
    .innerJoin('card_assignees', 'card_assignees.cardId', 'cards.id')
    .where('card_assignees.userId', '=', actorId);

export interface AssignedFilter {
  boardId?: number;
  labelId?: number;
  /** A label's name in lower case: cards wearing it on any board, whatever its case there. */
  labelKey?: string;
}

/** The actor's open cards, undated last, then the earliest due, then in board order; `limit` of them. */
export async function assignedCards(db: Db, actorId: string, filter: AssignedFilter, limit: number) {
  let cards = assignedOpenCards(db, actorId);
  if (filter.boardId !== undefined) cards = cards.where('cards.boardId', '=', filter.boardId);
  if (filter.labelId !== undefined) {
    const labelId = filter.labelId;
    cards = cards.where((eb) =>
      eb.exists(
        eb
          .selectFrom('card_labels')
          .select('card_labels.cardId')
          .whereRef('card_labels.cardId', '=', 'cards.id')
          .where('card_labels.labelId', '=', labelId),
      ),
    );
  }
  if (filter.labelKey !== undefined) {
    const nameKey = filter.labelKey;
    cards = cards.where((eb) =>
      eb.exists(
        eb
          .selectFrom('card_labels')
          .innerJoin('labels', 'labels.id', 'card_labels.labelId')
          .select('card_labels.cardId')
          .whereRef('card_labels.cardId', '=', 'cards.id')
          .where('labels.nameKey', '=', nameKey),
      ),
    );
  }
  return (
    cards
      .select([
        'cards.id',
        'cards.name',
        'cards.boardId',
        'boards.name as boardName',
        'cards.areaId',
        'areas.name as areaName',
        'areas.sort as areaSort',
        'cards.sort',
        'cards.dueDate',
      ])
      // Undated last on both databases (their NULL orders differ), then the earliest due.
      .orderBy((eb) => eb('cards.dueDate', 'is', null))
      .orderBy('cards.dueDate')
      .orderBy('boards.name')
      .orderBy('cards.boardId')
      .orderBy('areas.sort')
      .orderBy('cards.sort')
      .limit(limit)
      .execute()
  );
}

/** The boards the actor has open cards on, by name: what the board filter offers, whatever filter is on. */
export function assignedBoards(db: Db, actorId: string): Promise<Array<{ id: number; name: string }>> {
  return assignedOpenCards(db, actorId)
    .select(['boards.id', 'boards.name'])
    .distinct()
    .orderBy('boards.name')
    .orderBy('boards.id')
    .execute();
}

/** The labels the actor's open cards wear, one row per wearing: the caller keeps one spelling per name. */
export function assignedLabels(db: Db, actorId: string): Promise<Array<{ nameKey: string; name: string }>> {
  return assignedOpenCards(db, actorId)
    .innerJoin('card_labels', 'card_labels.cardId', 'cards.id')
    .innerJoin('labels', 'labels.id', 'card_labels.labelId')
    .select(['labels.nameKey', 'labels.name'])
    .orderBy('labels.nameKey')
    .orderBy('labels.name')
    .execute();
}

/** The labels of many cards in one query, each card's by name. */
export async function labelsOf(db: Db, cardIds: number[]): Promise<Map<number, Array<{ id: number; name: string }>>> {
  const byCard = new Map<number, Array<{ id: number; name: string }>>();
  if (cardIds.length === 0) return byCard;
  const rows = await db
    .selectFrom('card_labels')
    .innerJoin('labels', 'labels.id', 'card_labels.labelId')
    .select(['card_labels.cardId', 'labels.id', 'labels.name'])
    .where('card_labels.cardId', 'in', cardIds)
    .orderBy('labels.name')
    .orderBy('labels.id')
    .execute();
  for (const { cardId, id, name } of rows) byCard.set(cardId, [...(byCard.get(cardId) ?? []), { id, name }]);
  return byCard;
}
