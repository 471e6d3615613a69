// The fund model on the demo fund tells the truth: an aggregate belongs to the metric its name cell names, a SUM
// row under each model form adds what Sheets would add (no error in the summed range; a line says how many
// companies the total holds), PORTFOLIO_VALUE, PORTFOLIO_METRIC and PORTFOLIO_COVERAGE agree on every case, and
// the two companies named Cirrus Systems are told apart. Built add-in, emulator's demo data, values checked
// against the emulator's own points.

import type { GasRuntime } from '../../gas-runtime';
import { DEMO_IDS } from '../../emulator/demo-data';
import { ok, useStack, type Stack } from '../support/stack';

let stack: Stack;
useStack((started) => (stack = started));

const QUARTERS = ['2023-Q1', '2023-Q2', '2023-Q3', '2023-Q4', '2024-Q1', '2024-Q2', '2024-Q3', '2024-Q4'];
const QUARTER_MONTHS = (quarter: string): string[] => {
  const [year, q] = [quarter.slice(0, 4), Number(quarter.slice(6))];
  return [0, 1, 2].map((m) => `${year}-${String((q - 1) * 3 + m + 1).padStart(2, '0')}-01`);
};

/** A cell as a recalculation leaves it: its value, or its error. */
type Shown = unknown | { error: string };
const isError = (cell: Shown): cell is { error: string } => typeof cell === 'object' && cell !== null && 'error' in cell;

/**
 * Sheets' SUM over a range: numbers added, text and empty cells skipped, and any error in the range the result
 * (docs: "SUM ... ignores text"; an error argument propagates, as every Sheets function's does).
 */
function sheetsSum(cells: readonly Shown[]): number | { error: string } {
  const error = cells.find(isError);
  if (error) return error;
  return cells.reduce<number>((sum, cell) => (typeof cell === 'number' ? sum + cell : sum), 0);
}

/** Sheets' COUNT: how many cells hold numbers. */
const sheetsCount = (cells: readonly Shown[]): number => cells.filter((cell) => typeof cell === 'number').length;

interface DemoFund {
  profiles: Array<{ id: string; name: string }>;
  /** The fund's points by metric id and date. */
  points: Map<string, Map<string, string | null>>;
  metricsOf(profileId: string, name: string): Array<{ id: string; frequency: string }>;
}

async function demoFund(): Promise<DemoFund> {
  const state = await stack.emulator.control.state();
  const profiles = state.portfolio_company_profiles.filter((p) => p.company_id === DEMO_IDS.fund).map((p) => ({ id: p.id, name: p.name }));
  const points = new Map<string, Map<string, string | null>>();
  for (const point of state.data_points) {
    if (!points.has(point.metric_id)) points.set(point.metric_id, new Map());
    points.get(point.metric_id)!.set(point.date, point.value ?? null);
  }
  const metricsOf = (profileId: string, name: string) => state.metrics.filter((m) => m.portfolio_company_profile_id === profileId && m.name.trim().toLowerCase() === name.toLowerCase());
  return { profiles, points, metricsOf };
}

/** What a Revenue (sum) cell must show for a company and quarter, from the emulator's points alone. */
function expectedRevenueSum(fund: DemoFund, profileId: string, quarter: string): 'none' | 'two' | '' | number {
  const metrics = fund.metricsOf(profileId, 'Revenue');
  if (metrics.length === 0) return 'none';
  if (metrics.length > 1) return 'two';
  const [metric] = metrics;
  const series = fund.points.get(metric!.id) ?? new Map();
  const dates = metric!.frequency === 'quarterly' ? [QUARTER_MONTHS(quarter)[0]!] : QUARTER_MONTHS(quarter);
  const values = dates.map((date) => series.get(date));
  if (values.some((value) => value === null || value === undefined || value === '')) return '';
  // Money in cents: the exact decimal sum is the cents' sum.
  return Math.round(values.reduce((sum, value) => sum + Math.round(Number(value) * 100), 0)) / 100;
}

/** Inserts a fund model at A1 through the sidebar's server function and recalculates its formulas as Sheets does. */
async function insertModel(rt: GasRuntime, metricNames: string[]): Promise<{ message: string; rows: unknown[][] }> {
  const sheet = rt.spreadsheet.getActiveSheet();
  rt.spreadsheet.setActiveRange(sheet.getRange('A1'));
  const report = ok<{ message: string }>(rt.callServer('insertFundModel', [{ companyId: DEMO_IDS.fund, metricNames, periods: QUARTERS, startPeriod: null, endPeriod: null, aggregate: null }]));
  await rt.recalculateWritten();
  return { message: report.message, rows: sheet.getDataRange().getValues() };
}

/** The model's cells after recalculating every PORTFOLIO_VALUE of its first block: rows of what each cell shows. */
async function recalculateBlock(rt: GasRuntime, companies: number): Promise<Shown[][]> {
  const sheet = rt.spreadsheet.getActiveSheet();
  const cells = Array.from({ length: companies }, (_, c) => QUARTERS.map((_, q) => sheet.getRange(2 + c, 2 + q)));
  const done = await rt.recalculate(cells.flat().map((range) => ({ cell: range.getA1Notation(), formula: range.getFormula() })));
  const shown = done.map((o): Shown => (o.ok ? o.values[0]![0] : { error: o.error.message }));
  return cells.map((_, c) => shown.slice(c * QUARTERS.length, (c + 1) * QUARTERS.length));
}

const twoRevenue = '2 metrics "Revenue": read one by id (METRIC_VALUE)';
const noRevenue = 'no metric "Revenue"';

describe('the fund model on the demo fund', () => {
  it('never applies one metric\'s aggregate to another: Cash typed over "Revenue (sum)" shows no summed balance, "Cash (last)" the quarter-end balance', async () => {
    const fund = await demoFund();
    const rt = stack.runtime();
    const { message, rows } = await insertModel(rt, ['Revenue (sum)']);
    expect(message).toContain('× 1 metric (Revenue (sum)), 256 PORTFOLIO_VALUE formulas');
    expect(rows[0]!.slice(0, 9)).toEqual(['Revenue (sum)', ...QUARTERS]);
    const fjord = rows.findIndex((row) => row[0] === 'Fjord Logistics');
    const fjordProfile = fund.profiles.find((p) => p.name === 'Fjord Logistics')!.id;
    const [cash] = fund.metricsOf(fjordProfile, 'Cash');
    const months = QUARTER_MONTHS('2023-Q3').map((date) => Number(fund.points.get(cash!.id)!.get(date)));
    // The demo's figures the report quotes: the sum of Fjord's three monthly balances, and September's.
    expect(Math.round(months.reduce((a, b) => a + b, 0) * 100) / 100).toBe(38446895.77);
    expect(months[2]).toBe(13112543.16);

    const sheet = rt.spreadsheet.getActiveSheet();
    sheet.getRange('A1').setValue('Cash');
    let block = await recalculateBlock(rt, fund.profiles.length);
    const q3 = QUARTERS.indexOf('2023-Q3');
    expect(block[fjord - 1]![q3]).toBe('3 monthly values: type "Cash (sum)", "Cash (last)", "Cash (average)" or "Cash (first)" as the name');
    // No cell of the block is a sum of balances: each monthly Cash asks, each quarterly Cash shows its own value.
    for (const [c, profile] of fund.profiles.entries()) {
      const metrics = fund.metricsOf(profile.id, 'Cash');
      for (const [q, quarter] of QUARTERS.entries()) {
        const cell = block[c]![q];
        if (metrics.length === 0) expect(cell).toBe('no metric "Cash"');
        else if (metrics[0]!.frequency === 'monthly') expect(cell).toBe('3 monthly values: type "Cash (sum)", "Cash (last)", "Cash (average)" or "Cash (first)" as the name');
        else {
          const value = fund.points.get(metrics[0]!.id)?.get(QUARTER_MONTHS(quarter)[0]!);
          expect(cell).toBe(value === null || value === undefined || value === '' ? '' : Number(value));
        }
      }
    }

    sheet.getRange('A1').setValue('Cash (last)');
    block = await recalculateBlock(rt, fund.profiles.length);
    expect(block[fjord - 1]![q3]).toBe(13112543.16);
  }, 180_000);

  it('adds up in a SUM row as Sheets would, in each model form, with a line counting the companies the total holds', async () => {
    const fund = await demoFund();
    const rt = stack.runtime();
    const companies = fund.profiles.length;
    const { rows } = await insertModel(rt, ['Revenue (sum)']);
    const labels = rows.slice(1, 1 + companies).map((row) => String(row[0]));
    // The cell form: one PORTFOLIO_VALUE per cell, as the insert wrote them.
    const cellForm = await recalculateBlock(rt, companies);
    // The grid form: one formula over the labels and the periods.
    const sheet = rt.spreadsheet.getActiveSheet();
    const grid = rt.evaluateFormula(`=PORTFOLIO_VALUE(A2:A${1 + companies}, A1, B1:I1)`, { cell: 'L2' });
    // The table form: PORTFOLIO_METRIC, its last row counting the companies with a value.
    const table = rt.runCustomFunction('PORTFOLIO_METRIC', ['Revenue (sum)', [QUARTERS]]) as unknown[][];
    expect(grid.ok).toBe(true);
    const gridForm = grid.ok ? (grid.values as Shown[][]) : [];
    const tableForm = table.slice(1, 1 + companies).map((row) => row.slice(1) as Shown[]);
    expect(table.slice(1, 1 + companies).map((row) => row[0])).toEqual(labels);

    for (const [q, quarter] of QUARTERS.entries()) {
      const expected = fund.profiles.map((profile) => expectedRevenueSum(fund, profile.id, quarter));
      const asShown = expected.map((e) => (e === 'none' ? noRevenue : e === 'two' ? twoRevenue : e));
      const column = (form: Shown[][]) => form.map((row) => row[q]);
      for (const form of [cellForm, gridForm, tableForm]) {
        const cells = column(form);
        // Every case is a number, an empty cell or text: no error reaches the summed range.
        expect(cells).toEqual(asShown);
        const sum = sheetsSum(cells);
        expect(typeof sum).toBe('number');
        expect(sum as number).toBeCloseTo(asShown.reduce<number>((s, e) => (typeof e === 'number' ? s + e : s), 0), 2);
      }
      // The coverage line under the model (COUNT of the column) and PORTFOLIO_METRIC's last row say the same.
      const covered = `${sheetsCount(column(cellForm))} of ${companies}`;
      expect(sheet.getRange(2 + companies, 2 + q).getFormula()).toBe(`=COUNT(${String.fromCharCode(66 + q)}2:${String.fromCharCode(66 + q)}${1 + companies})&" of ${companies}"`);
      expect(table.at(-1)![1 + q]).toBe(covered);
      // The companies left out of the total are the ones whose cells say why (or are empty), none hidden.
      expect(sheetsCount(column(cellForm)) + column(cellForm).filter((cell) => typeof cell === 'string').length).toBe(companies);
    }
    expect(sheet.getRange(2 + companies, 1).getValue()).toBe('Companies with a value');
  }, 180_000);

  it('counts the company with two "Revenue" metrics in coverage, as its own kind, and agrees with PORTFOLIO_VALUE on every cell', async () => {
    const fund = await demoFund();
    const rt = stack.runtime();
    const coverage = rt.runCustomFunction('PORTFOLIO_COVERAGE', ['Revenue (sum)', QUARTERS[0], QUARTERS.at(-1)]) as unknown[][];
    expect(coverage[0]).toEqual(['Company', 'Metric', ...QUARTERS, 'Reported', 'Blank', 'No such metric', 'Ambiguous name']);
    const pinnacle = coverage.find((row) => row[0] === 'Pinnacle Retail' && row[1] === 'Revenue (sum)')!;
    expect(pinnacle).toEqual(['Pinnacle Retail', 'Revenue (sum)', ...QUARTERS.map(() => 'ambiguous name'), 0, 0, 0, 8]);
    // Every company and quarter is counted exactly once across the four kinds.
    const totals = coverage.filter((row) => row[0] === 'All companies');
    expect(totals.map((row) => row[1])).toEqual(['reported', 'blank', 'no such metric', 'ambiguous name']);
    expect(totals.reduce((sum, row, i) => sum + Number(row[2 + QUARTERS.length + i]), 0)).toBe(fund.profiles.length * QUARTERS.length);
    // Each status is the kind of what PORTFOLIO_VALUE shows in that cell.
    const kind = (cell: unknown) => (typeof cell === 'number' ? 'reported' : cell === '' ? 'blank' : cell === noRevenue ? 'no such metric' : cell === twoRevenue ? 'ambiguous name' : `unexpected ${String(cell)}`);
    const grid = rt.runCustomFunction('PORTFOLIO_VALUE', [coverage.slice(1, 1 + fund.profiles.length).map((row) => [row[0]]), 'Revenue (sum)', [QUARTERS]]) as unknown[][];
    expect(coverage.slice(1, 1 + fund.profiles.length).map((row) => row.slice(2, 2 + QUARTERS.length))).toEqual(grid.map((row) => row.map(kind)));
  }, 120_000);

  it('says the units of Net Burn, kept in euros by Bluebird Health and in dollars by the rest: PORTFOLIO_METRIC, the grid\'s snapshot (each row\'s number format) and the model', async () => {
    const fund = await demoFund();
    const state = await stack.emulator.control.state();
    const companies = fund.profiles.length;
    // The emulator's own units of each company's Net Burn: Bluebird's in EUR, every other in USD.
    const unitOf = (profileId: string) => {
      const burns = state.metrics.filter((m) => m.portfolio_company_profile_id === profileId && m.name.trim().toLowerCase() === 'net burn');
      return burns.length === 1 ? burns[0]!.unit : '';
    };
    const bluebird = fund.profiles.find((p) => p.name === 'Bluebird Health')!;
    expect(unitOf(bluebird.id)).toBe('EUR');
    expect(new Set(fund.profiles.filter((p) => p.id !== bluebird.id).map((p) => unitOf(p.id)))).toEqual(new Set(['USD', '']));
    const mixed = 'rows in USD and EUR: a total over them adds different currencies';
    const rt = stack.runtime();

    // PORTFOLIO_METRIC: a Unit column at the right, each row its company's, and the last line says the total is mixed.
    const table = rt.runCustomFunction('PORTFOLIO_METRIC', ['Net Burn', [['2024-01', '2024-02']]]) as unknown[][];
    expect(table[0]).toEqual(['Company', '2024-01', '2024-02', 'Unit']);
    const labels = table.slice(1, 1 + companies).map((row) => String(row[0]));
    expect(table.slice(1, 1 + companies).map((row) => row[3])).toEqual(fund.profiles.map((p) => unitOf(p.id)));
    expect(table.at(-1)![3]).toBe(mixed);

    // The grid builder's snapshot: the insert's sentence says so, and each row's values show in its own currency.
    const sheet = rt.spreadsheet.getActiveSheet();
    rt.spreadsheet.setActiveRange(sheet.getRange('A1'));
    const inserted = ok<{ message: string; range: string }>(rt.callServer('insertPortfolioGrid', [{ companyId: DEMO_IDS.fund, kind: 'metric', metricNames: ['Net Burn'], periods: ['2024-01', '2024-02'], startPeriod: null, endPeriod: null, mode: 'snapshot' }]));
    expect(inserted.message).toContain('The rows of Net Burn are in USD and EUR: a total over them adds different currencies');
    expect(sheet.getRange(2 + companies, 4).getValue()).toBe(mixed);
    const formats = sheet.getRange(2, 2, companies, 2).getNumberFormats();
    fund.profiles.forEach((profile, r) => {
      const expected = { EUR: '"€"#,##0.00', USD: '"$"#,##0.00', '': '#,##0.00' }[unitOf(profile.id) as 'EUR' | 'USD' | ''];
      expect([labels[r], formats[r]]).toEqual([labels[r], [expected, expected]]);
    });
    const bluebirdRow = 2 + labels.indexOf('Bluebird Health');
    expect(sheet.getRange(bluebirdRow, 2).getDisplayValue()).toMatch(/^€/);

    // The fund model: a unit column right of each block, and its line under the companies says the same.
    const modelSheet = rt.spreadsheet.insertSheet('Model');
    rt.spreadsheet.setActiveSheet(modelSheet);
    const { message, rows } = await insertModel(rt, ['Net Burn']);
    expect(message).toContain('The rows of Net Burn are in USD and EUR: a total over them adds different currencies (the Unit column says each row\'s).');
    const unitColumn = 1 + QUARTERS.length + 1;
    expect(rows[0]![unitColumn - 1]).toBe('Unit');
    expect(modelSheet.getRange(2, unitColumn).getFormula()).toBe(`=PORTFOLIO_UNIT($A2:$A${2 + companies}, $A$1)`);
    expect(rows.slice(1, 1 + companies).map((row) => row[unitColumn - 1])).toEqual(fund.profiles.map((p) => unitOf(p.id)));
    expect(rows[1 + companies]!.slice(0, 1)).toEqual(['Companies with a value']);
    expect(rows[1 + companies]![unitColumn - 1]).toBe(mixed);
    // A metric every company keeps in one unit says nothing of units.
    rt.spreadsheet.setActiveRange(sheet.getRange('H1'));
    const single = ok<{ message: string }>(rt.callServer('insertPortfolioGrid', [{ companyId: DEMO_IDS.fund, kind: 'metric', metricNames: ['Headcount'], periods: ['2024-Q1'], startPeriod: null, endPeriod: null, mode: 'formula' }]));
    expect(single.message).not.toContain('different');
  }, 180_000);

  it('tells the two Cirrus Systems apart in the model, the tables, the picker, and reads each one\'s own values', async () => {
    const rt = stack.runtime();
    const first = `Cirrus Systems (${DEMO_IDS.profile(14)})`;
    const second = `Cirrus Systems (${DEMO_IDS.profile(32)})`;
    const { rows } = await insertModel(rt, ['Revenue']);
    const labels = rows.map((row) => row[0]);
    expect(labels).toEqual(expect.arrayContaining([first, second]));
    expect(labels.filter((label) => String(label).startsWith('Cirrus Systems'))).toHaveLength(2);
    const table = rt.runCustomFunction('PORTFOLIO_METRIC', ['Revenue', '2024-Q1']) as unknown[][];
    const coverage = rt.runCustomFunction('PORTFOLIO_COVERAGE', ['Revenue', '2024-Q1', '2024-Q1']) as unknown[][];
    for (const shown of [table, coverage]) expect(shown.map((row) => row[0]).filter((label) => String(label).startsWith('Cirrus Systems'))).toEqual(expect.arrayContaining([first, second]));
    const names = ok<Array<{ name: string; companyNames: string[] }>>(rt.callServer('listFundMetricNames', [DEMO_IDS.fund]));
    expect(names.find((n) => n.name === 'Revenue')!.companyNames).toEqual(expect.arrayContaining([first, second]));
    // Each label reads its own company: the model's cells, and a formula given the label.
    const a = rt.runCustomFunction('PORTFOLIO_VALUE', [first, 'Revenue', '2024-Q1']);
    const b = rt.runCustomFunction('PORTFOLIO_VALUE', [second, 'Revenue', '2024-Q1']);
    expect(a).toBe(2519341.45);
    expect(b).toBe(rt.runCustomFunction('PORTFOLIO_VALUE', [DEMO_IDS.profile(32), 'Revenue', '2024-Q1']));
    expect(a).not.toBe(b);
    expect(table.find((row) => row[0] === first)![1]).toBe(a);
    expect(table.find((row) => row[0] === second)![1]).toBe(b);
  }, 120_000);
});
