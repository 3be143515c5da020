import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../dialect.js';

/** Outgoing webhooks of a board and their deliveries (one per event and webhook). */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('webhooks')
    .addColumn('id', t.serial, t.autoKey)
    .addColumn('boardId', 'integer', (c) => c.notNull().references('boards.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    // A JSON array of event names; null for every event.
    .addColumn('events', 'text')
    // Kept as written: every delivery is signed with it (see webhooks.service.ts).
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    // Failed attempts since the last success; at the limit the webhook turns inactive.
    .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('createdAt', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhooks_board').on('webhooks').columns(['boardId', 'active']).execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', t.serial, t.autoKey)
    .addColumn('webhookId', 'integer', (c) => c.notNull().references('webhooks.id').onDelete('cascade'))
    // The event is read from board_events when it is sent, so a redaction there reaches the webhook too.
    .addColumn('boardId', 'integer', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('event', 'text', (c) => c.notNull())
    // pending | delivered | failed
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('responseStatus', 'integer')
    .addColumn('lastError', 'text')
    .addColumn('nextAttemptAt', t.timestamp, (c) => c.notNull())
    .addColumn('createdAt', t.timestamp, (c) => c.notNull())
    .addColumn('deliveredAt', t.timestamp)
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_queue')
    .on('webhook_deliveries')
    .columns(['webhookId', 'status', 'version'])
    .execute();
}
