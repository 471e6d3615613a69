// The built add-in while CacheService loses entries, as Apps Script allows ("cached data may be removed
// before this time"; "not guaranteed to persist"): formulas still show the emulator's values, chunked
// series come back whole or are fetched again, and the emulator's request log shows what a lost cache costs.

import { DEMO_IDS } from '../../emulator/demo-data';
import type { EmulatorState } from '../../emulator/records';
import { useStackWithState, OWNER, type Stack } from '../support/stack';

const SEED = 20_261_123;
const M = DEMO_IDS.metrics;
let stack: Stack;
let state: EmulatorState;
useStackWithState((started, demo) => ((stack = started), (state = demo)));

function expectedSeries(metricId: string): Map<string, number | null> {
  return new Map(state.data_points.filter((p) => p.metric_id === metricId).map((p) => [p.date, p.value === null ? null : Number(p.value)]));
}

/** A daily metric of ten years: 3,653 points, 37 pages, over 100 KB cached, so stored in chunks. */
async function tenYearSeries(): Promise<{ id: string; expected: string[] }> {
  const [metric] = (await stack.emulator.control.fixtures({ metrics: [{ company_id: DEMO_IDS.fund, name: 'Ten years', frequency: 'daily', unit: 'USD' }] }))
    .metrics;
  const points = Array.from({ length: 3653 }, (_, i) => ({
    metric_id: metric!.id,
    date: new Date(Date.UTC(2015, 0, 1 + i)).toISOString().slice(0, 10),
    value: `${1_000_000 + i}.123456789`,
  }));
  await stack.emulator.control.fixtures({ data_points: points });
  await stack.emulator.control.clearRequests();
  return { id: metric!.id, expected: points.map((p) => p.value) };
}

describe(`the add-in while the cache loses entries (seed ${SEED})`, () => {
  it('answers 200 METRIC_VALUE cells exactly, fetching a whole series again for each one lost (drop rate 0.01)', async () => {
    const rt = stack.runtime({ cacheEviction: { seed: SEED, dropRate: 0.01 } });
    const metrics = [M.monthlyRecurringRevenue, M.netBurn, M.cashBalance, M.dailyActiveUsers, M.headcount];
    const months = Array.from({ length: 40 }, (_, i) => `${2021 + Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}`);
    for (const metric of metrics) {
      const frequency = state.metrics.find((m) => m.id === metric)!.frequency;
      for (const month of months) {
        const period = frequency === 'quarterly' ? `${month.slice(0, 4)}-Q${Math.floor((Number(month.slice(5)) - 1) / 3) + 1}` : month;
        const value = rt.runCustomFunction('METRIC_VALUE', [metric, frequency === 'daily' ? `${month}-01` : period]);
        const date = frequency === 'quarterly' ? `${period.slice(0, 4)}-${String((Number(period.slice(6)) - 1) * 3 + 1).padStart(2, '0')}-01` : `${month}-01`;
        expect([metric, date, value]).toEqual([metric, date, expectedSeries(metric).get(date) ?? '']);
      }
    }
    const series = (await stack.takeRequests()).filter((r) => r.path === '/data_points');
    let fetches = 0;
    for (const metric of metrics) {
      const pages = Math.max(1, Math.ceil(expectedSeries(metric).size / 100));
      const ofMetric = series.filter((r) => r.query.includes(metric));
      const firstPages = ofMetric.filter((r) => /(^|&)page=1(&|$)/.test(r.query)).length;
      // Every fetch of a series read all its pages: never a part of one.
      expect([metric, ofMetric.length]).toEqual([metric, firstPages * pages]);
      fetches += firstPages;
    }
    // Without losses this is 5 fetches (custom-functions.test.ts); each lost series cost one more.
    expect(fetches).toBeGreaterThan(metrics.length);
    expect(rt.cache.stats().user[OWNER]!.dropped).toBeGreaterThan(0);
  }, 120_000);

  it('reads a chunked ten-year series whole or fetches it again, never a part (drop rate 0.02)', async () => {
    const { id, expected } = await tenYearSeries();
    const rt = stack.runtime({ cacheEviction: { seed: SEED, dropRate: 0.02 } });
    const perRun: number[] = [];
    // Runs until a run found the series whole and a later one had lost some of it (at most 40): how many cache
    // calls a run makes changes with the add-in, and with it which run the seeded losses hit.
    for (let run = 0; run < 40 && !(perRun.slice(1).includes(0) && perRun.slice(1).includes(37)); run++) {
      const rows = rt.runCustomFunction('METRIC_VALUES', [id, '', '', 'text']) as unknown[][];
      expect(rows.map((row) => row[1])).toEqual(expected);
      perRun.push((await stack.takeRequests()).filter((r) => r.path === '/data_points').length);
    }
    // A run either found the whole series (0 requests) or fetched all of it again (37 pages).
    for (const count of perRun) expect([0, 37]).toContain(count);
    expect(perRun[0]).toBe(37);
    expect(perRun.slice(1)).toContain(37);
    expect(perRun.slice(1)).toContain(0);
  }, 120_000);

  it('fetches the whole series again when one chunk of it is lost, never showing the rest', async () => {
    const { id, expected } = await tenYearSeries();
    const rt = stack.runtime();
    rt.runCustomFunction('METRIC_VALUES', [id, '', '', 'text']);
    await stack.takeRequests();
    const cache = rt.cache.user(OWNER);
    // The series' chunks (dp:…), not those of the metric listing the access check caches (rec:…).
    const chunks = cache._keys().filter((key) => key.startsWith('dp:') && /#\d+$/.test(key));
    expect(chunks.length).toBeGreaterThan(1);
    cache.remove(chunks[0]!);
    const rows = rt.runCustomFunction('METRIC_VALUES', [id, '', '', 'text']) as unknown[][];
    expect(rows.map((row) => row[1])).toEqual(expected);
    expect((await stack.takeRequests()).filter((r) => r.path === '/data_points')).toHaveLength(37);
  }, 120_000);

  it("fetches a series again on every run when it cannot fit the cache's byte budget, values still exact", async () => {
    const { id, expected } = await tenYearSeries();
    // Less than the series' two chunks: writing the second evicts the first.
    const rt = stack.runtime({ cacheEviction: { seed: SEED, byteBudget: 100_000 } });
    for (let run = 0; run < 3; run++) {
      const rows = rt.runCustomFunction('METRIC_VALUES', [id, '', '', 'text']) as unknown[][];
      expect(rows.map((row) => row[1])).toEqual(expected);
      expect((await stack.takeRequests()).filter((r) => r.path === '/data_points')).toHaveLength(37);
    }
    expect(rt.cache.stats().user[OWNER]!.peakBytes).toBeLessThanOrEqual(100_000);
  }, 120_000);

  it('fills a 45-metric table exactly while entries are lost, each fetch whole (drop rate 0.2)', async () => {
    const { metrics } = await stack.emulator.control.fixtures({
      metrics: Array.from({ length: 45 }, (_, i) => ({
        company_id: DEMO_IDS.fund,
        name: `Chunked ${String(i).padStart(2, '0')}`,
        frequency: 'monthly',
        unit: 'number',
      })),
    });
    const ids = metrics.map((m) => m.id);
    await stack.emulator.control.fixtures({
      data_points: ids.flatMap((metric_id, m) =>
        Array.from({ length: 10 }, (_, month) => ({ metric_id, date: `2023-${String(month + 1).padStart(2, '0')}-01`, value: String(m * 100 + month) })),
      ),
    });
    await stack.emulator.control.clearRequests();
    const rt = stack.runtime({ cacheEviction: { seed: SEED, dropRate: 0.2 } });
    const perRun: number[] = [];
    for (let run = 0; run < 6; run++) {
      const rows = rt.runCustomFunction('METRIC_VALUES', [ids.map((id) => [id]), '2023-01-01', '2023-12-31']) as unknown[][];
      expect(rows[0]).toEqual(['Date', ...ids.map((_, i) => `Chunked ${String(i).padStart(2, '0')}`)]);
      rows.slice(1).forEach((row, month) => expect(row.slice(1)).toEqual(ids.map((_, m) => m * 100 + month)));
      const requests = await stack.takeRequests();
      perRun.push(requests.filter((r) => r.path === '/data_points').length);
      // The header's 45 names come from one listing of the company's metrics (3 pages), read at most once a run.
      expect(requests.filter((r) => r.path === '/metrics' && /(^|&)page=1(&|$)/.test(r.query)).length).toBeLessThanOrEqual(1);
    }
    // The series read is 5 requests (series-chunks.test.ts): a run made all of them or none.
    for (const count of perRun) expect([0, 5]).toContain(count);
    expect(perRun.slice(1)).toContain(5);
  }, 120_000);
});
