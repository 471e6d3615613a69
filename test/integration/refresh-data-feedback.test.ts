// "Refresh data" from the menu: a toast from the click on for each stage of a long refresh, the outcome last; and
// a Changes row for every value that changed on the server since the cells last showed it, one changed by the
// person's own export included (the export drops the metric's cached series, so the cells' old value is found
// under the series' earlier epoch: src/core/series/series-epochs.ts, EarlierEpochs).

import type { GasRuntime } from '../../gas-runtime';
import type { ExportHandle } from '../../src/shared/rpc';
import { createMonthlyMetrics } from '../support/monthly-metrics';
import { driveExport, ok, OWNER, useStack, type Stack } from '../support/stack';

let stack: Stack;
useStack((started) => (stack = started));

/** One monthly metric with values in January to March 2000 (0, 1, 2): its id. */
async function oneMetric(): Promise<string> {
  const [id] = await createMonthlyMetrics(stack, { count: 1, months: 3, firstYear: 2000, name: 'Feedback metric' });
  return id!;
}

/** The person exports `value` for February 2000 from C1:D2, as the sidebar does (previewed first). */
async function exportFebruary(rt: GasRuntime, metricId: string, value: string): Promise<void> {
  const sheet = rt.spreadsheet.getActiveSheet();
  sheet.getRange('C1:D2').setValues([
    ['Date', 'Value'],
    ['2000-02-01', value],
  ]);
  const request = {
    companyId: stack.emulator.companyId,
    range: 'Sheet1!C1:D2',
    spec: { layout: 'long', hasHeaderRow: true, skipBlanks: true, duplicates: 'reject', offPeriod: 'reject', onlyChanged: false, metricId },
    writeStatus: false,
  };
  ok(rt.callServer('previewExport', [request]));
  const done = await driveExport(stack, rt, ok<ExportHandle>(rt.callServer('startExport', [request])));
  expect(done.report?.totals).toMatchObject({ failed: 0, updated: 1 });
}

function refreshData(rt: GasRuntime): void {
  rt.run('onOpen', [{ authMode: 'FULL' }]);
  rt.run(rt.ui.menuFunction('Refresh data')!);
}

/** The Changes sheet's rows below its header: metric, period, old and new value, refresh, range. */
function changesRows(rt: GasRuntime): unknown[][] {
  const sheet = rt.spreadsheet.getSheetByName('Changes');
  if (!sheet || sheet.getLastRow() < 2) return [];
  return sheet
    .getRange(2, 2, sheet.getLastRow() - 1, 7)
    .getValues()
    .map(([metric, period, oldValue, newValue, , refresh, range]) => [metric, period, oldValue, newValue, refresh, range]);
}

/** The data point reads of the request log, each as the metric ids it asked for. */
async function seriesReads(): Promise<string[][]> {
  const requests = await stack.takeRequests();
  return requests
    .filter((r) => r.method === 'GET' && r.path === '/data_points')
    .map((r) => {
      const query = new URLSearchParams(r.query);
      return [...query.getAll('metric_id'), ...query.getAll('metric_id[]')];
    });
}

/** A1 of a fresh runtime shows one new metric's February 2000 (1), through METRIC_VALUE. */
async function februaryInA1(): Promise<{ metricId: string; rt: GasRuntime; formula: string }> {
  const metricId = await oneMetric();
  const rt = stack.runtime();
  const formula = `=METRIC_VALUE("${metricId}", "2000-02")`;
  rt.spreadsheet.getActiveSheet().getRange('A1').setFormula(formula);
  expect(rt.evaluateFormula(formula, { cell: 'A1' })).toMatchObject({ ok: true, values: [[1]] });
  return { metricId, rt, formula };
}

describe('Refresh data logs what changed since the cells last showed it', () => {
  it("logs the value the person's own export changed, which the cells still showed as before", async () => {
    const { metricId, rt } = await februaryInA1();
    // The export stores 77 and drops the metric's cached series; "Refresh those formulas" is not pressed, so A1 shows 1.
    await exportFebruary(rt, metricId, '77');
    expect(rt.spreadsheet.getActiveSheet().getRange('A1').getValue()).toBe(1);
    await stack.takeRequests();

    refreshData(rt);
    expect(changesRows(rt)).toEqual([['Feedback metric 0', '2000-02-01', 1, 77, 'Refresh data', 'Sheet1!A1']]);
    // One read of the metric to compare (with sources), and nothing else of the API.
    expect(await seriesReads()).toEqual([[metricId]]);
    const state = await stack.emulator.control.state();
    expect(state.data_points.filter((p) => p.metric_id === metricId && p.date === '2000-02-01').map((p) => Number(p.value))).toEqual([77]);
  }, 120_000);

  it('logs nothing when the cells already showed the exported value (the formula ran after the export)', async () => {
    const { metricId, rt, formula } = await februaryInA1();
    await exportFebruary(rt, metricId, '77');
    expect(rt.evaluateFormula(formula, { cell: 'A1' })).toMatchObject({ ok: true, values: [[77]] });
    await stack.takeRequests();

    refreshData(rt);
    expect(changesRows(rt)).toEqual([]);
    expect(await seriesReads()).toEqual([[metricId]]);
  }, 120_000);

  it('logs from what the cells showed when two exports came since, the cache holding no entry for the one between', async () => {
    const { metricId, rt } = await februaryInA1();
    // Two exports, no formula run between them: the epoch of 77 was never read, so the newest entry is that of 1.
    await exportFebruary(rt, metricId, '77');
    await exportFebruary(rt, metricId, '88');
    expect(rt.spreadsheet.getActiveSheet().getRange('A1').getValue()).toBe(1);
    await stack.takeRequests();

    refreshData(rt);
    expect(changesRows(rt)).toEqual([['Feedback metric 0', '2000-02-01', 1, 88, 'Refresh data', 'Sheet1!A1']]);
    expect(await seriesReads()).toEqual([[metricId]]);
  }, 120_000);

  it('logs nothing rather than guess when the cache has lost what the cells showed, and still refreshes them', async () => {
    const { metricId, rt, formula } = await februaryInA1();
    await exportFebruary(rt, metricId, '77');
    // CacheService keeps nothing for sure: every cached series is gone, the epochs' record (a property) is not.
    const cache = rt.cache.user(OWNER);
    const series = cache._keys().filter((key) => key.startsWith('dp:'));
    expect(series.length).toBeGreaterThan(0);
    cache.removeAll(series);
    await stack.takeRequests();

    refreshData(rt);
    expect(changesRows(rt)).toEqual([]);
    // No read to compare with nothing; the formula runs again and shows the server's value.
    expect(await seriesReads()).toEqual([]);
    expect(rt.evaluateFormula(formula, { cell: 'A1' })).toMatchObject({ ok: true, values: [[77]] });
  }, 120_000);
});

describe('Refresh data shows its stages as toasts', () => {
  it('says how many formulas it refreshes from the click, then each stage, then the outcome, in that order', async () => {
    const metricId = await oneMetric();
    const rt = stack.runtime();
    const sheet = rt.spreadsheet.getActiveSheet();
    for (const [cell, month] of [
      ['A1', '2000-01'],
      ['A2', '2000-02'],
    ] as const) {
      const formula = `=METRIC_VALUE("${metricId}", "${month}")`;
      sheet.getRange(cell).setFormula(formula);
      expect(rt.evaluateFormula(formula, { cell })).toMatchObject({ ok: true });
    }
    await stack.emulator.control.fixtures({ data_points: [{ metric_id: metricId, date: '2000-02-01', value: '5' }] });
    rt.run('onOpen', [{ authMode: 'FULL' }]);
    rt.ui.toasts.length = 0;
    await stack.takeRequests();

    rt.run(rt.ui.menuFunction('Refresh data')!);
    expect(rt.ui.toasts).toEqual([
      { message: 'Refreshing 2 formulas…', title: 'Portfolio Metrics', timeoutSeconds: -1 },
      { message: 'Refreshing 2 formulas: reading 1 metric again to compare with what the cells showed…', title: 'Portfolio Metrics', timeoutSeconds: -1 },
      { message: 'Refreshing 2 formulas: writing them again, so Sheets recalculates them…', title: 'Portfolio Metrics', timeoutSeconds: -1 },
      { message: 'Refreshed 2 formulas with fresh data. 1 cached value changed: see the "Changes" sheet.', title: 'Portfolio Metrics', timeoutSeconds: 5 },
    ]);
    expect(await seriesReads()).toEqual([[metricId]]);
  }, 120_000);

  it('shows only the outcome when there is nothing to refresh', () => {
    const rt = stack.runtime();
    rt.run('onOpen', [{ authMode: 'FULL' }]);
    rt.ui.toasts.length = 0;
    rt.run(rt.ui.menuFunction('Refresh data')!);
    expect(rt.ui.toasts.map((t) => t.message)).toEqual(['No add-in formulas to refresh in this spreadsheet.']);
  });
});
