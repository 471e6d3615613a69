// CacheService: string caches per user, document and script, expiring on the virtual clock, with Apps Script's limits.

import type { RuntimeClock } from './clock';
import { GasError } from './errors';
import type { Execution } from './execution';
import {
  CACHE_ITEMS_KEPT_ON_OVERFLOW,
  DEFAULT_CACHE_TTL_SECONDS,
  MAX_CACHE_ITEMS,
  MAX_CACHE_KEY_LENGTH,
  MAX_CACHE_TTL_SECONDS,
  MAX_CACHE_VALUE_BYTES,
} from './limits';

interface Entry {
  value: string;
  expiresAt: number;
}

function checkKey(key: unknown): string {
  if (key === null || key === undefined) throw new GasError('Argument cannot be null: key');
  const text = String(key);
  if (text.length > MAX_CACHE_KEY_LENGTH) throw new GasError('Argument too large: key');
  return text;
}

function checkValue(value: unknown): string {
  if (value === null || value === undefined) throw new GasError('Argument cannot be null: value');
  const text = String(value);
  if (Buffer.byteLength(text, 'utf8') > MAX_CACHE_VALUE_BYTES) throw new GasError('Argument too large: value');
  return text;
}

/** Seconds an entry lives: 600 by default, between 1 and 21,600 (six hours). */
function ttlSeconds(expirationInSeconds: unknown): number {
  if (expirationInSeconds === undefined || expirationInSeconds === null) return DEFAULT_CACHE_TTL_SECONDS;
  const seconds = Number(expirationInSeconds);
  if (Number.isNaN(seconds)) throw new GasError('Invalid argument: expirationInSeconds');
  return Math.min(MAX_CACHE_TTL_SECONDS, Math.max(1, Math.floor(seconds)));
}

/**
 * One cache with the Apps Script Cache API. Shared by every execution of the runtime (that is what
 * a cache is for); tests inspect, seed and clear it through `rt.cache`.
 */
export class Cache {
  static readonly gasName = 'Cache';
  readonly #entries = new Map<string, Entry>();

  constructor(readonly _clock: RuntimeClock) {}

  get(key: string): string | null {
    const name = checkKey(key);
    const entry = this.#entries.get(name);
    if (!entry) return null;
    if (entry.expiresAt <= this._clock.now()) {
      this.#entries.delete(name);
      return null;
    }
    return entry.value;
  }

  getAll(keys: string[]): Record<string, string> {
    if (!Array.isArray(keys)) throw new GasError('Invalid argument: keys');
    const found: Record<string, string> = {};
    for (const key of keys) {
      const value = this.get(key);
      if (value !== null) found[String(key)] = value;
    }
    return found;
  }

  put(key: string, value: string, expirationInSeconds?: number): void {
    this.#store([[checkKey(key), checkValue(value)]], ttlSeconds(expirationInSeconds));
  }

  putAll(values: Record<string, string>, expirationInSeconds?: number): void {
    if (typeof values !== 'object' || values === null) throw new GasError('Invalid argument: values');
    const checked = Object.entries(values).map(([key, value]): [string, string] => [checkKey(key), checkValue(value)]);
    this.#store(checked, ttlSeconds(expirationInSeconds));
  }

  remove(key: string): void {
    this.#entries.delete(checkKey(key));
  }

  removeAll(keys: string[]): void {
    if (!Array.isArray(keys)) throw new GasError('Invalid argument: keys');
    for (const key of keys) this.#entries.delete(checkKey(key));
  }

  /** Empties the cache (a test's reset; Apps Script has no such method). */
  _clear(): void {
    this.#entries.clear();
  }

  /** Live keys, for tests. */
  _keys(): string[] {
    const now = this._clock.now();
    return [...this.#entries].filter(([, entry]) => entry.expiresAt > now).map(([key]) => key);
  }

  #store(entries: Array<[string, string]>, ttl: number): void {
    const expiresAt = this._clock.now() + ttl * 1000;
    for (const [key, value] of entries) this.#entries.set(key, { value, expiresAt });
    if (this.#entries.size > MAX_CACHE_ITEMS) this.#evict();
  }

  /** Over the item cap, Apps Script keeps the 900 entries farthest from expiration. */
  #evict(): void {
    const kept = [...this.#entries].sort((a, b) => b[1].expiresAt - a[1].expiresAt).slice(0, CACHE_ITEMS_KEPT_ON_OVERFLOW);
    this.#entries.clear();
    for (const [key, entry] of kept) this.#entries.set(key, entry);
  }
}

/** Every cache of one runtime. */
export class CacheStores {
  readonly #users = new Map<string, Cache>();
  readonly #document: Cache;
  readonly #script: Cache;

  constructor(readonly _clock: RuntimeClock) {
    this.#document = new Cache(_clock);
    this.#script = new Cache(_clock);
  }

  user(email: string): Cache {
    let cache = this.#users.get(email);
    if (!cache) {
      cache = new Cache(this._clock);
      this.#users.set(email, cache);
    }
    return cache;
  }

  document(): Cache {
    return this.#document;
  }

  script(): Cache {
    return this.#script;
  }

  /** Empties every cache. */
  clear(): void {
    for (const cache of this.#users.values()) cache._clear();
    this.#document._clear();
    this.#script._clear();
  }
}

/** CacheService as one execution sees it; in a custom function the user cache is the owner's. */
export class CacheServiceStandIn {
  static readonly gasName = 'CacheService';

  constructor(
    readonly _stores: CacheStores,
    readonly _execution: Execution,
  ) {}

  getUserCache(): Cache {
    return this._stores.user(this._execution.storeUser);
  }

  getDocumentCache(): Cache {
    return this._stores.document();
  }

  getScriptCache(): Cache {
    return this._stores.script();
  }
}
