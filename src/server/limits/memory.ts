/** Gives a slot back; calling it again does nothing. */
export type Release = () => void;

/**
 * Things held at once per key, in this process. A key is forgotten when its
 * last slot is given back, so the map is as large as what is held now.
 */
export class Slots {
  readonly #held = new Map<string, number>();

  constructor(private readonly max: number) {}

  held(key: string): number {
    return this.#held.get(key) ?? 0;
  }

  isFull(key: string): boolean {
    return this.held(key) >= this.max;
  }

  /** Takes a slot even when full: for callers that checked `isFull` of several limits first. */
  take(key: string): Release {
    this.#held.set(key, this.held(key) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = this.held(key) - 1;
      if (left > 0) this.#held.set(key, left);
      else this.#held.delete(key);
    };
  }
}

/** Keys kept at most per window limit; past it, ended windows are forgotten first. */
const MAX_KEYS = 100_000;

/**
 * Uses per key and fixed window, in this process: cheap enough to count
 * every request (a database write per public look would cost more than the
 * look). Memory stays bounded whatever the keys.
 */
export class Windows {
  readonly #windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
    private readonly now: () => number,
  ) {}

  /** Counts one use: 0, or the seconds until the key's window has room (the use is then not counted). */
  hit(key: string): number {
    const now = this.now();
    let window = this.#windows.get(key);
    if (!window || now - window.start >= this.windowMs) {
      // Deleted and set again, so insertion order stays window order: the ended windows come first.
      this.#windows.delete(key);
      if (this.#windows.size >= MAX_KEYS) this.#forgetEnded(now);
      window = { start: now, count: 0 };
      this.#windows.set(key, window);
    }
    if (window.count >= this.max) return Math.max(1, Math.ceil((window.start + this.windowMs - now) / 1000));
    window.count += 1;
    return 0;
  }

  #forgetEnded(now: number): void {
    for (const [key, window] of this.#windows) {
      if (now - window.start < this.windowMs && this.#windows.size < MAX_KEYS) break;
      this.#windows.delete(key);
    }
  }
}
