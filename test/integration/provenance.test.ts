// Where each number came from: the built add-in's METRIC_VALUES(…, "source") and METRIC_SOURCE in the
// runtime against the emulator's sources, with include_source=true sent only by the cells that ask.

import { DEMO_IDS } from '../../emulator/demo-data';
import type { EmulatorState } from '../../emulator/records';
import type { LatestValue } from '../../src/shared/rpc';
import { ok, useStackWithState, type Stack } from '../support/stack';

const M = DEMO_IDS.metrics;
let stack: Stack;
let state: EmulatorState;
useStackWithState((started, demo) => ((stack = started), (state = demo)));

/** The emulator's own point of a metric on a date. */
function storedPoint(metricId: string, date: string) {
  const point = state.data_points.find((p) => p.metric_id === metricId && p.date === date);
  if (!point) throw new Error(`the emulator holds no point of ${metricId} on ${date}`);
  return point;
}

/** What the cells must show for a stored source, written out from the brief, not from the add-in's code. */
function expectedSource(metricId: string, date: string): [string, string, string] {
  const { source } = storedPoint(metricId, date);
  return [source.source_type === 'ai_inbox' ? 'ai_inbox (review)' : source.source_type, source.label, source.app_url ?? ''];
}

function day(cell: unknown): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York', year: 'numeric', month: '2-digit', day: '2-digit' }).format(cell as Date);
}

const sourcedQueries = (requests: Array<{ path: string; query: string }>) =>
  requests.filter((r) => r.path === '/data_points' && r.query.includes('include_source=true'));
const plainQueries = (requests: Array<{ path: string; query: string }>) =>
  requests.filter((r) => r.path === '/data_points' && !r.query.includes('include_source'));

describe('METRIC_VALUES with "source"', () => {
  it("puts each value's source type, label and link beside it, ai_inbox marked for review, from one include_source=true request", async () => {
    const rt = stack.runtime();
    const rows = rt.runCustomFunction('METRIC_VALUES', [M.monthlyRecurringRevenue, '2024-01-01', '2024-12-31', 'source']) as unknown[][];
    const name = state.metrics.find((m) => m.id === M.monthlyRecurringRevenue)!.name;
    expect(rows[0]).toEqual(['Date', name, `${name} source type`, `${name} source label`, `${name} source link`]);
    const dates = state.data_points
      .filter((p) => p.metric_id === M.monthlyRecurringRevenue && p.date >= '2024-01-01' && p.date <= '2024-12-31')
      .map((p) => p.date)
      .sort();
    expect(dates).toHaveLength(12);
    expect(rows.slice(1).map(([date, value, ...source]) => [day(date), value, ...source])).toEqual(
      dates.map((date) => [date, Number(storedPoint(M.monthlyRecurringRevenue, date).value), ...expectedSource(M.monthlyRecurringRevenue, date)]),
    );
    // The demo data has every kind in this year: the test would prove nothing about the mark without one.
    expect(rows.some((row) => row[2] === 'ai_inbox (review)')).toBe(true);
    expect(rows.some((row) => row[2] === 'user_provided')).toBe(true);
    const requests = await stack.takeRequests();
    expect(sourcedQueries(requests)).toHaveLength(1);
    expect(plainQueries(requests)).toHaveLength(0);
  });

  it('shows a source type the document does not list as it came, and an unknown source without a link', async () => {
    const rt = stack.runtime();
    const rows = rt.runCustomFunction('METRIC_VALUES', [M.cashBalance, '', '', 'source']) as unknown[][];
    const types = new Set(rows.slice(1).map((row) => row[2]));
    expect([...types]).toEqual(expect.arrayContaining(['integration', 'unknown', 'ai_inbox (review)', 'update_request', 'user_provided']));
    const unknown = rows.slice(1).find((row) => row[2] === 'unknown')!;
    expect(unknown.slice(2)).toEqual(['unknown', 'Unknown source', '']);
    await stack.takeRequests();
  });

  it('leaves plain cells plain: no include_source without "source", and the sourced entry is cached apart', async () => {
    const rt = stack.runtime();
    const plain = rt.runCustomFunction('METRIC_VALUES', [M.netBurn, '2023-01-01', '2023-12-31']) as unknown[][];
    expect(plain[0]).toHaveLength(2);
    let requests = await stack.takeRequests();
    expect(plainQueries(requests)).toHaveLength(1);
    expect(sourcedQueries(requests)).toHaveLength(0);

    const sourced = rt.runCustomFunction('METRIC_VALUES', [M.netBurn, '2023-01-01', '2023-12-31', 'source']) as unknown[][];
    expect(sourced[0]).toHaveLength(5);
    requests = await stack.takeRequests();
    expect(sourcedQueries(requests)).toHaveLength(1);
    expect(plainQueries(requests)).toHaveLength(0);

    // Both forms are now cached: neither asks again.
    rt.runCustomFunction('METRIC_VALUES', [M.netBurn, '2023-01-01', '2023-12-31']);
    rt.runCustomFunction('METRIC_VALUES', [M.netBurn, '2023-01-01', '2023-12-31', 'source']);
    expect((await stack.takeRequests()).filter((r) => r.path === '/data_points')).toHaveLength(0);
  });
});

describe('METRIC_SOURCE', () => {
  it('gives one row of type, label and link; its cells share one sourced series, and METRIC_VALUE still asks without sources', async () => {
    const rt = stack.runtime();
    const metric = M.monthlyRecurringRevenue;
    // The latest month whose value the AI inbox read, from the emulator's own records.
    const aiMonth = state.data_points
      .filter((p) => p.metric_id === metric && p.source.source_type === 'ai_inbox')
      .map((p) => p.date)
      .sort()
      .at(-1)!;
    expect(rt.runCustomFunction('METRIC_SOURCE', [metric, aiMonth.slice(0, 7)])).toEqual([expectedSource(metric, aiMonth)]);
    expect((rt.runCustomFunction('METRIC_SOURCE', [metric, aiMonth.slice(0, 7)]) as unknown[][])[0]![0]).toBe('ai_inbox (review)');
    expect(rt.runCustomFunction('METRIC_SOURCE', [metric, '2024-06'])).toEqual([expectedSource(metric, '2024-06-01')]);
    let requests = await stack.takeRequests();
    expect(sourcedQueries(requests)).toHaveLength(1);
    expect(sourcedQueries(requests)[0]!.query).not.toContain('start_date');
    expect(plainQueries(requests)).toHaveLength(0);

    expect(rt.runCustomFunction('METRIC_VALUE', [metric, '2024-06'])).toBe(Number(storedPoint(metric, '2024-06-01').value));
    requests = await stack.takeRequests();
    expect(plainQueries(requests)).toHaveLength(1);
    expect(sourcedQueries(requests)).toHaveLength(0);
  });

  it('refuses a quarter of a monthly metric with a sentence, before any data point is fetched', async () => {
    const rt = stack.runtime();
    expect(() => rt.runCustomFunction('METRIC_SOURCE', [M.monthlyRecurringRevenue, '2024-Q2'])).toThrow('each of its periods has its own source');
    expect((await stack.takeRequests()).filter((r) => r.path === '/data_points')).toHaveLength(0);
  });
});

describe("the metric browser's latest values (latestMetricValues)", () => {
  it("gives each metric's newest non-blank value with its source, reading the demo's past whole histories only for metrics with nothing recent", async () => {
    const rt = stack.runtime();
    const ids = [M.monthlyRecurringRevenue, M.netBurn, M.cashBalance];
    const values = ok<LatestValue[]>(rt.callServer('latestMetricValues', [ids]));
    const expected = ids.map((metricId) => {
      const newest = state.data_points
        .filter((p) => p.metric_id === metricId && p.value !== null && p.value !== '')
        .sort((a, b) => b.date.localeCompare(a.date))[0]!;
      const [type, label, link] = expectedSource(metricId, newest.date);
      return {
        metricId,
        date: newest.date,
        value: newest.value,
        source: { type, label, link: link || null, review: newest.source.source_type === 'ai_inbox' },
      };
    });
    expect(values).toEqual(expected);
    const requests = (await stack.takeRequests()).filter((r) => r.path === '/data_points');
    expect(requests.length).toBeGreaterThan(0);
    expect(requests.every((r) => r.query.includes('include_source=true') && r.query.includes('exclude_blank=true'))).toBe(true);
  });

  it('refuses an id that is not a UUID before any request', async () => {
    const rt = stack.runtime();
    expect(rt.callServer('latestMetricValues', [['not-an-id']])).toEqual({ ok: false, error: expect.stringContaining('A metric id') });
    expect(await stack.takeRequests()).toHaveLength(0);
  });
});
