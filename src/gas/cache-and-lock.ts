// CacheService and LockService behind the core's KeyValueCache and Mutex, and the document lock freeze and snapshots share.

import { InputError, LockUnavailableError } from '../core/errors';
import { type KeyValueCache, type Mutex } from '../core/cache/key-value-cache';

const LOCK_WAIT_MS = 5000;
/** Two people at once would each rewrite the store (frozen ranges, snapshots) from what they read. */
const DOCUMENT_LOCK_WAIT_MS = 10_000;

/** The user's cache: in a custom function Apps Script scopes it to the spreadsheet's owner. */
export function userCache(): KeyValueCache {
  return wrapCache(CacheService.getUserCache());
}

/** The document's cache, shared by every user of this spreadsheet; null where there is no document (a time-driven trigger). */
export function documentCache(): KeyValueCache | null {
  const cache = CacheService.getDocumentCache();
  return cache ? wrapCache(cache) : null;
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

/** Runs `body` holding the document's lock; `busy` says what someone else is doing when it is taken. */
export function withDocumentLock<T>(busy: string, body: () => T): T {
  // A time-driven trigger has no current document, so no document lock (gas-runtime README, "what a trigger
  // sees"): scheduled runs then exclude each other with the script lock. They do not exclude a sidebar
  // refresh of the same spreadsheet at that moment (see README, "Scheduled refresh").
  const lock = LockService.getDocumentLock() ?? LockService.getScriptLock();
  if (!lock.tryLock(DOCUMENT_LOCK_WAIT_MS)) throw new InputError(`Someone else is ${busy} in this spreadsheet. Try again in a moment.`);
  try {
    return body();
  } finally {
    lock.releaseLock();
  }
}
