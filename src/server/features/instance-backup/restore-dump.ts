import { StringDecoder } from 'node:string_decoder';
import type { DialectName } from '../../db/dialect.js';
import { dialectFor, dialectNamed } from '../../db/dialects/index.js';
import { StatementSplitter, dumpDialect, type Statement } from '../../db/dump/sql-text.js';
import { TargetRefused, type Target } from '../../db/dump/restore-target.js';
import type { S3Config } from '../../config.js';
import { fileStore, isStoredName, type FileStore } from '../../files/store.js';
import { BadZip, SafeZip, type ZipLimits } from '../../zip/reader.js';

/** The restore will not run: the input or the target database is not what it needs. Nothing was changed. */
export class RestoreRefused extends Error {}

export interface RestoreSummary {
  dialect: DialectName;
  statements: number;
  files: number;
}

/** An instance export is the administrator's own: its names and links are checked, its size is not capped. */
const OWN_EXPORT: ZipLimits = { maxEntries: Number.MAX_SAFE_INTEGER, maxTotalBytes: null, maxRatio: null, ratioFloorBytes: 0 };

/**
 * Loads an instance export (GET /api/data/export) into an empty database and
 * puts its files back into the file store (`DATA_DIR/uploads/`, or the bucket
 * when `s3` is given). `database.sql` is read and
 * run statement by statement as it is unpacked (one transaction: it is the
 * dump's own BEGIN … COMMIT); just before its COMMIT the files are copied to
 * the stored names the restored rows give them. Any failure rolls the
 * database back and removes the files written.
 */
export async function restoreExport(options: {
  zipFile: string;
  databaseUrl: string;
  dataDir: string;
  /** The bucket the files go to (the configuration's `s3`); null: `DATA_DIR/uploads/`. */
  s3: S3Config | null;
  log?: (line: string) => void;
}): Promise<RestoreSummary> {
  const log = options.log ?? (() => undefined);
  const dialect = dialectFor(options.databaseUrl);
  let zip: SafeZip;
  try {
    zip = await SafeZip.open(options.zipFile, OWN_EXPORT);
  } catch (error) {
    throw new RestoreRefused(error instanceof Error ? error.message : String(error));
  }
  try {
    const dump = zip.entries.get('database.sql');
    if (!dump) throw new RestoreRefused('The zip holds no database.sql: restore takes an instance export (GET /api/data/export)');
    const source = await zip.stream(dump);
    const decoder = new StringDecoder('utf8');
    const chunks = source[Symbol.asyncIterator]() as AsyncIterator<Buffer>;

    // The header says which database the dump was written for; read it before touching the target.
    let head = '';
    while (head.length < 1024) {
      const next = await chunks.next();
      if (next.done) break;
      head += decoder.write(next.value);
    }
    const madeName = dumpDialect(head);
    if (madeName === null) throw new RestoreRefused('database.sql is not a Tavla database dump');
    const made = dialectNamed(madeName);
    if (made !== dialect)
      throw new RestoreRefused(
        `The dump was made for ${made.label}, but DATABASE_URL points at ${dialect.label}: restore it into an empty ${made.label} database`,
      );

    const target = await dialect.restoreTarget(options.databaseUrl);
    const store = fileStore({ dataDir: options.dataDir, s3: options.s3 });
    const written: string[] = [];
    let statements = 0;
    let committed = false;
    try {
      await clearEmptyTarget(target);
      const splitter = new StatementSplitter(made.name);
      const run = async (statement: Statement) => {
        if (statement.keyword === 'COMMIT') {
          log(`copying the files to ${store.describe()}`);
          await copyFiles(target, zip, store, written);
          // The dump holds tables, not their triggers (see account-announcements.ts).
          await target.completeSchema();
          committed = true;
        }
        await target.exec(statement.text);
        statements++;
        if (statements % 1000 === 0) log(`${statements} statements`);
      };
      for (const statement of splitter.push(head)) await run(statement);
      for (;;) {
        const next = await chunks.next();
        if (next.done) break;
        for (const statement of splitter.push(decoder.write(next.value))) await run(statement);
      }
      for (const statement of splitter.end()) await run(statement);
      if (!committed) throw new Error('database.sql ended before its COMMIT: the export is incomplete');
    } catch (error) {
      await target.rollback().catch(() => undefined);
      await store.remove(written);
      throw error;
    } finally {
      await target.close();
    }
    return { dialect: dialect.name, statements, files: written.length };
  } catch (error) {
    if (error instanceof BadZip || error instanceof TargetRefused) throw new RestoreRefused(error.message);
    throw error;
  } finally {
    zip.close();
  }
}

/**
 * Refuses a database that holds any row; tables left empty (a schema made
 * but never used) are dropped so that the dump can create them again.
 */
async function clearEmptyTarget(target: Target): Promise<void> {
  const { data, all } = await target.tables();
  for (const table of data) {
    if (await target.hasRows(table))
      throw new RestoreRefused(
        `The database is not empty (table ${table} has rows). Restore needs an empty database: point DATABASE_URL at a new one.`,
      );
  }
  if (all.length > 0) await target.drop(all);
}

/** Puts each attachment and picture of the zip back under the stored name its restored row gives it. */
async function copyFiles(target: Target, zip: SafeZip, store: FileStore, written: string[]): Promise<void> {
  const done = new Set<string>();
  for (const [name, entry] of zip.entries) {
    let storedName: string | null = null;
    const attachment = /^attachments\/[^/]+\/(\d+)-[^/]*$/.exec(name);
    const image = /^attachments\/[^/]+\/images\/([^/]+)$/.exec(name);
    if (attachment) storedName = await target.attachmentFile(Number(attachment[1]));
    else if (image && isStoredName(image[1]!) && (await target.imageExists(image[1]!))) storedName = image[1]!;
    if (storedName === null || !isStoredName(storedName) || done.has(storedName)) continue;
    done.add(storedName);
    // A file already there (a restore run again after a failure) is kept as it is, and not removed on failure.
    if (await store.put(storedName, await zip.stream(entry))) written.push(storedName);
  }
}
