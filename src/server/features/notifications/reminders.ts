import { toIso } from '../../db/dialect.js';
import type { Deps } from '../../deps.js';
import * as repo from './notifications.repository.js';
import { systemWrite } from '../../events/board-write.js';

/** A reminder whose moment passed longer ago than this (the server was down, or the date was set in the past) is dropped, not sent late. */
export const REMINDER_GRACE_MS = 3600_000;

/**
 * Sends the reminders that are due: each fires once per due date (the
 * conditional update of `firedFor` is the claim, so two processes racing
 * the same reminder notify once), to the card's assignees or, when nobody is
 * assigned, to everyone on the board (the notifications subscriber decides,
 * see on-change.ts). Done and archived cards are skipped. The claim is a
 * change to the card's board like any other: the fact it tells reaches the
 * subscribers in the claim's transaction.
 */
export async function fireDueReminders(deps: Pick<Deps, 'database' | 'bus' | 'config' | 'log'>, now: Date): Promise<number> {
  const candidates = await repo.remindersOfOpenCards(deps.database.db);

  let fired = 0;
  for (const r of candidates) {
    const due = toIso(r.dueDate!);
    if (r.firedFor !== null && toIso(r.firedFor) === due) continue;
    const fireAt = Date.parse(due) - r.minutesBefore * 60_000;
    if (fireAt > now.getTime()) continue;
    const late = now.getTime() - fireAt > REMINDER_GRACE_MS;
    const sent = await systemWrite(deps, r.boardId, async ({ trx, tell }) => {
      if (!(await repo.claimReminder(trx, r.id, due)) || late) return false;
      tell('card.due', { cardId: r.cardId, card: r.name, due });
      return true;
    });
    if (sent) fired++;
  }
  return fired;
}
