import { HttpError } from '../../http/errors.js';

const WINDOW_MS = 60_000;
/** Past this many addresses in one window, the oldest windows are dropped first (memory stays bounded). */
const MAX_ADDRESSES = 100_000;

/**
 * Requests per address and minute, counted in this process: a fixed window
 * per address. Kept in memory rather than the database because the public
 * view polls, and a write per look would cost more than the look itself.
 */
export class AddressLimiter {
  readonly #windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly perMinute: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one request from `address`; 429 with Retry-After once the window is full. */
  take(address: string): void {
    const now = this.now();
    let window = this.#windows.get(address);
    if (!window || now - window.start >= WINDOW_MS) {
      this.#windows.delete(address);
      if (this.#windows.size >= MAX_ADDRESSES) this.#prune(now);
      window = { start: now, count: 0 };
      this.#windows.set(address, window);
    }
    if (++window.count <= this.perMinute) return;
    const wait = Math.max(1, Math.ceil((window.start + WINDOW_MS - now) / 1000));
    throw new HttpError(429, 'Too many requests: try again later', { 'retry-after': String(wait) });
  }

  #prune(now: number): void {
    // Insertion order is window order: the ended windows come first.
    for (const [address, window] of this.#windows) {
      if (now - window.start < WINDOW_MS && this.#windows.size < MAX_ADDRESSES) break;
      this.#windows.delete(address);
    }
  }
}
