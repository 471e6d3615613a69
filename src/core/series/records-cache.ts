// Lists of records (metrics, profiles, properties…) cached per user, arguments and generation.

import { ChunkedCache } from '../cache/chunked-cache';

export const RECORDS_TTL_SECONDS = 30 * 60;

/**
 * One per execution. What it read or loaded is kept for the rest of the execution: CacheService may drop
 * an entry right after it was put, and a table of 45 metrics looks up 45 names in one listing, which
 * without this was fetched again for each name the cache had lost (and ran into the rate limit).
 */
export class RecordsCache {
  private readonly seen = new Map<string, unknown>();

  constructor(
    private readonly cache: ChunkedCache,
    private readonly generation: string,
  ) {}

  /** The cached value for `key`, or what `load` returns, stored for next time. */
  getOrLoad<T>(key: string, load: () => T): T {
    const fullKey = `rec:${this.generation}:${key}`;
    if (this.seen.has(fullKey)) return this.seen.get(fullKey) as T;
    const text = this.cache.get(fullKey);
    if (text !== null) {
      try {
        const cached = JSON.parse(text) as T;
        this.seen.set(fullKey, cached);
        return cached;
      } catch {
        // A corrupt entry is reloaded.
      }
    }
    const value = load();
    this.seen.set(fullKey, value);
    this.cache.put(fullKey, JSON.stringify(value), RECORDS_TTL_SECONDS);
    return value;
  }
}
