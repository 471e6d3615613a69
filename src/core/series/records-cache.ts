// Lists of records (metrics, profiles, properties…) cached per user, arguments and generation.

import { ChunkedCache } from '../cache/chunked-cache';

export const RECORDS_TTL_SECONDS = 30 * 60;

export class RecordsCache {
  constructor(
    private readonly cache: ChunkedCache,
    private readonly generation: string,
  ) {}

  /** The cached value for `key`, or what `load` returns, stored for next time. */
  getOrLoad<T>(key: string, load: () => T): T {
    const fullKey = `rec:${this.generation}:${key}`;
    const text = this.cache.get(fullKey);
    if (text !== null) {
      try {
        return JSON.parse(text) as T;
      } catch {
        // A corrupt entry is reloaded.
      }
    }
    const value = load();
    this.cache.put(fullKey, JSON.stringify(value), RECORDS_TTL_SECONDS);
    return value;
  }
}
