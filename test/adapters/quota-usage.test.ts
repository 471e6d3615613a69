// The add-in's own count of today's quota use (src/gas/quota-usage.ts) over a fake user cache.

import { countQuotaUse, quotaUsageToday } from '../../src/gas/quota-usage';
import { MemoryCache, ManualClock } from '../support/memory-cache';

const g = globalThis as unknown as Record<string, unknown>;
const START = Date.UTC(2026, 10, 26, 22, 0);
let clock: ManualClock;
let cache: MemoryCache;

beforeEach(() => {
  clock = new ManualClock(START);
  cache = new MemoryCache(clock);
  g['CacheService'] = { getUserCache: () => cache };
  jest.spyOn(Date, 'now').mockImplementation(() => clock.now());
});
afterEach(() => {
  delete g['CacheService'];
  jest.restoreAllMocks();
});

describe("today's quota use as the add-in counts it", () => {
  it('adds URL fetches and trigger run time, and never counts properties', () => {
    expect(quotaUsageToday()).toEqual({ day: '2026-11-26', urlFetch: 0, properties: null, triggerRuntimeMs: 0 });
    countQuotaUse({ urlFetch: 3 });
    countQuotaUse({ triggerRuntimeMs: 1500 });
    countQuotaUse({ urlFetch: 2, triggerRuntimeMs: 500 });
    expect(quotaUsageToday()).toEqual({ day: '2026-11-26', urlFetch: 5, properties: null, triggerRuntimeMs: 2000 });
  });

  it('opens a new window 24 hours after the first count, as the platform does', () => {
    countQuotaUse({ urlFetch: 1 });
    clock.advance(5 * 60 * 60_000);
    countQuotaUse({ urlFetch: 1 });
    clock.advance(19 * 60 * 60_000);
    expect(quotaUsageToday()).toMatchObject({ day: '2026-11-27', urlFetch: 0 });
    countQuotaUse({ urlFetch: 4 });
    expect(quotaUsageToday()).toMatchObject({ day: '2026-11-27', urlFetch: 4 });
  });

  it('loses the count when the cache drops it (6 hours without a count), and never fails its caller', () => {
    countQuotaUse({ urlFetch: 7 });
    clock.advance(6 * 60 * 60_000);
    expect(quotaUsageToday()).toMatchObject({ urlFetch: 0 });
    delete g['CacheService'];
    expect(() => countQuotaUse({ urlFetch: 1 })).not.toThrow();
    expect(quotaUsageToday()).toMatchObject({ urlFetch: 0, properties: null });
  });
});
