// A small durable record (kept in a property store) mirrored in a shared cache, so that its readers spend
// no property call: "Properties read/write: 50,000 / day" (quotas page) is one warm formula cell each.
//
// The mirror can never be older than a read of the store would be once a write has finished, whatever order
// concurrent executions run in, because of three rules:
//  1. A copy is filed under an epoch (a random key part) that the reader fetched or put BEFORE it read the store.
//  2. A writer removes the epoch before writing the store, and puts a fresh one after (or removes it again).
//  3. Epochs are never reused.
// So a copy under the current epoch E was read after E was put, and E was put after every finished write's
// last step: a copy filed from a read before that write sits under an epoch no reader fetches again. A reader
// that finds no epoch or no copy reads the store, as it would without a mirror; any failure of the cache does too.
// What is left: a write whose epoch put and second removal both fail leaves a copy read before the write current
// until the cache drops it (at most MIRROR_TTL_SECONDS).

import type { KeyValueCache } from './key-value-cache';

/** The longest Apps Script keeps a cache entry: every copy is gone by then. */
const MIRROR_TTL_SECONDS = 21_600;

export interface MirroredRecord<T> {
  /** The record, from the mirror when it holds a copy filed under the current epoch, else from the store (and filed). */
  read(): T;
  /** Runs `write` (which changes the record in its store) so that no reader sees the mirror's old copy once it returned. */
  write<R>(write: () => R): R;
}

export interface MirroredRecordDeps<T> {
  /** A cache every reader and writer of the record shares. */
  cache: KeyValueCache;
  /** Key prefix, unique per record. */
  name: string;
  /** One read of the store. */
  readStored(): T;
  /** A fresh random epoch. */
  newEpoch(): string;
}

export function mirroredRecord<T>(deps: MirroredRecordDeps<T>): MirroredRecord<T> {
  const { cache, name } = deps;
  const epochKey = `${name}:epoch`;
  const copyKey = (epoch: string) => `${name}:copy:${epoch}`;
  const quietly = (step: () => void): void => {
    try {
      step();
    } catch {
      // The mirror is a saving: reading the store is always right.
    }
  };
  return {
    read() {
      let epoch: string | null = null;
      try {
        epoch = cache.get(epochKey);
        const copy = epoch === null ? null : cache.get(copyKey(epoch));
        if (copy !== null) return (JSON.parse(copy) as { record: T }).record;
      } catch {
        epoch = null;
      }
      if (epoch === null) {
        const fresh = deps.newEpoch();
        quietly(() => {
          cache.put(epochKey, fresh, MIRROR_TTL_SECONDS);
          epoch = fresh;
        });
      }
      const record = deps.readStored();
      if (epoch !== null) quietly(() => cache.put(copyKey(epoch!), JSON.stringify({ record }), MIRROR_TTL_SECONDS));
      return record;
    },
    write(write) {
      // Not quietly: a write whose old copy could stay readable must not happen.
      cache.remove(epochKey);
      try {
        return write();
      } finally {
        try {
          cache.put(epochKey, deps.newEpoch(), MIRROR_TTL_SECONDS);
        } catch {
          quietly(() => cache.remove(epochKey));
        }
      }
    },
  };
}
