import { MY_WORK_GROUPS, type MyWork, type MyWorkCard, type MyWorkGroup, type MyWorkQuery } from '../../../shared/api/my-work.js';
import { requireBoard } from '../../access/index.js';
import type { Actor } from '../../auth/actor.js';
import { toIso } from '../../db/dialect.js';
import type { Deps } from '../../deps.js';
import { badRequest } from '../../http/errors.js';
import { dayIn, isTimeZone, weekEndOf } from './days.js';
import * as repo from './my-work.repository.js';
import { fieldValuesOf } from '../fields/fields.service.js';

/** The most cards one answer holds; a person with more open work gets the earliest due. */
export const MY_WORK_LIMIT = 500;

/** The cards assigned to me across every board I can read, grouped by their due day in `tz`. */
export async function myWork(deps: Pick<Deps, 'database'>, actor: Actor, query: MyWorkQuery): Promise<MyWork> {
  const { db } = deps.database;
  const timeZone = query.tz ?? 'UTC';
  if (!isTimeZone(timeZone)) throw badRequest('querystring/tz must be an IANA time zone, such as Europe/Berlin');
  if (query.boardId !== undefined) await requireBoard(db, actor, query.boardId, 'read');

  const rows = await repo.assignedCards(
    db,
    actor.id,
    { boardId: query.boardId, labelId: query.labelId, labelKey: query.label?.trim().toLowerCase() },
    MY_WORK_LIMIT + 1,
  );
  const truncated = rows.length > MY_WORK_LIMIT;
  const shown = rows.slice(0, MY_WORK_LIMIT);

  const ids = shown.map((r) => r.id);
  const [labels, fields] = await Promise.all([repo.labelsOf(db, ids), fieldValuesOf(db, ids)]);
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
      fields: fields.get(row.id) ?? {},
    };
    groups[groupOf(dueDate, timeZone, today, weekEnd)].push(card);
  }

  const [boards, labelNames] = await Promise.all([repo.assignedBoards(db, actor.id), repo.assignedLabels(db, actor.id)]);
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
