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
  const metricsOf = (profileId: string, name: string) =>
    state.metrics.filter((m) => m.portfolio_company_profile_id === profileId && m.name.trim().toLowerCase() === name.toLowerCase());
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

type Formulas = 'block' | 'cell';

/**
 * Inserts a fund model at `at` (A1) through the sidebar's server function, one formula per block unless `formulas`
 * says 'cell', and recalculates the formulas it wrote as Sheets does: what each cell shows, by A1 address.
 */
async function insertModel(
  rt: GasRuntime,
  metricNames: string[],
  options: { at?: string; formulas?: Formulas; periods?: string[] } = {},
): Promise<{ message: string; rows: unknown[][]; executions: number; shown: Map<string, Shown> }> {
  const sheet = rt.spreadsheet.getActiveSheet();
  rt.spreadsheet.setActiveRange(sheet.getRange(options.at ?? 'A1'));
  const request = {
    companyId: DEMO_IDS.fund,
    metricNames,
    periods: options.periods ?? QUARTERS,
    startPeriod: null,
    endPeriod: null,
    aggregate: null,
    ...(options.formulas ? { formulas: options.formulas } : {}),
  };
  const report = ok<{ message: string }>(rt.callServer('insertFundModel', [request]));
  const done = await rt.recalculateWritten();
  const shown = new Map<string, Shown>();
  // A cell's own outcome (its error's message too), then every cell a block's one formula filled.
  for (const outcome of done) {
    const anchor = sheet.getRange(outcome.cell);
    if (!outcome.ok) shown.set(outcome.cell, { error: outcome.error.message });
    else outcome.values.forEach((row, r) => row.forEach((value, c) => shown.set(anchor.offset(r, c).getA1Notation(), value)));
  }
  return { message: report.message, rows: sheet.getDataRange().getValues(), executions: done.length, shown };
}

/** A block's value cells as shown: `companies` rows × `periods` columns under the name cell at (row, column). */
function blockOf(shown: Map<string, Shown>, rt: GasRuntime, at: { row: number; column: number }, companies: number, periods: number): Shown[][] {
  const sheet = rt.spreadsheet.getActiveSheet();
  return Array.from({ length: companies }, (_, c) =>
    Array.from({ length: periods }, (__, p) => shown.get(sheet.getRange(at.row + 1 + c, at.column + 1 + p).getA1Notation())),
  );
}

/** The model's first block at A1 after recalculating its formula(s) again, as Sheets does after an edit of the name cell. */
async function recalculateBlock(rt: GasRuntime, companies: number): Promise<Shown[][]> {
  const sheet = rt.spreadsheet.getActiveSheet();
  // The block's one formula in B2 reads the name cell A1: Sheets runs it (only it) again, and its result fills the block.
  const [done] = await rt.recalculate([{ cell: 'B2', formula: sheet.getRange('B2').getFormula() }]);
  if (!done!.ok) throw new Error(`the block failed: ${done!.error.message}`);
  return sheet.getRange(2, 2, companies, QUARTERS.length).getValues() as Shown[][];
}

/**
 * A runtime for the cell form's tests: a model of one formula per cell asks for more executions at once than Apps
 * Script allows per second (docs/platform.md, §14), so the rate is off here; its own test below keeps it on.
 */
const cellFormRuntime = (): GasRuntime => stack.runtime({ assumptions: { customFunctionsPerSecond: false } });

const twoRevenue = '2 metrics "Revenue": read one by id (METRIC_VALUE)';
const noRevenue = 'no metric "Revenue"';

describe('the fund model on the demo fund', () => {
  it('never applies one metric\'s aggregate to another: Cash typed over "Revenue (sum)" shows no summed balance, "Cash (last)" the quarter-end balance', async () => {
    const fund = await demoFund();
    const rt = stack.runtime();
    const { message, rows, executions } = await insertModel(rt, ['Revenue (sum)']);
    expect(message).toContain('× 1 metric (Revenue (sum)), 1 PORTFOLIO_VALUE formula, one per block filling its companies × periods');
    expect(executions).toBe(1);
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
        else if (metrics[0]!.frequency === 'monthly')
          expect(cell).toBe('3 monthly values: type "Cash (sum)", "Cash (last)", "Cash (average)" or "Cash (first)" as the name');
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
    const rt = cellFormRuntime();
    const companies = fund.profiles.length;
    // The block form (the default): one PORTFOLIO_VALUE over the labels and the periods, filling the block.
    const { rows, shown: blockShown } = await insertModel(rt, ['Revenue (sum)']);
    const labels = rows.slice(1, 1 + companies).map((row) => String(row[0]));
    const gridForm = blockOf(blockShown, rt, { row: 1, column: 1 }, companies, QUARTERS.length);
    // The cell form: one PORTFOLIO_VALUE per cell, as the insert writes them on request, beside it.
    const { shown: cellShown } = await insertModel(rt, ['Revenue (sum)'], { at: 'K1', formulas: 'cell' });
    const cellForm = blockOf(cellShown, rt, { row: 1, column: 11 }, companies, QUARTERS.length);
    const sheet = rt.spreadsheet.getActiveSheet();
    // The table form: PORTFOLIO_METRIC, its last row counting the companies with a value.
    const table = rt.runCustomFunction('PORTFOLIO_METRIC', ['Revenue (sum)', [QUARTERS]]) as unknown[][];
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
        expect(sum as number).toBeCloseTo(
          asShown.reduce<number>((s, e) => (typeof e === 'number' ? s + e : s), 0),
          2,
        );
      }
      // The coverage line under each model (COUNT of the column) and PORTFOLIO_METRIC's last row say the same.
      const covered = `${sheetsCount(column(cellForm))} of ${companies}`;
      expect(sheetsCount(column(gridForm))).toBe(sheetsCount(column(cellForm)));
      for (const first of [2, 12]) {
        const letter = String.fromCharCode(64 + first + q);
        expect(sheet.getRange(2 + companies, first + q).getFormula()).toBe(`=COUNT(${letter}2:${letter}${1 + companies})&" of ${companies}"`);
      }
      expect(table.at(-1)![1 + q]).toBe(covered);
      // The companies left out of the total are the ones whose cells say why (or are empty), none hidden.
      expect(sheetsCount(column(cellForm)) + column(cellForm).filter((cell) => typeof cell === 'string').length).toBe(companies);
    }
    expect(sheet.getRange(2 + companies, 1).getValue()).toBe('Companies with a value');
  }, 180_000);

  it('shows in every cell with one formula per block what one formula per cell shows, in every case the demo fund holds, at one execution per block', async () => {
    const fund = await demoFund();
    const rt = cellFormRuntime();
    const names = ['Revenue (sum)', 'Cash'];
    const companies = fund.profiles.length;
    const block = await insertModel(rt, names);
    const cell = await insertModel(rt, names, { at: 'K1', formulas: 'cell' });
    // One execution per block, against one per value cell and unit cell.
    expect(block.executions).toBe(names.length);
    expect(cell.executions).toBe(names.length * companies * (QUARTERS.length + 1));
    expect(block.message).toContain(`${names.length} PORTFOLIO_VALUE formulas, one per block`);
    expect(cell.message).toContain(`${names.length * companies * (QUARTERS.length + 1)} PORTFOLIO_VALUE formulas, one per cell`);
    // Both models side by side, as the sheet shows them: labels, name cells, headers, every value, cell for cell.
    const rows = rt.spreadsheet.getActiveSheet().getDataRange().getValues();
    expect(rows).toHaveLength(names.length * (companies + 3) - 1);
    for (const row of rows) expect(row.slice(10, 19)).toEqual(row.slice(0, 9));
    const blocks = names.map((_, b) => ({
      byBlock: blockOf(block.shown, rt, { row: 1 + b * (companies + 3), column: 1 }, companies, QUARTERS.length),
      byCell: blockOf(cell.shown, rt, { row: 1 + b * (companies + 3), column: 11 }, companies, QUARTERS.length),
    }));
    for (const { byBlock, byCell } of blocks) expect(byBlock).toEqual(byCell);
    // The cases of FUND_CELL_CASES the demo fund holds, each seen in both forms.
    const row = (name: string) => fund.profiles.findIndex((p) => p.name.trim() === name);
    const [revenue, cash] = blocks.map((b) => b.byBlock);
    expect(revenue!.flat().some((value) => typeof value === 'number')).toBe(true);
    // A quarter missing one of its months sums to an empty cell.
    expect(revenue!.flat()).toContain('');
    // No "Revenue" (Orchid keeps other metrics), no metrics at all (Lumen), two "Revenue" (Pinnacle).
    expect(fund.metricsOf(fund.profiles[row('Orchid Therapeutics')]!.id, 'Cash')).toHaveLength(1);
    expect(revenue![row('Orchid Therapeutics')]).toEqual(QUARTERS.map(() => noRevenue));
    expect(revenue![row('Lumen Analytics')]).toEqual(QUARTERS.map(() => noRevenue));
    expect(revenue![row('Pinnacle Retail')]).toEqual(QUARTERS.map(() => twoRevenue));
    // Cash monthly and the name naming no aggregate: the sentence saying what to type.
    expect(cash![row('Fjord Logistics')]).toEqual(
      QUARTERS.map(() => '3 monthly values: type "Cash (sum)", "Cash (last)", "Cash (average)" or "Cash (first)" as the name'),
    );
    // The two Cirrus Systems: each its own label and its own values.
    const cirrus = rows.flatMap((r, i) => (String(r[0]).startsWith('Cirrus Systems') && i < companies + 1 ? [i - 1] : []));
    expect(cirrus).toHaveLength(2);
    expect(revenue![cirrus[0]!]).not.toEqual(revenue![cirrus[1]!]);
  }, 300_000);

  it("gives the same sentence for a fiscal quarter that splits a company's quarters (text in the block, the error of its cell in the cell form), and the same error for a mistyped name", async () => {
    const rt = cellFormRuntime();
    const periods = ['Q1 FY2024', '2024-Q1'];
    const block = await insertModel(rt, ['Revenue (sum)'], { periods });
    const cell = await insertModel(rt, ['Revenue (sum)'], { at: 'F1', periods, formulas: 'cell' });
    const companies = block.rows.findIndex((row) => row[0] === 'Companies with a value') - 1;
    const byBlock = blockOf(block.shown, rt, { row: 1, column: 1 }, companies, periods.length);
    const byCell = blockOf(cell.shown, rt, { row: 1, column: 6 }, companies, periods.length);
    // Cinder Studios' fiscal year ends in April: its Q1 FY2024 splits its calendar quarters.
    const cinder = block.rows.findIndex((row) => row[0] === 'Cinder Studios') - 1;
    const split = byCell[cinder]![0] as { error: string };
    expect(split.error).toMatch(/Cinder|quarter|fiscal/i);
    byCell.forEach((cells, c) =>
      cells.forEach((shown, p) => {
        // Where a single cell fails, the block shows the same sentence as text, which SUM and COUNT skip.
        if (typeof shown === 'object' && shown !== null) expect(byBlock[c]![p]).toBe((shown as { error: string }).error);
        else expect(byBlock[c]![p]).toEqual(shown);
      }),
    );
    expect(byBlock[cinder]![0]).toBe(split.error);

    // A mistyped name: the whole block is wrong, in both forms, with the same error naming the nearest names.
    const sheet = rt.spreadsheet.getActiveSheet();
    sheet.getRange('A1').setValue('Revenu (sum)');
    sheet.getRange('F1').setValue('Revenu (sum)');
    const [blockError] = await rt.recalculate([{ cell: 'B2', formula: sheet.getRange('B2').getFormula() }]);
    const cellErrors = await rt.recalculate(['G2', 'H2', 'G5'].map((a1) => ({ cell: a1, formula: sheet.getRange(a1).getFormula() })));
    expect(blockError!.ok).toBe(false);
    const message = blockError!.ok ? '' : blockError!.error.message;
    expect(message).toContain('No metric named "Revenu"');
    expect(cellErrors.map((o) => (o.ok ? o.values : o.error.message))).toEqual(cellErrors.map(() => message));
  }, 180_000);

  it("meets Apps Script's per-second refusal with one formula per cell (a model of 2,048 values: 32 companies × 8 quarters × 8 metrics, and a unit cell per row), never with one per block", async () => {
    const names = [
      'Revenue (sum)',
      'MRR (average)',
      'Cash (last)',
      'Headcount (last)',
      'Net Burn (sum)',
      'Gross Margin',
      'Customers',
      'Monthly Active Users (average)',
    ];
    const refusal = 'Script invoked too many times per second for this Google user account.';
    const cells = await insertModel(stack.runtime(), names, { formulas: 'cell' });
    const perCell = 2048 + 32 * names.length;
    expect(cells.executions).toBe(perCell);
    // The rate's first 30 run; every other cell shows the refusal.
    expect([...cells.shown.values()].filter((shown) => isError(shown) && shown.error === refusal)).toHaveLength(perCell - 30);
    const blocks = await insertModel(stack.runtime(), names);
    expect(blocks.executions).toBe(names.length);
    expect([...blocks.shown.values()].filter(isError)).toEqual([]);
  }, 300_000);

  it('keeps a block model working through Refresh data (its one formula written again and run once) and Freeze (the whole block becomes its values)', async () => {
    const rt = stack.runtime();
    const { rows } = await insertModel(rt, ['Revenue (sum)']);
    const companies = rows.findIndex((row) => row[0] === 'Companies with a value') - 1;
    const sheet = rt.spreadsheet.getActiveSheet();
    const block = () => sheet.getRange(2, 2, companies, QUARTERS.length).getValues();
    const shown = block();
    const formula = sheet.getRange('B2').getFormula();
    rt.run('refreshData');
    const rerun = await rt.recalculateWritten();
    expect(rerun.map((o) => [o.cell, o.ok])).toEqual([['B2', true]]);
    expect(sheet.getRange('B2').getFormula()).toBe(formula);
    expect(block()).toEqual(shown);
    // Freeze the block's cells: its formula becomes the values it showed, every cell of the block.
    rt.spreadsheet.setActiveRange(sheet.getRange(2, 2, companies, QUARTERS.length));
    const report = ok<{ frozen: Array<{ range: string; formula: string }> }>(rt.callServer('freezeSelection'));
    expect(report.frozen).toEqual([{ range: expect.stringMatching(/^B2:J/), formula }]);
    expect(sheet.getRange('B2').getFormula()).toBe('');
    expect(block()).toEqual(shown);
  }, 120_000);

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
    const kind = (cell: unknown) =>
      typeof cell === 'number'
        ? 'reported'
        : cell === ''
          ? 'blank'
          : cell === noRevenue
            ? 'no such metric'
            : cell === twoRevenue
              ? 'ambiguous name'
              : `unexpected ${String(cell)}`;
    const grid = rt.runCustomFunction('PORTFOLIO_VALUE', [
      coverage.slice(1, 1 + fund.profiles.length).map((row) => [row[0]]),
      'Revenue (sum)',
      [QUARTERS],
    ]) as unknown[][];
    expect(coverage.slice(1, 1 + fund.profiles.length).map((row) => row.slice(2, 2 + QUARTERS.length))).toEqual(grid.map((row) => row.map(kind)));
  }, 120_000);

  it("says the units of Net Burn, kept in euros by Bluebird Health and in dollars by the rest: PORTFOLIO_METRIC, the grid's snapshot (each row's number format) and the model", async () => {
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
    const inserted = ok<{ message: string; range: string }>(
      rt.callServer('insertPortfolioGrid', [
        {
          companyId: DEMO_IDS.fund,
          kind: 'metric',
          metricNames: ['Net Burn'],
          periods: ['2024-01', '2024-02'],
          startPeriod: null,
          endPeriod: null,
          mode: 'snapshot',
        },
      ]),
    );
    expect(inserted.message).toContain('The rows of Net Burn are in USD and EUR: a total over them adds different currencies');
    expect(sheet.getRange(2 + companies, 4).getValue()).toBe(mixed);
    const formats = sheet.getRange(2, 2, companies, 2).getNumberFormats();
    fund.profiles.forEach((profile, r) => {
      const expected = { EUR: '"€"#,##0.00', USD: '"$"#,##0.00', '': '#,##0.00' }[unitOf(profile.id) as 'EUR' | 'USD' | ''];
      expect([labels[r], formats[r]]).toEqual([labels[r], [expected, expected]]);
    });
    const bluebirdRow = 2 + labels.indexOf('Bluebird Health');
    expect(sheet.getRange(bluebirdRow, 2).getDisplayValue()).toMatch(/^€/);

    // The fund model: a unit column right of each block, the last column of the block's one formula (one execution).
    const modelSheet = rt.spreadsheet.insertSheet('Model');
    rt.spreadsheet.setActiveSheet(modelSheet);
    const { message, rows, executions } = await insertModel(rt, ['Net Burn']);
    expect(executions).toBe(1);
    expect(message).toContain("The rows of Net Burn are in USD and EUR: a total over them adds different currencies (the Unit column says each row's).");
    const unitColumn = 1 + QUARTERS.length + 1;
    expect(rows[0]![unitColumn - 1]).toBe('Unit');
    expect(modelSheet.getRange(2, 2).getFormula()).toBe(`=PORTFOLIO_VALUE($A2:$A${1 + companies}, $A$1, B$1:J$1)`);
    expect(rows.slice(1, 1 + companies).map((row) => row[unitColumn - 1])).toEqual(fund.profiles.map((p) => unitOf(p.id)));
    expect(rows[1 + companies]!.slice(0, 1)).toEqual(['Companies with a value']);
    // PORTFOLIO_UNIT over the companies and that line says the same, and on the line that the units are mixed.
    modelSheet.getRange(1, 12).setFormula(`=PORTFOLIO_UNIT(A2:A${2 + companies}, A1)`);
    const unitCells = await rt.recalculateWritten();
    expect(unitCells).toHaveLength(1);
    const unitValues = unitCells[0]!.ok ? unitCells[0]!.values.map((row) => row[0]) : [];
    expect(unitValues).toEqual([...fund.profiles.map((p) => unitOf(p.id)), mixed]);
    // A metric every company keeps in one unit says nothing of units.
    rt.spreadsheet.setActiveRange(sheet.getRange('H1'));
    const single = ok<{ message: string }>(
      rt.callServer('insertPortfolioGrid', [
        { companyId: DEMO_IDS.fund, kind: 'metric', metricNames: ['Headcount'], periods: ['2024-Q1'], startPeriod: null, endPeriod: null, mode: 'formula' },
      ]),
    );
    expect(single.message).not.toContain('different');
  }, 180_000);

  it("tells the two Cirrus Systems apart in the model, the tables, the picker, and reads each one's own values", async () => {
    const rt = stack.runtime();
    const first = `Cirrus Systems (${DEMO_IDS.profile(14)})`;
    const second = `Cirrus Systems (${DEMO_IDS.profile(32)})`;
    const { rows } = await insertModel(rt, ['Revenue']);
    const labels = rows.map((row) => row[0]);
    const modelValue = (label: string) => rows.find((row) => row[0] === label)![1 + QUARTERS.indexOf('2024-Q1')];
    expect(labels).toEqual(expect.arrayContaining([first, second]));
    expect(labels.filter((label) => String(label).startsWith('Cirrus Systems'))).toHaveLength(2);
    const table = rt.runCustomFunction('PORTFOLIO_METRIC', ['Revenue', '2024-Q1']) as unknown[][];
    const coverage = rt.runCustomFunction('PORTFOLIO_COVERAGE', ['Revenue', '2024-Q1', '2024-Q1']) as unknown[][];
    for (const shown of [table, coverage])
      expect(shown.map((row) => row[0]).filter((label) => String(label).startsWith('Cirrus Systems'))).toEqual(expect.arrayContaining([first, second]));
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
    expect([modelValue(first), modelValue(second)]).toEqual([a, b]);
  }, 120_000);
});
