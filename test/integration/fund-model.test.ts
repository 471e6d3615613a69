// A fund model as analysts build it: companies down column A, quarters across row 1,
// one =PORTFOLIO_VALUE($A2, "Revenue", B$1) per cell, or one =PORTFOLIO_VALUE($A2:$A33, $A$1, B$1:E$1) per
// sheet (what Insert a fund model writes by default), recalculated as Sheets does, on the built bundle
// against the emulator; requests counted on the emulator's log against the floor.

import type { GasRuntime } from '../../gas-runtime';
import { OWNER, useStack, type Stack } from '../support/stack';

let stack: Stack;
useStack((started) => (stack = started));

const COMPANIES = 32;
const NAMES = ['Revenue', 'Cash'];
const QUARTERS = ['2024-Q1', '2024-Q2', '2024-Q3', '2024-Q4'];
const QUARTER_STARTS = ['2024-01-01', '2024-04-01', '2024-07-01', '2024-10-01'];
/** The API's page sizes: listings 25 (the emulator's), data points 100 as the add-in asks. */
const LISTING_PAGE = 25;
const POINTS_PAGE = 100;
/** Ids in one GET /data_points: the 2 kB URL Apps Script allows (series-cache.ts, MAX_COMPANIONS + 1). */
const IDS_PER_REQUEST = 20;

interface Fund {
  fundId: string;
  companies: string[];
  value(company: number, name: number, quarter: number): number;
}

const companyName = (c: number): string => `Model company ${String(c + 1).padStart(2, '0')}`;

/** 32 companies with a quarterly Revenue and Cash each, a value in every quarter of 2024. */
async function createFund(): Promise<Fund> {
  const control = stack.emulator.control;
  const { companies } = await control.fixtures({ companies: [{ name: 'Model Fund', kind: 'investor' }] });
  const fundId = companies[0]!.id;
  const { portfolio_company_profiles: profiles } = await control.fixtures({
    portfolio_company_profiles: Array.from({ length: COMPANIES }, (_, c) => ({ company_id: fundId, name: companyName(c), fiscal_year_end_month: 12 })),
  });
  const { metrics } = await control.fixtures({
    metrics: profiles.flatMap((profile) =>
      NAMES.map((name) => ({ company_id: fundId, portfolio_company_profile_id: profile.id, name, frequency: 'quarterly', unit: 'USD' })),
    ),
  });
  const value = (c: number, n: number, q: number): number => 1000 * (c + 1) + 100 * n + q + 0.5;
  await control.fixtures({
    data_points: metrics.flatMap((metric, m) =>
      QUARTER_STARTS.map((date, q) => ({ metric_id: metric.id, date, value: String(value(Math.floor(m / NAMES.length), m % NAMES.length, q)) })),
    ),
  });
  await control.clearRequests();
  return { fundId, companies: profiles.map((p) => p.name), value };
}

/**
 * The floor: the fund's metric and profile listings' pages, then per name ceil(32/20) series requests
 * of 20 and 12 ids (4 points each: one page each).
 */
function floorRequests(): { listings: number; series: number } {
  const pages = (n: number, size: number): number => Math.ceil(n / size);
  const listings = pages(COMPANIES * NAMES.length, LISTING_PAGE) + pages(COMPANIES, LISTING_PAGE);
  let series = 0;
  for (let first = 0; first < COMPANIES; first += IDS_PER_REQUEST) series += pages(Math.min(IDS_PER_REQUEST, COMPANIES - first) * QUARTERS.length, POINTS_PAGE);
  return { listings, series: series * NAMES.length };
}

/** One sheet per name: company names in A2:A33, quarter labels in B1:E1, the metric's name in A1. */
function layOut(rt: GasRuntime, fund: Fund, withFormulas: boolean): Array<{ formula: string; cell: string; sheet: string; expected: number }> {
  const cells: Array<{ formula: string; cell: string; sheet: string; expected: number }> = [];
  NAMES.forEach((name, n) => {
    const sheet = n === 0 ? rt.spreadsheet.getActiveSheet() : rt.spreadsheet.insertSheet(name);
    if (n === 0) sheet.setName(name);
    sheet.getRange(1, 1, 1, 1 + QUARTERS.length).setValues([[name, ...QUARTERS]]);
    sheet.getRange(2, 1, COMPANIES, 1).setValues(fund.companies.map((company) => [company]));
    fund.companies.forEach((_, c) =>
      QUARTERS.forEach((__, q) => {
        const column = String.fromCharCode(66 + q);
        cells.push({ formula: `=PORTFOLIO_VALUE($A${c + 2}, $A$1, ${column}$1)`, cell: `${column}${c + 2}`, sheet: name, expected: fund.value(c, n, q) });
      }),
    );
  });
  if (withFormulas) for (const { formula, cell, sheet } of cells) rt.spreadsheet.getSheetByName(sheet)!.getRange(cell).setFormula(formula);
  return cells;
}

describe('a fund model of one PORTFOLIO_VALUE per cell', () => {
  it(`recalculates ${COMPANIES} companies × ${QUARTERS.length} quarters × ${NAMES.length} names concurrently at the request floor, and warm with none`, async () => {
    const fund = await createFund();
    // 256 cells at once: past the rate Apps Script refuses (docs/platform.md, §14), which is off here: this counts requests.
    const rt = stack.runtime({ defaultCompany: fund.fundId, assumptions: { customFunctionsPerSecond: false } });
    const cells = layOut(rt, fund, true);
    const recalculate = async (): Promise<unknown[]> => {
      const outcomes = await rt.recalculate(
        cells.map(({ formula, cell, sheet }) => ({ formula, cell, sheet })),
        { maxConcurrent: 30 },
      );
      return outcomes.map((o) => (o.ok ? o.values[0]![0] : o.error.message));
    };

    expect(await recalculate()).toEqual(cells.map((c) => c.expected));
    const cold = await stack.takeRequests();
    const floor = floorRequests();
    expect(cold.filter((r) => r.path === '/data_points')).toHaveLength(floor.series);
    expect(cold.filter((r) => r.path !== '/data_points')).toHaveLength(floor.listings);
    expect(cold.every((r) => r.status === 200)).toBe(true);
    // Every request of a name's series names 20 ids, or the 12 left: one fetch per name takes all 32 along.
    const idsPerRequest = cold
      .filter((r) => r.path === '/data_points')
      .map((r) => r.query.split('metric_id').length - 1)
      .sort((a, b) => a - b);
    expect(idsPerRequest).toEqual([12, 12, 20, 20]);
    expect(
      rt.cache
        .user(OWNER)
        ._keys()
        .filter((key) => key.startsWith('load:')),
    ).toEqual([]);

    expect(await recalculate()).toEqual(cells.map((c) => c.expected));
    expect(await stack.takeRequests()).toEqual([]);
  }, 120_000);

  it("recalculates the same model as one PORTFOLIO_VALUE per sheet (the insert's default): 2 executions at the same floor, the same values", async () => {
    const fund = await createFund();
    const rt = stack.runtime({ defaultCompany: fund.fundId });
    const cells = layOut(rt, fund, false);
    const last = String.fromCharCode(65 + QUARTERS.length);
    const blocks = NAMES.map((sheet) => ({ formula: `=PORTFOLIO_VALUE($A2:$A${COMPANIES + 1}, $A$1, B$1:${last}$1)`, cell: 'B2', sheet }));
    for (const { formula, cell, sheet } of blocks) rt.spreadsheet.getSheetByName(sheet)!.getRange(cell).setFormula(formula);
    const shownNow = () => cells.map(({ sheet, cell }) => rt.spreadsheet.getSheetByName(sheet)!.getRange(cell).getValue());
    const before = rt.executions.length;
    const outcomes = await rt.recalculate(blocks);
    expect(outcomes.every((o) => o.ok)).toBe(true);
    expect(rt.executions.length - before).toBe(NAMES.length);
    expect(shownNow()).toEqual(cells.map((c) => c.expected));
    const cold = await stack.takeRequests();
    const floor = floorRequests();
    expect(cold.filter((r) => r.path === '/data_points')).toHaveLength(floor.series);
    expect(cold.filter((r) => r.path !== '/data_points')).toHaveLength(floor.listings);

    await rt.recalculate(blocks);
    expect(shownNow()).toEqual(cells.map((c) => c.expected));
    expect(await stack.takeRequests()).toEqual([]);
  }, 120_000);

  it('fetches along without reading the sheet: the same cells one at a time, with no formulas in it', async () => {
    const fund = await createFund();
    const rt = stack.runtime({ defaultCompany: fund.fundId });
    const cells = layOut(rt, fund, false);
    // The active range is not the calling cell here: runCustomFunction runs the function alone.
    const shown = cells.map(({ sheet, cell }) => {
      const range = rt.spreadsheet.getSheetByName(sheet)!.getRange(cell);
      const company = range.offset(0, 1 - range.getColumn()).getValue();
      const quarter = range.offset(1 - range.getRow(), 0).getValue();
      return rt.runCustomFunction('PORTFOLIO_VALUE', [company, sheet, quarter]);
    });
    expect(shown).toEqual(cells.map((c) => c.expected));
    const requests = await stack.takeRequests();
    const floor = floorRequests();
    expect(requests.filter((r) => r.path === '/data_points')).toHaveLength(floor.series);
    expect(requests).toHaveLength(floor.series + floor.listings);
    // The first cell reads the fund's two listings together: both page 1s come before any page 2 (two round
    // trips, not four), which is what keeps the first cell's time near the floor's.
    const listings = requests.filter((r) => r.path !== '/data_points');
    expect(
      listings
        .slice(0, 2)
        .map((r) => [r.path, /(^|&)page=1(&|$)/.test(r.query)])
        .sort(),
    ).toEqual([
      ['/metrics', true],
      ['/portfolio_company_profiles', true],
    ]);
    expect(
      rt.spreadsheet.getSheets().every((sheet) =>
        sheet
          .getDataRange()
          .getFormulas()
          .flat()
          .every((formula) => formula === ''),
      ),
    ).toBe(true);
  }, 120_000);
});
