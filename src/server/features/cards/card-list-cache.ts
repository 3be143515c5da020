import type { Db } from '../../db/database.js';

/** The filters GET /cards takes, as the query gives them. */
export interface CardListFilter {
  assignee?: string;
  unassigned?: boolean;
  /** Only cards whose value for this custom field matches `value` (any value when it is left out). */
  field?: number;
  value?: string;
}

/**
 * The filter that actually applies, as a key: `unassigned` wins over
 * `assignee`, so a query that also names an ignored assignee shares the
 * entry of the plain `unassigned` one.
 */
export function filterKey(filter: CardListFilter): string {
  const byField = filter.field === undefined ? '' : `|field:${filter.field}:${JSON.stringify(filter.value ?? null)}`;
  if (filter.unassigned) return `unassigned${byField}`;
  if (filter.assignee !== undefined) return `assignee:${filter.assignee}${byField}`;
  return `all${byField}`;
}

interface Entry {
  areaId: number;
  json: string;
  bytes: number;
}

/**
 * The `{cards}` answers of areas, as JSON, keyed by (area, filter) for one
 * board version per area. An answer for a version never changes, so it can
 * be kept; a newer version makes the older answers useless, and they go as
 * soon as the newer one is stored. The total size is bounded: the least
 * recently used answers go first.
 */
export class CardListCache {
  /** In order of use, least recent first. */
  private readonly entries = new Map<string, Entry>();
  private readonly areas = new Map<number, { version: number; keys: Set<string> }>();
  /** Answers being built, by (area, filter, version): readers of the same version share one build. */
  private readonly building = new Map<string, Promise<string>>();
  private total = 0;

  constructor(readonly maxBytes: number) {}

  get size(): number {
    return this.entries.size;
  }

  get bytes(): number {
    return this.total;
  }

  get(areaId: number, version: number, filter: CardListFilter): string | undefined {
    if (this.areas.get(areaId)?.version !== version) return undefined;
    const key = `${areaId}|${filterKey(filter)}`;
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.json;
  }

  /**
   * The answer for (area, version, filter): kept, or being built for another
   * reader, or built now by `build` (and kept). Every write to a board makes
   * its lists stale at once, and every reader of the busy area would then
   * build the same answer beside the others (32 readers, 32 builds of each
   * version, each a few statements and a hundred cards to present), which is
   * what kept reads waiting behind a board's writes.
   */
  load(areaId: number, version: number, filter: CardListFilter, build: () => Promise<string>): Promise<string> {
    const hit = this.get(areaId, version, filter);
    if (hit !== undefined) return Promise.resolve(hit);
    const key = `${areaId}|${filterKey(filter)}|${version}`;
    let pending = this.building.get(key);
    if (pending === undefined) {
      pending = build().then((json) => {
        this.set(areaId, version, filter, json);
        return json;
      });
      // A failed build is its readers' error, and the next reader tries again.
      const forget = () => void this.building.delete(key);
      pending.then(forget, forget);
      this.building.set(key, pending);
    }
    return pending;
  }

  set(areaId: number, version: number, filter: CardListFilter, json: string): void {
    // V8 keeps a string in one or two bytes a character: the larger bound is counted.
    const bytes = json.length * 2;
    if (bytes > this.maxBytes) return;
    const area = this.areas.get(areaId);
    // A slow read of an older version must not push out the answers of the newer one.
    if (area && area.version > version) return;
    if (area && area.version < version) this.dropArea(areaId);
    const key = `${areaId}|${filterKey(filter)}`;
    this.remove(key);
    let current = this.areas.get(areaId);
    if (!current) this.areas.set(areaId, (current = { version, keys: new Set() }));
    this.entries.set(key, { areaId, json, bytes });
    current.keys.add(key);
    this.total += bytes;
    while (this.total > this.maxBytes) this.remove(this.entries.keys().next().value!);
  }

  private dropArea(areaId: number): void {
    for (const key of this.areas.get(areaId)?.keys ?? []) this.remove(key);
    this.areas.delete(areaId);
  }

  private remove(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.total -= entry.bytes;
    const area = this.areas.get(entry.areaId);
    area?.keys.delete(key);
    if (area?.keys.size === 0) this.areas.delete(entry.areaId);
  }
}

const caches = new WeakMap<Db, CardListCache>();

/** The cache of one database's card lists (one per app, as each app opens its own database). */
export function cardListCacheOf(db: Db, maxBytes: number): CardListCache {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new CardListCache(maxBytes)));
  return cache;
}
