// CacheService: string caches per user, document and script, expiring on the virtual clock, with Apps Script's limits.

import type { RuntimeClock } from './clock';
import { GasError, GasRuntimeUsageError } from './errors';
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
  /** UTF-8 bytes of key and value: what a byte budget counts. */
  bytes: number;
  /** Order of writing, so a byte budget evicts the entries written longest ago first. */
  written: number;
}

/**
 * Makes caches lose entries as Apps Script may: "The specified expiration time is only a suggestion;
 * cached data may be removed before this time if a lot of data is cached", and the service is "not
 * guaranteed to persist". Off unless a test switches it on; deterministic for a seed.
 */
export interface CacheEvictionOptions {
  /** Seed of the PRNG deciding which entries are lost; print it in the test's name. */
  seed: number;
  /** Chance (0–1) that each entry is lost at the start of every execution and at every cache call; default 0. */
  dropRate?: number;
  /** Total UTF-8 bytes (keys and values) each cache holds; writing past it evicts the entries written longest ago first. */
  byteBudget?: number;
}

/** What one cache held: now, at its fullest, and what it lost. */
export interface CacheStats {
  items: number;
  bytes: number;
  peakItems: number;
  peakBytes: number;
  /** Entries lost to random drops (eviction mode). */
  dropped: number;
  /** Entries evicted by the item cap or the byte budget. */
  evicted: number;
}

/** How often each method of one cache was called: what a test of "no call wasted" counts. */
export type CacheCalls = Record<'get' | 'getAll' | 'put' | 'putAll' | 'remove' | 'removeAll', number>;

export interface CacheCallsReport {
  user: Record<string, CacheCalls>;
  document: CacheCalls;
  script: CacheCalls;
}

export interface CacheStatsReport {
  user: Record<string, CacheStats>;
  document: CacheStats;
  script: CacheStats;
}

/** mulberry32: a small, fast PRNG, so that a seed replays the same losses. */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One PRNG for every cache of a runtime: the losses depend only on the seed and the order of calls. */
export class CacheEviction {
  readonly dropRate: number;
  readonly byteBudget: number | null;
  readonly #random: () => number;

  constructor(options: CacheEvictionOptions) {
    const { seed, dropRate = 0, byteBudget } = options;
    if (!Number.isInteger(seed)) throw new GasRuntimeUsageError(`cacheEviction.seed must be an integer, not ${seed}.`, 'INVALID_OPTION');
    if (!(dropRate >= 0 && dropRate <= 1)) throw new GasRuntimeUsageError(`cacheEviction.dropRate must be between 0 and 1, not ${dropRate}.`, 'INVALID_OPTION');
    if (byteBudget !== undefined && !(Number.isInteger(byteBudget) && byteBudget > 0)) {
      throw new GasRuntimeUsageError(`cacheEviction.byteBudget must be a positive whole number of bytes, not ${byteBudget}.`, 'INVALID_OPTION');
    }
    this.dropRate = dropRate;
    this.byteBudget = byteBudget ?? null;
    this.#random = mulberry32(seed);
  }

  /** Whether the next entry looked at is lost. */
  loses(): boolean {
    return this.dropRate > 0 && this.#random() < this.dropRate;
  }
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
  #written = 0;
  #peakItems = 0;
  #peakBytes = 0;
  #dropped = 0;
  #evicted = 0;
  readonly #calls: CacheCalls = { get: 0, getAll: 0, put: 0, putAll: 0, remove: 0, removeAll: 0 };

  constructor(
    readonly _clock: RuntimeClock,
    readonly _eviction: CacheEviction | null = null,
  ) {}

  get(key: string): string | null {
    this.#calls.get++;
    const name = checkKey(key);
    this._loseSome();
    return this.#read(name);
  }

  getAll(keys: string[]): Record<string, string> {
    this.#calls.getAll++;
    if (!Array.isArray(keys)) throw new GasError('Invalid argument: keys');
    const names = keys.map(checkKey);
    this._loseSome();
    const found: Record<string, string> = {};
    for (const name of names) {
      const value = this.#read(name);
      if (value !== null) found[name] = value;
    }
    return found;
  }

  put(key: string, value: string, expirationInSeconds?: number): void {
    this.#calls.put++;
    const entries: Array<[string, string]> = [[checkKey(key), checkValue(value)]];
    const ttl = ttlSeconds(expirationInSeconds);
    this._loseSome();
    this.#store(entries, ttl);
  }

  putAll(values: Record<string, string>, expirationInSeconds?: number): void {
    this.#calls.putAll++;
    if (typeof values !== 'object' || values === null) throw new GasError('Invalid argument: values');
    const checked = Object.entries(values).map(([key, value]): [string, string] => [checkKey(key), checkValue(value)]);
    const ttl = ttlSeconds(expirationInSeconds);
    this._loseSome();
    this.#store(checked, ttl);
  }

  remove(key: string): void {
    this.#calls.remove++;
    const name = checkKey(key);
    this._loseSome();
    this.#entries.delete(name);
  }

  removeAll(keys: string[]): void {
    this.#calls.removeAll++;
    if (!Array.isArray(keys)) throw new GasError('Invalid argument: keys');
    const names = keys.map(checkKey);
    this._loseSome();
    for (const name of names) this.#entries.delete(name);
  }

  /** Empties the cache (a test's reset; Apps Script has no such method). */
  _clear(): void {
    this.#entries.clear();
  }

  /** Live keys, for tests. Reading them loses nothing. */
  _keys(): string[] {
    const now = this._clock.now();
    return [...this.#entries].filter(([, entry]) => entry.expiresAt > now).map(([key]) => key);
  }

  /** Live entries, their bytes, the peaks and the losses. */
  _stats(): CacheStats {
    const { items, bytes } = this.#live();
    return { items, bytes, peakItems: this.#peakItems, peakBytes: this.#peakBytes, dropped: this.#dropped, evicted: this.#evicted };
  }

  /** Calls of each method so far, refused ones included (a copy). */
  _calls(): CacheCalls {
    return { ...this.#calls };
  }

  /** In eviction mode, each entry is lost with the drop rate's chance (at an execution's start and at each cache call). */
  _loseSome(): void {
    if (!this._eviction || this._eviction.dropRate === 0) return;
    for (const key of [...this.#entries.keys()]) {
      if (this._eviction.loses()) {
        this.#entries.delete(key);
        this.#dropped++;
      }
    }
  }

  #read(name: string): string | null {
    const entry = this.#entries.get(name);
    if (!entry) return null;
    if (entry.expiresAt <= this._clock.now()) {
      this.#entries.delete(name);
      return null;
    }
    return entry.value;
  }

  #store(entries: Array<[string, string]>, ttl: number): void {
    const expiresAt = this._clock.now() + ttl * 1000;
    for (const [key, value] of entries) {
      // A rewritten key counts as written now: delete first so the map's order is the order of writing.
      this.#entries.delete(key);
      this.#entries.set(key, { value, expiresAt, bytes: Buffer.byteLength(key, 'utf8') + Buffer.byteLength(value, 'utf8'), written: this.#written++ });
    }
    if (this.#entries.size > MAX_CACHE_ITEMS) this.#evict();
    const budget = this._eviction?.byteBudget ?? null;
    if (budget !== null) this.#evictOverBudget(budget);
    const { items, bytes } = this.#live();
    this.#peakItems = Math.max(this.#peakItems, items);
    this.#peakBytes = Math.max(this.#peakBytes, bytes);
  }

  /** Over the item cap, Apps Script keeps the 900 entries farthest from expiration. */
  #evict(): void {
    const kept = [...this.#entries].sort((a, b) => b[1].expiresAt - a[1].expiresAt).slice(0, CACHE_ITEMS_KEPT_ON_OVERFLOW);
    this.#evicted += this.#entries.size - kept.length;
    this.#entries.clear();
    // Back in order of writing, which the byte budget relies on.
    kept.sort((a, b) => a[1].written - b[1].written);
    for (const [key, entry] of kept) this.#entries.set(key, entry);
  }

  /** Past the byte budget, the entries written longest ago go first (expired ones before any). */
  #evictOverBudget(budget: number): void {
    const now = this._clock.now();
    let total = 0;
    for (const [key, entry] of [...this.#entries]) {
      if (entry.expiresAt <= now) this.#entries.delete(key);
      else total += entry.bytes;
    }
    // The map iterates in order of writing (see #store), so its first keys are the oldest.
    for (const [key, entry] of [...this.#entries]) {
      if (total <= budget) break;
      this.#entries.delete(key);
      total -= entry.bytes;
      this.#evicted++;
    }
  }

  #live(): { items: number; bytes: number } {
    const now = this._clock.now();
    let items = 0;
    let bytes = 0;
    for (const entry of this.#entries.values()) {
      if (entry.expiresAt <= now) continue;
      items++;
      bytes += entry.bytes;
    }
    return { items, bytes };
  }
}

/**
 * Every cache of one runtime. Given the caches of another document the same script runs in, it shares their
 * user and script caches ("getUserCache() Gets the cache instance scoped to the current user and script";
 * "getScriptCache() Gets the cache instance scoped to the script") and keeps its own document cache
 * ("getDocumentCache() Gets the cache instance scoped to the current document and script",
 * developers.google.com/apps-script/reference/cache/cache-service). Shared caches keep the clock of the
 * runtime that made them: move both runtimes' clocks together.
 */
export class CacheStores {
  readonly #users: Map<string, Cache>;
  readonly #document: Cache;
  readonly #script: Cache;

  readonly #eviction: CacheEviction | null;

  constructor(
    readonly _clock: RuntimeClock,
    eviction?: CacheEvictionOptions,
    sameScript?: CacheStores,
  ) {
    this.#eviction = eviction === undefined ? null : new CacheEviction(eviction);
    this.#document = new Cache(_clock, this.#eviction);
    this.#users = sameScript ? sameScript.#users : new Map<string, Cache>();
    this.#script = sameScript ? sameScript.#script : new Cache(_clock, this.#eviction);
  }

  user(email: string): Cache {
    let cache = this.#users.get(email);
    if (!cache) {
      cache = new Cache(this._clock, this.#eviction);
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

  /** Per cache: live items and bytes, their peaks, and what was dropped or evicted. */
  stats(): CacheStatsReport {
    return {
      user: Object.fromEntries([...this.#users].map(([email, cache]) => [email, cache._stats()])),
      document: this.#document._stats(),
      script: this.#script._stats(),
    };
  }

  /** Per cache: how often each method was called since the runtime started. */
  calls(): CacheCallsReport {
    return {
      user: Object.fromEntries([...this.#users].map(([email, cache]) => [email, cache._calls()])),
      document: this.#document._calls(),
      script: this.#script._calls(),
    };
  }

  /** An execution starts: in eviction mode, entries were lost since the last one (in a fixed order of caches). */
  _executionStarted(): void {
    for (const [, cache] of [...this.#users].sort(([a], [b]) => a.localeCompare(b))) cache._loseSome();
    this.#document._loseSome();
    this.#script._loseSome();
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
