import type { ServerResponse } from 'node:http';
import { finished } from 'node:stream';
import type { Limits, Release } from '../../limits/limits.js';

/** Seconds a refused export is told to wait: slots free up as downloads end or are dropped. */
const RETRY_AFTER_SECONDS = 10;

/**
 * An export's slot, for the account and in the instance (the limits
 * `exports.account` and `exports.instance`), or their 429. Each export holds
 * a database snapshot until its reader has taken it all, so the number must
 * stay bounded whatever the readers do.
 */
export function takeExportSlot(limits: Limits, accountId: string): Release {
  const held = limits.slots([
    ['exports.account', accountId],
    ['exports.instance', 'instance'],
  ]);
  if ('full' in held) throw limits.refusal(held.full, RETRY_AFTER_SECONDS);
  return held.release;
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
