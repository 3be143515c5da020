import { randomBytes } from 'node:crypto';
import { constants, createWriteStream, statSync } from 'node:fs';
import { copyFile, mkdir, open, readdir, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  FileStore,
  countingStream,
  isStoredName,
  newStoredName,
  uploadFailure,
  UploadTooLarge,
  wasTruncated,
  type OpenedFile,
  type SavedFile,
  type SaveOptions,
} from './file-store.js';

/**
 * Files under `DATA_DIR/uploads/`. A file is first written to `uploads/tmp/`
 * and renamed to its random stored name only once it arrived whole and within
 * the limit; any failure removes the partial file.
 */
export class DiskStore extends FileStore {
  readonly kind = 'disk';
  readonly dir: string;
  readonly scratchDir: string;

  constructor(dataDir: string) {
    super();
    this.dir = path.join(dataDir, 'uploads');
    this.scratchDir = path.join(this.dir, 'tmp');
  }

  describe(): string {
    return this.dir;
  }

  /** The path of a stored file; refuses anything that is not a stored name (no way out of the folder). */
  pathOf(storedName: string): string {
    if (!isStoredName(storedName)) throw new Error(`not a stored file name: ${JSON.stringify(storedName)}`);
    return path.join(this.dir, storedName);
  }

  /** The stored files in the folder (the partial ones in `tmp/` are none of them). */
  async list(): Promise<string[]> {
    try {
      return (await readdir(this.dir)).filter(isStoredName);
    } catch (error) {
      if (isMissing(error)) return [];
      throw error;
    }
  }

  sweepScratch(olderThanMs?: number): Promise<number> {
    return sweepFolder(this.scratchDir, olderThanMs);
  }

  async save(source: Readable, options: SaveOptions): Promise<SavedFile> {
    const tmp = await this.scratchFile();
    // Which side failed first: a source error that reaches the file is the client's, not the disk's.
    let firstFailure: 'source' | 'write' | null = null;
    source.once('error', () => (firstFailure ??= 'source'));
    const counter = countingStream(options.limitBytes);
    if (source.destroyed) firstFailure = 'source';
    const target = createWriteStream(tmp, { flags: 'wx', mode: 0o600 });
    target.once('error', () => (firstFailure ??= 'write'));
    try {
      try {
        await pipeline(source, counter, target);
      } catch (error) {
        throw uploadFailure(error, firstFailure);
      }
      if (wasTruncated(source)) throw new UploadTooLarge();
      const storedName = newStoredName(options.extension(counter.head));
      await rename(tmp, this.pathOf(storedName));
      return { storedName, size: counter.size, head: counter.head };
    } catch (error) {
      target.destroy();
      // A failure before the file was even opened would otherwise race its creation: unlink once it has closed.
      if (!target.closed) await new Promise<void>((resolve) => target.once('close', () => resolve()));
      await unlink(tmp).catch(() => undefined);
      throw error;
    }
  }

  async put(storedName: string, source: Readable): Promise<boolean> {
    const destination = this.pathOf(storedName);
    if (await exists(destination)) {
      source.resume();
      return false;
    }
    const tmp = await this.scratchFile();
    try {
      await pipeline(source, createWriteStream(tmp, { flags: 'wx', mode: 0o600 }));
      await rename(tmp, destination);
      return true;
    } catch (error) {
      await rm(tmp, { force: true });
      throw error;
    }
  }

  async copy(storedName: string): Promise<string | null> {
    const copyName = newStoredName(path.extname(storedName).slice(1) || null);
    try {
      await copyFile(this.pathOf(storedName), this.pathOf(copyName), constants.COPYFILE_EXCL);
    } catch (error) {
      await unlink(this.pathOf(copyName)).catch(() => undefined);
      if (isMissing(error)) return null;
      throw error;
    }
    return copyName;
  }

  async open(storedName: string): Promise<OpenedFile | null> {
    if (!isStoredName(storedName)) return null;
    try {
      const handle = await open(this.pathOf(storedName), 'r');
      try {
        const { size } = await handle.stat();
        return { stream: handle.createReadStream(), size };
      } catch (error) {
        await handle.close();
        throw error;
      }
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  // A stat each, synchronously: an export asks between a batch's query and its text, where it should not wait.
  existing(storedNames: readonly string[]): Promise<Set<string>> {
    const found = new Set<string>();
    for (const name of storedNames) {
      if (!isStoredName(name)) continue;
      try {
        if (statSync(this.pathOf(name)).isFile()) found.add(name);
      } catch {
        // missing: not exported
      }
    }
    return Promise.resolve(found);
  }

  async remove(storedNames: Iterable<string>): Promise<void> {
    for (const name of new Set(storedNames)) {
      if (isStoredName(name)) await unlink(this.pathOf(name)).catch(ignoreMissing);
    }
  }

  async check(): Promise<void> {
    const probe = await this.scratchFile();
    try {
      await writeFile(probe, 'tavla', { flag: 'wx', mode: 0o600 });
    } finally {
      await rm(probe, { force: true });
    }
  }

  private async scratchFile(): Promise<string> {
    await mkdir(this.scratchDir, { recursive: true });
    return path.join(this.scratchDir, `${randomBytes(16).toString('hex')}.part`);
  }
}

/** Removes the files in `dir` older than `olderThanMs`; answers how many went. */
export async function sweepFolder(dir: string, olderThanMs = 3600_000): Promise<number> {
  let removed = 0;
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return 0;
  }
  for (const name of names) {
    const file = path.join(dir, name);
    const info = await stat(file).catch(() => null);
    if (
      info &&
      Date.now() - info.mtimeMs > olderThanMs &&
      (await rm(file, { force: true }).then(
        () => true,
        () => false,
      ))
    )
      removed++;
  }
  return removed;
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    (error: unknown) => {
      if (isMissing(error)) return false;
      throw error;
    },
  );
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | null)?.code === 'ENOENT';
}

function ignoreMissing(error: unknown): void {
  if (!isMissing(error)) throw error;
}
