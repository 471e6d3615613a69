// The sidebar's grid builder on the built add-in against the emulator: the fund's metric names, the
// PORTFOLIO_METRIC / PORTFOLIO_COVERAGE insert (formula or snapshot) and the "Reporting coverage" sheet,
// over a fixture fund (demo data stays as other tests expect it).

import type { GasRuntime } from '../../gas-runtime';
import { ok, useStack, type Rpc, type Stack } from '../support/stack';

let stack: Stack;
useStack((started) => (stack = started));

const QUARTERS_2024 = ['2024-01-01', '2024-04-01', '2024-07-01', '2024-10-01'];
const MONTHS_2024 = Array.from({ length: 12 }, (_, i) => `2024-${String(i + 1).padStart(2, '0')}-01`);

interface Fund {
  fundId: string;
  metric: Record<string, string>;
}

/**
 * Four companies: Revenue spelt three ways (and twice at Gamma), Cash at two, Headcount at one, Delta
 * without Revenue; null and empty points pre-created, as the live service does.
 */
async function createFund(): Promise<Fund> {
  const control = stack.emulator.control;
  const { companies } = await control.fixtures({ companies: [{ name: 'Builder Fund', kind: 'investor' }] });
  const fundId = companies[0]!.id;
  const names = ['Alpha Labs', 'Beta Works', 'Gamma Co', 'Delta Inc'];
  const profiles = (await control.fixtures({ portfolio_company_profiles: names.map((name) => ({ company_id: fundId, name, fiscal_year_end_month: 12 })) }))
    .portfolio_company_profiles;
  const [alpha, beta, gamma, delta] = profiles.map((p) => p.id);
  const specs: Array<[string, string, string, string]> = [
    ['alphaRevenue', alpha!, 'Revenue', 'quarterly'],
    ['alphaCash', alpha!, 'Cash', 'monthly'],
    ['betaRevenue', beta!, 'revenue ', 'quarterly'],
    ['betaHeadcount', beta!, 'Headcount', 'monthly'],
    ['gammaRevenue1', gamma!, 'Revenue', 'quarterly'],
    ['gammaRevenue2', gamma!, ' REVENUE', 'quarterly'],
    ['deltaCash', delta!, 'Cash', 'monthly'],
  ];
  const metrics = (
    await control.fixtures({
      metrics: specs.map(([, profile, name, frequency]) => ({ company_id: fundId, portfolio_company_profile_id: profile, name, frequency, unit: 'USD' })),
    })
  ).metrics;
  const metric = Object.fromEntries(specs.map(([key], i) => [key, metrics[i]!.id]));
  const points: Array<{ metric_id: string; date: string; value: string | null }> = [];
  const series = (key: string, dates: string[], value: (i: number) => string | null) =>
    dates.forEach((date, i) => points.push({ metric_id: metric[key]!, date, value: value(i) }));
  series('alphaRevenue', QUARTERS_2024, (i) => (i === 2 ? null : `${100 + i}.0`));
  series('alphaCash', MONTHS_2024, (i) => `${50 + i}`);
  series('betaRevenue', QUARTERS_2024, (i) => (i === 3 ? '' : '141.6666666666666'));
  series('betaHeadcount', MONTHS_2024, (i) => `${20 + i}`);
  series('gammaRevenue1', QUARTERS_2024, () => '1');
  series('gammaRevenue2', QUARTERS_2024, () => '2');
  series('deltaCash', MONTHS_2024, (i) => (i >= 6 ? null : '9'));
  await control.fixtures({ data_points: points });
  return { fundId, metric };
}

const countBy = (requests: Array<{ path: string }>, path: string) => requests.filter((r) => r.path === path).length;

function runtimeFor(fund: Fund): GasRuntime {
  return stack.runtime({ defaultCompany: fund.fundId });
}

function selectCell(rt: GasRuntime, a1: string) {
  const sheet = rt.spreadsheet.getActiveSheet();
  rt.spreadsheet.setActiveRange(sheet.getRange(a1));
  return sheet;
}

describe('listFundMetricNames', () => {
  it('lists the distinct names with how many companies have each, from the listings the functions then share', async () => {
    const fund = await createFund();
    const rt = runtimeFor(fund);
    await stack.takeRequests();
    const names = ok(rt.callServer('listFundMetricNames', [fund.fundId]));
    // Gamma's two Revenues count once; the spelling most companies use is shown.
    // Each with the aggregate the builder offers first: a balance's last value, a flow's sum.
    // Each with the companies that have it, so the picker shows and filters by them.
    expect(names).toEqual([
      { name: 'Revenue', companies: 3, aggregate: 'sum', companyNames: ['Alpha Labs', 'Beta Works', 'Gamma Co'] },
      { name: 'Cash', companies: 2, aggregate: 'last', companyNames: ['Alpha Labs', 'Delta Inc'] },
      { name: 'Headcount', companies: 1, aggregate: 'last', companyNames: ['Beta Works'] },
    ]);
    const cold = await stack.takeRequests();
    expect(countBy(cold, '/metrics')).toBe(1);
    expect(countBy(cold, '/portfolio_company_profiles')).toBe(1);
    expect(cold).toHaveLength(2);
    // A formula of that fund then reads no listing again: only its series.
    rt.runCustomFunction('PORTFOLIO_METRIC', ['Cash', '2024-03']);
    const formula = await stack.takeRequests();
    expect(formula.map((r) => r.path)).toEqual(['/data_points']);
    expect(ok(rt.callServer('listFundMetricNames', [fund.fundId]))).toEqual(names);
    expect(await stack.takeRequests()).toHaveLength(0);
  });

  it('refuses a fund id that is not an id before any request', async () => {
    const rt = stack.runtime();
    await stack.takeRequests();
    expect(rt.callServer('listFundMetricNames', ['../metrics'])).toMatchObject({ ok: false });
    expect(await stack.takeRequests()).toHaveLength(0);
  });
});

describe('insertPortfolioGrid', () => {
  it('inserts a PORTFOLIO_METRIC formula with the periods from start to end, quotes doubled', async () => {
    const fund = await createFund();
    const rt = runtimeFor(fund);
    const sheet = selectCell(rt, 'B2');
    const report = ok<{ range: string }>(
      rt.callServer('insertPortfolioGrid', [
        { companyId: fund.fundId, kind: 'metric', metricNames: ['Revenue'], periods: [], startPeriod: '2024-Q1', endPeriod: '2024-Q3', mode: 'formula' },
      ]),
    );
    expect(report.range).toBe('Sheet1!B2');
    expect(sheet.getRange('B2').getFormula()).toBe(`=PORTFOLIO_METRIC("Revenue", {"2024-Q1","2024-Q2","2024-Q3"}, "${fund.fundId}")`);
    selectCell(rt, 'B20');
    ok(
      rt.callServer('insertPortfolioGrid', [
        {
          companyId: fund.fundId,
          kind: 'coverage',
          metricNames: ['Say "hi"', 'Cash'],
          periods: [],
          startPeriod: '2024-01',
          endPeriod: '2024-06',
          mode: 'formula',
        },
      ]),
    );
    expect(sheet.getRange('B20').getFormula()).toBe(`=PORTFOLIO_COVERAGE({"Say ""hi""","Cash"}, "2024-01", "2024-06", "${fund.fundId}")`);
    // The aggregate chosen is PORTFOLIO_METRIC's name's own ("Cash (last)"); PORTFOLIO_COVERAGE's reporting rule goes last.
    selectCell(rt, 'B10');
    ok(
      rt.callServer('insertPortfolioGrid', [
        {
          companyId: fund.fundId,
          kind: 'metric',
          metricNames: ['Cash'],
          periods: [],
          startPeriod: '2024-Q1',
          endPeriod: '2024-Q2',
          aggregate: 'last',
          mode: 'formula',
        },
      ]),
    );
    expect(sheet.getRange('B10').getFormula()).toBe(`=PORTFOLIO_METRIC("Cash (last)", {"2024-Q1","2024-Q2"}, "${fund.fundId}")`);
    selectCell(rt, 'B25');
    ok(
      rt.callServer('insertPortfolioGrid', [
        {
          companyId: fund.fundId,
          kind: 'coverage',
          metricNames: ['Cash'],
          periods: [],
          startPeriod: '2024-Q1',
          endPeriod: '2024-Q2',
          aggregate: 'last',
          mode: 'formula',
        },
      ]),
    );
    expect(sheet.getRange('B25').getFormula()).toBe(`=PORTFOLIO_COVERAGE("Cash", "2024-Q1", "2024-Q2", "${fund.fundId}", "last")`);
    expect(
      rt.callServer('insertPortfolioGrid', [
        {
          companyId: fund.fundId,
          kind: 'metric',
          metricNames: ['Cash'],
          periods: ['2024-Q1'],
          startPeriod: null,
          endPeriod: null,
          aggregate: 'median',
          mode: 'formula',
        },
      ]),
    ).toMatchObject({ ok: false, error: expect.stringMatching(/^Unknown aggregate "median"/) });
    // A wrong label is refused before anything is written.
    selectCell(rt, 'B30');
    expect(
      rt.callServer('insertPortfolioGrid', [
        { companyId: fund.fundId, kind: 'coverage', metricNames: ['Cash'], periods: [], startPeriod: 'Q1 FY2024', endPeriod: '2024-Q2', mode: 'formula' },
      ]),
    ).toMatchObject({ ok: false });
    expect(sheet.getRange('B30').getFormula()).toBe('');
  });

  it('writes a snapshot equal to what the function shows, only into empty cells', async () => {
    const fund = await createFund();
    const rt = runtimeFor(fund);
    const sheet = selectCell(rt, 'C3');
    await stack.takeRequests();
    const request = {
      companyId: fund.fundId,
      kind: 'metric',
      metricNames: ['revenue'],
      periods: ['2024-Q1', '2024-Q3', '2024-Q4'],
      startPeriod: null,
      endPeriod: null,
      mode: 'snapshot',
    };
    const report = ok<{ range: string; rows: number }>(rt.callServer('insertPortfolioGrid', [request]));
    expect(report).toMatchObject({ range: 'Sheet1!C3:G8', rows: 5 });
    const cold = await stack.takeRequests();
    expect(countBy(cold, '/data_points')).toBe(1);
    const written = sheet.getRange('C3:G8').getValues();
    const duplicate = '2 metrics "revenue": read one by id (METRIC_VALUE)';
    expect(written).toEqual([
      ['Company', '2024-Q1', '2024-Q3', '2024-Q4', 'Unit'],
      ['Alpha Labs', 100, '', 103, 'USD'],
      ['Beta Works', 141.6666666666666, 141.6666666666666, '', 'USD'],
      ['Gamma Co', duplicate, duplicate, duplicate, ''],
      ['Delta Inc', 'no metric "revenue"', 'no metric "revenue"', 'no metric "revenue"', ''],
      ['Companies with a value', '2 of 4', '1 of 4', '1 of 4', 'USD'],
    ]);
    // The same table as the custom function's, read from the same (now warm) cache.
    expect(rt.runCustomFunction('PORTFOLIO_METRIC', ['revenue', [['2024-Q1', '2024-Q3', '2024-Q4']]])).toEqual(written);
    expect(await stack.takeRequests()).toHaveLength(0);
    expect(rt.callServer('insertPortfolioGrid', [request])).toEqual({
      ok: false,
      error: 'The cells C3:G8 are not all empty. Select an empty cell with room for 6 rows and 5 columns.',
    });
    expect(rt.callServer('insertPortfolioGrid', [{ ...request, metricNames: ['Revenue', 'Cash'] }])).toMatchObject({
      ok: false,
      error: expect.stringContaining('one name'),
    });
  });

  it('writes a snapshot of Cash at quarter end with "last", and refreshes it with the same aggregate', async () => {
    const fund = await createFund();
    const rt = runtimeFor(fund);
    const sheet = selectCell(rt, 'A1');
    const request = {
      companyId: fund.fundId,
      kind: 'metric',
      metricNames: ['Cash'],
      periods: [],
      startPeriod: '2024-Q1',
      endPeriod: '2024-Q3',
      aggregate: 'last',
      mode: 'snapshot',
    };
    ok(rt.callServer('insertPortfolioGrid', [request]));
    const none = [...Array(3).fill('no metric "Cash"'), ''];
    const expected = [
      ['Company', '2024-Q1', '2024-Q2', '2024-Q3', 'Unit'],
      // Alpha's monthly Cash in March, June and September; Delta's is null from July.
      ['Alpha Labs', 52, 55, 58, 'USD'],
      ['Beta Works', ...none],
      ['Gamma Co', ...none],
      ['Delta Inc', 9, 9, '', 'USD'],
      ['Companies with a value', '2 of 4', '2 of 4', '1 of 4', 'USD'],
    ];
    expect(sheet.getRange('A1:E6').getValues()).toEqual(expected);
    await stack.emulator.control.fixtures({ data_points: [{ metric_id: fund.metric.deltaCash, date: '2024-09-01', value: '7' }] });
    // A refresh reads past the cache, so the new point shows.
    ok(rt.callServer('refreshSnapshots', []));
    expect(sheet.getRange('D5').getValue()).toBe(7);
  });
});

describe('insertFundModel', () => {
  it('writes companies down, periods across, with formulas: "cell" one live PORTFOLIO_VALUE per cell referring to its headers and a coverage line, a block per name', async () => {
    const fund = await createFund();
    const rt = runtimeFor(fund);
    const sheet = selectCell(rt, 'B3');
    const report = ok<{ range: string; message: string }>(
      rt.callServer('insertFundModel', [
        {
          companyId: fund.fundId,
          metricNames: ['Cash (last)', 'Revenue'],
          periods: [],
          startPeriod: '2024-Q1',
          endPeriod: '2024-Q2',
          aggregate: null,
          formulas: 'cell',
        },
      ]),
    );
    // Two blocks of a name row, four company rows and a coverage line, a blank row between.
    expect(report.range).toBe('Sheet1!B3:E15');
    expect(report.message).toMatch(
      /^Inserted a fund model at Sheet1!B3:E15: 4 companies × 2 periods × 2 metrics \(Cash \(last\) and Revenue \(no aggregate: a period of several values asks for one\)\), 24 PORTFOLIO_VALUE formulas, one per cell \(each its own execution when Sheets recalculates, so Google may refuse some with "Script invoked too many times per second"\), and under each block a line counting the companies with a value\./,
    );
    const values = sheet.getRange('B3:D15').getValues();
    const formulas = sheet.getRange('B3:D15').getFormulas();
    expect(values.map((row) => row[0])).toEqual([
      'Cash (last)',
      'Alpha Labs',
      'Beta Works',
      'Gamma Co',
      'Delta Inc',
      'Companies with a value',
      '',
      'Revenue',
      'Alpha Labs',
      'Beta Works',
      'Gamma Co',
      'Delta Inc',
      'Companies with a value',
    ]);
    // The periods are text, as typed: a label, not a date Sheets guessed.
    expect(values[0]!.slice(1)).toEqual(['2024-Q1', '2024-Q2']);
    // Right of the periods, each block's unit column: in this per-cell model, a PORTFOLIO_VALUE under the Unit header.
    expect(sheet.getRange('E3').getValue()).toBe('Unit');
    expect(sheet.getRange('E4').getFormula()).toBe('=PORTFOLIO_VALUE($B4, $B$3, E$3)');
    expect(sheet.getRange('E11').getFormula()).toBe('=PORTFOLIO_VALUE($B11, $B$10, E$10)');
    const units = await rt.recalculate(['E4', 'E5', 'E6', 'E7'].map((cell) => ({ cell, formula: sheet.getRange(cell).getFormula() })));
    expect(units.map((unit) => unit.ok && unit.values)).toEqual([[['USD']], [['']], [['']], [['USD']]]);
    // PORTFOLIO_UNIT over the companies and the line under them says the same, and on the line the block's one unit.
    const [column] = await rt.recalculate([{ cell: 'G4', formula: '=PORTFOLIO_UNIT($B4:$B8, $B$3)' }]);
    expect(column!.ok && column!.values).toEqual([['USD'], [''], [''], ['USD'], ['USD']]);
    // No aggregate in the formulas: each reads it from its block's name cell, so a name typed over it never inherits it.
    expect(formulas[1]).toEqual(['', '=PORTFOLIO_VALUE($B4, $B$3, C$3)', '=PORTFOLIO_VALUE($B4, $B$3, D$3)']);
    expect(formulas[5]).toEqual(['', '=COUNT(C4:C7)&" of 4"', '=COUNT(D4:D7)&" of 4"']);
    expect(formulas[6]).toEqual(['', '', '']);
    expect(formulas[11]).toEqual(['', '=PORTFOLIO_VALUE($B14, $B$10, C$10)', '=PORTFOLIO_VALUE($B14, $B$10, D$10)']);
    // Each formula, recalculated as Sheets does, shows what PORTFOLIO_VALUE gives for its company, name and period.
    const cells = ['C4', 'D4', 'C5', 'C7', 'D7', 'C11', 'D11', 'C13', 'C14'];
    const done = await rt.recalculate(cells.map((cell) => ({ cell, formula: sheet.getRange(cell).getFormula() })));
    expect(done.map((o) => (o.ok ? o.values[0]![0] : o.error.message))).toEqual([
      52,
      55,
      'no metric "Cash"',
      9,
      9,
      100,
      101,
      '2 metrics "Revenue": read one by id (METRIC_VALUE)',
      'no metric "Revenue"',
    ]);
    // One name and the aggregate chosen apart: the aggregate is that name's, written into its cell.
    selectCell(rt, 'H1');
    ok(
      rt.callServer('insertFundModel', [
        { companyId: fund.fundId, metricNames: ['Cash'], periods: ['2024-Q1'], startPeriod: null, endPeriod: null, aggregate: 'last' },
      ]),
    );
    expect(sheet.getRange('H1').getValue()).toBe('Cash (last)');
    // Several names and one aggregate: one metric's choice is not applied to another; nothing is written.
    selectCell(rt, 'L1');
    expect(
      rt.callServer('insertFundModel', [
        { companyId: fund.fundId, metricNames: ['Cash', 'Revenue'], periods: ['2024-Q1'], startPeriod: null, endPeriod: null, aggregate: 'sum' },
      ]),
    ).toEqual({
      ok: false,
      error:
        'Choose the aggregate for each metric, not one for all: name them like "Cash (sum)" (or leave one out: a period of several values then says what to type).',
    });
    expect(sheet.getRange('L1').getValue()).toBe('');
    // A name that is no fund metric is refused before anything is written, naming the nearest.
    expect(
      rt.callServer('insertFundModel', [
        { companyId: fund.fundId, metricNames: ['Cahs (last)'], periods: ['2024-Q1'], startPeriod: null, endPeriod: null, aggregate: null },
      ]),
    ).toEqual({ ok: false, error: `No metric named "Cahs" in fund ${fund.fundId}; did you mean "Cash"?` });
    expect(sheet.getRange('L1').getValue()).toBe('');
    // Only into empty cells.
    selectCell(rt, 'C4');
    expect(
      rt.callServer('insertFundModel', [
        { companyId: fund.fundId, metricNames: ['Cash'], periods: ['2024-Q1'], startPeriod: null, endPeriod: null, aggregate: null },
      ]),
    ).toMatchObject({ ok: false, error: expect.stringMatching(/^The cells C4:E9 are not all empty/) });
  });

  it('refuses a fund that is not the default company, which PORTFOLIO_VALUE reads', async () => {
    const fund = await createFund();
    const rt = stack.runtime();
    selectCell(rt, 'A1');
    expect(
      rt.callServer('insertFundModel', [
        { companyId: fund.fundId, metricNames: ['Cash'], periods: ['2024-Q1'], startPeriod: null, endPeriod: null, aggregate: null },
      ]),
    ).toMatchObject({ ok: false, error: expect.stringContaining('make the fund the default company first') });
  });
});

describe('buildCoverageSheet', () => {
  it('builds "Reporting coverage" from the emulator\'s points: blanks highlighted, filtered, header frozen; warm rebuild asks nothing', async () => {
    const fund = await createFund();
    const rt = runtimeFor(fund);
    await stack.takeRequests();
    const request = { companyId: fund.fundId, metricNames: ['Revenue', 'Cash'], startPeriod: '2024-Q1', endPeriod: '2024-Q4' };
    const report = ok<{ blanks: number; companies: number; message: string }>(rt.callServer('buildCoverageSheet', [request]));
    const cold = await stack.takeRequests();
    expect(countBy(cold, '/metrics')).toBe(1);
    expect(countBy(cold, '/portfolio_company_profiles')).toBe(1);
    expect(countBy(cold, '/data_points')).toBe(1);
    const sheet = rt.spreadsheet.getSheetByName('Reporting coverage')!;
    const values = sheet.getDataRange().getValues();
    expect(values[0]).toEqual(['Company', 'Metric', '2024-Q1', '2024-Q2', '2024-Q3', '2024-Q4', 'Reported', 'Blank', 'No such metric', 'Ambiguous name']);
    // Each status against the emulator's own points: reported when every period in the column has a value.
    const state = await stack.emulator.control.state();
    const filled = (metricId: string, from: string, to: string) =>
      state.data_points.filter((p) => p.metric_id === metricId && p.date >= from && p.date <= to).every((p) => p.value !== null && p.value !== '');
    const quarters: Array<[string, string]> = [
      ['2024-01-01', '2024-03-31'],
      ['2024-04-01', '2024-06-30'],
      ['2024-07-01', '2024-09-30'],
      ['2024-10-01', '2024-12-31'],
    ];
    const expected = (metricId: string | undefined) =>
      quarters.map(([from, to]) => (metricId === undefined ? 'no such metric' : filled(metricId, from, to) ? 'reported' : 'blank'));
    const row = (company: string, metric: string) => values.find((r) => r[0] === company && r[1] === metric)!.slice(2, 6);
    expect(row('Alpha Labs', 'Revenue')).toEqual(expected(fund.metric.alphaRevenue));
    expect(row('Alpha Labs', 'Cash')).toEqual(expected(fund.metric.alphaCash));
    expect(row('Beta Works', 'Revenue')).toEqual(expected(fund.metric.betaRevenue));
    expect(row('Beta Works', 'Cash')).toEqual(expected(undefined));
    expect(row('Delta Inc', 'Cash')).toEqual(expected(fund.metric.deltaCash));
    expect(row('Delta Inc', 'Revenue')).toEqual(expected(undefined));
    // Two metrics of one name: their own kind, counted in its own column, so the company falls out of no total.
    expect(row('Gamma Co', 'Revenue')).toEqual(Array(4).fill('ambiguous name'));
    expect(values.find((r) => r[0] === 'Gamma Co' && r[1] === 'Revenue')!.slice(6)).toEqual([0, 0, 0, 4]);
    expect(values.find((r) => r[0] === 'All companies' && r[1] === 'ambiguous name')!.slice(2)).toEqual([1, 1, 1, 1, '', '', '', 4]);
    const blanks = values
      .slice(1, 9)
      .flatMap((r) => r.slice(2, 6))
      .filter((c) => c === 'blank').length;
    expect(blanks).toBe(4);
    expect(report).toMatchObject({ companies: 4, blanks });
    // The same table the function returns.
    expect(rt.runCustomFunction('PORTFOLIO_COVERAGE', [[['Revenue', 'Cash']], '2024-Q1', '2024-Q4'])).toEqual(values);
    expect(sheet.getFrozenRows()).toBe(1);
    expect(sheet.getFrozenColumns()).toBe(2);
    expect(sheet.getFilter()!.getRange().getA1Notation()).toBe(`A1:J${values.length}`);
    const rules = sheet.getConditionalFormatRules();
    expect(rules).toHaveLength(1);
    const condition = rules[0]!.getBooleanCondition()!;
    expect(String(condition.getCriteriaType())).toBe('TEXT_EQUAL_TO');
    expect(condition.getCriteriaValues()).toEqual(['blank']);
    expect(condition.getBackground()).toBe('#fce8b2');
    expect((rules[0]!.getRanges() as Array<{ getA1Notation(): string }>).map((r) => r.getA1Notation())).toEqual([`C2:F${values.length}`]);
    expect(sheet.getRange('A1').getFontWeight()).toBe('bold');

    // A rebuild replaces the sheet (one filter, one rule, no row the analyst hid) from the warm cache; other
    // names read only their series.
    sheet.hideRows(3);
    await stack.takeRequests();
    ok(rt.callServer('buildCoverageSheet', [request]));
    expect(await stack.takeRequests()).toHaveLength(0);
    expect(sheet.isRowHiddenByUser(3)).toBe(false);
    ok(rt.callServer('buildCoverageSheet', [{ ...request, metricNames: ['Cash'] }]));
    expect((await stack.takeRequests()).map((r) => r.path)).toEqual(['/data_points']);
    expect(sheet.getConditionalFormatRules()).toHaveLength(1);
    expect(sheet.getDataRange().getValues()[0]![1]).toBe('Metric');
    expect(sheet.getDataRange().getNumRows()).toBe(1 + 4 + 4 + 4);
  });

  it('refuses fiscal labels, before any request', async () => {
    const fund = await createFund();
    const rt = runtimeFor(fund);
    await stack.takeRequests();
    const result = rt.callServer('buildCoverageSheet', [
      { companyId: fund.fundId, metricNames: ['Cash'], startPeriod: 'Q1 FY2024', endPeriod: 'Q4 FY2024' },
    ]) as Rpc<unknown>;
    expect(result).toMatchObject({ ok: false, error: expect.stringContaining('fiscal label') });
    expect(await stack.takeRequests()).toHaveLength(0);
    expect(rt.spreadsheet.getSheetByName('Reporting coverage')).toBeNull();
  });
});
