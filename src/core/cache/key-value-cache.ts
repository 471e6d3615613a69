// What the core needs of a cache and a lock; the Apps Script adapters provide CacheService and LockService.

import { LockUnavailableError } from '../errors';

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

/** Under the lock, or without it when it stays busy: for bookkeeping where a rare race costs less than failing. */
export function withLockIfFree<T>(mutex: Mutex | undefined, fn: () => T): T {
  try {
    return mutex ? mutex.withLock(fn) : fn();
  } catch (error) {
    if (error instanceof LockUnavailableError) return fn();
    throw error;
  }
}
