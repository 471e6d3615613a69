// A series read in pages while a point is stored between them: the API answers newest first, so the
// new point shifts every later point one place on, and the oldest falls onto a page page 1 did not announce.

import { useStack, type Stack } from '../support/stack';

let stack: Stack;
useStack((started) => (stack = started));

/** Releases the request the emulator holds once one is held; gives up (failing the test) after 30 s of real time. */
async function releaseOne(what: string): Promise<void> {
  const giveUp = Date.now() + 30_000;
  while ((await stack.emulator.control.release()) === 0) {
    if (Date.now() > giveUp) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const dayOf = (i: number) => new Date(Date.UTC(2023, 0, 1 + i)).toISOString().slice(0, 10);

describe('a paged read whose total changes between pages', () => {
  it('reads again from page 1 and caches the series with every point, none missing', async () => {
    const control = stack.emulator.control;
    const { metrics } = await control.fixtures({
      metrics: ['Daily signups', 'Warm-up'].map((name) => ({ company_id: stack.emulator.companyId, name, frequency: 'daily', unit: 'number' })),
    });
    const [metricId, warmUpId] = metrics.map((metric) => metric.id) as [string, string];
    // 200 points: two full pages of 100.
    await control.fixtures({ data_points: Array.from({ length: 200 }, (_, i) => ({ metric_id: metricId, date: dayOf(i), value: String(i + 1) })) });
    const rt = stack.runtime();
    // The company's metric list is read (and cached) first, so the held requests are the series' pages.
    rt.runCustomFunction('METRIC_VALUES', [warmUpId]);
    await stack.takeRequests();
    // Page 1 and page 2 of the first read are held, so a point can be stored after page 1 is answered.
    await control.faults({ slowNext: { count: 2, delayMs: 600_000 } });
    const reading = rt.runCustomFunctionAsync('METRIC_VALUES', [metricId]);
    await releaseOne('page 1');
    await control.fixtures({ data_points: [{ metric_id: metricId, date: dayOf(200), value: '201' }] });
    await releaseOne('page 2');
    const table = (await reading) as unknown[][];
    const expected = Array.from({ length: 201 }, (_, i) => i + 1);
    expect(table.map((row) => row[1])).toEqual(expected);
    const reads = (await stack.takeRequests()).filter((r) => r.path === '/data_points').map((r) => /page=(\d+)/.exec(r.query)![1]);
    // The second page counted 201 points where page 1 counted 200: the list is read again, all three pages of it.
    expect(reads).toEqual(['1', '2', '1', '2', '3']);
    // What was cached is the whole series: a second read sends nothing and shows every point.
    expect((rt.runCustomFunction('METRIC_VALUES', [metricId]) as unknown[][]).map((row) => row[1])).toEqual(expected);
    expect(await stack.takeRequests()).toEqual([]);
  });
});
