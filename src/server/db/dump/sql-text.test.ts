import { describe, expect, it } from 'vitest';
import { StatementSplitter, dumpDialect, dumpHeader, sqliteLiteral } from './sql-text.js';

/** Splits `text` fed in pieces of `size` characters. */
function split(dialect: 'sqlite' | 'postgres', text: string, size: number) {
  const splitter = new StatementSplitter(dialect);
  const out = [];
  for (let i = 0; i < text.length; i += size) out.push(...splitter.push(text.slice(i, i + size)));
  out.push(...splitter.end());
  return out;
}

describe('StatementSplitter', () => {
  const sqlite = [
    '-- header; with a semicolon',
    'PRAGMA foreign_keys=OFF;',
    'BEGIN TRANSACTION;',
    `CREATE TABLE "t" ("a" text, [b;] integer, \`c\` blob);`,
    `INSERT INTO "t" ("a") VALUES ('it''s; fine'),('two\nlines;\n'),(/* ; */ 'x');`,
    `CREATE TRIGGER cards_fts_insert AFTER INSERT ON cards BEGIN
      INSERT INTO cards_fts(rowid, name) VALUES (new.id, new.name);
      DELETE FROM x WHERE y = 'END;';
    END;`,
    'COMMIT;',
  ].join('\n');

  it('cuts SQLite text at the right semicolons, however it is fed', () => {
    for (const size of [1, 2, 3, 7, 64, 100_000]) {
      const statements = split('sqlite', sqlite, size);
      expect(
        statements.map((s) => s.keyword),
        `pieces of ${size}`,
      ).toEqual(['PRAGMA', 'BEGIN', 'CREATE', 'INSERT', 'CREATE', 'COMMIT']);
      expect(statements[3]!.text).toBe(`INSERT INTO "t" ("a") VALUES ('it''s; fine'),('two\nlines;\n'),(/* ; */ 'x');`);
      expect(statements[4]!.text.endsWith('END;')).toBe(true);
      expect(statements[4]!.text).toContain("'END;'");
    }
  });

  it('knows PostgreSQL dollar quotes, E strings and parameters', () => {
    const text = [
      'SET standard_conforming_strings = on;',
      'DO $body$ BEGIN PERFORM 1; END $body$;',
      "SELECT $$a;b$$, E'it\\'s; \\\\', $1;",
      "INSERT INTO t VALUES ('C:\\'), ('x;y');",
      '-- trailing comment only',
    ].join('\n');
    for (const size of [1, 5, 1000]) {
      const statements = split('postgres', text, size);
      expect(
        statements.map((s) => s.text),
        `pieces of ${size}`,
      ).toEqual([
        'SET standard_conforming_strings = on;',
        'DO $body$ BEGIN PERFORM 1; END $body$;',
        "SELECT $$a;b$$, E'it\\'s; \\\\', $1;",
        // Without E, a backslash is an ordinary character: 'C:\' is a whole string.
        "INSERT INTO t VALUES ('C:\\'), ('x;y');",
      ]);
    }
  });

  it('hands back an unterminated last statement at the end', () => {
    expect(split('sqlite', 'SELECT 1;\nSELECT 2', 4).map((s) => s.text)).toEqual(['SELECT 1;', 'SELECT 2']);
  });
});

describe('dump text', () => {
  it('writes SQLite literals that read back the same', () => {
    expect(sqliteLiteral(null)).toBe('NULL');
    expect(sqliteLiteral(12)).toBe('12');
    expect(sqliteLiteral(1.5)).toBe('1.5');
    expect(sqliteLiteral(2n ** 62n)).toBe('4611686018427387904');
    expect(sqliteLiteral("it's")).toBe("'it''s'");
    expect(sqliteLiteral('a\u0000b')).toBe("CAST(X'610062' AS TEXT)");
    expect(sqliteLiteral(Buffer.from([1, 255]))).toBe("X'01ff'");
  });

  it('names the dialect in the header', () => {
    const head = dumpHeader('postgres', { serviceVersion: '1.2.3', exportedAt: '2026-01-01T00:00:00.000Z' });
    expect(dumpDialect(head)).toBe('postgres');
    expect(dumpDialect(dumpHeader('sqlite', { serviceVersion: '1', exportedAt: 'x' }))).toBe('sqlite');
    expect(dumpDialect('CREATE TABLE x (a int);')).toBeNull();
  });
});
