// A KeyValueCache that enforces CacheService's limits, for unit tests of the core.

import type { KeyValueCache, Mutex } from '../../src/core/cache/key-value-cache';

/** What the cache reads the time from: a test's FakeClock, or the cache's own manual clock. */
export interface CacheClock {
  now(): number;
}

/** A clock that moves only when the test moves it. */
export class ManualClock implements CacheClock {
  constructor(private time = Date.UTC(2026, 0, 1)) {}
  now(): number {
    return this.time;
  }
  advance(ms: number): void {
    this.time += ms;
  }
}

interface Entry {
  value: string;
  expiresAt: number;
}

/**
 * Entries expire as CacheService's do (gas-runtime/cache.ts): `ttlSeconds` clamped to 1 s..6 h, on the clock the
 * test passes (share it with the code under test), so a test that relies on an entry outliving its TTL fails.
 */
export class MemoryCache implements KeyValueCache {
  private readonly entries = new Map<string, Entry>();
  puts = 0;

  constructor(readonly clock: CacheClock = new ManualClock()) {}

  /** The live entries, key to value (a copy: writes go through put). */
  get store(): Map<string, string> {
    const now = this.clock.now();
    return new Map([...this.entries].filter(([, entry]) => entry.expiresAt > now).map(([key, entry]) => [key, entry.value]));
  }

  get(key: string): string | null {
    this.check(key);
    const entry = this.entries.get(key);
    if (!entry) return null;
    if (entry.expiresAt <= this.clock.now()) {
      this.entries.delete(key);
      return null;
    }
    return entry.value;
  }
  getAll(keys: string[]): Record<string, string> {
    const out: Record<string, string> = {};
    for (const key of keys) {
      const value = this.get(key);
      if (value !== null) out[key] = value;
    }
    return out;
  }
  put(key: string, value: string, ttlSeconds: number): void {
    this.check(key);
    if (Buffer.byteLength(value, 'utf8') > 100 * 1024) throw new Error('Argument too large: value');
    if (ttlSeconds > 21600) throw new Error('ttl over 6 hours');
    this.puts++;
    const seconds = Math.max(1, Math.floor(ttlSeconds));
    this.entries.set(key, { value, expiresAt: this.clock.now() + seconds * 1000 });
  }
  putAll(values: Record<string, string>, ttlSeconds: number): void {
    for (const [key, value] of Object.entries(values)) this.put(key, value, ttlSeconds);
  }
  remove(key: string): void {
    this.entries.delete(key);
  }
  removeAll(keys: string[]): void {
    keys.forEach((key) => this.entries.delete(key));
  }
  private check(key: string): void {
    if (key.length > 250) throw new Error('Argument too large: key');
  }
}

export class CountingMutex implements Mutex {
  locks = 0;
  withLock<T>(fn: () => T): T {
    this.locks++;
    return fn();
  }
}
