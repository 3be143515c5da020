import { sql, type Kysely } from 'kysely';
import type { ColumnTypes } from '../dialect.js';

/**
 * What people add to cards: comments, attachments, pictures pasted into
 * descriptions and comments, the activity history; and the full-text index
 * over card names and descriptions (FTS5 on SQLite, tsvector on PostgreSQL).
 */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('comments')
    .addColumn('id', t.serial, t.autoKey)
    .addColumn('cardId', 'integer', (c) => c.notNull().references('cards.id').onDelete('cascade'))
    // Null for a comment whose author's account is gone or that was imported; then authorName tells who.
    .addColumn('userId', 'text', (c) => c.references('user.id').onDelete('set null'))
    .addColumn('authorName', 'text')
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('createdAt', t.timestamp, (c) => c.notNull())
    .addColumn('updatedAt', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('comments_card').on('comments').columns(['cardId', 'id']).execute();

  await db.schema
    .createTable('attachments')
    .addColumn('id', t.serial, t.autoKey)
    .addColumn('cardId', 'integer', (c) => c.notNull().references('cards.id').onDelete('cascade'))
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('filetype', 'text', (c) => c.notNull())
    .addColumn('filesize', 'integer', (c) => c.notNull())
    // The file's name under DATA_DIR/uploads; null for a linked attachment (then url is set).
    .addColumn('storedName', 'text')
    .addColumn('url', 'text')
    .addColumn('userId', 'text', (c) => c.references('user.id').onDelete('set null'))
    .addColumn('createdAt', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('attachments_card').on('attachments').column('cardId').execute();
  await db.schema.createIndex('attachments_stored').on('attachments').column('storedName').execute();

  await db.schema
    .createTable('images')
    .addColumn('id', t.serial, t.autoKey)
    .addColumn('boardId', 'integer', (c) => c.notNull().references('boards.id').onDelete('cascade'))
    .addColumn('storedName', 'text', (c) => c.notNull().unique())
    .addColumn('filetype', 'text', (c) => c.notNull())
    .addColumn('filesize', 'integer', (c) => c.notNull())
    .addColumn('userId', 'text', (c) => c.references('user.id').onDelete('set null'))
    .addColumn('createdAt', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('images_board').on('images').column('boardId').execute();

  await db.schema
    .createTable('card_activity')
    .addColumn('id', t.serial, t.autoKey)
    .addColumn('cardId', 'integer', (c) => c.notNull().references('cards.id').onDelete('cascade'))
    .addColumn('actorId', 'text', (c) => c.references('user.id').onDelete('set null'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('data', 'text')
    .addColumn('createdAt', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('card_activity_card').on('card_activity').columns(['cardId', 'id']).execute();

  if (t.dialect === 'postgres') {
    // Name words weigh more than description words in the ranking.
    await sql`ALTER TABLE cards ADD COLUMN search tsvector GENERATED ALWAYS AS (
      setweight(to_tsvector('simple', coalesce(name, '')), 'A') || setweight(to_tsvector('simple', coalesce(content, '')), 'D')
    ) STORED`.execute(db);
    await sql`CREATE INDEX cards_search ON cards USING gin (search)`.execute(db);
  } else {
    await sql`CREATE VIRTUAL TABLE cards_fts USING fts5(name, content, content='cards', content_rowid='id', tokenize='unicode61 remove_diacritics 2')`.execute(
      db,
    );
    await sql`CREATE TRIGGER cards_fts_insert AFTER INSERT ON cards BEGIN
      INSERT INTO cards_fts(rowid, name, content) VALUES (new.id, new.name, new.content);
    END`.execute(db);
    await sql`CREATE TRIGGER cards_fts_delete AFTER DELETE ON cards BEGIN
      INSERT INTO cards_fts(cards_fts, rowid, name, content) VALUES ('delete', old.id, old.name, old.content);
    END`.execute(db);
    // Only a change of the indexed text touches the index: moves rewrite sort on many rows.
    await sql`CREATE TRIGGER cards_fts_update AFTER UPDATE OF name, content ON cards BEGIN
      INSERT INTO cards_fts(cards_fts, rowid, name, content) VALUES ('delete', old.id, old.name, old.content);
      INSERT INTO cards_fts(rowid, name, content) VALUES (new.id, new.name, new.content);
    END`.execute(db);
  }
}
