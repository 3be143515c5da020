import type { Db } from '../db/database.js';
import { HttpError } from '../http/errors.js';
import {
  LIMIT_NAMES,
  spec,
  type LimitName,
  type LimitSettings,
  type SlotLimit,
  type StoredLimit,
  type WindowLimit,
} from './catalog.js';
import { clientKey } from './client-key.js';
import { Slots, Windows, type Release } from './memory.js';
import { SignInLockout } from './signin-lockout.js';
import { StoredWindows } from './stored.js';

export type { Release } from './memory.js';
export type { LimitName, LimitSettings, SlotLimit, StoredLimit, WindowLimit } from './catalog.js';

/**
 * Every limit of the service goes through here, by its name in the catalog
 * (catalog.ts, the README's "Limits" table):
 *
 * - `slot(name, key)`: a concurrency slot (an open socket, a running export):
 *   its release, or null when the key holds all its slots;
 * - `hit(name, key)`: one use of a window (requests per minute): 0, or the
 *   seconds to wait; `take(name, key)` throws the 429 instead;
 * - `hitStored(trx, name, key)`: the same, counted in the database inside the
 *   caller's transaction;
 * - `signIn`: the failed sign-in lockout;
 * - `refusal(name, wait)`: the 429 `{error}` for a limit.
 *
 * Keys are whatever the limit is per (`per` in the catalog): an account id, a
 * link, a feed; a client address is grouped here (IPv6 by /64), so callers
 * pass `request.ip` as it is. An instance-wide limit takes any fixed key.
 */
export class Limits {
  readonly signIn: SignInLockout;
  readonly #slots = new Map<SlotLimit, Slots>();
  readonly #windows = new Map<WindowLimit, Windows>();
  readonly #stored: StoredWindows;

  constructor(
    readonly settings: LimitSettings,
    db: Db,
    clock: () => Date = () => new Date(),
  ) {
    for (const name of LIMIT_NAMES) {
      const { kind, seconds = 0 } = spec(name);
      if (kind === 'slots') this.#slots.set(name as SlotLimit, new Slots(settings[name]));
      if (kind === 'window')
        this.#windows.set(name as WindowLimit, new Windows(settings[name], seconds * 1000, () => clock().getTime()));
    }
    this.#stored = new StoredWindows(settings, clock);
    this.signIn = new SignInLockout(db, settings, this.#stored, clock);
  }

  /** A slot of `name` for `key`: its release (idempotent), or null when the key is at its bound. */
  slot(name: SlotLimit, key: string): Release | null {
    const held = this.slots([[name, key]]);
    return 'release' in held ? held.release : null;
  }

  /** Slots of several limits at once, all or none: their release, or the first limit that is full. */
  slots(claims: ReadonlyArray<readonly [SlotLimit, string]>): { release: Release } | { full: SlotLimit } {
    const keyed = claims.map(([name, key]) => [name, this.#slotsOf(name), keyOf(name, key)] as const);
    const full = keyed.find(([, slots, key]) => slots.isFull(key));
    if (full) return { full: full[0] };
    const releases = keyed.map(([, slots, key]) => slots.take(key));
    return { release: () => releases.forEach((release) => release()) };
  }

  /** How many slots of `name` the key holds now. */
  held(name: SlotLimit, key: string): number {
    return this.#slotsOf(name).held(keyOf(name, key));
  }

  /** Counts one use of a window: 0, or the seconds until it has room (the use is then not counted). */
  hit(name: WindowLimit, key: string): number {
    const windows = this.#windows.get(name);
    if (!windows) throw new Error(`${name} is not a window limit`);
    return windows.hit(keyOf(name, key));
  }

  /** `hit`, throwing the limit's 429 (with Retry-After) when the window is full. */
  take(name: WindowLimit, key: string): void {
    const wait = this.hit(name, key);
    if (wait > 0) throw this.refusal(name, wait);
  }

  /**
   * A window counted in the database, inside the caller's transaction: 0, or
   * the seconds to wait. The caller rolls the transaction back on a refusal
   * (throwing `refusal(...)` does), so the refused use is not counted.
   */
  hitStored(trx: Db, name: StoredLimit, key: string): Promise<number> {
    return this.#stored.hit(trx, name, key);
  }

  /** The 429 for a limit, with Retry-After when the wait is known. */
  refusal(name: LimitName, wait?: number): HttpError {
    return new HttpError(429, spec(name).refusal, wait === undefined ? {} : { 'retry-after': String(wait) });
  }

  #slotsOf(name: SlotLimit): Slots {
    const slots = this.#slots.get(name);
    if (!slots) throw new Error(`${name} is not a slot limit`);
    return slots;
  }
}

function keyOf(name: LimitName, key: string): string {
  return spec(name).per === 'client address' ? clientKey(key) : key;
}
