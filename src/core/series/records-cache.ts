// Lists of records (metrics, profiles, properties…) cached per user, arguments and generation.

import { ChunkedCache } from '../cache/chunked-cache';

export const RECORDS_TTL_SECONDS = 30 * 60;

export class RecordsCache {
  /** What this execution has read already: access checks read the same listing for every cell of a range. */
  private readonly seen = new Map<string, unknown>();

  constructor(
    private readonly cache: ChunkedCache,
    private readonly generation: string,
  ) {}

  /** The cached value for `key`, or what `load` returns, stored for next time. */
  getOrLoad<T>(key: string, load: () => T): T {
    const cached = this.get<T>(key);
    if (cached !== undefined) return cached;
    const value = load();
    this.put(key, value);
    return value;
  }

  /** The cached value for `key`, or undefined. */
  get<T>(key: string): T | undefined {
    const fullKey = `rec:${this.generation}:${key}`;
    if (this.seen.has(fullKey)) return this.seen.get(fullKey) as T;
    const text = this.cache.get(fullKey);
    if (text === null) return undefined;
    try {
      const parsed = JSON.parse(text) as T;
      this.seen.set(fullKey, parsed);
      return parsed;
    } catch {
      return undefined; // A corrupt entry is reloaded.
    }
  }

  /** Stores a value for `key`, replacing what was there. */
  put(key: string, value: unknown): void {
    const fullKey = `rec:${this.generation}:${key}`;
    this.cache.put(fullKey, JSON.stringify(value), RECORDS_TTL_SECONDS);
    this.seen.set(fullKey, value);
  }
}
