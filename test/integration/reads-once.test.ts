// No call wasted (issue 17, items 3 and 4): a grid formula and an export, counted by the runtime's
// cache and properties calls and by the emulator's request log, on the built bundle.

import type { CacheCalls, GasRuntime, PropertiesCalls } from '../../gas-runtime';
import { useStack, OWNER, type Stack } from '../support/stack';

let stack: Stack;
useStack((started) => (stack = started));

const IDS = 10;
const PERIODS = 50;

/** The first `n` month labels from January 2020: 2020-01, 2020-02… */
function months(n: number): string[] {
  return Array.from({ length: n }, (_, i) => `${2020 + Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}`);
}

/** Ten monthly metrics of the default company, each with a value in every one of the 50 months. */
async function tenMetrics(): Promise<string[]> {
  const { metrics } = await stack.emulator.control.fixtures({
    metrics: Array.from({ length: IDS }, (_, i) => ({ company_id: stack.emulator.companyId, name: `Grid metric ${i}`, frequency: 'monthly', unit: 'USD' })),
  });
  await stack.emulator.control.fixtures({
    data_points: metrics.flatMap((metric, m) => months(PERIODS).map((month, p) => ({ metric_id: metric.id, date: `${month}-01`, value: String(m * 1000 + p) }))),
  });
  await stack.emulator.control.clearRequests();
  return metrics.map((metric) => metric.id);
}

function minus<K extends string>(after: Record<K, number>, before: Record<K, number> | undefined): Record<K, number> {
  return Object.fromEntries(Object.entries(after).map(([key, n]) => [key, (n as number) - (before?.[key as K] ?? 0)])) as Record<K, number>;
}

/** The owner's cache and user properties calls (and the document's properties) one run makes. */
function counted<T>(rt: GasRuntime, run: () => T): { value: T; cache: CacheCalls; userProperties: PropertiesCalls; documentProperties: PropertiesCalls } {
  const cacheBefore = rt.cache.calls().user[OWNER];
  const propsBefore = rt.properties.calls();
  const value = run();
  const propsAfter = rt.properties.calls();
  return {
    value,
    cache: minus(rt.cache.calls().user[OWNER]!, cacheBefore),
    userProperties: minus(propsAfter.user[OWNER]!, propsBefore.user[OWNER]),
    documentProperties: minus(propsAfter.document, propsBefore.document),
  };
}

const reads = (calls: CacheCalls): number => calls.get + calls.getAll;

describe('a grid formula reads each cached series once per execution', () => {
  it(`fills ${IDS} ids × ${PERIODS} periods with one listing and one series request per metric cold, and ≤ ${IDS} cache reads beyond the series' warm`, async () => {
    const ids = await tenMetrics();
    const rt = stack.runtime();
    const periods = months(PERIODS);
    const grid = (): unknown[][] => rt.runCustomFunction('METRIC_VALUE', [ids.map((id) => [id]), [periods]]) as unknown[][];
    const expected = ids.map((_, m) => periods.map((_, p) => m * 1000 + p));

    const cold = counted(rt, grid);
    expect(cold.value).toEqual(expected);
    const requests = await stack.takeRequests();
    expect(requests.filter((r) => r.path === '/metrics')).toHaveLength(1);
    expect(requests.filter((r) => r.path === '/data_points')).toHaveLength(IDS);
    expect(requests).toHaveLength(1 + IDS);
    // One read of the user's properties for settings, credentials and formula access alike.
    expect(cold.userProperties).toMatchObject({ getProperty: 0, getProperties: 1, getKeys: 0 });
    // Cold, each series and the listing is looked for, claimed and stored once: a bounded number of
    // calls per fetched list, never one per cell (500 cells would be 1,000 reads).
    expect(reads(cold.cache)).toBeLessThanOrEqual(6 * (IDS + 1));

    const warm = counted(rt, grid);
    expect(warm.value).toEqual(expected);
    expect(await stack.takeRequests()).toHaveLength(0);
    expect(warm.userProperties).toMatchObject({ getProperty: 0, getProperties: 1, getKeys: 0 });
    // Each series' chunks are one manifest get and one getAll; beyond them at most 10 reads (the listing's two).
    const seriesReads = 2 * IDS;
    expect(reads(warm.cache)).toBeLessThanOrEqual(seriesReads + 10);
    expect(warm.cache.getAll).toBeLessThanOrEqual(IDS + 1);
    expect(warm.cache.put + warm.cache.putAll + warm.cache.remove + warm.cache.removeAll).toBe(0);
  });
});
