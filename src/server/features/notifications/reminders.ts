import { toIso } from '../../db/dialect.js';
import type { Deps } from '../../deps.js';
import { boardAudience } from '../../access/index.js';
import * as repo from './notifications.repository.js';
import { notify, type NotifyContext } from './notifications.service.js';

/** A reminder whose moment passed longer ago than this (the server was down, or the date was set in the past) is dropped, not sent late. */
export const REMINDER_GRACE_MS = 3600_000;

/**
 * Sends the reminders that are due: each fires once per due date (the
 * conditional update of `firedFor` is the claim, so two processes racing
 * the same reminder notify once), to the card's assignees or, when nobody is
 * assigned, to everyone on the board. Done and archived cards are skipped.
 */
export async function fireDueReminders(deps: Pick<Deps, 'database' | 'bus' | 'config'>, now: Date): Promise<number> {
  const { db, dialect } = deps.database;
  const candidates = await repo.remindersOfOpenCards(db);

  let fired = 0;
  for (const r of candidates) {
    const due = toIso(r.dueDate!);
    if (r.firedFor !== null && toIso(r.firedFor) === due) continue;
    const fireAt = Date.parse(due) - r.minutesBefore * 60_000;
    if (fireAt > now.getTime()) continue;
    const late = now.getTime() - fireAt > REMINDER_GRACE_MS;
    const after: Array<() => Promise<void>> = [];
    const sent = await db.transaction().execute(async (trx) => {
      if (!(await repo.claimReminder(trx, r.id, due)) || late) return false;
      await notifyDue({ trx, dialect, afterCommit: (fn) => after.push(fn) }, deps, r, due);
      return true;
    });
    for (const fn of after) await fn();
    if (sent) fired++;
  }
  return fired;
}

async function notifyDue(
  ctx: NotifyContext,
  deps: Pick<Deps, 'bus' | 'config'>,
  card: { cardId: number; name: string; boardId: number; boardName: string },
  due: string,
): Promise<void> {
  const audience = await boardAudience(ctx.trx, card.boardId);
  const assignees = (await repo.assigneesOf(ctx.trx, card.cardId)).filter((id) => audience.includes(id));
  await notify(ctx, deps, {
    recipients: assignees.length > 0 ? assignees : audience,
    type: 'card_due',
    params: { card: card.name, board: card.boardName, due },
    boardId: card.boardId,
    cardId: card.cardId,
    actor: null,
  });
}
