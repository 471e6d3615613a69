// A KeyValueCache that enforces CacheService's limits, for unit tests of the core.

import type { KeyValueCache, Mutex } from '../../src/core/cache/key-value-cache';

export class MemoryCache implements KeyValueCache {
  readonly store = new Map<string, string>();
  puts = 0;
  get(key: string): string | null {
    this.check(key);
    return this.store.get(key) ?? null;
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
    this.store.set(key, value);
  }
  putAll(values: Record<string, string>, ttlSeconds: number): void {
    for (const [key, value] of Object.entries(values)) this.put(key, value, ttlSeconds);
  }
  remove(key: string): void {
    this.store.delete(key);
  }
  removeAll(keys: string[]): void {
    keys.forEach((key) => this.store.delete(key));
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
