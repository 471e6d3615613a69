import { RateLimitedError, LockUnavailableError } from '../../src/core/errors';
import { ChunkedCache, fnv1a64, safeKey, splitByBytes, utf8Bytes } from '../../src/core/cache/chunked-cache';
import { parseRateLimit, RequestBudget } from '../../src/core/api/rate-budget';
import type { KeyValueCache } from '../../src/core/cache/key-value-cache';
import { CountingMutex, MemoryCache } from '../support/memory-cache';
import { FakeClock } from '../support/scripted-transport';

describe('ChunkedCache', () => {
  let generation = 0;
  const gen = () => `g${++generation}`;

  it('stores a value over the 100 KB limit in chunks and reads it back whole', () => {
    const memory = new MemoryCache();
    const cache = new ChunkedCache(memory, gen);
    const value = 'é'.repeat(150_000); // 300 KB in UTF-8
    cache.put('series:abc', value, 3600);
    expect(memory.store.size).toBe(5); // manifest + 4 chunks of at most 90 KB
    expect(cache.get('series:abc')).toBe(value);
  });

  it('reads a value with a missing chunk as a miss, never as a partial value', () => {
    const memory = new MemoryCache();
    const cache = new ChunkedCache(memory, gen);
    cache.put('k', 'x'.repeat(200_000), 60);
    const chunkKey = [...memory.store.keys()].find((key) => key.endsWith('#1'))!;
    memory.remove(chunkKey);
    expect(cache.get('k')).toBeNull();
  });

  it('never mixes chunks of two writes: each write has its own generation', () => {
    const first = 'a'.repeat(200_000); // 3 chunks
    const second = 'b'.repeat(100_000); // 2 chunks: a reader of the first manifest would find a blend under shared keys
    const memory = new MemoryCache();
    new ChunkedCache(memory, gen).put('k', first, 60);
    // Another execution writes the key between this reader's manifest read and its chunk read, as two
    // executions of one user interleave on CacheService.
    let interleaved = false;
    const reader: KeyValueCache = {
      get: (key) => memory.get(key),
      getAll: (keys) => {
        if (!interleaved) {
          interleaved = true;
          new ChunkedCache(memory, gen).put('k', second, 60);
        }
        return memory.getAll(keys);
      },
      put: (key, value, ttl) => memory.put(key, value, ttl),
      putAll: (values, ttl) => memory.putAll(values, ttl),
      remove: (key) => memory.remove(key),
      removeAll: (keys) => memory.removeAll(keys),
    };
    const read = new ChunkedCache(reader, gen).get('k');
    expect(interleaved).toBe(true);
    // The value before the write or after it, or a miss (the write removed the chunks it replaced), never a blend.
    expect(read === first || read === second || read === null).toBe(true);
    // A write whose manifest never landed (the execution ended after its chunks) leaves the old value whole.
    const failing: KeyValueCache = {
      ...reader,
      getAll: (keys) => memory.getAll(keys),
      put: () => {
        throw new Error('Service invoked too many times: cache');
      },
    };
    expect(() => new ChunkedCache(failing, gen).put('k', first, 60)).toThrow(/too many times/);
    expect(new ChunkedCache(memory, gen).get('k')).toBe(second);
  });

  it('shortens keys over 250 characters with a hash, keeping distinct keys apart', () => {
    const long1 = `x${'a'.repeat(300)}`;
    const long2 = `y${'a'.repeat(300)}`;
    expect(safeKey(long1).length).toBeLessThanOrEqual(250);
    expect(safeKey(long1)).not.toBe(safeKey(long2.replace(/^y/, 'x') + 'b'));
    expect(fnv1a64('a')).not.toBe(fnv1a64('b'));
    const memory = new MemoryCache();
    new ChunkedCache(memory, gen).put(long1, 'v', 60);
    expect(new ChunkedCache(memory, gen).get(long1)).toBe('v');
  });

  it('keeps two keys just under the limit apart, chunks included, and every stored key within 250 characters', () => {
    const memory = new MemoryCache();
    const cache = new ChunkedCache(memory, gen);
    const stem = 'k'.repeat(245);
    cache.put(`${stem}A`, 'first', 60);
    cache.put(`${stem}B`, 'second', 60);
    expect(cache.get(`${stem}A`)).toBe('first');
    expect(cache.get(`${stem}B`)).toBe('second');
    // A series key of 45 metric ids is far over the limit; its manifest and chunks are all hashed.
    const seriesKey = Array.from({ length: 45 }, (_, i) => `0b000000-0000-4000-8000-${String(i).padStart(12, '0')}`).join(',');
    const big = 'é'.repeat(100_000);
    cache.put(seriesKey, big, 60);
    expect(cache.get(seriesKey)).toBe(big);
    expect(memory.store.size).toBe(2 + 2 + 4);
    expect([...memory.store.keys()].every((key) => key.length <= 250)).toBe(true);
  });

  it('splits text on character boundaries within the byte limit', () => {
    const parts = splitByBytes('a😀b😀c', 5);
    expect(parts.join('')).toBe('a😀b😀c');
    for (const part of parts) expect(Buffer.byteLength(part)).toBeLessThanOrEqual(5);
  });

  it('cuts ASCII text (one byte a character) into full parts and the rest, as it cuts any text', () => {
    expect(splitByBytes('', 4)).toEqual(['']);
    expect(splitByBytes('abcd', 4)).toEqual(['abcd']);
    expect(splitByBytes('abcde', 4)).toEqual(['abcd', 'e']);
    expect(splitByBytes('abcdefgh', 4)).toEqual(['abcd', 'efgh']);
    expect(splitByBytes('{"a":1}\u007f', 3)).toEqual(['{"a', '":1', '}\u007f']);
    // One character past ASCII and the text is cut by bytes again.
    expect(splitByBytes('abcé', 4)).toEqual(['abc', 'é']);
  });

  it.each([
    ['', 0],
    ['plain {"json":[1,2]} text', 25],
    ['\u007f', 1],
    ['\u0080', 2],
    ['é€😀', 2 + 3 + 4],
    ['ab\ud800c', 2 + 3 + 1],
    ['\udc00a\ud800', 3 + 1 + 3],
    ['Zürich 東京 😀', 1 + 2 + 4 + 1 + 6 + 1 + 4],
  ])('counts the UTF-8 bytes of %j as an encoder writes them: %d', (text, bytes) => {
    expect(utf8Bytes(text)).toBe(bytes);
    expect(utf8Bytes(text)).toBe(Buffer.byteLength(text));
  });
});

describe("MemoryCache, the unit tests' CacheService", () => {
  it("expires entries on the clock the test moves, with CacheService's TTL bounds", () => {
    const clock = new FakeClock(0);
    const memory = new MemoryCache(clock);
    memory.put('short', 'a', 60);
    memory.put('rounded', 'b', 0.5); // under a second lives a second, as CacheService clamps it
    clock.advance(999);
    expect(memory.getAll(['short', 'rounded'])).toEqual({ short: 'a', rounded: 'b' });
    clock.advance(1);
    expect(memory.get('rounded')).toBeNull();
    clock.advance(59_000);
    expect([memory.get('short'), memory.store.size]).toEqual([null, 0]);
    expect(() => memory.put('long', 'c', 21_601)).toThrow('ttl over 6 hours');
  });
});

describe('RequestBudget', () => {
  it('grants up to the limit and then waits for the window to slide', () => {
    const clock = new FakeClock();
    const budget = new RequestBudget(new MemoryCache(clock), new CountingMutex(), clock, { limit: 10, windowMs: 10_000 });
    expect(budget.take(8, Infinity)).toBe(8);
    expect(budget.take(8, Infinity)).toBe(2);
    expect(clock.sleeps).toEqual([]);
    expect(budget.take(3, Infinity)).toBe(3);
    expect(clock.sleeps).toEqual([11_000]);
  });

  it('is shared through the cache by every execution of the user', () => {
    const clock = new FakeClock();
    const cache = new MemoryCache(clock);
    new RequestBudget(cache, new CountingMutex(), clock, { limit: 5, windowMs: 60_000 }).take(5, Infinity);
    const second = new RequestBudget(cache, new CountingMutex(), clock, { limit: 5, windowMs: 60_000 });
    expect(second.used()).toBe(5);
    expect(() => second.take(1, clock.now() + 1000)).toThrow(RateLimitedError);
  });

  it('counts without the lock when it stays busy, rather than failing the work', () => {
    const clock = new FakeClock();
    const busy = {
      withLock: (): never => {
        throw new LockUnavailableError(5000);
      },
    };
    const budget = new RequestBudget(new MemoryCache(clock), busy, clock, { limit: 5, windowMs: 60_000 });
    expect(budget.take(3, clock.now() + 1000)).toBe(3);
    expect(budget.take(3, clock.now() + 1000)).toBe(2);
    expect(budget.used()).toBe(5);
    budget.blockUntil(clock.now() + 30_000);
    expect(() => budget.take(1, clock.now() + 1000)).toThrow(RateLimitedError);
  });

  it('holds every execution back after the server refused with 429', () => {
    const clock = new FakeClock();
    const cache = new MemoryCache(clock);
    const budget = new RequestBudget(cache, new CountingMutex(), clock);
    budget.blockUntil(clock.now() + 30_000);
    expect(budget.take(1, Infinity)).toBe(1);
    expect(clock.sleeps).toEqual([30_000]);
  });

  it('says the server refused while a 429 holds every execution back, with its own count far from spent', () => {
    const clock = new FakeClock();
    const budget = new RequestBudget(new MemoryCache(clock), new CountingMutex(), clock);
    expect(budget.take(3, Infinity)).toBe(3);
    budget.blockUntil(clock.now() + 40_000);
    let caught: unknown;
    try {
      budget.take(1, clock.now() + 25_000);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(RateLimitedError);
    expect((caught as RateLimitedError).message).toBe("The API's rate limit was reached. Try again in 40 seconds.");
    expect((caught as RateLimitedError).by).toBe('server');
    expect(budget.used()).toBe(3);
  });

  it('names its own budget only when its own count is spent', () => {
    const clock = new FakeClock();
    const budget = new RequestBudget(new MemoryCache(clock), new CountingMutex(), clock, { limit: 2, windowMs: 60_000 });
    budget.take(2, Infinity);
    let caught: unknown;
    try {
      budget.take(1, clock.now() + 25_000);
    } catch (error) {
      caught = error;
    }
    expect((caught as RateLimitedError).message).toBe('The add-in has used its budget of 2 API requests per minute. Try again in 61 seconds.');
    expect((caught as RateLimitedError).by).toBe('add-in');
  });

  it('reads a configured limit written as requests/seconds, and refuses anything else', () => {
    expect(parseRateLimit(' 1000 / 600 ')).toEqual({ limit: 1000, windowMs: 600_000 });
    expect(() => parseRateLimit('500 per 5 minutes')).toThrow('The rate limit "500 per 5 minutes" is not of the form 500/300 (requests per seconds).');
    expect(() => parseRateLimit('0/300')).toThrow(/not of the form/);
  });

  it('names the window in words and counts seconds in the singular when it is one', () => {
    const clock = new FakeClock(Date.UTC(2026, 0, 1, 0, 0, 0, 500));
    const budget = new RequestBudget(new MemoryCache(clock), new CountingMutex(), clock, { limit: 1, windowMs: 45_000 });
    budget.take(1, Infinity);
    clock.advance(45_000);
    expect(() => budget.take(1, clock.now() + 10)).toThrow('The add-in has used its budget of 1 API requests per 45 seconds. Try again in 1 second.');
  });

  it('says how long to wait when the deadline comes first', () => {
    const clock = new FakeClock();
    const budget = new RequestBudget(new MemoryCache(clock), new CountingMutex(), clock, { limit: 1, windowMs: 300_000 });
    budget.take(1, Infinity);
    expect(() => budget.take(1, clock.now() + 25_000)).toThrow('The add-in has used its budget of 1 API requests per 5 minutes. Try again in 301 seconds.');
  });
});
