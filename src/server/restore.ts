/**
 * npm run restore -- <export.zip>
 *
 * Loads an instance export (GET /api/data/export) into the EMPTY database
 * that DATABASE_URL names (the SQLite file in DATA_DIR by default) and puts
 * its files back under DATA_DIR/uploads/ (or into S3_BUCKET when it is set). It refuses, changing nothing, when
 * the database already holds rows or when the dump was made for the other
 * kind of database. Sessions are not restored: everyone signs in again.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig } from './config.js';
import { fileStore } from './files/store.js';
import { RestoreRefused, restoreExport } from './features/instance-backup/restore-dump.js';

async function main(): Promise<number> {
  const [file, ...rest] = process.argv.slice(2).filter((a) => a !== '--');
  if (!file || rest.length > 0 || file === '--help' || file === '-h') {
    console.error('usage: npm run restore -- <export.zip>   (DATABASE_URL / DATA_DIR say where to)');
    return 2;
  }
  const zipFile = path.resolve(file);
  if (!existsSync(zipFile)) {
    console.error(`No such file: ${zipFile}`);
    return 2;
  }
  const config = loadConfig();
  const started = Date.now();
  console.log(`Restoring ${zipFile}\n  into ${redact(config.databaseUrl)}\n  files into ${fileStore(config).describe()}`);
  const summary = await restoreExport({
    zipFile,
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    s3: config.s3,
    log: (line) => console.log(`  ${line}`),
  });
  console.log(
    `Restored (${summary.dialect}): ${summary.statements} statements, ${summary.files} files in ${((Date.now() - started) / 1000).toFixed(1)} s.\n` +
      'Start the service on it as usual; everyone signs in again (sessions are not part of an export).',
  );
  return 0;
}

/** A database address without its password, for the log. */
function redact(url: string): string {
  return url.replace(/\/\/([^:/@]+):[^@]*@/, '//$1:***@');
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof RestoreRefused || error instanceof ConfigError) console.error(`Restore refused: ${error.message}`);
    else console.error('Restore failed, nothing was kept:', error);
    process.exit(1);
  },
);
