import { HttpError } from '../../http/errors.js';

/** Requests one feed address may make per window: calendars poll every few minutes at most. */
export const FEED_REQUESTS_PER_WINDOW = 60;
const WINDOW_MS = 60 * 60 * 1000;
/** Windows kept at most; past it, finished windows are forgotten first. */
const MAX_KEPT = 10_000;

/**
 * A fixed-window count per feed, in this process's memory: a leaked address
 * cannot be used to make the server build a calendar thousands of times.
 */
export class FeedLimit {
  readonly #windows = new Map<string, { start: number; count: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Counts a request for the key (the token's hash), or throws 429 with Retry-After. */
  take(key: string): void {
    const now = this.now();
    let window = this.#windows.get(key);
    if (!window || now - window.start >= WINDOW_MS) {
      if (this.#windows.size >= MAX_KEPT) this.#forgetFinished(now);
      window = { start: now, count: 0 };
      this.#windows.set(key, window);
    }
    if (window.count >= FEED_REQUESTS_PER_WINDOW) {
      const retryAfter = Math.max(1, Math.ceil((window.start + WINDOW_MS - now) / 1000));
      throw new HttpError(429, 'Too many requests for this feed, try again later', { 'retry-after': String(retryAfter) });
    }
    window.count += 1;
  }

  #forgetFinished(now: number): void {
    for (const [key, window] of this.#windows) if (now - window.start >= WINDOW_MS) this.#windows.delete(key);
    // Still full of live windows: start over rather than grow without bound.
    if (this.#windows.size >= MAX_KEPT) this.#windows.clear();
  }
}
