import { MY_WORK_GROUPS, type MyWork, type MyWorkCard, type MyWorkGroup, type MyWorkQuery } from '../../../shared/api/my-work.js';
import { readableBy } from '../../access/audience.js';
import { requireBoard } from '../../access/policy.js';
import type { Actor } from '../../auth/actor.js';
import type { Db } from '../../db/database.js';
import { toIso } from '../../db/dialect.js';
import type { Deps } from '../../deps.js';
import { badRequest } from '../../http/errors.js';
import { dayIn, isTimeZone, weekEndOf } from './days.js';

/** The most cards one answer holds; a person with more open work gets the earliest due. */
export const MY_WORK_LIMIT = 500;

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

/** The cards assigned to me across every board I can read, grouped by their due day in `tz`. */
export async function myWork(deps: Pick<Deps, 'database'>, actor: Actor, query: MyWorkQuery): Promise<MyWork> {
  const { db } = deps.database;
  const timeZone = query.tz ?? 'UTC';
  if (!isTimeZone(timeZone)) throw badRequest('querystring/tz must be an IANA time zone, such as Europe/Berlin');
  if (query.boardId !== undefined) await requireBoard(db, actor, query.boardId, 'read');

  let cards = assignedOpenCards(db, actor.id);
  if (query.boardId !== undefined) cards = cards.where('cards.boardId', '=', query.boardId);
  if (query.labelId !== undefined) {
    const labelId = query.labelId;
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
  if (query.label !== undefined) {
    const nameKey = query.label.trim().toLowerCase();
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
  const rows = await cards
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
    .limit(MY_WORK_LIMIT + 1)
    .execute();
  const truncated = rows.length > MY_WORK_LIMIT;
  const shown = rows.slice(0, MY_WORK_LIMIT);

  const labels = await labelsOf(
    db,
    shown.map((r) => r.id),
  );
  const today = dayIn(new Date(), timeZone);
  const weekEnd = weekEndOf(today);
  const groups = Object.fromEntries(MY_WORK_GROUPS.map((g) => [g, [] as MyWorkCard[]])) as Record<MyWorkGroup, MyWorkCard[]>;
  for (const row of shown) {
    const dueDate = toIso(row.dueDate);
    const card: MyWorkCard = {
      id: row.id,
      name: row.name,
      boardId: row.boardId,
      boardName: row.boardName,
      areaId: row.areaId,
      areaName: row.areaName,
      dueDate,
      labels: labels.get(row.id) ?? [],
    };
    groups[groupOf(dueDate, timeZone, today, weekEnd)].push(card);
  }

  const [boards, labelNames] = await Promise.all([
    assignedOpenCards(db, actor.id)
      .select(['boards.id', 'boards.name'])
      .distinct()
      .orderBy('boards.name')
      .orderBy('boards.id')
      .execute(),
    assignedOpenCards(db, actor.id)
      .innerJoin('card_labels', 'card_labels.cardId', 'cards.id')
      .innerJoin('labels', 'labels.id', 'card_labels.labelId')
      .select(['labels.nameKey', 'labels.name'])
      .orderBy('labels.nameKey')
      .orderBy('labels.name')
      .execute(),
  ]);
  // One entry per name whatever its case on each board; the first spelling in order wins.
  const names = new Map<string, string>();
  for (const l of labelNames) if (!names.has(l.nameKey)) names.set(l.nameKey, l.name);

  return { timeZone, today, weekEnd, groups, boards, labels: [...names.values()], truncated };
}

function groupOf(dueDate: string | null, timeZone: string, today: string, weekEnd: string): MyWorkGroup {
  if (dueDate === null) return 'noDate';
  const day = dayIn(new Date(dueDate), timeZone);
  if (day < today) return 'overdue';
  if (day === today) return 'today';
  if (day <= weekEnd) return 'thisWeek';
  return 'later';
}

async function labelsOf(db: Db, cardIds: number[]): Promise<Map<number, Array<{ id: number; name: string }>>> {
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
