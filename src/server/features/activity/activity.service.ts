import type { Actor } from '../../auth/actor.js';
import { boardIdOf, requireBoard } from '../../access/index.js';
import type { Db } from '../../db/database.js';
import { nowIso, toIso } from '../../db/dialect.js';
import type { Deps } from '../../deps.js';
import * as repo from './activity.repository.js';

/** The kinds of entry in a card's history, with the detail each carries. */
export interface ActivityData {
  created: { repeatedFrom?: number; duplicatedFrom?: number } | null;
  moved: { from: string; to: string };
  status: { done: boolean };
  assigned: { assigneeId: string; removed?: true };
  due: { dueDate: string | null };
  labels: { added: string[]; removed: string[] };
  archived: null;
  restored: null;
  repeat: { every: string | null };
  repeated: { nextId: number; dueDate: string };
  comment: { commentId: number };
  attachment: { attachmentId: number; filename: string; removed?: true };
  /** A custom field value set (or cleared: `value` null); the field's name and type as they were then. */
  field: { fieldId: number; name: string; fieldType: string; value: string | number | boolean | null };
}
export type ActivityType = keyof ActivityData;

/** Writes one history entry, in the transaction of the change it records. */
export async function recordActivity<K extends ActivityType>(
  db: Db,
  cardId: number,
  actorId: string | null,
  type: K,
  data: ActivityData[K],
): Promise<void> {
  await repo.insertActivity(db, cardId, actorId, type, data === null ? null : JSON.stringify(data), nowIso());
}

/**
 * Writes a card's `moved` entry before the move itself, naming the areas as
 * they are: the move's statement follows at once and answers for both, and a
 * move that is then refused undoes the entry with the rest of the write.
 */
export async function recordMoveAhead(
  db: Db,
  cardId: number,
  actorId: string,
  fromAreaId: number,
  toAreaId: number,
): Promise<void> {
  await repo.insertMovedActivity(db, cardId, actorId, fromAreaId, toAreaId, nowIso());
}

/** `recordMoveAhead`'s statement, built and not run (to be sent with the move's: board-write.ts, `QuickWork`). */
export function moveEntryStatement(db: Db, cardId: number, actorId: string, fromAreaId: number, toAreaId: number) {
  return repo.insertMovedActivity.compiled(db, cardId, actorId, fromAreaId, toAreaId, nowIso());
}

export interface ActivityEntry {
  type: string;
  actor: { id: string; name: string; image: string | null; type: string } | null;
  data: Record<string, unknown> | null;
  createdAt: string;
}

/** A card's history, oldest first; `assigned` entries name the assignee. */
export async function cardActivity(deps: Pick<Deps, 'database'>, actor: Actor, cardId: number): Promise<ActivityEntry[]> {
  const { db } = deps.database;
  const boardId = await boardIdOf(db, 'cards', cardId);
  await requireBoard(db, actor, boardId, 'read', { subject: 'Card' });
  const rows = await repo.activityOfCard(db, cardId);
  const assigneeIds = new Set<string>();
  const parsed = rows.map((row) => {
    const data = row.data === null ? null : (JSON.parse(row.data) as Record<string, unknown>);
    if (row.type === 'assigned' && typeof data?.assigneeId === 'string') assigneeIds.add(data.assigneeId);
    return { row, data };
  });
  const names = assigneeIds.size > 0 ? await repo.accountNames(db, [...assigneeIds]) : new Map<string, string>();
  return parsed.map(({ row, data }) => ({
    type: row.type,
    actor:
      row.actorId && row.name !== null
        ? { id: row.actorId, name: row.name, image: row.image, type: row.actorType ?? 'human' }
        : null,
    // An imported entry about someone without an account here keeps the name it came with.
    data:
      row.type === 'assigned' && data
        ? {
            ...data,
            assigneeName:
              typeof data.assigneeId === 'string' ? (names.get(data.assigneeId) ?? null) : (data.assigneeName ?? null),
          }
        : data,
    createdAt: toIso(row.createdAt),
  }));
}
