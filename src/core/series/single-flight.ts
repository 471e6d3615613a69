// One fetch for many cells: when Sheets recalculates hundreds of cells of one metric at once, the
// first execution fetches the series and the others wait for its answer in the user's cache.

import type { Clock } from '../api/transport';
import { safeKey } from '../cache/chunked-cache';
import { withLockIfFree, type KeyValueCache, type Mutex } from '../cache/key-value-cache';

/** How long a loading marker lives: past a custom function's 30 s, so a killed fetcher's marker goes by itself. */
export const LOADING_MARKER_TTL_SECONDS = 30;
/** A waiting execution fetches itself when this little of its own time is left: enough for one fetch. */
export const TAKE_OVER_BEFORE_DEADLINE_MS = 10_000;
/**
 * How often a waiting execution looks in the cache for the answer at first. A fetch of a series or a
 * listing takes one or two round trips (a few hundred ms), and Sheets starts up to 30 cells at once:
 * polling every 500 ms from the start made every cell of a metric wait about 500 ms past the answer,
 * which in the bench's concurrent model sheet doubled the last cell's time over its floor.
 */
export const FAST_POLL_INTERVAL_MS = 100;
/** How long a waiter polls fast: past this, the fetch is a slow one (paging, 429s) and reads would be wasted. */
export const FAST_POLL_FOR_MS = 2_000;
/** How often a waiting execution looks in the cache after the first FAST_POLL_FOR_MS. */
export const POLL_INTERVAL_MS = 500;

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
   * `load` must store its answer where `read` finds it.
   */
  run<T>(key: string, read: () => T | null, load: () => T): T {
    const cached = read();
    if (cached !== null) return cached;
    const markerKey = safeKey(`load:${key}`);
    if (!this.claim(markerKey)) {
      // Another execution is loading: wait for its answer, or take over near this execution's deadline.
      const waitStarted = this.clock.now();
      const interval = (): number => (this.clock.now() - waitStarted < FAST_POLL_FOR_MS ? FAST_POLL_INTERVAL_MS : POLL_INTERVAL_MS);
      while (this.clock.now() + interval() < this.deadline - TAKE_OVER_BEFORE_DEADLINE_MS) {
        this.clock.sleep(interval());
        const answer = read();
        if (answer !== null) return answer;
        if (this.cache.get(markerKey) === null) {
          // The fetcher may have stored its answer and removed its marker between the two reads above
          // (with 100 ms polls the bench's model sheet met that window for 3 of 10 metrics and fetched
          // them twice): look once more before concluding it gave up.
          const landed = read();
          if (landed !== null) return landed;
          // The fetcher gave up (its marker is gone and no answer came): no point waiting longer, and its
          // error is likely every waiter's, so they do not queue behind one another to meet it.
          break;
        }
      }
      this.putMarker(markerKey);
    } else {
      // The answer may have landed (and its fetcher's marker gone) between the first read and the
      // claim: without this look the bench's model sheet fetched 2 to 4 of its 10 metrics twice.
      const landed = read();
      if (landed !== null) {
        this.cache.remove(markerKey);
        return landed;
      }
    }
    try {
      return load();
    } finally {
      this.cache.remove(markerKey);
    }
  }

  /**
   * For an execution already loading under run(): claims the markers of these other keys that no one
   * else holds and whose answer `read` does not find (one lock for all), so that their waiters wait for
   * this execution's answer instead of fetching. Returns the keys claimed; the caller must release them
   * (see release) once their answers are stored or it gave up.
   */
  claimMany(keys: readonly string[], read: (key: string) => boolean): string[] {
    const claimNow = (): string[] => keys.filter((key) => {
      const markerKey = safeKey(`load:${key}`);
      if (this.cache.get(markerKey) !== null || read(key)) return false;
      this.putMarker(markerKey);
      return true;
    });
    return withLockIfFree(this.mutex, claimNow);
  }

  /** Removes the markers of keys claimed by claimMany: their waiters then read the answer, or fetch. */
  release(keys: readonly string[]): void {
    for (const key of keys) this.cache.remove(safeKey(`load:${key}`));
  }

  /**
   * Puts the loading marker unless another execution's is there. Under the lock, so that of the cells
   * Sheets starts together only one claims it; without the lock (busy for long) the check and the put
   * are apart, and at worst two executions fetch.
   */
  private claim(markerKey: string): boolean {
    // A marker already there settles it without the lock: in the bench's concurrent model sheet every
    // cell took the lock for each claim, and 30 cells starting together waited 0.2 to 1.6 s each for it.
    if (this.cache.get(markerKey) !== null) return false;
    return withLockIfFree(this.mutex, () => {
      if (this.cache.get(markerKey) !== null) return false;
      this.putMarker(markerKey);
      return true;
    });
  }

  /** The marker holds when the fetch started, and no data. */
  private putMarker(markerKey: string): void {
    this.cache.put(markerKey, JSON.stringify({ since: this.clock.now() }), LOADING_MARKER_TTL_SECONDS);
  }
}
