// The daily quotas that can stop a user for the day (quotas page, consumer accounts): "Properties read/write:
// 50,000 / day": a warm formula cell spends at most one property call, and a spent quota reads, in the cell, the
// sidebar and a job, as the sentence that names it; "URL Fetch calls" and "Triggers total runtime", as far as
// the add-in counts them for the installation check (src/gas/quota-usage.ts).

import type { GasRuntime } from '../../gas-runtime';
import { OWNER, driveExport, ok, useStack, type Stack } from '../support/stack';
import type { ExportHandle, InsertReport, SnapshotRefreshScheduleView } from '../../src/shared/rpc';
import { DEMO_IDS } from '../../emulator/demo-data';
import { createMonthlyMetrics, monthLabels } from '../support/monthly-metrics';

let stack: Stack;
useStack((started) => (stack = started));

// 1,100 cells: more than CacheService keeps items (1,000), so a cell that cached anything of its own would push
// others' entries out and send requests; more cells only cost each one's execution again (about 10 ms of CPU).
const METRICS = 10;
const MONTHS = 110;
const CELLS = METRICS * MONTHS;
const PROPERTIES_QUOTA =
  "Apps Script's daily quota of property reads and writes for this account is used up, so the add-in cannot read its settings. It renews within 24 hours of its first use; until then cells keep the values they show until they recalculate, and the rest of the spreadsheet works as usual.";

/** The first `n` month labels from January 2000. */
function months(n: number): string[] {
  return monthLabels(n, 2000);
}

/** Monthly metrics of the default company, each with a value in every month: metric m in month p holds m * 1000 + p. */
function metricsWithValues(count: number, monthCount: number): Promise<string[]> {
  return createMonthlyMetrics(stack, { count, months: monthCount, firstYear: 2000, name: 'Quota metric' });
}

/** One METRIC_VALUE per metric and month, a metric to a column (the grid has 1,000 rows: 110 months fit). */
function modelCells(ids: string[], monthCount: number): Array<{ formula: string; cell: string }> {
  return ids.flatMap((id, m) =>
    months(monthCount).map((month, p) => ({ formula: `=METRIC_VALUE("${id}", "${month}")`, cell: `${String.fromCharCode(65 + m)}${p + 1}` })),
  );
}

function shown(outcomes: Array<{ ok: true; values: unknown[][] } | { ok: false; error: { message: string } }>): unknown[] {
  return outcomes.map((o) => (o.ok ? o.values[0]![0] : o.error.message));
}

/** Every property call of every store, as the quota counts them (the test's own seeding included, hence deltas). */
function propertyCalls(rt: GasRuntime): number {
  const report = rt.properties.calls();
  const sum = (calls: Record<string, number>) => Object.values(calls).reduce((a, b) => a + b, 0);
  return Object.values(report.user).reduce((total, calls) => total + sum(calls), sum(report.document) + sum(report.script));
}

describe('property calls of warm formula cells', () => {
  it(`recalculates ${CELLS} warm cells with at most one property call each, none sent to the API`, async () => {
    const ids = await metricsWithValues(METRICS, MONTHS);
    // 1,100 cells at once, as many as Apps Script would refuse past its rate (docs/platform.md, §14): off here, what this counts is property calls.
    const rt = stack.runtime({ assumptions: { customFunctionsPerSecond: false } });
    const cells = modelCells(ids, MONTHS);
    const sheet = rt.spreadsheet.getActiveSheet();
    for (const { formula, cell } of cells) sheet.getRange(cell).setFormula(formula);
    // Cold: the first cell fetches every series the sheet reads, in one request per page.
    expect(shown(await rt.recalculate(cells.slice(0, 1)))).toEqual([0]);
    expect((await stack.takeRequests()).filter((r) => r.path === '/data_points').length).toBeGreaterThan(0);

    const callsBefore = propertyCalls(rt);
    const quotaBefore = rt.quotas.properties.used(OWNER);
    const outcomes = await rt.recalculate(cells);
    expect(shown(outcomes)).toEqual(ids.flatMap((_, m) => months(MONTHS).map((_, p) => m * 1000 + p)));
    expect(await stack.takeRequests()).toEqual([]);
    const calls = propertyCalls(rt) - callsBefore;
    expect(calls).toBeLessThanOrEqual(CELLS);
    // The quota counted the same calls, all against the owner.
    expect(rt.quotas.properties.used(OWNER) - quotaBefore).toBe(calls);
    // Which one: the owner's user properties (formula access), never the document's (mirrored in its cache).
    expect(rt.properties.calls().user[OWNER]!.getProperties).toBeGreaterThanOrEqual(CELLS);
  }, 600_000);

  it('sees "Refresh data" and an export\'s new values at once, though the document\'s state is mirrored', async () => {
    const ids = await metricsWithValues(1, 3);
    // An editor at the keyboard: their formulas read the owner's settings, their export writes with their own token.
    const rt = stack.runtime({ activeUser: 'editor@example.com', activeUserSettings: {} });
    const cell = { formula: `=METRIC_VALUE("${ids[0]}", "2000-02")`, cell: 'A1' };
    rt.spreadsheet.getActiveSheet().getRange('A1').setFormula(cell.formula);
    expect(rt.evaluateFormula(cell.formula, { cell: 'A1' })).toMatchObject({ ok: true, values: [[1]] });
    // The editor's export to the same metric (a writer of the document's series epochs).
    const sheet = rt.spreadsheet.getActiveSheet();
    sheet.getRange('C1:D2').setValues([
      ['Date', 'Value'],
      ['2000-02-01', '77'],
    ]);
    const request = {
      companyId: stack.emulator.companyId,
      range: 'Sheet1!C1:D2',
      spec: { layout: 'long', hasHeaderRow: true, skipBlanks: true, duplicates: 'reject', offPeriod: 'reject', onlyChanged: false, metricId: ids[0] },
      writeStatus: false,
    };
    // Previewed first, as the sidebar does: typed data overwrites only a value a preview showed.
    ok(rt.callServer('previewExport', [request]));
    const done = await driveExport(stack, rt, ok<ExportHandle>(rt.callServer('startExport', [request])));
    expect(done.report?.totals).toMatchObject({ failed: 0, updated: 1 });
    expect(rt.evaluateFormula(cell.formula, { cell: 'A1' })).toMatchObject({ ok: true, values: [[77]] });
    // "Refresh data" by hand (a writer of the generation): a value changed on the API is read again.
    await stack.emulator.control.fixtures({ data_points: [{ metric_id: ids[0]!, date: '2000-02-01', value: '78' }] });
    rt.run('refreshData');
    expect(rt.evaluateFormula(cell.formula, { cell: 'A1' })).toMatchObject({ ok: true, values: [[78]] });
  }, 120_000);
});

describe('a spent Properties quota', () => {
  it('says which quota, that it renews within 24 hours and what still works, in the cell, the sidebar and a job', async () => {
    const ids = await metricsWithValues(1, 3);
    const rt = stack.runtime({ propertiesDailyQuota: 40 });
    const formula = `=METRIC_VALUE("${ids[0]}", "2000-01")`;
    expect(rt.evaluateFormula(formula, { cell: 'A1' })).toMatchObject({ ok: true, values: [[0]] });
    while (rt.quotas.properties.remaining(OWNER) > 0) rt.evaluateFormula(formula, { cell: 'A1' });

    expect(rt.evaluateFormula(formula, { cell: 'A1' })).toEqual({ ok: false, error: { code: '#ERROR!', message: PROPERTIES_QUOTA } });
    expect(rt.callServer('getSettings')).toEqual({ ok: false, error: PROPERTIES_QUOTA });
    expect(
      rt.callServer('startExport', [
        {
          companyId: stack.emulator.companyId,
          range: 'Sheet1!C1:D2',
          spec: { layout: 'long', hasHeaderRow: true, skipBlanks: true, duplicates: 'reject', offPeriod: 'reject', onlyChanged: false, metricId: ids[0] },
          writeStatus: false,
        },
      ]),
    ).toEqual({
      ok: false,
      error: PROPERTIES_QUOTA,
    });
    // An editor's own day is their own: their sidebar still works.
    expect(rt.callServer('getSettings', [], { user: 'editor@example.com' })).toMatchObject({ ok: true });
    // A day after the first call, the quota has renewed.
    rt.clock.advance(24 * 60 * 60_000);
    expect(rt.evaluateFormula(formula, { cell: 'A1' })).toMatchObject({ ok: true, values: [[0]] });
  }, 120_000);
});

describe("the add-in's own count of today's use", () => {
  it("adds a scheduled refresh's URL fetches and run time to its owner's count", async () => {
    const {
      metrics: [metric],
    } = await stack.emulator.control.fixtures({ metrics: [{ company_id: DEMO_IDS.fund, name: 'Counted revenue', frequency: 'monthly', unit: 'USD' }] });
    await stack.emulator.control.fixtures({ data_points: [{ metric_id: metric!.id, date: '2024-01-01', value: '1' }] });
    const rt = stack.runtime({ defaultCompany: DEMO_IDS.fund });
    rt.spreadsheet.setActiveRange(rt.spreadsheet.getSheetByName('Sheet1')!.getRange('B2'));
    ok<InsertReport>(
      rt.callServer('insertMetricValues', [
        { companyId: DEMO_IDS.fund, metricIds: [metric!.id], startDate: '2024-01-01', endDate: '2024-01-31', mode: 'snapshot', headers: true },
      ]),
    );
    const counted = () =>
      JSON.parse(rt.cache.user(OWNER).get('quota_usage') ?? '{"urlFetch":0,"triggerRuntimeMs":0}') as { urlFetch: number; triggerRuntimeMs: number };
    const before = counted();
    expect(before.urlFetch).toBe(rt.executions.reduce((sum, e) => sum + e.urlFetchCount, 0));
    ok(rt.callServer('scheduleSnapshotRefresh', ['hourly']));
    const [run] = rt.triggers.advance(60 * 60_000);
    expect(run).toMatchObject({ ok: true, user: OWNER });
    const after = counted();
    expect(after.urlFetch - before.urlFetch).toBe(run!.execution.urlFetchCount);
    expect(run!.execution.urlFetchCount).toBeGreaterThan(0);
    expect(after.triggerRuntimeMs).toBeGreaterThanOrEqual(0);
    expect(after.triggerRuntimeMs).toBeLessThanOrEqual(run!.execution.durationMs);
  }, 120_000);
});

describe("a spent triggers' runtime quota", () => {
  const HOUR = 60 * 60_000;
  const scheduleView = (rt: GasRuntime) => ok<SnapshotRefreshScheduleView>(rt.callServer('getSnapshotRefreshSchedule'));

  it("stops the scheduled refresh with the platform's words, and the sidebar says the runs are overdue, why they may be, and what still works", async () => {
    const rt = stack.runtime({ triggerRuntimeDailyQuotaMs: 0 });
    ok(rt.callServer('scheduleSnapshotRefresh', ['hourly']));
    const runs = rt.triggers.advance(4 * HOUR);
    expect(runs.map((run) => [run.ok, run.error])).toEqual(runs.map(() => [false, 'Service using too much computer time for one day']));
    expect(runs.length).toBeGreaterThanOrEqual(3);
    const view = scheduleView(rt);
    expect(view.schedule).toMatchObject({ active: true, lastRun: null });
    expect(view.message).toMatch(
      /No scheduled run has happened since .* UTC\. Apps Script skips scheduled runs while this account's daily quota of run time for them is used up \(90 minutes a day on a consumer account, 6 hours on Google Workspace\); it renews within 24 hours of its first use, and until then "Refresh snapshots" in the sidebar still works\./,
    );
  }, 120_000);

  it('says nothing of the kind while the runs happen', async () => {
    const rt = stack.runtime();
    ok(rt.callServer('scheduleSnapshotRefresh', ['hourly']));
    expect(rt.triggers.advance(4 * HOUR).every((run) => run.ok)).toBe(true);
    expect(scheduleView(rt).message).not.toMatch(/No scheduled run/);
  }, 120_000);
});
