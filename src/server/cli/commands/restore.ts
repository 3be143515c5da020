import { existsSync } from 'node:fs';
import path from 'node:path';
import { RestoreRefused, restoreExport } from '../../features/instance-backup/restore-dump.js';
import { fileStore } from '../../files/store.js';
import { Failure, UsageError, type Command } from '../command.js';
import { configuration, redactUrl } from '../service.js';

export const restore: Command = {
  name: 'restore',
  summary: 'load an instance export into an EMPTY database (and its files into DATA_DIR)',
  usage: '<file.zip>',
  help: `Loads a backup (\`tavla backup\`, or the admin page's instance export) into the
empty database DATABASE_URL names and puts its files back under DATA_DIR/uploads.
It refuses, changing nothing, when the database holds any row or when the dump
was made for the other kind of database. Sessions are not restored: everyone
signs in again. Stop the service first; start it on the restored database after.`,
  positionals: [1, 1],
  async run(args, io) {
    const zipFile = path.resolve(args.positionals[0]!);
    if (!existsSync(zipFile)) throw new UsageError(`No such file: ${zipFile}`);
    const config = configuration();
    const started = Date.now();
    io.out(`Restoring ${zipFile}\n  into ${redactUrl(config.databaseUrl)}\n  files into ${fileStore(config).describe()}`);
    try {
      const summary = await restoreExport({
        zipFile,
        databaseUrl: config.databaseUrl,
        dataDir: config.dataDir,
        s3: config.s3,
        log: (line) => io.out(`  ${line}`),
      });
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      io.out(`Restored (${summary.dialect}): ${summary.statements} statements, ${summary.files} files in ${seconds} s.`);
      io.out('Start the service on it as usual; everyone signs in again (sessions are not part of an export).');
      return 0;
    } catch (error) {
      if (error instanceof RestoreRefused) throw new Failure(`Restore refused, nothing was changed: ${error.message}`);
      throw error;
    }
  },
};
