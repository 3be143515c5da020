import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../database.js';
import { BATCH, STRUCTURE_ONLY, dumpHeader, insertStatements, quoteIdent, sqliteLiteral } from './sql-text.js';

type Write = (text: string) => Promise<void>;

/** Below every rowid (they may be negative). */
const SMALLEST_ROWID = -(2n ** 63n);

interface MasterRow {
  type: string;
  name: string;
  tbl_name: string;
  sql: string;
}

/** The suffixes of the tables FTS3/4/5 keep for a virtual table `<name>`. */
const SHADOW_SUFFIXES = ['_data', '_idx', '_content', '_docsize', '_config', '_segments', '_segdir', '_stat'];

/**
 * An SQLite dump that `sqlite3 <file> < database.sql` (or `npm run restore`)
 * loads into an empty database: each table's CREATE TABLE (as SQLite keeps it
 * in `sqlite_master`) then its rows in multi-row INSERTs read `BATCH` at a
 * time by rowid; then `sqlite_sequence`, the indexes, views and triggers; then
 * each FTS index is rebuilt from its content table (its shadow tables are
 * left out: the rebuild makes them).
 */
export async function dumpSqlite(db: Db, write: Write, meta: { serviceVersion: string; exportedAt: string }): Promise<void> {
  await write(`${dumpHeader('sqlite', meta)}PRAGMA foreign_keys=OFF;\nBEGIN TRANSACTION;\n`);
  const { rows: objects } = await sql<MasterRow>`
    SELECT type, name, tbl_name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY rowid`.execute(db);

  const virtual = objects.filter((o) => o.type === 'table' && /^CREATE\s+VIRTUAL\s+TABLE/i.test(o.sql));
  const shadows = new Set(virtual.flatMap((v) => SHADOW_SUFFIXES.map((suffix) => `${v.name}${suffix}`)));
  const tables = objects.filter((o) => o.type === 'table' && !o.name.startsWith('sqlite_') && !shadows.has(o.name));

  for (const table of tables) {
    await write(`${table.sql};\n`);
    if (virtual.includes(table) || STRUCTURE_ONLY.has(table.name)) continue;
    await dumpRows(db, table, write);
  }

  const hasSequence = objects.some((o) => o.name === 'sqlite_sequence');
  if (hasSequence) {
    const { rows } = await sql<{ name: string; seq: number }>`SELECT name, seq FROM sqlite_sequence ORDER BY name`.execute(db);
    await write('DELETE FROM sqlite_sequence;\n');
    for (const row of rows)
      await write(`INSERT INTO sqlite_sequence(name, seq) VALUES (${sqliteLiteral(row.name)}, ${sqliteLiteral(row.seq)});\n`);
  }

  for (const kind of ['index', 'view', 'trigger']) {
    for (const object of objects) {
      if (object.type === kind && !shadows.has(object.tbl_name) && !object.name.startsWith('sqlite_'))
        await write(`${object.sql};\n`);
    }
  }
  for (const table of virtual) {
    // An external-content FTS table is filled from its content table; a self-contained one would be empty.
    if (/\bfts[345]\b/i.test(table.sql) && /\bcontent\s*=\s*'[^']+'/i.test(table.sql)) {
      await write(`INSERT INTO ${quoteIdent(table.name)}(${quoteIdent(table.name)}) VALUES('rebuild');\n`);
    }
  }
  await write('COMMIT;\n');
}

async function dumpRows(db: Db, table: MasterRow, write: Write): Promise<void> {
  const { rows: info } = await sql<{ name: string; hidden: number }>`
    SELECT name, hidden FROM pragma_table_xinfo(${table.name})`.execute(db);
  const columns = info.filter((c) => c.hidden === 0).map((c) => c.name);
  if (columns.length === 0) return;
  const list = columns.map(quoteIdent).join(', ');
  const prefix = `INSERT INTO ${quoteIdent(table.name)} (${list}) VALUES\n`;
  const withoutRowid = /WITHOUT\s+ROWID\s*$/i.test(table.sql.trim());

  // Each batch becomes text (and is let go) before the writer waits for the reader.
  const position = { after: SMALLEST_ROWID as number | bigint, offset: 0, done: false };
  const next = async (): Promise<string | null> => {
    if (position.done) return null;
    const from = sql.raw(`${list} FROM ${quoteIdent(table.name)}`);
    const query: RawBuilder<Record<string, unknown>> = withoutRowid
      ? sql<Record<string, unknown>>`SELECT ${from} ORDER BY 1 LIMIT ${BATCH} OFFSET ${position.offset}`
      : sql<
          Record<string, unknown>
        >`SELECT rowid AS "__rowid", ${from} WHERE rowid > ${position.after} ORDER BY rowid LIMIT ${BATCH}`;
    const { rows }: { rows: Record<string, unknown>[] } = await query.execute(db);
    if (rows.length < BATCH) position.done = true;
    if (rows.length === 0) return null;
    position.offset += rows.length;
    position.after = Number(rows[rows.length - 1]!.__rowid);
    return insertStatements(
      prefix,
      rows.map((row) => `(${columns.map((c) => sqliteLiteral(row[c])).join(', ')})`),
    );
  };
  for (let text = await next(); text !== null; text = await next()) await write(text);
}
