import type { Kysely } from 'kysely';
import { toIso, type ColumnTypes } from '../dialect.js';
import { NOTIFICATION_TYPES, type NotificationType } from '../../i18n/notifications.js';
import { parseNotification } from '../../i18n/parse-notification.js';

/** The tables as this step sees them (later steps may change them). */
interface Tables {
  notifications: { id: number; type: string; cardId: number | null; message: string; params: string | null };
  cards: { id: number; dueDate: Date | string | null };
  card_reminders: { cardId: number; firedFor: Date | string | null };
}

const BATCH = 500;

/**
 * Notifications keep their type's parameters (JSON) and are written out in
 * each reader's language when read. Rows from before are read back from their
 * sentence where a template reproduces it exactly; the others keep only their
 * sentence, which stays the text shown for them.
 */
export async function up(untyped: Kysely<unknown>, _t: ColumnTypes): Promise<void> {
  await untyped.schema.alterTable('notifications').addColumn('params', 'text').execute();
  const db = untyped as unknown as Kysely<Tables>;
  const known = new Set<string>(NOTIFICATION_TYPES);
  let after = 0;
  for (;;) {
    const rows = await db
      .selectFrom('notifications')
      .select(['id', 'type', 'cardId', 'message'])
      .where('id', '>', after)
      .orderBy('id')
      .limit(BATCH)
      .execute();
    if (rows.length === 0) return;
    after = rows.at(-1)!.id;
    for (const row of rows) {
      if (!known.has(row.type)) continue;
      const type = row.type as NotificationType;
      const due = type === 'card_due' && row.cardId !== null ? await dueDatesOf(db, row.cardId) : [];
      const data = parseNotification(type, row.message, due);
      if (data)
        await db
          .updateTable('notifications')
          .set({ params: JSON.stringify(data.params) })
          .where('id', '=', row.id)
          .execute();
    }
  }
}

/** The instants a due-date reminder of the card may have named: its due date now and the ones its reminders fired for. */
async function dueDatesOf(db: Kysely<Tables>, cardId: number): Promise<string[]> {
  const card = await db.selectFrom('cards').select('dueDate').where('id', '=', cardId).executeTakeFirst();
  const fired = await db.selectFrom('card_reminders').select('firedFor').where('cardId', '=', cardId).execute();
  return [card?.dueDate ?? null, ...fired.map((r) => r.firedFor)].filter((d) => d !== null).map((d) => toIso(d));
}
