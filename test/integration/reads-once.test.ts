// No call wasted: a grid formula and an export, counted by the runtime's
// cache and properties calls and by the emulator's request log, on the built bundle.

import type { CacheCalls, GasRuntime, PropertiesCalls } from '../../gas-runtime';
import type { ExportHandle } from '../../src/shared/rpc';
import { DEMO_IDS } from '../../emulator/demo-data';
import { driveExport, ok, useStack, OWNER, type Stack } from '../support/stack';
import { DEMO_FUND_LISTING_PAGES, demoFundListingQueries } from '../support/demo-fund';
import { createMonthlyMetrics, monthLabels } from '../support/monthly-metrics';

let stack: Stack;
useStack((started) => (stack = started));

const IDS = 10;
const PERIODS = 50;

/** The first `n` month labels from January 2020: 2020-01, 2020-02… */
function months(n: number): string[] {
  return monthLabels(n, 2020);
}

/** Ten monthly metrics of the default company, each with a value in every one of the 50 months. */
function tenMetrics(): Promise<string[]> {
  return createMonthlyMetrics(stack, { count: IDS, months: PERIODS, firstYear: 2020, name: 'Grid metric' });
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

describe("a recalculation of one cell per value fetches the sheet's series together", () => {
  const MONTHS = 3;

  /** The formulas in their cells first, as Sheets has them while their values load; then every cell at once. */
  async function recalculateSheet(rt: GasRuntime, cells: Array<{ formula: string; cell: string }>, maxConcurrent: number): Promise<unknown[]> {
    const sheet = rt.spreadsheet.getActiveSheet();
    for (const { formula, cell } of cells) sheet.getRange(cell).setFormula(formula);
    const outcomes = await rt.recalculate(cells, { maxConcurrent });
    return outcomes.map((o) => (o.ok ? o.values[0]![0] : o.error.message));
  }

  it(`recalculates ${IDS} metrics × ${MONTHS} months with the listing and one multi-id series request cold, and none warm`, async () => {
    const ids = await tenMetrics();
    // 30 cells, then the same 30 at once again: the rate Apps Script refuses past (docs/platform.md, §14) is off here, this counts requests.
    const rt = stack.runtime({ assumptions: { customFunctionsPerSecond: false } });
    const periods = months(MONTHS);
    // Sheet order: a metric's cells together, as a model's rows are; a column of ids, referenced.
    rt.spreadsheet
      .getActiveSheet()
      .getRange(1, 1, IDS, 1)
      .setValues(ids.map((id) => [id]));
    const cells = ids.flatMap((id, m) =>
      periods.map((period, p) => ({
        formula: m % 2 === 0 ? `=METRIC_VALUE("${id}", "${period}")` : `=METRIC_VALUE($A$${m + 1}, "${period}")`,
        cell: `${String.fromCharCode(66 + p)}${m + 1}`,
      })),
    );
    const expected = ids.flatMap((_, m) => periods.map((_, p) => m * 1000 + p));

    // Each metric's cells start together and the next metric's only as a slot frees, as in the bench's
    // model sheet: cells of two metrics starting at the same instant may each fetch their own series
    // before one claims the other's (at most one fetch per metric still), which would make the count
    // depend on timing.
    expect(await recalculateSheet(rt, cells, MONTHS)).toEqual(expected);
    const cold = await stack.takeRequests();
    const series = cold.filter((r) => r.path === '/data_points');
    // 10 metrics × 50 points at 100 a page: 5 pages of one request naming every id (per metric: 10 pages).
    expect(series).toHaveLength(5);
    for (const request of series) for (const id of ids) expect(request.query).toContain(id);
    expect(cold.filter((r) => r.path === '/metrics').map((r) => `${r.path}?${r.query}`)).toEqual(demoFundListingQueries(stack.emulator.companyId));
    expect(cold).toHaveLength(series.length + DEMO_FUND_LISTING_PAGES);
    // Who sends them depends on timing: the first cells to start read the fund's listing (the access check), and when
    // two start at the same instant, one may read the listing while the other, waiting on it, reads the series. The
    // counts above are the promise: nothing is read twice. At most those two executions fetch.
    const fetching = rt.executions.filter((e) => e.urlFetchCount > 0);
    expect(fetching.length).toBeGreaterThanOrEqual(1);
    expect(fetching.length).toBeLessThanOrEqual(2);
    expect(fetching.reduce((sum, e) => sum + e.urlFetchCount, 0)).toBe(cold.length);
    expect(
      rt.cache
        .user(OWNER)
        ._keys()
        .filter((key) => key.startsWith('load:')),
    ).toEqual([]);

    expect(await recalculateSheet(rt, cells, 30)).toEqual(expected);
    expect(await stack.takeRequests()).toEqual([]);
  }, 60_000);

  it('never fetches along a metric the owner did not allow, and refuses its cells as before', async () => {
    const ids = await tenMetrics();
    const {
      metrics: [foreign],
    } = await stack.emulator.control.fixtures({
      metrics: [{ company_id: DEMO_IDS.otherFund, name: 'Not allowed', frequency: 'monthly', unit: 'USD' }],
    });
    await stack.emulator.control.fixtures({ data_points: [{ metric_id: foreign!.id, date: '2020-01-01', value: '99' }] });
    await stack.emulator.control.clearRequests();
    const rt = stack.runtime();
    const cells = [
      { formula: `=METRIC_VALUE("${foreign!.id}", "2020-01")`, cell: 'B1' },
      ...ids.map((id, m) => ({ formula: `=METRIC_VALUE("${id}", "2020-01")`, cell: `B${m + 2}` })),
    ];
    // One at a time, so that the refused cell runs first and the next one fetches for the sheet.
    const shown = await recalculateSheet(rt, cells, 1);
    expect(shown[0]).toMatch(new RegExp(`^No metric with id ${foreign!.id} was found in the companies this spreadsheet may read`));
    expect(shown.slice(1)).toEqual(ids.map((_, m) => m * 1000));
    const requests = await stack.takeRequests();
    expect(requests.filter((r) => r.path === '/data_points' && r.query.includes(foreign!.id))).toEqual([]);
    expect(requests.filter((r) => r.path === '/data_points')).toHaveLength(5);
  }, 60_000);
});

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
    // The listing's pages once (the demo fund's metrics fill several pages of 25).
    expect(requests.filter((r) => r.path === '/metrics')).toHaveLength(DEMO_FUND_LISTING_PAGES);
    expect(requests.filter((r) => r.path === '/data_points')).toHaveLength(IDS);
    expect(requests).toHaveLength(DEMO_FUND_LISTING_PAGES + IDS);
    // One read of the user's properties for settings, credentials and formula access alike.
    expect(cold.userProperties).toMatchObject({ getProperty: 0, getProperties: 1, getKeys: 0 });
    // Cold, each series and the listing is looked for, claimed and stored once (a store reads the manifest
    // it replaces, to remove that write's chunks): a bounded number of calls per fetched list, never one per
    // cell (500 cells would be 1,000 reads). Each request sent also reads the day's quota counter at most once
    // (src/gas/quota-usage.ts).
    expect(reads(cold.cache)).toBeLessThanOrEqual(7 * (IDS + 1) + requests.length);

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

describe('an export reads the metric listing once', () => {
  it('asks GET /metrics once across listMetrics, readExportSelection, previewExport, startExport and its steps', async () => {
    const [metricId] = await tenMetrics();
    const rt = stack.runtime();
    const sheet = rt.spreadsheet.getActiveSheet();
    // Two columns under a header that names the metric: the selection's guess needs the listing.
    sheet.getRange('A1:B3').setValues([
      ['Date', 'Grid metric 0'],
      ['2030-01-01', '5'],
      ['2030-02-01', '6'],
    ]);
    rt.spreadsheet.setActiveRange(sheet.getRange('A1:B3'));
    const company = stack.emulator.companyId;
    const request = {
      companyId: company,
      range: 'Sheet1!A1:B3',
      spec: { layout: 'long', hasHeaderRow: true, skipBlanks: true, duplicates: 'reject', offPeriod: 'reject', onlyChanged: false, metricId },
      writeStatus: true,
    };

    const listed = ok<Array<{ id: string }>>(rt.callServer('listMetrics', [company]));
    expect(listed.map((m) => m.id)).toContain(metricId);
    ok(rt.callServer('readExportSelection', [company]));
    ok(rt.callServer('previewExport', [request]));
    const done = await driveExport(stack, rt, ok<ExportHandle>(rt.callServer('startExport', [request])));
    expect(done.report?.totals).toMatchObject({ failed: 0 });

    const requests = await stack.takeRequests();
    expect(requests.filter((r) => r.path === '/metrics' && r.method === 'GET')).toHaveLength(DEMO_FUND_LISTING_PAGES); // every page, once
    // The real work reached the API: the two values are stored.
    const state = await stack.emulator.control.state();
    expect(
      state.data_points
        .filter((p) => p.metric_id === metricId && p.date >= '2030-01-01')
        .map((p) => [p.date, Number(p.value)])
        .sort(),
    ).toEqual([
      ['2030-01-01', 5],
      ['2030-02-01', 6],
    ]);
  });

  it('fetches the listing again after the sidebar creates a metric, so the new one can be exported', async () => {
    const rt = stack.runtime();
    const company = stack.emulator.companyId;
    ok(rt.callServer('listMetrics', [company]));
    const created = ok<{ id: string }>(rt.callServer('createMetric', [{ companyId: company, name: 'Made just now', frequency: 'monthly', unit: 'number' }]));
    const sheet = rt.spreadsheet.getActiveSheet();
    sheet.getRange('A1:B2').setValues([
      ['Date', 'Value'],
      ['2030-01-01', '7'],
    ]);
    const request = {
      companyId: company,
      range: 'Sheet1!A1:B2',
      spec: { layout: 'long', hasHeaderRow: true, skipBlanks: true, duplicates: 'reject', offPeriod: 'reject', onlyChanged: false, metricId: created.id },
      writeStatus: false,
    };
    const done = await driveExport(stack, rt, ok<ExportHandle>(rt.callServer('startExport', [request])));
    expect(done.report?.totals).toMatchObject({ failed: 0 });
    const state = await stack.emulator.control.state();
    expect(state.data_points.filter((p) => p.metric_id === created.id).map((p) => p.value)).toHaveLength(1);
  });
});
