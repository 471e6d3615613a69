// CacheService and LockService behind the core's KeyValueCache and Mutex.

import { LockUnavailableError } from '../core/errors';
import { type KeyValueCache, type Mutex } from '../core/cache/key-value-cache';

const LOCK_WAIT_MS = 5000;

/** The user's cache: in a custom function Apps Script scopes it to the spreadsheet's owner. */
export function userCache(): KeyValueCache {
  return wrapCache(CacheService.getUserCache());
}

export function wrapCache(cache: GoogleAppsScript.Cache.Cache): KeyValueCache {
  return {
    get: (key) => cache.get(key),
    getAll: (keys) => cache.getAll(keys),
    put: (key, value, ttl) => cache.put(key, value, ttl),
    putAll: (values, ttl) => cache.putAll(values, ttl),
    remove: (key) => cache.remove(key),
    removeAll: (keys) => cache.removeAll(keys),
  };
}

/** The user's lock, or LockUnavailableError after 5 s: work must not run unguarded (RequestBudget catches it). */
export function userMutex(): Mutex {
  return {
    withLock<T>(fn: () => T): T {
      const lock = LockService.getUserLock();
      if (!lock.tryLock(LOCK_WAIT_MS)) throw new LockUnavailableError(LOCK_WAIT_MS);
      try {
        return fn();
      } finally {
        lock.releaseLock();
      }
    },
  };
}
