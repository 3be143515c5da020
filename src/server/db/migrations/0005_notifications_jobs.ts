import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../dialect.js';

/** Notifications per account, the database job queue, and per-account mail state. */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('notifications')
    .addColumn('id', t.serial, t.autoKey)
    .addColumn('userId', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('boardId', 'integer', (c) => c.references('boards.id').onDelete('cascade'))
    .addColumn('cardId', 'integer', (c) => c.references('cards.id').onDelete('cascade'))
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('isRead', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('actorId', 'text', (c) => c.references('user.id').onDelete('set null'))
    .addColumn('createdAt', t.timestamp, (c) => c.notNull())
    // When the digest mail carried it; null until then.
    .addColumn('emailedAt', t.timestamp)
    .execute();
  await db.schema.createIndex('notifications_user').on('notifications').columns(['userId', 'id']).execute();
  await db.schema.createIndex('notifications_user_unread').on('notifications').columns(['userId', 'isRead', 'cardId']).execute();

  await db.schema
    .createTable('jobs')
    .addColumn('id', t.serial, t.autoKey)
    .addColumn('kind', 'text', (c) => c.notNull())
    // Makes enqueuing idempotent: one job per key.
    .addColumn('key', 'text', (c) => c.notNull().unique())
    .addColumn('payload', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('runAt', t.timestamp, (c) => c.notNull())
    // A claim: until then the job is someone's; a crashed claimant's job comes back after it.
    .addColumn('lockedUntil', t.timestamp)
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('lastError', 'text')
    .addColumn('doneAt', t.timestamp)
    .addColumn('createdAt', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('jobs_due').on('jobs').columns(['doneAt', 'runAt']).execute();

  await db.schema
    .alterTable('card_reminders')
    // The due date this reminder last fired for: a new due date re-arms it.
    .addColumn('firedFor', t.timestamp)
    .execute();

  await db.schema
    .createTable('account_mail')
    .addColumn('userId', 'text', (c) => c.primaryKey().references('user.id').onDelete('cascade'))
    .addColumn('lastDigestAt', t.timestamp)
    .execute();
}
