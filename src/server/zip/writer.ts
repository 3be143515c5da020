import { once } from 'node:events';
import { PassThrough, type Readable } from 'node:stream';
import { ZipArchive } from 'archiver';

/** The zip stream stopped before it was complete: the client went away, or writing failed. */
export class ZipAborted extends Error {
  constructor(cause?: unknown) {
    super('The zip stream was closed before it was complete', { cause });
  }
}

/** An entry being written piece by piece (a board file): `write` waits while the reader is behind. */
export interface TextEntry {
  write(text: string): Promise<void>;
  end(): Promise<void>;
}

/**
 * A zip written while it is read: one entry at a time, each awaited, so at
 * most one entry's buffers are in memory and a slow reader slows the writer
 * down instead of piling data up. When the reader goes away (or anything
 * fails), every pending `write`/`add` rejects with `ZipAborted`.
 */
export class ZipWriter {
  /** The archive: hand it to the HTTP reply (or pipe it to a file). */
  readonly stream: ZipArchive;
  private failure: Error | null = null;
  private readonly controller = new AbortController();

  constructor() {
    this.stream = new ZipArchive({ zlib: { level: 6 } });
    this.stream.on('error', (error) => this.fail(error));
    this.stream.on('warning', (error) => this.fail(error));
    this.stream.on('close', () => {
      // Closed before the reader had it all: the client went away, or it was dropped.
      if (!this.stream.readableEnded) this.fail(new ZipAborted());
    });
  }

  private fail(error: unknown): void {
    if (this.failure) return;
    this.failure = error instanceof ZipAborted ? error : new ZipAborted(error);
    this.controller.abort(this.failure);
  }

  private check(): void {
    if (this.failure) throw this.failure;
  }

  /** Resolves once the entry being appended now has gone into the archive (entries are processed one at a time, in order). */
  private nextEntry(): Promise<void> {
    return once(this.stream, 'entry', { signal: this.controller.signal }).then(
      () => undefined,
      () => {
        throw this.failure ?? new ZipAborted();
      },
    );
  }

  /** Adds a whole entry from a stream (a stored file) and waits until it is written. */
  async add(name: string, source: Readable | Buffer | string, date?: Date): Promise<void> {
    this.check();
    const done = this.nextEntry();
    this.stream.append(source, { name, ...(date ? { date } : {}) });
    try {
      await done;
    } catch (error) {
      if (typeof source === 'object' && 'destroy' in source) source.destroy();
      throw error;
    }
  }

  /** Starts an entry written piece by piece; call `end` before adding anything else. */
  text(name: string): TextEntry {
    this.check();
    const body = new PassThrough();
    const done = this.nextEntry();
    // A failure rejects `done` before `end` awaits it: nobody is left waiting then.
    done.catch(() => undefined);
    this.stream.append(body, { name });
    const signal = this.controller.signal;
    return {
      write: async (text: string) => {
        this.check();
        if (!body.write(text)) {
          await once(body, 'drain', { signal }).catch(() => {
            throw this.failure ?? new ZipAborted();
          });
        }
      },
      end: async () => {
        this.check();
        body.end();
        await done;
      },
    };
  }

  /**
   * Writes the central directory; the stream ends once the reader has taken
   * the rest. Rejects if the reader goes away first (archiver's own promise
   * would wait for it forever).
   */
  async finalize(): Promise<void> {
    this.check();
    const signal = this.controller.signal;
    let onAbort: (() => void) | undefined;
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => reject(this.failure ?? new ZipAborted());
      signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      const finalized = this.stream.finalize();
      finalized.catch(() => undefined); // a failure after the abort has nobody left to tell
      await Promise.race([finalized, aborted]);
    } finally {
      signal.removeEventListener('abort', onAbort!);
    }
  }

  /** Stops the zip after a failure: the reader sees the stream break, never a zip that looks complete. */
  destroy(error: unknown): void {
    this.fail(error);
    this.stream.destroy(error instanceof Error ? error : new Error(String(error)));
  }
}
