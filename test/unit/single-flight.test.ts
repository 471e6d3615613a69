// SingleFlight on its own: who fetches, who waits, and when a waiter takes over.

import { LockUnavailableError } from '../../src/core/errors';
import type { Mutex } from '../../src/core/cache/key-value-cache';
import { FAST_POLL_FOR_MS, FAST_POLL_INTERVAL_MS, LOADING_MARKER_TTL_SECONDS, POLL_INTERVAL_MS, SingleFlight } from '../../src/core/series/single-flight';
import { MemoryCache } from '../support/memory-cache';
import { FakeClock } from '../support/scripted-transport';

/** What another execution stores while this one sleeps: the first sleep makes `answer` appear. */
function answeredWhileAsleep(clock: FakeClock, answer: string): () => string | null {
  let stored: string | null = null;
  const sleep = clock.sleep.bind(clock);
  clock.sleep = (ms) => {
    sleep(ms);
    stored = answer;
  };
  return () => stored;
}

describe('SingleFlight', () => {
  it('fetches when nothing is cached or loading, marking the key while it loads and clearing the mark after', () => {
    const clock = new FakeClock(1_000_000);
    const cache = new MemoryCache(clock);
    const ttls: number[] = [];
    const put = cache.put.bind(cache);
    cache.put = (key, value, ttl) => {
      ttls.push(ttl);
      put(key, value, ttl);
    };
    let markedDuringLoad: string | null = null;
    const answer = new SingleFlight(cache, clock, clock.now() + 25_000).run(
      'k',
      () => null,
      () => {
        markedDuringLoad = cache.get('load:k');
        return 'fetched';
      },
    );
    expect(answer).toBe('fetched');
    expect(JSON.parse(markedDuringLoad!)).toEqual({ since: 1_000_000 });
    expect(ttls).toEqual([LOADING_MARKER_TTL_SECONDS]);
    expect(cache.get('load:k')).toBeNull();
  });

  it('waits for the answer of the execution that is loading, without fetching', () => {
    const clock = new FakeClock(0);
    const cache = new MemoryCache(clock);
    cache.put('load:k', '{"since":0}', 30);
    let stored: string | null = null;
    const sleep = clock.sleep.bind(clock);
    // The other execution's answer lands after two polls.
    clock.sleep = (ms) => {
      sleep(ms);
      if (clock.now() >= 1000) stored = 'theirs';
    };
    const answer = new SingleFlight(cache, clock, 25_000).run(
      'k',
      () => stored,
      () => {
        throw new Error('must not fetch');
      },
    );
    expect(answer).toBe('theirs');
    expect(clock.now()).toBe(1000);
  });

  it('reads an answer that lands during a short fetch within one fast poll, not half a second later', () => {
    const cache = new MemoryCache();
    cache.put('load:k', '{"since":0}', 30);
    const clock = new FakeClock(0);
    let stored: string | null = null;
    const sleep = clock.sleep.bind(clock);
    // The other execution's answer lands 150 ms into the wait (two round trips of a fast network).
    clock.sleep = (ms) => {
      sleep(ms);
      if (clock.now() >= 150) stored = 'theirs';
    };
    const answer = new SingleFlight(cache, clock, 25_000).run(
      'k',
      () => stored,
      () => {
        throw new Error('must not fetch');
      },
    );
    expect(answer).toBe('theirs');
    expect(clock.now()).toBe(2 * FAST_POLL_INTERVAL_MS);
  });

  it('polls fast only for the first 2 s of a wait, then every 500 ms, so a slow fetch costs few cache reads', () => {
    const cache = new MemoryCache();
    cache.put('load:k', '{"since":0}', 30);
    const clock = new FakeClock(0);
    const sleeps: number[] = [];
    const sleep = clock.sleep.bind(clock);
    clock.sleep = (ms) => {
      sleeps.push(ms);
      sleep(ms);
    };
    let reads = 0;
    new SingleFlight(cache, clock, 25_000).run(
      'k',
      () => {
        reads++;
        return null;
      },
      () => 'mine',
    );
    const fast = FAST_POLL_FOR_MS / FAST_POLL_INTERVAL_MS;
    expect(sleeps.slice(0, fast)).toEqual(Array(fast).fill(FAST_POLL_INTERVAL_MS));
    expect(new Set(sleeps.slice(fast))).toEqual(new Set([POLL_INTERVAL_MS]));
    // 2 s at 100 ms, then 500 ms until 10 s before the deadline (14.5 s), plus the first look.
    expect(reads).toBe(1 + fast + (14_500 - FAST_POLL_FOR_MS) / POLL_INTERVAL_MS);
  });

  it('takes the answer that landed between its read and its look at the marker, rather than fetching again', () => {
    const cache = new MemoryCache();
    cache.put('load:k', '{"since":0}', 30);
    const clock = new FakeClock(0);
    let reads = 0;
    // The fetcher stores its answer and removes its marker just after this waiter's first poll read.
    const read = (): string | null => {
      reads++;
      if (reads === 2) {
        cache.remove('load:k');
        return null;
      }
      return reads > 2 ? 'theirs' : null;
    };
    expect(
      new SingleFlight(cache, clock, 25_000).run('k', read, () => {
        throw new Error('must not fetch');
      }),
    ).toBe('theirs');
    expect(clock.now()).toBe(FAST_POLL_INTERVAL_MS);
  });

  it('takes the answer that landed between its first read and its claim, rather than fetching again', () => {
    const cache = new MemoryCache();
    const clock = new FakeClock(0);
    let reads = 0;
    // Another execution's fetch ends (answer stored, marker removed) just after this one's first read.
    const read = (): string | null => (++reads === 1 ? null : 'theirs');
    expect(
      new SingleFlight(cache, clock, 25_000).run('k', read, () => {
        throw new Error('must not fetch');
      }),
    ).toBe('theirs');
    expect(cache.get('load:k')).toBeNull();
  });

  it('fetches itself when the answer is still missing 10 s before its deadline', () => {
    const clock = new FakeClock(0);
    const cache = new MemoryCache(clock);
    cache.put('load:k', '{"since":0}', 30);
    const answer = new SingleFlight(cache, clock, 25_000).run(
      'k',
      () => null,
      () => `mine at ${clock.now()}`,
    );
    expect(answer).toBe('mine at 14500');
  });

  it("stops waiting once a killed fetcher's marker expires, and fetches at once", () => {
    const clock = new FakeClock(0);
    const cache = new MemoryCache(clock);
    cache.put('load:k', '{"since":0}', LOADING_MARKER_TTL_SECONDS);
    clock.advance(20_000); // this execution started 20 s after the fetcher, which was killed
    const answer = new SingleFlight(cache, clock, clock.now() + 25_000).run(
      'k',
      () => null,
      () => `mine at ${clock.now()}`,
    );
    // The marker goes at 30 s (its TTL), well before this execution's take-over point at 34.5 s.
    expect(answer).toBe(`mine at ${LOADING_MARKER_TTL_SECONDS * 1000}`);
  });

  it("claims the marker under the user's lock (CacheService has no atomic add), and without it when the lock stays busy", () => {
    const clock = new FakeClock(0);
    const cache = new MemoryCache(clock);
    let locked = false;
    const lockedAt: Array<[string, boolean]> = [];
    const get = cache.get.bind(cache);
    const put = cache.put.bind(cache);
    cache.get = (key) => {
      lockedAt.push(['get', locked]);
      return get(key);
    };
    cache.put = (key, value, ttl) => {
      lockedAt.push(['put', locked]);
      put(key, value, ttl);
    };
    const mutex: Mutex = {
      withLock: (fn) => {
        locked = true;
        try {
          return fn();
        } finally {
          locked = false;
        }
      },
    };
    expect(
      new SingleFlight(cache, clock, 25_000, mutex).run(
        'k',
        () => null,
        () => 'fetched',
      ),
    ).toBe('fetched');
    // The first look, outside the lock, finds no marker; the claim looks again under it.
    expect(lockedAt).toEqual([
      ['get', false],
      ['get', true],
      ['put', true],
    ]);

    const busy: Mutex = {
      withLock: () => {
        throw new LockUnavailableError(5_000);
      },
    };
    lockedAt.length = 0;
    expect(
      new SingleFlight(cache, clock, 25_000, busy).run(
        'k',
        () => null,
        () => 'fetched anyway',
      ),
    ).toBe('fetched anyway');
    expect(lockedAt).toEqual([
      ['get', false],
      ['get', false],
      ['put', false],
    ]);
  });

  it("does not take the lock when another execution's marker is already there: it waits", () => {
    const clock = new FakeClock(0);
    const cache = new MemoryCache(clock);
    cache.put('load:k', '{"since":0}', 30);
    const stored = answeredWhileAsleep(clock, 'theirs');
    let locks = 0;
    const mutex: Mutex = {
      withLock: (fn) => {
        locks++;
        return fn();
      },
    };
    expect(
      new SingleFlight(cache, clock, 25_000, mutex).run('k', stored, () => {
        throw new Error('must not fetch');
      }),
    ).toBe('theirs');
    expect(locks).toBe(0);
  });

  /** A flight whose lock counts its takings, and a key another execution holds ("held"). */
  function flightWithHeldKey() {
    const clock = new FakeClock(0);
    const cache = new MemoryCache(clock);
    cache.put('load:held', '{"since":0}', 30);
    let taken = 0;
    const mutex: Mutex = {
      withLock: (fn) => {
        taken++;
        return fn();
      },
    };
    return { clock, cache, mutex, flight: new SingleFlight(cache, clock, 25_000, mutex), locks: () => taken };
  }

  it('claims other keys for a loading execution, one lock for all, skipping those held or answered, and releases them', () => {
    const { clock, cache, mutex, flight, locks } = flightWithHeldKey();
    const claimed = flight.claimMany(['free', 'held', 'answered', 'other'], (key) => key === 'answered');
    expect(claimed).toEqual(['free', 'other']);
    expect(locks()).toBe(1);
    expect(cache.get('load:free')).not.toBeNull();
    expect(cache.get('load:answered')).toBeNull();
    // A waiter of a claimed key waits for the claimer's answer instead of fetching.
    const stored = answeredWhileAsleep(clock, 'claimer stored it');
    expect(
      new SingleFlight(cache, clock, 25_000, mutex).run('free', stored, () => {
        throw new Error('must not fetch');
      }),
    ).toBe('claimer stored it');
    flight.release(claimed);
    expect(cache.get('load:free')).toBeNull();
    expect(cache.get('load:other')).toBeNull();
    expect(cache.get('load:held')).not.toBeNull();
  });

  it('claims its key and the free keys along with it in one lock, hands those to load and frees them after', () => {
    const { clock, cache, flight, locks } = flightWithHeldKey();
    let asked = 0;
    const along = {
      keys: () => {
        asked++;
        return ['own', 'held', 'answered', 'x', 'y', 'z'];
      },
      isAnswered: (key: string) => key === 'answered',
      max: 2,
    };
    const loaded = flight.run(
      'own',
      () => null,
      (alongKeys) => {
        expect(cache.get('load:x')).not.toBeNull();
        return alongKeys.join(',');
      },
      along,
    );
    expect(loaded).toBe('x,y');
    expect(locks()).toBe(1);
    expect(asked).toBe(1);
    expect(['own', 'x', 'y'].map((key) => cache.get(`load:${key}`))).toEqual([null, null, null]);
    // A waiter (its key held by another) never works out the keys along.
    cache.put('load:busy', '{"since":0}', 30);
    const stored = answeredWhileAsleep(clock, 'fetched by another');
    expect(flight.run('busy', stored, () => 'must not load', along)).toBe('fetched by another');
    expect(asked).toBe(1);
  });

  it('claims at most `max` keys, counting only those it claims: held and answered keys take no place', () => {
    const clock = new FakeClock(0);
    const cache = new MemoryCache(clock);
    cache.put('load:a', '{"since":0}', 30);
    const flight = new SingleFlight(cache, clock, 25_000);
    expect(flight.claimMany(['a', 'b', 'c', 'd', 'e'], (key) => key === 'b', 2)).toEqual(['c', 'd']);
    expect(cache.get('load:e')).toBeNull();
    expect(flight.claimMany(['a', 'b', 'c', 'd', 'e'], () => false, 2)).toEqual(['b', 'e']);
  });

  it('waits under the lock too when another execution holds the marker, and does not fetch', () => {
    const clock = new FakeClock(0);
    const cache = new MemoryCache(clock);
    cache.put('load:k', '{"since":0}', 30);
    const stored = answeredWhileAsleep(clock, 'theirs');
    const mutex: Mutex = { withLock: (fn) => fn() };
    expect(
      new SingleFlight(cache, clock, 25_000, mutex).run('k', stored, () => {
        throw new Error('must not fetch');
      }),
    ).toBe('theirs');
  });
});
