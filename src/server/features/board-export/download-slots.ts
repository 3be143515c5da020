import type { ServerResponse } from 'node:http';
import { finished } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { Config } from '../../config.js';
import { HttpError } from '../../http/errors.js';

/** Seconds a refused export is told to wait: slots free up as downloads end or are dropped. */
const RETRY_AFTER_SECONDS = 10;

/**
 * How many exports run at once, per account and for the whole instance.
 * Each one holds a database snapshot until its reader has taken it all, so
 * the number must stay bounded whatever the readers do.
 */
export class DownloadSlots {
  private readonly byAccount = new Map<string, number>();
  private total = 0;

  constructor(private readonly limits: { perAccount: number; perInstance: number }) {}

  /** A slot for the account, or 429 (with Retry-After) when it or the instance is at its limit. */
  take(accountId: string, reply: FastifyReply): () => void {
    const mine = this.byAccount.get(accountId) ?? 0;
    if (mine >= this.limits.perAccount || this.total >= this.limits.perInstance) {
      reply.header('retry-after', String(RETRY_AFTER_SECONDS));
      throw new HttpError(
        429,
        mine >= this.limits.perAccount
          ? 'Too many exports of yours are running; try again when one has finished'
          : 'Too many exports are running; try again later',
      );
    }
    this.byAccount.set(accountId, mine + 1);
    this.total += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.total -= 1;
      const left = (this.byAccount.get(accountId) ?? 1) - 1;
      if (left > 0) this.byAccount.set(accountId, left);
      else this.byAccount.delete(accountId);
    };
  }
}

/** The one pool of export slots the board and instance exports share. */
export function exportSlots(config: Pick<Config, 'exportsPerAccount' | 'exportsPerInstance'>): DownloadSlots {
  return new DownloadSlots({ perAccount: config.exportsPerAccount, perInstance: config.exportsPerInstance });
}

/**
 * Keeps a streamed download in check: its slot is given back once the
 * response is over (done, gone or dropped) and the export writing it has
 * stopped (so its snapshot is let go); a reader that takes nothing for
 * `stallMs` while data waits for it is dropped.
 */
export function watchDownload(res: ServerResponse, work: Promise<unknown>, release: () => void, stallMs: number): void {
  // `finished` also answers for a response that closed already (a client gone before the export began).
  const over = new Promise<void>((resolve) => finished(res, () => resolve()));
  void Promise.allSettled([over, work]).then(release);
  dropWhenStalled(res, stallMs, over);
}

/**
 * Progress is the reader taking bytes: what waits in the response's and the
 * socket's buffers shrinks, or they drain. A reader that is merely slower
 * than the export keeps the download alive; one that stops reading does not.
 */
function dropWhenStalled(res: ServerResponse, stallMs: number, over: Promise<void>): void {
  let waiting = res.writableLength;
  let progressAt = Date.now();
  const onDrain = () => {
    progressAt = Date.now();
  };
  const timer = setInterval(
    () => {
      const now = Date.now();
      const length = res.writableLength;
      if (length === 0 || length < waiting) progressAt = now;
      waiting = length;
      // Destroying the response makes Fastify destroy the export's stream, which stops the export.
      if (now - progressAt >= stallMs) res.destroy();
    },
    Math.min(1000, Math.max(20, stallMs / 10)),
  );
  timer.unref();
  res.on('drain', onDrain);
  void over.then(() => {
    clearInterval(timer);
    res.off('drain', onDrain);
  });
}
