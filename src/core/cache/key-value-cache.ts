// What the core needs of a cache and a lock; the Apps Script adapters provide CacheService and LockService.

export interface KeyValueCache {
  get(key: string): string | null;
  getAll(keys: string[]): Record<string, string>;
  put(key: string, value: string, ttlSeconds: number): void;
  putAll(values: Record<string, string>, ttlSeconds: number): void;
  remove(key: string): void;
  removeAll(keys: string[]): void;
}

export interface Mutex {
  /** Runs fn while holding the lock; throws LockUnavailableError when the lock cannot be had in reasonable time. */
  withLock<T>(fn: () => T): T;
}
