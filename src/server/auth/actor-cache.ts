import { CACHE_LIFETIME_MS, type Clock } from '../access/cache-lifetime.js';
import type { Revocation } from '../db/channels.js';
import type { Actor } from './actor.js';

/**
 * The actors of API keys, by key hash, so that a request with a known key
 * costs no database round trip. It is only consulted while it is `live`,
 * i.e. while every change that could make an entry wrong reaches it: on
 * SQLite always (one process), on PostgreSQL while the invalidation listener
 * is connected. A deleted key forgets its entry; any other change to an
 * account (a ban, a removal, a new name, picture or role) forgets all of that
 * account's entries. No entry is used longer than `CACHE_LIFETIME_MS`.
 *
 * A lookup that was running while an entry was forgotten may have read the
 * row before the change: `begin`/`store` refuse such an answer (the epoch
 * moved), so it is used for that one request and not kept.
 */
export class ActorCache {
  /** In order of use, least recent first; with when each was read from the database. */
  private readonly byHash = new Map<string, { actor: Actor; storedAt: number }>();
  private readonly byUser = new Map<string, Set<string>>();
  private epoch = 0;
  private isLive = false;

  constructor(
    readonly maxEntries = 10_000,
    private readonly now: Clock = Date.now,
  ) {}

  get size(): number {
    return this.byHash.size;
  }

  get live(): boolean {
    return this.isLive;
  }

  /** Starts (or stops) serving; either way nothing older than now is kept. */
  setLive(live: boolean): void {
    this.clear();
    this.isLive = live;
  }

  get(keyHash: string): Actor | undefined {
    if (!this.isLive) return undefined;
    const entry = this.byHash.get(keyHash);
    if (entry === undefined) return undefined;
    if (this.now() - entry.storedAt >= CACHE_LIFETIME_MS) {
      this.remove(keyHash);
      return undefined;
    }
    this.byHash.delete(keyHash);
    this.byHash.set(keyHash, entry);
    return entry.actor;
  }

  /** The token a lookup takes before it reads the database, for `store`. */
  begin(): number {
    return this.epoch;
  }

  store(token: number, keyHash: string, actor: Actor): void {
    if (!this.isLive || token !== this.epoch) return;
    this.remove(keyHash);
    this.byHash.set(keyHash, { actor, storedAt: this.now() });
    let hashes = this.byUser.get(actor.id);
    if (!hashes) this.byUser.set(actor.id, (hashes = new Set()));
    hashes.add(keyHash);
    while (this.byHash.size > this.maxEntries) this.remove(this.byHash.keys().next().value!);
  }

  /** Every key of the account answers from the database again. */
  forgetAccount(userId: string): void {
    this.epoch++;
    for (const hash of this.byUser.get(userId) ?? []) this.byHash.delete(hash);
    this.byUser.delete(userId);
  }

  /** What a revocation names goes: one key's actor, or (no key named) every key actor of the account. */
  forgetRevoked(revocation: Revocation): void {
    // A session is not cached here.
    if (revocation.sessionId !== undefined && revocation.keyId === undefined) return;
    if (revocation.keyId === undefined) return this.forgetAccount(revocation.userId);
    this.epoch++;
    for (const hash of this.byUser.get(revocation.userId) ?? []) {
      const credential = this.byHash.get(hash)?.actor.credential;
      if (credential?.kind === 'key' && credential.id === revocation.keyId) this.remove(hash);
    }
  }

  clear(): void {
    this.epoch++;
    this.byHash.clear();
    this.byUser.clear();
  }

  private remove(keyHash: string): void {
    const actor = this.byHash.get(keyHash)?.actor;
    if (!actor) return;
    this.byHash.delete(keyHash);
    const hashes = this.byUser.get(actor.id);
    hashes?.delete(keyHash);
    if (hashes?.size === 0) this.byUser.delete(actor.id);
  }
}
