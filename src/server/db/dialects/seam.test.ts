import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SERVER = path.resolve(import.meta.dirname, '../..');
const DB = path.join(SERVER, 'db');

/**
 * What only a dialect may know: a test of which database runs, or SQL and
 * drivers that exist on one of them only.
 */
const DIALECT_SPECIFIC: Array<[RegExp, string]> = [
  [/\bdialect\s*[!=]==/, 'tests the dialect'],
  [/\.name\s*[!=]==\s*['"](?:sqlite|postgres)['"]/, 'tests the dialect by name'],
  [/['"](?:sqlite|postgres)['"]/, 'names a dialect'],
  [/\bDialectName\s*[,)=]/, 'takes a dialect name as a parameter'],
  [/\.forUpdate\(|\.skipLocked\(\)/, 'locks rows itself (dialect.lockForUpdate / skipLocked)'],
  [/pg_notify|\bLISTEN\s/, 'uses PostgreSQL notifications (dialect.notify / listen)'],
  [/to_tsquery|to_tsvector|\bfts5\b|cards_fts|\bbm25\(/i, 'writes full-text search SQL (dialect.cardHits)'],
  [/json_agg|json_build_object|json_group_array/, 'writes dialect JSON SQL (dialect.json)'],
  [/from ['"](?:pg|better-sqlite3)['"]/, 'opens a driver itself'],
];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return full === DB ? [] : sources(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

/** Lines outside comments that match a rule, as `file:line: reason`. */
export function offences(files: Array<{ name: string; text: string }>): string[] {
  const found: string[] = [];
  for (const { name, text } of files) {
    text.split('\n').forEach((line, i) => {
      const code = line.replace(/\/\/.*$/, '').trim();
      if (code.startsWith('*') || code.startsWith('/*')) return;
      for (const [rule, reason] of DIALECT_SPECIFIC) {
        if (rule.test(code)) found.push(`${name}:${i + 1}: ${reason}`);
      }
    });
  }
  return found;
}

describe('the dialect seam', () => {
  it('keeps every difference between SQLite and PostgreSQL under src/server/db', () => {
    const files = sources(SERVER).map((file) => ({ name: path.relative(SERVER, file), text: readFileSync(file, 'utf8') }));
    expect(files.length).toBeGreaterThan(50);
    expect(offences(files)).toEqual([]);
  });

  it('notices a dialect test, a dialect name and dialect SQL', () => {
    const found = offences([
      { name: 'a.ts', text: "if (deps.database.dialect === 'postgres') await x();" },
      { name: 'b.ts', text: "  .$if(dialect !== 'sqlite', (q) => q.forUpdate())" },
      { name: 'c.ts', text: 'sql`select pg_notify(${channel}, ${payload})`' },
      { name: 'd.ts', text: "import pg from 'pg';" },
      { name: 'e.ts', text: '// a comment may say postgres === sqlite\nconst fine = 1;' },
    ]);
    expect(found.map((f) => f.split(':')[0])).toEqual(['a.ts', 'a.ts', 'b.ts', 'b.ts', 'b.ts', 'c.ts', 'd.ts']);
  });
});
