// The document state's mirror: no store read when warm, and never an older copy than the store once a write ended,
// whichever way a reader and a writer interleave (mirrored-record.ts).

import { mirroredRecord, type MirroredRecord } from '../../../src/core/cache/mirrored-record';
import type { KeyValueCache } from '../../../src/core/cache/key-value-cache';
import { MemoryCache } from '../../support/memory-cache';

/** A cache whose calls can be made to fail, one by one. */
class FlakyCache implements KeyValueCache {
  failing = new Set<keyof KeyValueCache>();
  constructor(readonly inner = new MemoryCache()) {}
  #call<T>(method: keyof KeyValueCache, run: () => T): T {
    if (this.failing.has(method)) throw new Error(`Cache ${method} failed`);
    return run();
  }
  get = (key: string) => this.#call('get', () => this.inner.get(key));
  getAll = (keys: string[]) => this.#call('getAll', () => this.inner.getAll(keys));
  put = (key: string, value: string, ttl: number) => this.#call('put', () => this.inner.put(key, value, ttl));
  putAll = (values: Record<string, string>, ttl: number) => this.#call('putAll', () => this.inner.putAll(values, ttl));
  remove = (key: string) => this.#call('remove', () => this.inner.remove(key));
  removeAll = (keys: string[]) => this.#call('removeAll', () => this.inner.removeAll(keys));
}

function setUp() {
  const cache = new FlakyCache();
  const store = { value: 'v1', reads: 0, during: undefined as (() => void) | undefined };
  let epoch = 0;
  const record: MirroredRecord<string> = mirroredRecord({
    cache,
    name: 'state',
    newEpoch: () => `e${++epoch}`,
    readStored: () => {
      store.reads++;
      const value = store.value;
      // Another execution's whole write, between this reader's store read and its filing of the copy.
      const during = store.during;
      store.during = undefined;
      during?.();
      return value;
    },
  });
  const write = (value: string) => record.write(() => void (store.value = value));
  return { cache, store, record, write };
}

describe('a record mirrored in a shared cache', () => {
  it('reads the store once, then answers from the cache', () => {
    const { store, record } = setUp();
    expect([record.read(), record.read(), record.read()]).toEqual(['v1', 'v1', 'v1']);
    expect(store.reads).toBe(1);
  });

  it('shows a write to the very next read', () => {
    const { store, record, write } = setUp();
    record.read();
    write('v2');
    expect(record.read()).toBe('v2');
    expect(record.read()).toBe('v2');
    expect(store.reads).toBe(2);
  });

  it.each([
    ['finds no epoch', false],
    ['finds the epoch but no copy', true],
  ])('never files an old copy where the next reader looks, when a reader that %s is overtaken by a write', (_, warmEpoch) => {
    const { cache, store, record, write } = setUp();
    if (warmEpoch) {
      record.read();
      cache.inner.removeAll([...cache.inner.store.keys()].filter((key) => key.includes(':copy:')));
    }
    store.during = () => write('v2');
    // The overtaken reader answers what it read, as a read just before the write would have.
    expect(record.read()).toBe('v1');
    expect(record.read()).toBe('v2');
  });

  it('never keeps the copy of a reader that ran between the start of a write and its change of the store', () => {
    const { store, record } = setUp();
    record.read();
    record.write(() => {
      expect(record.read()).toBe('v1');
      store.value = 'v2';
    });
    expect(record.read()).toBe('v2');
  });

  it('reads the store when the epoch cannot be put after a write', () => {
    const { cache, record, write } = setUp();
    record.read();
    cache.failing.add('put');
    write('v2');
    cache.failing.clear();
    expect(record.read()).toBe('v2');
  });

  it('does not write when the old copy cannot be made unreadable first', () => {
    const { cache, store, record, write } = setUp();
    record.read();
    cache.failing.add('remove');
    expect(() => write('v2')).toThrow('Cache remove failed');
    expect(store.value).toBe('v1');
  });

  it('reads the store whenever the cache fails', () => {
    const { cache, store, record } = setUp();
    cache.failing = new Set(['get', 'put']);
    expect([record.read(), record.read()]).toEqual(['v1', 'v1']);
    expect(store.reads).toBe(2);
  });
});
