import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { writeInstanceZip } from '../../features/instance-backup/instance-export.service.js';
import { Failure, type Command } from '../command.js';
import { openService } from '../service.js';

export const backup: Command = {
  name: 'backup',
  summary: 'write the instance export (every board, file and database.sql) to a zip',
  usage: '<file.zip> [--force]',
  help: `Options:
  --force   replace the file when it exists

The same zip as the admin page's instance export (GET /api/data/export), read
from one consistent snapshot while the service keeps running. \`tavla restore\`
loads it into an empty database. The file appears only once it is complete.`,
  options: { force: { type: 'boolean' } },
  positionals: [1, 1],
  async run(args, io) {
    const file = path.resolve(args.positionals[0]!);
    if (existsSync(file) && !args.values.force)
      throw new Failure(`${file} exists: choose another name, or --force to replace it`);
    if (!existsSync(path.dirname(file))) throw new Failure(`No such folder: ${path.dirname(file)}`);
    const service = await openService(io);
    const { ZipWriter } = await import('../../zip/writer.js');
    // Written beside the target and renamed at the end: a failed backup leaves no zip that looks whole.
    const partial = `${file}.${randomBytes(4).toString('hex')}.part`;
    const zip = new ZipWriter();
    const started = Date.now();
    try {
      await Promise.all([
        writeInstanceZip(service.deps, zip),
        pipeline(zip.stream, createWriteStream(partial, { flags: 'wx', mode: 0o600 })),
      ]);
      await rename(partial, file);
    } catch (error) {
      zip.stream.destroy();
      await rm(partial, { force: true });
      throw error;
    } finally {
      await service.close();
    }
    const { size } = await stat(file);
    io.out(`Backup written: ${file} (${(size / 1024 / 1024).toFixed(1)} MiB in ${((Date.now() - started) / 1000).toFixed(1)} s)`);
    return 0;
  },
};
