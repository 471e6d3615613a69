// More of the built add-in's custom functions against the emulator: single-flight fetches, settings
// generations, refresh, list values and period labels.

import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEMO_IDS } from '../../emulator/demo-data';
import type { EmulatorState } from '../../emulator/records';
import { CODE_PATH, DIST } from '../support/built-bundle';
import { FileCache, startExecution, type ExecutionRequest } from '../support/concurrent-execution';
import type { GasRuntime } from '../../gas-runtime';
import { grantFormulaAccess, useStackWithState, OWNER, type Rpc, type Stack } from '../support/stack';
import { DEMO_FUND_LISTING, DEMO_FUND_LISTING_PAGES } from '../support/demo-fund';

const M = DEMO_IDS.metrics;
let stack: Stack;
let state: EmulatorState;
useStackWithState((started, demo) => ((stack = started), (state = demo)));

/** The emulator's own value of a metric on a date: what a cell must show, computed independently. */
function valueOn(metricId: string, date: string): number | '' {
  const point = state.data_points.find((p) => p.metric_id === metricId && p.date === date);
  return point?.value === null || point?.value === undefined ? '' : Number(point.value);
}

async function until(condition: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Starts `count` worker threads for `rt`'s recalculations (cells refused on their argument, no request sent), so
 * the cells a test then recalculates together start at once instead of each waiting for a thread's start-up: the
 * slowed answer they must overlap then need only outlast a bundle's load, not a thread's start on a loaded machine.
 */
async function warmThreads(rt: GasRuntime, count: number): Promise<void> {
  const cells = Array.from({ length: count }, (_, i) => ({ formula: '=METRIC_VALUE("not-an-id", "2024-01")', cell: `Z${i + 1}` }));
  const done = await rt.recalculate(cells);
  expect(done.map((o) => o.ok)).toEqual(cells.map(() => false));
}

describe('cells that need the same series at once', () => {
  let cacheDir: string;
  beforeEach(() => {
    cacheDir = mkdtempSync(path.join(os.tmpdir(), 'shared-user-cache-'));
  });
  afterEach(() => rmSync(cacheDir, { recursive: true, force: true }));

  const execution = (functionName: string, args: unknown[]): ExecutionRequest => ({
    cacheDir,
    codePath: CODE_PATH,
    files: DIST,
    owner: OWNER,
    settings: { METRICS_API_BASE_URL: stack.emulator.url, METRICS_API_TOKEN: stack.emulator.token, METRICS_DEFAULT_COMPANY_ID: stack.emulator.companyId },
    functionName,
    args,
  });
  const markers = (cache: FileCache) => cache._keys().filter((key) => key.startsWith('load:'));
  /** Caches the access check's metric listing in the shared cache, so the slowed answer below is the series. */
  const warmAccessListing = async () => {
    const warm = await startExecution(execution('METRICS', [stack.emulator.companyId])).result;
    // Every page of the demo fund's listing (fetchAll counts each of its requests).
    expect(warm).toMatchObject({ ok: true, urlFetchCount: DEMO_FUND_LISTING_PAGES });
    await stack.emulator.control.clearRequests();
  };

  it('are answered by one fetch: the first execution fetches, the others wait for its answer in the cache', async () => {
    const metric = M.monthlyRecurringRevenue;
    const months = state.data_points
      .filter((p) => p.metric_id === metric && p.value !== null)
      .map((p) => p.date)
      .sort()
      .slice(-5);
    expect(months).toHaveLength(5);
    const rt = stack.runtime();
    // The access check's metric listing cached first (it has a test of its own below), so the slowed answer is the series.
    rt.runCustomFunction('METRICS', [stack.emulator.companyId]);
    await warmThreads(rt, 6);
    rt.executions.length = 0;
    await stack.emulator.control.clearRequests();
    // The fetcher's answer is slow, so the other cells start while it is still loading.
    await stack.emulator.control.faults({ slowNext: { count: 1, delayMs: 1500 } });
    // Six cells recalculated together, as Sheets runs them: one execution each, at the same time.
    const cells = [
      ...months.map((month, i) => ({ formula: `=METRIC_VALUE("${metric}", "${month}")`, cell: `A${i + 1}` })),
      { formula: `=METRIC_LATEST("${metric}", "${months[4]}")`, cell: 'A6' },
    ];
    const outcomes = await rt.recalculate(cells);
    const expected = [...months.map((m) => valueOn(metric, m)), valueOn(metric, months[4]!)];
    expect(outcomes.map((o) => (o.ok ? o.values[0]![0] : o.error.message))).toEqual(expected);
    expect(
      rt.spreadsheet
        .getActiveSheet()
        .getRange('A1:A6')
        .getValues()
        .map(([v]) => v),
    ).toEqual(expected);
    // They really overlapped: every cell started before the first one ended.
    const firstEnd = Math.min(...outcomes.map((o) => o.finishedAt));
    expect(outcomes.every((o) => o.startedAt < firstEnd)).toBe(true);
    expect(rt.executions.map((e) => e.urlFetchCount).sort()).toEqual([0, 0, 0, 0, 0, 1]);
    const requests = await stack.takeRequests();
    expect(requests.filter((r) => r.path === '/data_points')).toHaveLength(1);
    expect(
      rt.cache
        .user(OWNER)
        ._keys()
        .filter((key) => key.startsWith('load:')),
    ).toEqual([]);
  }, 60_000);

  it('share one read of the metric listing the access check needs, however many start at once', async () => {
    const metric = M.monthlyRecurringRevenue;
    const months = state.data_points
      .filter((p) => p.metric_id === metric && p.value !== null)
      .map((p) => p.date)
      .sort()
      .slice(-6);
    const rt = stack.runtime();
    await warmThreads(rt, 6);
    // The listing's first page is slow, so every cell starts while one execution is still reading it.
    await stack.emulator.control.faults({ slowNext: { count: 1, delayMs: 1500 } });
    const outcomes = await rt.recalculate(months.map((month, i) => ({ formula: `=METRIC_VALUE("${metric}", "${month}")`, cell: `B${i + 1}` })));
    expect(outcomes.map((o) => (o.ok ? o.values[0]![0] : o.error.message))).toEqual(months.map((m) => valueOn(metric, m)));
    const firstEnd = Math.min(...outcomes.map((o) => o.finishedAt));
    expect(outcomes.every((o) => o.startedAt < firstEnd)).toBe(true);
    const requests = await stack.takeRequests();
    const listing = requests.filter((r) => r.path === '/metrics');
    // Each page of the listing once (no cell read it again), and one series request.
    expect(listing.length).toBeGreaterThan(0);
    expect(new Set(listing.map((r) => r.query)).size).toBe(listing.length);
    expect(requests.filter((r) => r.path === '/data_points')).toHaveLength(1);
  }, 60_000);

  it('are answered even when the fetching execution dies: a waiting one takes over 10 s before its deadline', async () => {
    const metric = M.headcount;
    const date = state.data_points
      .filter((p) => p.metric_id === metric && p.value !== null)
      .map((p) => p.date)
      .sort()[0]!;
    await warmAccessListing();
    await stack.emulator.control.faults({ slowNext: { count: 1, delayMs: 40_000 } });
    const cache = new FileCache(cacheDir);
    const fetcher = startExecution(execution('METRIC_VALUE', [metric, date]));
    await until(() => markers(cache).length === 1, 'the loading marker');
    await fetcher.kill(); // as Apps Script ends an execution, its marker stays behind
    await stack.emulator.control.faults({ reset: true }); // whether or not its request got out, the next one is not slowed
    expect(markers(cache)).toHaveLength(1);
    // Alone, the waiter sleeps on its own clock only, and its polls are counted rather than timed.
    const waiter = await startExecution({ ...execution('METRIC_VALUE', [metric, date]), realSleeps: false }).result;
    expect(waiter).toMatchObject({ ok: true, value: valueOn(metric, date), urlFetchCount: 1 });
    // It polled (never fetching) until 10 s of its 25 s were left: at most 14.5 s of polls (every 100 ms for the
    // first 2 s, then every half second), and nearly all of them (what is missing is the real time its reads
    // took, well under 4.5 s).
    expect([...new Set(waiter.sleeps)].sort((a, b) => a - b)).toEqual([100, 500]);
    const slept = waiter.sleeps.reduce((a, b) => a + b, 0);
    expect(slept).toBeGreaterThanOrEqual(10_000);
    expect(slept).toBeLessThanOrEqual(14_500);
    expect(markers(cache)).toEqual([]);
  }, 60_000);
});

describe('saving settings', () => {
  const SETTINGS_GENERATION = 'METRICS_CACHE_SETTINGS_GENERATION';

  it('checks every field first: when one is wrong, nothing is saved', () => {
    const rt = stack.runtime();
    const props = rt.properties.user(OWNER);
    const before = props.getProperties();
    for (const update of [
      { token: 'tok_live_new_0123456789', baseUrl: 'http://api.example.com' },
      { token: 'tok_live_new_0123456789', defaultCompanyId: 'not-an-id' },
      { token: 'two words', baseUrl: 'https://api.example.com', defaultCompanyId: DEMO_IDS.startup },
    ]) {
      const result = rt.callServer('saveSettings', [update]) as Rpc<unknown>;
      expect(result.ok).toBe(false);
      expect(props.getProperties()).toEqual(before);
    }
  });

  it('stops cached answers of the old token or base URL at once, and keeps them when neither changed', async () => {
    const rt = stack.runtime();
    const props = rt.properties.user(OWNER);
    // A stored list: the default company changes below, and without a list access would follow it.
    grantFormulaAccess(rt, [DEMO_IDS.fund]);
    const metric = M.monthlyRecurringRevenue;
    const first = rt.runCustomFunction('METRIC_VALUES', [metric]);
    expect((await stack.takeRequests()).map((r) => r.path)).toEqual([...DEMO_FUND_LISTING, '/data_points']); // the access listing, then the series

    // Saving the same token and base URL (with a new default company) keeps the cache.
    expect(rt.callServer('saveSettings', [{ token: stack.emulator.token, baseUrl: stack.emulator.url, defaultCompanyId: DEMO_IDS.startup }])).toMatchObject({
      ok: true,
    });
    expect(props.getProperty(SETTINGS_GENERATION)).toBeNull();
    expect(rt.runCustomFunction('METRIC_VALUES', [metric])).toEqual(first);
    expect(await stack.takeRequests()).toHaveLength(0);

    // Another address of the same server: a new environment as far as the add-in knows, so it asks again.
    const otherAddress = stack.emulator.url.replace('127.0.0.1', 'localhost');
    expect(otherAddress).not.toBe(stack.emulator.url);
    expect(rt.callServer('saveSettings', [{ baseUrl: otherAddress }])).toMatchObject({ ok: true });
    const generation = props.getProperty(SETTINGS_GENERATION);
    expect(generation).not.toBeNull();
    expect(rt.runCustomFunction('METRIC_VALUES', [metric])).toEqual(first);
    // Save tested the new address with one listing; then the formula asked again.
    expect((await stack.takeRequests()).map((r) => r.path)).toEqual(['/metrics', ...DEMO_FUND_LISTING, '/data_points']);

    // Another account's token (Save keeps only a token the API knows): the old account's answer is not shown;
    // this account reaches no company, so the formula says why instead.
    await stack.emulator.control.fixtures({ users: [{ name: 'Someone else', tokens: ['tok_live_someone_else_1234'], company_ids: [] }] });
    expect(rt.callServer('saveSettings', [{ token: 'tok_live_someone_else_1234' }])).toMatchObject({ ok: true });
    expect(props.getProperty(SETTINGS_GENERATION)).not.toBe(generation);
    expect(() => rt.runCustomFunction('METRIC_VALUES', [metric])).toThrow();
  });
});

describe('Refresh data', () => {
  it('makes Sheets run every add-in formula again, and the formulas bring the value changed on the platform', async () => {
    // Sheets recalculates a formula the script writes: the evaluator notes it, and the test then runs
    // exactly those formulas, as Sheets would after the menu item returns.
    const recalculate: Array<{ formula: string; cell: string; sheet: string }> = [];
    const rt = stack.runtime({
      formulaEvaluator: (formula, at) => {
        recalculate.push({ formula, cell: at.a1, sheet: at.sheetName });
        return 'Loading…';
      },
    });
    const metric = M.headcount;
    const date = state.data_points
      .filter((p) => p.metric_id === metric && p.value !== null)
      .map((p) => p.date)
      .sort()
      .at(-1)!;
    const single = `=METRIC_VALUE("${metric}", "${date}")`;
    const table = `=METRIC_VALUES("${metric}", "${date}", "${date}")`;
    rt.spreadsheet.insertSheet('Model');
    const cells = [
      { formula: single, cell: 'B2', sheet: 'Sheet1' },
      { formula: table, cell: 'D5', sheet: 'Model' },
    ];
    for (const { formula, cell, sheet } of cells) expect(rt.evaluateFormula(formula, { cell, sheet })).toMatchObject({ ok: true });
    rt.spreadsheet.getSheetByName('Sheet1')!.getRange('A1').setFormula('=SUM(1, 2)');
    recalculate.length = 0;
    const model = rt.spreadsheet.getSheetByName('Model')!;
    const sheet1 = rt.spreadsheet.getSheetByName('Sheet1')!;
    expect(sheet1.getRange('B2').getValue()).toBe(valueOn(metric, date));
    const changed = Number(valueOn(metric, date)) + 1234;
    await stack.emulator.control.fixtures({ data_points: [{ metric_id: metric, date, value: String(changed) }] });

    // Recalculated without a refresh, the cached answer still shows the old value.
    rt.evaluateFormula(single, { cell: 'B2', sheet: 'Sheet1' });
    expect(sheet1.getRange('B2').getValue()).toBe(valueOn(metric, date));
    await stack.takeRequests();

    rt.run('onOpen', [{ authMode: 'FULL' }]);
    rt.run(rt.ui.menuFunction('Refresh data')!);
    expect(recalculate.map((r) => `${r.sheet}!${r.cell} ${r.formula}`).sort()).toEqual(cells.map((c) => `${c.sheet}!${c.cell} ${c.formula}`).sort());
    for (const { formula, cell, sheet } of recalculate) expect(rt.evaluateFormula(formula, { cell, sheet })).toMatchObject({ ok: true });
    expect(sheet1.getRange('B2').getValue()).toBe(changed);
    expect(model.getRange('E5').getValue()).toBe(changed);
    expect(sheet1.getRange('A1').getFormula()).toBe('=SUM(1, 2)');
    expect((await stack.takeRequests()).filter((r) => r.path === '/data_points')).toHaveLength(2);
  });
});

describe('values as a person reads them', () => {
  it('shows rich text property values as plain text, keeping their line breaks', async () => {
    const richText = new Set(state.portfolio_properties.filter((p) => p.data_type === 'rich_text').map((p) => p.id));
    const existing = state.portfolio_property_values.find((v) => richText.has(v.portfolio_property_id))!;
    const [profile, property] = [existing.portfolio_company_profile_id, state.portfolio_properties.find((p) => p.id === existing.portfolio_property_id)!];
    await stack.emulator.control.fixtures({
      portfolio_property_values: [{ ...existing, value: '<p>Strong <em>team</em> &amp; market.</p><p>Risks:</p><ul><li>churn</li><li>pricing</li></ul>' }],
    });
    const rt = stack.runtime();
    const rows = rt.runCustomFunction('PORTFOLIO_PROPERTY_VALUES', [profile]) as unknown[][];
    expect(rows.find((r) => r[3] === property.id)).toEqual([property.name, 'Strong team & market.\nRisks:\n• churn\n• pricing', 'rich_text', property.id]);
  });

  it('gives a metric named twice in a range two columns, from one request for it', async () => {
    const rt = stack.runtime();
    const metric = M.monthlyRecurringRevenue;
    const rows = rt.runCustomFunction('METRIC_VALUES', [[[metric], [M.headcount], [metric]], '2024-01-01', '2024-03-31']) as unknown[][];
    const name = state.metrics.find((m) => m.id === metric)!.name;
    expect(rows[0]).toEqual(['Date', name, state.metrics.find((m) => m.id === M.headcount)!.name, name]);
    expect(rows.length).toBeGreaterThan(1);
    for (const row of rows.slice(1)) expect(row[3]).toBe(row[1]);
    expect(rows.slice(1).map((r) => r[1])).toEqual(['2024-01-01', '2024-02-01', '2024-03-01'].map((d) => valueOn(metric, d)));
    const series = (await stack.takeRequests()).filter((r) => r.path === '/data_points');
    expect(series).toHaveLength(1);
    expect(series[0]!.query.match(/metric_id\[\]=/g)).toHaveLength(2);
  });

  it('keeps the header row when there are no data points, and says so in the row below', () => {
    const rt = stack.runtime();
    const name = state.metrics.find((m) => m.id === M.monthlyRecurringRevenue)!.name;
    expect(rt.runCustomFunction('METRIC_VALUES', [M.monthlyRecurringRevenue, '1990-01-01', '1990-12-31', 'headers'])).toEqual([
      ['Date', name],
      ['No data points between 1990-01-01 and 1990-12-31.', ''],
    ]);
    expect(rt.runCustomFunction('METRIC_VALUES', [M.monthlyRecurringRevenue, '1990-01-01', '1990-12-31'])).toEqual([
      ['No data points between 1990-01-01 and 1990-12-31.'],
    ]);
  });

  it('gives every value as the API\'s exact decimal text with "text"', async () => {
    const [metric] = (await stack.emulator.control.fixtures({ metrics: [{ company_id: DEMO_IDS.fund, name: 'Exact', frequency: 'monthly', unit: 'USD' }] }))
      .metrics;
    const values = ['12345678901234567890.123456789', '0.10', '7', '-0.000000000000000001'];
    await stack.emulator.control.fixtures({ data_points: values.map((value, i) => ({ metric_id: metric!.id, date: `2024-0${i + 1}-01`, value })) });
    const rt = stack.runtime();
    const rows = rt.runCustomFunction('METRIC_VALUES', [metric!.id, '', '', 'text']) as unknown[][];
    expect(rows.map((r) => r[1])).toEqual(values);
    const numbers = rt.runCustomFunction('METRIC_VALUES', [metric!.id]) as unknown[][];
    expect(numbers.map((r) => r[1])).toEqual(values.map(Number));
  });
});

describe('periods', () => {
  it('reads FY2024 Q3, Q3-FY2024 and FY24 like Q3 FY2024 and FY2024', () => {
    const rt = stack.runtime();
    const metric = state.metrics.find(
      (m) =>
        m.frequency === 'monthly' &&
        m.portfolio_company_profile_id &&
        state.portfolio_company_profiles.find((p) => p.id === m.portfolio_company_profile_id)?.fiscal_year_end_month === 3 &&
        state.data_points.some((p) => p.metric_id === m.id && p.date === '2023-10-01' && p.value !== null),
    )!;
    expect(metric).toBeDefined();
    for (const label of ['FY2024 Q3', 'Q3-FY2024', 'Q3 FY24'])
      expect(rt.runCustomFunction('METRIC_VALUE', [metric.id, label, 'first'])).toBe(valueOn(metric.id, '2023-10-01'));
    expect(rt.runCustomFunction('METRIC_VALUE', [metric.id, 'FY24', 'first'])).toBe(valueOn(metric.id, '2023-04-01'));
  });

  it('explains a fiscal period that does not start on a period start of the metric', async () => {
    const fixtures = await stack.emulator.control.fixtures({
      portfolio_company_profiles: [{ company_id: DEMO_IDS.fund, name: 'February Co', fiscal_year_end_month: 2 }],
    });
    const profile = fixtures.portfolio_company_profiles[0]!;
    const [metric] = (
      await stack.emulator.control.fixtures({
        metrics: [{ company_id: DEMO_IDS.fund, name: 'Quarterly bookings', frequency: 'quarterly', unit: 'USD', portfolio_company_profile_id: profile.id }],
      })
    ).metrics;
    const rt = stack.runtime();
    expect(() => rt.runCustomFunction('METRIC_VALUE', [metric!.id, 'FY2024'])).toThrow(
      '"FY2024" starts on 2023-03-01, as the fiscal year ends in February, but "Quarterly bookings" is a quarterly metric whose periods start on 1 January, 1 April, 1 July and 1 October: none starts there. Give the period\'s first date, or a calendar label like 2024-Q1.',
    );
  });

  it('without a default company or a list, formulas may read no company: the owner is told how to allow one', async () => {
    const rt = stack.runtime({ defaultCompany: null });
    const metric = M.monthlyRecurringRevenue;
    expect(() => rt.runCustomFunction('METRIC_VALUE', [metric, '2024-03-01'])).toThrow(
      `No metric with id ${metric} was found in the companies this spreadsheet may read (none yet): check the id. If it is another company's, the spreadsheet's owner can allow that company in the add-in's Settings › Formula access, or by inserting one of its metrics from the sidebar as a live formula.`,
    );
    expect(await stack.takeRequests()).toEqual([]);
    grantFormulaAccess(rt, [DEMO_IDS.fund]);
    expect(rt.runCustomFunction('METRIC_VALUE', [metric, '2024-03-01'])).toBe(valueOn(metric, '2024-03-01'));
    // The metric's record, from the access listing, says where its periods start.
    expect(() => rt.runCustomFunction('METRIC_VALUE', [metric, '2024-03-15'])).toThrow('2024-03-15 does not start a monthly period');
  });
});
