import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../database.js';
import { BATCH, STATEMENT_CHARS, STRUCTURE_ONLY, dumpHeader, quoteIdent, quoteText } from './sql-text.js';

type Write = (text: string) => Promise<void>;

interface TableRow {
  oid: number;
  name: string;
  /** Storage parameters such as `fillfactor=70`, comma-separated; null when none. */
  options: string | null;
}

interface ColumnRow {
  name: string;
  type: string;
  notNull: boolean;
  /** `s` for a stored generated column, else empty. */
  generated: string;
  /** `a` (ALWAYS) or `d` (BY DEFAULT) for an identity column, else empty. */
  identity: string;
  expression: string | null;
  collation: string | null;
}

interface ConstraintRow {
  name: string;
  type: string;
  definition: string;
}

interface SequenceRow {
  oid: number;
  name: string;
  type: string;
  start: string;
  increment: string;
  min: string;
  max: string;
  cache: string;
  cycle: boolean;
  /** `a`: owned by a column (serial); `i`: an identity column's own; null: free-standing. */
  dependency: string | null;
  table: string | null;
  column: string | null;
}

const run = async <T>(db: Db, query: RawBuilder<T>): Promise<T[]> => (await query.execute(db)).rows;

/**
 * A PostgreSQL dump that loads into an empty database (`npm run restore`, or
 * `psql -f`): the sequences, then per table (by name) a CREATE TABLE made
 * from the catalog (columns, types, defaults, NOT NULL, generated columns
 * re-created as generated, primary/unique/check constraints, storage
 * parameters such as the cards' fillfactor) followed by its
 * rows, read `BATCH` at a time by primary key and written as text literals
 * (exact for every type); then the sequences are set where they stood, and
 * the indexes and foreign keys are added (after the rows, so load order does
 * not matter and the keys are checked once), and last the schema's own
 * functions and triggers (the cards' search vector, migration 0010).
 */
export async function dumpPostgres(db: Db, write: Write, meta: { serviceVersion: string; exportedAt: string }): Promise<void> {
  const [{ schema } = { schema: 'public' }] = await run(
    db,
    sql<{ schema: string }>`SELECT quote_ident(current_schema()) AS schema`,
  );
  await write(
    `${dumpHeader('postgres', meta)}SET client_encoding = 'UTF8';\nSET standard_conforming_strings = on;\n` +
      `SET check_function_bodies = false;\nSET client_min_messages = warning;\nSET TIME ZONE 'UTC';\nBEGIN;\n`,
  );

  const tables = await run(
    db,
    sql<TableRow>`
      SELECT c.oid::int AS oid, c.relname AS name, array_to_string(c.reloptions, ', ') AS options FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = current_schema() AND c.relkind = 'r' AND NOT c.relispartition ORDER BY c.relname`,
  );
  const sequences = await run(
    db,
    sql<SequenceRow>`
      SELECT s.oid::int AS oid, s.relname AS name, format_type(q.seqtypid, NULL) AS type, q.seqstart::text AS start,
             q.seqincrement::text AS increment, q.seqmin::text AS min, q.seqmax::text AS max, q.seqcache::text AS cache,
             q.seqcycle AS cycle, d.deptype::text AS dependency, t.relname AS table, a.attname AS column
      FROM pg_class s
      JOIN pg_namespace n ON n.oid = s.relnamespace
      JOIN pg_sequence q ON q.seqrelid = s.oid
      LEFT JOIN pg_depend d ON d.classid = 'pg_class'::regclass AND d.objid = s.oid
        AND d.refclassid = 'pg_class'::regclass AND d.deptype IN ('a', 'i')
      LEFT JOIN pg_class t ON t.oid = d.refobjid
      LEFT JOIN pg_attribute a ON a.attrelid = d.refobjid AND a.attnum = d.refobjsubid
      WHERE s.relkind = 'S' AND n.nspname = current_schema()
      ORDER BY s.relname`,
  );

  for (const seq of sequences) {
    if (seq.dependency === 'i') continue; // made by its identity column
    await write(
      `CREATE SEQUENCE ${quoteIdent(seq.name)} AS ${seq.type} START WITH ${seq.start} INCREMENT BY ${seq.increment}` +
        ` MINVALUE ${seq.min} MAXVALUE ${seq.max} CACHE ${seq.cache}${seq.cycle ? ' CYCLE' : ''};\n`,
    );
  }

  const foreignKeys: string[] = [];
  const indexes: string[] = [];
  for (const table of tables) {
    const columns = await run(
      db,
      sql<ColumnRow>`
        SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type, a.attnotnull AS "notNull",
               a.attgenerated::text AS generated, a.attidentity::text AS identity,
               pg_get_expr(d.adbin, d.adrelid) AS expression,
               CASE WHEN a.attcollation <> t.typcollation AND a.attcollation <> 0 THEN quote_ident(co.collname) END AS collation
        FROM pg_attribute a
        JOIN pg_type t ON t.oid = a.atttypid
        LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
        LEFT JOIN pg_collation co ON co.oid = a.attcollation
        WHERE a.attrelid = ${table.oid} AND a.attnum > 0 AND NOT a.attisdropped
        ORDER BY a.attnum`,
    );
    const constraints = await run(
      db,
      sql<ConstraintRow>`
        SELECT conname AS name, contype::text AS type, pg_get_constraintdef(oid) AS definition
        FROM pg_constraint WHERE conrelid = ${table.oid} ORDER BY contype, conname`,
    );
    const lines = columns.map((c) => {
      let line = `  ${quoteIdent(c.name)} ${c.type}`;
      if (c.collation) line += ` COLLATE ${c.collation}`;
      if (c.generated === 's') line += ` GENERATED ALWAYS AS (${c.expression}) STORED`;
      else if (c.identity) line += ` GENERATED ${c.identity === 'a' ? 'ALWAYS' : 'BY DEFAULT'} AS IDENTITY`;
      else if (c.expression !== null) line += ` DEFAULT ${c.expression}`;
      if (c.notNull) line += ' NOT NULL';
      return line;
    });
    for (const c of constraints) {
      if (c.type === 'f') {
        foreignKeys.push(`ALTER TABLE ONLY ${quoteIdent(table.name)} ADD CONSTRAINT ${quoteIdent(c.name)} ${c.definition};\n`);
      } else if (['p', 'u', 'c', 'x'].includes(c.type)) {
        lines.push(`  CONSTRAINT ${quoteIdent(c.name)} ${c.definition}`);
      }
    }
    const storage = table.options ? ` WITH (${table.options})` : '';
    await write(`CREATE TABLE ${quoteIdent(table.name)} (\n${lines.join(',\n')}\n)${storage};\n`);
    for (const seq of sequences) {
      if (seq.dependency === 'a' && seq.table === table.name && seq.column !== null)
        await write(`ALTER SEQUENCE ${quoteIdent(seq.name)} OWNED BY ${quoteIdent(table.name)}.${quoteIdent(seq.column)};\n`);
    }

    if (!STRUCTURE_ONLY.has(table.name)) {
      const primary = constraints.find((c) => c.type === 'p');
      const key = primary ? keyColumns(primary.definition) : null;
      await dumpRows(db, table, columns, key, write);
    }

    const tableIndexes = await run(
      db,
      sql<{ definition: string }>`
        SELECT pg_get_indexdef(ix.indexrelid) AS definition FROM pg_index ix JOIN pg_class i ON i.oid = ix.indexrelid
        WHERE ix.indrelid = ${table.oid}
          AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = ix.indexrelid AND c.conrelid = ${table.oid}
                          AND c.contype IN ('p', 'u', 'x'))
        ORDER BY i.relname`,
    );
    // The catalog names the table with its schema; the dump restores into whichever schema is current.
    for (const index of tableIndexes)
      indexes.push(`${index.definition.replace(` ON ${schema}.`, ' ON ').replace(` ON ONLY ${schema}.`, ' ON ONLY ')};\n`);
  }

  for (const seq of sequences) {
    const [state] = await run(
      db,
      sql<{ value: string; called: boolean }>`
      SELECT last_value::text AS value, is_called AS called FROM ${sql.id(seq.name)}`,
    );
    if (!state) continue;
    const target =
      seq.dependency === 'i' && seq.table !== null && seq.column !== null
        ? `pg_get_serial_sequence(${quoteText(quoteIdent(seq.table))}, ${quoteText(seq.column)})`
        : quoteText(quoteIdent(seq.name));
    await write(`SELECT pg_catalog.setval(${target}, ${state.value}, ${state.called ? 'true' : 'false'});\n`);
  }
  for (const statement of indexes) await write(statement);
  for (const statement of foreignKeys) await write(statement);
  // After the rows (which carry what the triggers computed when they were written): the functions, then their triggers.
  const functions = await run(
    db,
    sql<{ definition: string }>`
      SELECT pg_get_functiondef(p.oid) AS definition FROM pg_proc p
      WHERE p.pronamespace = current_schema()::regnamespace AND p.prokind = 'f'
        AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e')
      ORDER BY p.proname, p.oid`,
  );
  for (const f of functions)
    await write(`${f.definition.trimEnd().replace(/^CREATE OR REPLACE FUNCTION [^.(]+\./, 'CREATE FUNCTION ')};\n`);
  const triggers = await run(
    db,
    sql<{ definition: string }>`
      SELECT pg_get_triggerdef(t.oid) AS definition FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
      WHERE c.relnamespace = current_schema()::regnamespace AND NOT t.tgisinternal
      ORDER BY c.relname, t.tgname`,
  );
  for (const trigger of triggers) await write(`${trigger.definition.replace(` ON ${schema}.`, ' ON ')};\n`);
  await write('COMMIT;\n');
}

/** The column names of `PRIMARY KEY ("a", b)`. */
function keyColumns(definition: string): string[] | null {
  const match = /^PRIMARY KEY \((.*)\)/.exec(definition);
  if (!match) return null;
  return match[1]!.split(',').map((part) => {
    const name = part.trim();
    return name.startsWith('"') ? name.slice(1, -1).replace(/""/g, '"') : name;
  });
}

/**
 * A table's rows as INSERT statements. PostgreSQL itself writes each row as
 * a literal (every value as text, quoted by `quote_nullable`: exact for every
 * type, read back into the column's type) and joins a page of them, up to
 * `BATCH` rows or about `STATEMENT_CHARS` characters, into one string: a page
 * arrives as one value instead of hundreds of row objects, which V8 would
 * otherwise keep long enough (while the rest of the page comes in) to move
 * them, and every later row, into the old generation.
 */
async function dumpRows(db: Db, table: TableRow, columns: ColumnRow[], key: string[] | null, write: Write): Promise<void> {
  const stored = columns.filter((c) => c.generated !== 's');
  if (stored.length === 0) return;
  const overriding = stored.some((c) => c.identity === 'a') ? ' OVERRIDING SYSTEM VALUE' : '';
  const prefix = `INSERT INTO ${quoteIdent(table.name)} (${stored.map((c) => quoteIdent(c.name)).join(', ')})${overriding} VALUES\n`;
  const literal = `'(' || concat_ws(', ', ${stored.map((c) => `quote_nullable(${quoteIdent(c.name)}::text)`).join(', ')}) || ')'`;
  const byKey = key !== null && key.every((k) => stored.some((c) => c.name === k));
  const keys = byKey ? key.map((k, i) => ({ column: quoteIdent(k), alias: `"k${i}"` })) : [{ column: 'ctid', alias: '"k0"' }];
  const keySelect = keys.map((k) => `${k.column} AS ${k.alias}`).join(', ');
  const keyOrder = keys.map((k) => k.alias).join(', ');
  const keyOrderDesc = keys.map((k) => `${k.alias} DESC`).join(', ');
  const keyList = keys.map((k) => k.column).join(', ');

  const position = { after: null as unknown[] | null, offset: 0 };
  // Each page becomes text (and is let go) before the writer waits for the reader.
  const next = async (): Promise<string | null> => {
    const from = position.after;
    const page = byKey
      ? sql`SELECT ${sql.raw(keySelect)}, ${sql.raw(literal)} AS lit FROM ${sql.id(table.name)}
            ${from === null ? sql`` : sql`WHERE (${sql.raw(keyList)}) > (${sql.join(from.map((v) => sql`${v}`))})`}
            ORDER BY ${sql.raw(keyList)} LIMIT ${BATCH}`
      : sql`SELECT ${sql.raw(keySelect)}, ${sql.raw(literal)} AS lit FROM ${sql.id(table.name)}
            ORDER BY ctid LIMIT ${BATCH} OFFSET ${position.offset}`;
    const [result] = await run(
      db,
      sql<{ n: number; body: string | null; last: string | null }>`
        WITH page AS (${page}),
        sized AS (SELECT *, sum(length(lit)) OVER (ORDER BY ${sql.raw(keyOrder)} ROWS UNBOUNDED PRECEDING) AS running FROM page)
        SELECT count(*)::int AS n, string_agg(lit, ${',\n'} ORDER BY ${sql.raw(keyOrder)}) AS body,
               (array_agg(json_build_array(${sql.raw(keyOrder)})::text ORDER BY ${sql.raw(keyOrderDesc)}))[1] AS last
        FROM sized WHERE running - length(lit) < ${STATEMENT_CHARS}`,
    );
    if (!result || result.n === 0 || result.body === null) return null;
    position.offset += result.n;
    if (byKey && result.last !== null) position.after = JSON.parse(result.last) as unknown[];
    const text = `${prefix}${result.body};\n`;
    // Unhooked from its row (which may sit in the old generation), the page's text dies young.
    result.body = null;
    return text;
  };
  for (let text = await next(); text !== null; text = await next()) await write(text);
}
