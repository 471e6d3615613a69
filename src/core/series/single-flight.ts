// One fetch for many cells: when Sheets recalculates hundreds of cells of one metric at once, the first
// execution fetches and the others wait for its answer in the user's cache.

import type { Clock } from '../api/transport';
import { safeKey } from '../cache/chunked-cache';
import { withLockIfFree, type KeyValueCache, type Mutex } from '../cache/key-value-cache';

/** How long a loading marker lives: past a custom function's 30 s, so a killed fetcher's marker goes by itself. */
export const LOADING_MARKER_TTL_SECONDS = 30;
/** A waiting execution fetches itself when this little of its own time is left: enough for one fetch. */
export const TAKE_OVER_BEFORE_DEADLINE_MS = 10_000;
/**
 * How often a waiter looks for the answer at first: a fetch takes a few hundred ms, and polling every
 * 500 ms from the start kept each cell waiting ~500 ms past the answer (in the bench's concurrent model
 * sheet, twice the last cell's floor).
 */
export const FAST_POLL_INTERVAL_MS = 100;
/** How long a waiter polls fast: past this the fetch is slow (paging, 429s) and reads would be wasted. */
export const FAST_POLL_FOR_MS = 2_000;
/** How often a waiting execution looks in the cache after the first FAST_POLL_FOR_MS. */
export const POLL_INTERVAL_MS = 500;

/** Other keys an execution that loads a key may load with it (see SingleFlight.run). */
export interface AlongKeys {
  /** Asked only when this execution may load: the key's marker was free. */
  keys(): readonly string[];
  /** Whether a key's answer is stored already. */
  isAnswered(key: string): boolean;
  /** Most keys to claim. */
  max: number;
}

export class SingleFlight {
  constructor(
    private readonly cache: KeyValueCache,
    private readonly clock: Clock,
    /** The absolute time by which this execution's API work must end (ms since the epoch). */
    private readonly deadline: number,
    /** The user's lock: CacheService has no atomic add, so the marker is claimed under it. */
    private readonly mutex?: Mutex,
  ) {}

  /**
   * The cached answer for `key`; else, when another execution is loading it, that execution's answer
   * once it lands; else (or when it has not landed 10 s before this execution's deadline) `load()`.
   * `load` must store its answer where `read` finds it. With `along`, an execution that claims `key`
   * claims in the same lock the free keys among `along.keys()` too, and `load` gets those it must store
   * (their markers go when it ends): claimed one lock apart, three cells starting together split a fund's
   * 32 companies into 3 requests, not 2.
   */
  run<T>(key: string, read: () => T | null, load: (alongKeys: readonly string[]) => T, along?: AlongKeys): T {
    const cached = read();
    if (cached !== null) return cached;
    const markerKey = markerOf(key);
    const claimed = this.claim(markerKey, along);
    if (!claimed) {
      // Another execution is loading: wait for its answer, or take over near this execution's deadline.
      const waitStarted = this.clock.now();
      const interval = (): number => (this.clock.now() - waitStarted < FAST_POLL_FOR_MS ? FAST_POLL_INTERVAL_MS : POLL_INTERVAL_MS);
      while (this.clock.now() + interval() < this.deadline - TAKE_OVER_BEFORE_DEADLINE_MS) {
        this.clock.sleep(interval());
        const answer = read();
        if (answer !== null) return answer;
        if (this.cache.get(markerKey) === null) {
          // The fetcher may have stored its answer and removed its marker between the two reads above
          // (the bench's model sheet fetched 3 of 10 metrics twice): look once more.
          const landed = read();
          if (landed !== null) return landed;
          // The fetcher gave up: its error is likely every waiter's, so they need not queue to meet it.
          break;
        }
      }
      this.putMarker(markerKey);
    }
    const alongKeys = claimed ? claimed.along : [];
    try {
      // A claimed answer may have landed (and its marker gone) between the first read and the claim:
      // without this look the bench's model sheet fetched 2 to 4 of its 10 metrics twice.
      return (claimed ? read() : null) ?? load(alongKeys);
    } finally {
      this.cache.remove(markerKey);
      this.release(alongKeys);
    }
  }

  /**
   * Claims (under one lock) the markers of up to `max` of these keys, in order, that no one holds and
   * whose answer `read` does not find, so their waiters wait for this execution. Held and answered keys do
   * not count towards `max`: a fund's cells taking the first 19 before checking fetched alone once a few
   * were cached. The caller must release the keys returned once their answers are stored or
   * it gave up.
   */
  claimMany(keys: readonly string[], read: (key: string) => boolean, max = Number.POSITIVE_INFINITY): string[] {
    if (keys.length === 0 || max <= 0) return [];
    return withLockIfFree(this.mutex, () => this.claimFree(keys, read, max));
  }

  private claimFree(keys: readonly string[], read: (key: string) => boolean, max: number): string[] {
    if (keys.length === 0 || max <= 0) return [];
    // Every marker in one cache call: a fund's 49 companions are 49 keys.
    const held = this.cache.getAll(keys.map(markerOf));
    const claimed: string[] = [];
    for (const key of keys) {
      if (claimed.length >= max) break;
      if (held[markerOf(key)] !== undefined || claimed.includes(key) || read(key)) continue;
      claimed.push(key);
    }
    if (claimed.length > 0) {
      const marker = JSON.stringify({ since: this.clock.now() });
      this.cache.putAll(Object.fromEntries(claimed.map((k) => [markerOf(k), marker])), LOADING_MARKER_TTL_SECONDS);
    }
    return claimed;
  }

  /** Removes the markers of keys claimed by claimMany: their waiters then read the answer, or fetch. */
  release(keys: readonly string[]): void {
    for (const key of keys) this.cache.remove(markerOf(key));
  }

  /**
   * Puts the marker unless another's is there, under the lock so only one of the cells Sheets starts
   * together claims it; without the lock (busy for long) at worst two executions fetch.
   */
  private claim(markerKey: string, along?: AlongKeys): { along: string[] } | null {
    // A marker already there settles it without the lock: 30 cells starting together (the bench's
    // model sheet) waited 0.2 to 1.6 s each for it.
    if (this.cache.get(markerKey) !== null) return null;
    // Worked out before the lock (a sheet read, a listing), and only by an execution likely to load.
    const wanted = along?.keys() ?? [];
    return withLockIfFree(this.mutex, () => {
      if (this.cache.get(markerKey) !== null) return null;
      this.putMarker(markerKey);
      return { along: along ? this.claimFree(wanted, along.isAnswered, along.max) : [] };
    });
  }

  /** The marker holds when the fetch started, and no data. */
  private putMarker(markerKey: string): void {
    this.cache.put(markerKey, JSON.stringify({ since: this.clock.now() }), LOADING_MARKER_TTL_SECONDS);
  }
}

function markerOf(key: string): string {
  return safeKey(`load:${key}`);
}
