// Lists of records (metrics, profiles, properties…) cached per user, arguments and generation.

import type { ChunkedCache } from '../cache/chunked-cache';
import type { SingleFlight } from './single-flight';

export const RECORDS_TTL_SECONDS = 30 * 60;

export class RecordsCache {
  /** What this execution has read already: access checks read the same listing for every cell of a range. */
  private readonly seen = new Map<string, unknown>();

  constructor(
    private readonly cache: ChunkedCache,
    private readonly generation: string,
    /** Shares one load among the cells of a recalculation, which Sheets runs in parallel, all checking one listing. */
    private readonly flight?: SingleFlight,
  ) {}

  /** The cached value for `key`, or what `load` returns, stored for next time (loaded once for concurrent cells). */
  getOrLoad<T>(key: string, load: () => T): T {
    const loadAndStore = (): T => {
      const value = load();
      this.put(key, value);
      return value;
    };
    if (!this.flight) return this.get<T>(key) ?? loadAndStore();
    // The flight's "nothing cached" is null; a cached list is never undefined.
    return this.flight.run(this.fullKey(key), () => this.get<T>(key) ?? null, loadAndStore) as T;
  }

  /** The cached value for `key`, or undefined (a corrupt entry too, so it is reloaded). */
  get<T>(key: string): T | undefined {
    const fullKey = this.fullKey(key);
    if (this.seen.has(fullKey)) return this.seen.get(fullKey) as T;
    const text = this.cache.get(fullKey);
    if (text === null) return undefined;
    try {
      const parsed = JSON.parse(text) as T;
      this.seen.set(fullKey, parsed);
      return parsed;
    } catch {
      return undefined;
    }
  }

  /** Forgets `key`, here and in the cache: the next reader loads it again. */
  remove(key: string): void {
    this.cache.remove(this.fullKey(key));
    this.seen.delete(this.fullKey(key));
  }

  put(key: string, value: unknown): void {
    this.cache.put(this.fullKey(key), JSON.stringify(value), RECORDS_TTL_SECONDS);
    this.seen.set(this.fullKey(key), value);
  }

  private fullKey(key: string): string {
    return `rec:${this.generation}:${key}`;
  }
}
