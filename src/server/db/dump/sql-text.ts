import type { DialectName } from '../dialect.js';

/** Tables whose rows stay behind in a dump: everyone signs in again after a restore. */
export const STRUCTURE_ONLY = new Set(['session', 'verification']);
/** Rows read per query while dumping a table (as the board exports read them). */
export const BATCH = 500;
/** An INSERT of a dump is cut once its text passes this many characters (or a batch of rows). */
export const STATEMENT_CHARS = 1 << 20;

/** `"name"`, inner quotes doubled: an identifier as both databases read it. */
export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** A string literal, inner quotes doubled (PostgreSQL with standard_conforming_strings, and SQLite). */
export function quoteText(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

/**
 * Multi-row INSERT statements for these row literals (`(…, …)`), a new
 * statement whenever one passes `STATEMENT_CHARS`, each ending `;\n`.
 */
export function insertStatements(prefix: string, literals: string[]): string {
  const statements: string[] = [];
  let start = 0;
  let size = 0;
  for (let i = 0; i < literals.length; i++) {
    size += literals[i]!.length;
    if (size >= STATEMENT_CHARS || i === literals.length - 1) {
      statements.push(`${prefix}${literals.slice(start, i + 1).join(',\n')};\n`);
      start = i + 1;
      size = 0;
    }
  }
  return statements.join('');
}

/** A value read from SQLite as a literal SQLite reads back to the same value and type. */
export function sqliteLiteral(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'number') {
    if (Number.isFinite(value)) return String(value);
    return value > 0 ? '9e999' : value < 0 ? '-9e999' : 'NULL';
  }
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'string') {
    // A NUL cannot be written inside SQL text: such a string goes as its bytes.
    return value.includes('\u0000') ? `CAST(X'${Buffer.from(value, 'utf8').toString('hex')}' AS TEXT)` : quoteText(value);
  }
  if (value instanceof Uint8Array) return `X'${Buffer.from(value).toString('hex')}'`;
  if (typeof value === 'boolean') return value ? '1' : '0';
  throw new Error(`cannot write a ${typeof value} as SQL`);
}

/** The first lines of every dump; `dumpDialect` reads the dialect back. */
export function dumpHeader(dialect: DialectName, meta: { serviceVersion: string; exportedAt: string }): string {
  return [
    '-- Tavla database dump',
    `-- dialect: ${dialect}`,
    `-- service version: ${meta.serviceVersion}`,
    `-- written: ${meta.exportedAt}`,
    '-- Restores into an empty database of the same kind: npm run restore -- <export.zip>',
    `-- (or ${dialect === 'sqlite' ? 'sqlite3 <file> < database.sql' : 'psql -v ON_ERROR_STOP=1 -f database.sql <database>'}).`,
    '',
  ].join('\n');
}

/** The dialect a dump was written for, from its header; null when the text is not a Tavla dump. */
export function dumpDialect(head: string): DialectName | null {
  if (!head.startsWith('-- Tavla database dump')) return null;
  const match = /^-- dialect: (sqlite|postgres)$/m.exec(head);
  return match ? (match[1] as DialectName) : null;
}

/** One complete statement of a script, and its first keyword in upper case (`CREATE`, `INSERT`, `COMMIT`, …). */
export interface Statement {
  text: string;
  keyword: string;
}

/**
 * Cuts SQL text into statements as it arrives in pieces, so a dump of any
 * size is read with a small buffer. It knows what may hide a `;`: quoted
 * strings and identifiers, comments, PostgreSQL dollar quotes and E'' strings,
 * and the body of an SQLite `CREATE TRIGGER … BEGIN … END;`.
 */
export class StatementSplitter {
  private buffer = '';
  private pos = 0;
  private start = 0;
  private mode: 'code' | 'single' | 'escaped' | 'double' | 'bracket' | 'backtick' | 'line' | 'block' | 'dollar' = 'code';
  private dollarTag = '';
  private word = '';
  private words: string[] = [];
  private lastWord = '';
  private trigger = false;
  private content = false;

  constructor(private readonly dialect: DialectName) {}

  /** Adds text; answers the statements it completed. */
  push(text: string): Statement[] {
    this.buffer += text;
    return this.scan(false);
  }

  /** The end of the text: answers what is left, if it holds more than comments and blanks. */
  end(): Statement[] {
    const statements = this.scan(true);
    const rest = this.buffer.slice(this.start).trim();
    if (this.content && rest !== '') statements.push({ text: rest, keyword: this.keyword() });
    this.buffer = '';
    return statements;
  }

  private keyword(): string {
    return (this.words[0] ?? '').toUpperCase();
  }

  private endWord(): void {
    if (this.word === '') return;
    const upper = this.word.toUpperCase();
    if (this.words.length < 4) {
      this.words.push(upper);
      const [first, second, third] = this.words;
      // SQLite's trigger body holds statements up to its END; PostgreSQL's trigger runs a function and ends at its `;`.
      if (
        this.dialect === 'sqlite' &&
        first === 'CREATE' &&
        (second === 'TRIGGER' || ((second === 'TEMP' || second === 'TEMPORARY') && third === 'TRIGGER'))
      )
        this.trigger = true;
    }
    this.lastWord = upper;
    this.word = '';
  }

  private scan(final: boolean): Statement[] {
    const out: Statement[] = [];
    const b = this.buffer;
    let i = this.pos;
    const need = (n: number) => i + n < b.length || final;
    while (i < b.length) {
      const c = b[i]!;
      switch (this.mode) {
        case 'code': {
          if (/[A-Za-z0-9_]/.test(c)) {
            this.word += c;
            this.content = true;
            i++;
            continue;
          }
          if (c === '$' && this.dialect === 'postgres' && this.word === '') {
            const match = /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/.exec(b.slice(i, i + 70));
            if (match) {
              this.dollarTag = match[0];
              this.mode = 'dollar';
              this.content = true;
              i += match[0].length;
              continue;
            }
            if (!final && b.length - i < 70 && !/^\$[^A-Za-z_$]/.test(b.slice(i))) break; // a tag may be cut off
          }
          const escapedString = c === "'" && this.dialect === 'postgres' && (this.word === 'E' || this.word === 'e');
          this.endWord();
          if (c === "'") {
            this.mode = escapedString ? 'escaped' : 'single';
            this.content = true;
          } else if (c === '"') {
            this.mode = 'double';
            this.content = true;
          } else if (c === '[' && this.dialect === 'sqlite') {
            this.mode = 'bracket';
            this.content = true;
          } else if (c === '`') {
            this.mode = 'backtick';
            this.content = true;
          } else if (c === '-' || c === '/') {
            if (!need(1)) break;
            if (c === '-' && b[i + 1] === '-') {
              this.mode = 'line';
              i += 2;
              continue;
            }
            if (c === '/' && b[i + 1] === '*') {
              this.mode = 'block';
              i += 2;
              continue;
            }
            this.content = true;
          } else if (c === ';') {
            if (!this.trigger || this.lastWord === 'END') {
              const text = b.slice(this.start, i + 1).trim();
              if (this.content) out.push({ text, keyword: this.keyword() });
              this.start = i + 1;
              this.words = [];
              this.lastWord = '';
              this.trigger = false;
              this.content = false;
            } else {
              this.lastWord = ';';
            }
          } else if (!/\s/.test(c)) {
            this.content = true;
            this.lastWord = c;
          }
          i++;
          continue;
        }
        case 'single':
        case 'double':
        case 'backtick': {
          const close = this.mode === 'single' ? "'" : this.mode === 'double' ? '"' : '`';
          const at = b.indexOf(close, i);
          if (at === -1) {
            i = b.length;
            continue;
          }
          if (at + 1 >= b.length && !final) {
            i = at; // a doubled quote may follow in the next piece
            break;
          }
          if (b[at + 1] === close) {
            i = at + 2;
            continue;
          }
          this.mode = 'code';
          i = at + 1;
          continue;
        }
        case 'escaped': {
          if (c === '\\') {
            if (!need(1)) break;
            i += 2;
            continue;
          }
          if (c === "'") {
            if (!need(1)) break;
            if (b[i + 1] === "'") {
              i += 2;
              continue;
            }
            this.mode = 'code';
          }
          i++;
          continue;
        }
        case 'bracket': {
          const at = b.indexOf(']', i);
          if (at === -1) i = b.length;
          else {
            this.mode = 'code';
            i = at + 1;
          }
          continue;
        }
        case 'line': {
          const at = b.indexOf('\n', i);
          if (at === -1) i = b.length;
          else {
            this.mode = 'code';
            i = at + 1;
          }
          continue;
        }
        case 'block':
        case 'dollar': {
          const close = this.mode === 'block' ? '*/' : this.dollarTag;
          const at = b.indexOf(close, i);
          if (at !== -1) {
            this.mode = 'code';
            i = at + close.length;
            continue;
          }
          if (final) {
            i = b.length;
            continue;
          }
          // The closing mark may be cut off at the end of this piece.
          i = Math.max(i, b.length - close.length + 1);
          break;
        }
      }
      break;
    }
    // Keep only the unfinished statement.
    if (this.start > 0) {
      this.buffer = b.slice(this.start);
      i -= this.start;
      this.start = 0;
    }
    this.pos = i;
    return out;
  }
}
