// CacheService and LockService behind the core's KeyValueCache and Mutex, and the document lock freeze and snapshots share.

import { InputError, LockUnavailableError } from '../core/errors';
import type { KeyValueCache, Mutex } from '../core/cache/key-value-cache';

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

/**
 * A mutex for work inside a section that already holds the user's lock (withDocumentLock in a scheduled run): taking
 * the same lock again there would wait on itself, as far as the reference says (it says nothing of re-entry).
 */
export const USER_LOCK_ALREADY_HELD: Mutex = { withLock: (fn) => fn() };

/** Which lock a section holds: the document's, or, where there is no document, its user's. */
export type HeldLock = 'document' | 'user';

/**
 * Runs `body` holding the document's lock; `busy` says what someone else is doing when it is taken. An add-on's
 * time-driven trigger has no current document, so no document lock (gas-runtime docs/reference.md, "what a trigger sees"):
 * it runs as the user who scheduled it and takes that user's lock instead. Never the script lock: a script lock
 * section "cannot be executed simultaneously regardless of the identity of the user" (LockService reference), and a
 * published add-on is one script for everyone who installed it, so every user's runs would wait on every other's.
 * The user's lock does not exclude a sidebar refresh or another user's scheduled run of the same spreadsheet at
 * that moment (see docs/reference.md, "Scheduled refresh").
 */
export function withDocumentLock<T>(busy: string, body: (held: HeldLock) => T): T {
  const documentLock = LockService.getDocumentLock();
  const held: HeldLock = documentLock ? 'document' : 'user';
  const lock = documentLock ?? LockService.getUserLock();
  if (!lock.tryLock(DOCUMENT_LOCK_WAIT_MS)) throw new InputError(lockRefusal(busy, held));
  try {
    return body(held);
  } finally {
    lock.releaseLock();
  }
}

/** What the section waited for, truly: the spreadsheet, or the user's own other work. */
function lockRefusal(busy: string, held: HeldLock): string {
  return held === 'document'
    ? `Someone else is ${busy} in this spreadsheet. Try again in a moment.`
    : `Not started: for ${DOCUMENT_LOCK_WAIT_MS / 1000} seconds your own add-in work elsewhere (another scheduled refresh, or an export or formulas using your connection) held your lock, which a scheduled run takes for ${busy}. It runs again at its next scheduled time.`;
}
