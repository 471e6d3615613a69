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

/** Another execution of the same user held the lock for longer than we wait. */
export class LockUnavailableError extends Error {
  override readonly name = 'LockUnavailableError';
  constructor(waitedMs: number) {
    super(`Another run of the add-in for this account held its lock for ${Math.round(waitedMs / 1000)} seconds. Wait a moment and try again.`);
  }
}
