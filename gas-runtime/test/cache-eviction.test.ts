// CacheService's eviction mode: cached data "may be removed before this time", seeded so a run replays.

import { createGasRuntime, GasRuntimeUsageError } from '../index';
import { fixture } from './support/fixtures';

function runtime(cacheEviction?: { seed: number; dropRate?: number; byteBudget?: number }) {
  return createGasRuntime({ code: fixture('limits'), startTime: new Date('2024-03-01T12:00:00Z'), ...(cacheEviction ? { cacheEviction } : {}) });
}

/** Writes 50 entries in one execution and reads them back in three more. */
function survivorsAfterThreeExecutions(seed: number): string[] {
  const rt = runtime({ seed, dropRate: 0.1 });
  rt.run('cachePutMany', ['k', 50, 10]);
  rt.run('cacheSurvivors', ['k', 50]);
  rt.run('cacheSurvivors', ['k', 50]);
  return rt.run('cacheSurvivors', ['k', 50]) as string[];
}

describe('cache eviction mode', () => {
  it.each([1, 42])('loses the same entries for the same seed (seed %i)', (seed) => {
    const first = survivorsAfterThreeExecutions(seed);
    expect(survivorsAfterThreeExecutions(seed)).toEqual(first);
    // Something was lost, and not everything: the drops are neither off nor total.
    expect(first.length).toBeGreaterThan(0);
    expect(first.length).toBeLessThan(50);
  });

  it('loses different entries for different seeds (seeds 1 and 2)', () => {
    expect(survivorsAfterThreeExecutions(1)).not.toEqual(survivorsAfterThreeExecutions(2));
  });

  it('loses entries between executions, at their start (seed 7, drop rate 0.5)', () => {
    const rt = runtime({ seed: 7, dropRate: 0.5 });
    // One putAll draws once, on the empty cache; _keys() draws nothing.
    rt.cache.script().putAll(Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`k${i}`, 'v'])));
    expect(rt.cache.script()._keys()).toHaveLength(40);
    // An execution that makes no cache call: what is gone was lost at its start.
    rt.run('noop');
    expect(rt.cache.script()._keys().length).toBeLessThan(40);
    expect(rt.cache.stats().script.dropped).toBeGreaterThan(0);
  });

  it('loses entries during an execution: a value put then read at once can be gone (seed 3, drop rate 0.5)', () => {
    const rt = runtime({ seed: 3, dropRate: 0.5 });
    const reads = Array.from({ length: 20 }, (_, i) => rt.run('cachePutThenGet', [`k${i}`, 'v']));
    expect(reads).toContain(null);
    expect(reads).toContain('v');
  });

  it('evicts the entries written longest ago first past the byte budget (seed 1, budget 1,000 bytes)', () => {
    const rt = runtime({ seed: 1, byteBudget: 1000 });
    // Each entry: a 2-character key and 98 characters = 100 bytes; 15 written, 10 fit.
    rt.run('cachePutMany', ['a', 10, 98]);
    rt.run('cachePutMany', ['b', 5, 98]);
    expect(rt.run('cacheSurvivors', ['a', 10])).toEqual(['a5', 'a6', 'a7', 'a8', 'a9']);
    expect(rt.run('cacheSurvivors', ['b', 5])).toEqual(['b0', 'b1', 'b2', 'b3', 'b4']);
    expect(rt.cache.stats().script).toMatchObject({ items: 10, bytes: 1000, peakItems: 10, peakBytes: 1000, evicted: 5, dropped: 0 });
  });

  it('counts a rewritten entry as written now (seed 1, budget 300 bytes)', () => {
    const rt = runtime({ seed: 1, byteBudget: 300 });
    rt.cache.script().put('x1', 'v'.repeat(98));
    rt.cache.script().put('x2', 'v'.repeat(98));
    rt.cache.script().put('x1', 'v'.repeat(98));
    rt.cache.script().put('x3', 'v'.repeat(98));
    rt.cache.script().put('x4', 'v'.repeat(98));
    expect(rt.cache.script()._keys().sort()).toEqual(['x1', 'x3', 'x4']);
  });

  it('keeps everything without the option, and reports peaks', () => {
    const rt = runtime();
    rt.run('cachePutMany', ['k', 50, 10]);
    for (let i = 0; i < 5; i++) expect(rt.run('cacheSurvivors', ['k', 50])).toHaveLength(50);
    expect(rt.run('cachePutThenGet', ['x', 'v'])).toBe('v');
    rt.cache.script().remove('x');
    // Keys k0–k9 and k10–k49 with 10-character values: 10 × 12 + 40 × 13 bytes.
    expect(rt.cache.stats().script).toMatchObject({ items: 50, bytes: 640, peakItems: 51, peakBytes: 642, dropped: 0, evicted: 0 });
  });

  it('reports the 1,000-item cap as evictions', () => {
    const rt = runtime();
    rt.run('cachePutMany', ['k', 1001, 1]);
    expect(rt.cache.stats().script).toMatchObject({ items: 900, peakItems: 1000, evicted: 101 });
  });

  it('refuses a malformed option', () => {
    expect(() => runtime({ seed: 1.5 })).toThrow(GasRuntimeUsageError);
    expect(() => runtime({ seed: 1, dropRate: 2 })).toThrow(GasRuntimeUsageError);
    expect(() => runtime({ seed: 1, byteBudget: 0 })).toThrow(GasRuntimeUsageError);
  });
});
