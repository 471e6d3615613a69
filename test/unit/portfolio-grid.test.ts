// The fund's grid against a scripted API: name resolution from every page of the listings, batched
// series reads, the access check, and the layouts.

import { fundDirectory, portfolioCoverage, portfolioMetric, portfolioUnit, portfolioValue } from '../../src/core/formulas/fund-functions';
import { fundModelCells } from '../../src/core/formulas/fund-model';
import { columnLetters } from '../../src/core/export/places';
import { MemoryCache } from '../support/memory-cache';
import { scriptedFormulaContext } from '../support/formula-context';
import type { Step } from '../support/scripted-transport';

const FUND = '0a000000-0000-4000-8000-000000000001';
const OTHER_FUND = '0a000000-0000-4000-8000-000000000002';
const id = (kind: string, n: number) => `0${kind}000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

function context(steps: Step[], cache = new MemoryCache(), allowed = [FUND]) {
  return scriptedFormulaContext({ steps, cache, timeZone: 'UTC', defaultCompanyId: FUND, allowedCompanyIds: allowed });
}

/** One page of a list; `total` counts the whole list, as the API's meta does on every page. */
const page = (key: string, items: unknown[], n = 1, pages = 1, total = items.length) => ({
  status: 200,
  body: { [key]: items, meta: { page: n, total_pages: pages, total } },
});

/** 25 companies, each with Revenue (quarterly); company 1 also has "revenue " (a duplicate), company 2 none. */
const profiles = Array.from({ length: 25 }, (_, i) => ({
  id: id('c', i + 1),
  name: `Company ${i + 1}`,
  company_id: FUND,
  fiscal_year_end_month: i === 3 ? 3 : 12,
}));
const metrics = profiles
  .flatMap((p, i) =>
    i === 1 ? [] : [{ id: id('b', i + 1), name: 'Revenue', frequency: 'quarterly', unit: 'USD', company_id: FUND, portfolio_company_profile_id: p.id }],
  )
  .concat([{ id: id('b', 99), name: 'revenue ', frequency: 'quarterly', unit: 'USD', company_id: FUND, portfolio_company_profile_id: profiles[0]!.id }])
  // The fund's own metric has no profile: no company's row shows it.
  .concat([
    { id: id('b', 98), name: 'Revenue', frequency: 'quarterly', unit: 'USD', company_id: FUND, portfolio_company_profile_id: null as unknown as string },
  ]);

/** The listings over two pages each: every page is read. */
const listingSteps: Step[] = [
  {
    match: `GET /portfolio_company_profiles?company_id=${FUND}&page=1`,
    reply: page('portfolio_company_profiles', profiles.slice(0, 20), 1, 2, profiles.length),
  },
  { match: `GET /portfolio_company_profiles?company_id=${FUND}&page=2`, reply: page('portfolio_company_profiles', profiles.slice(20), 2, 2, profiles.length) },
  { match: `GET /metrics?company_id=${FUND}&page=1`, reply: page('metrics', metrics.slice(0, 20), 1, 2, metrics.length) },
  { match: `GET /metrics?company_id=${FUND}&page=2`, reply: page('metrics', metrics.slice(20), 2, 2, metrics.length) },
];

/** The 23 single Revenue metrics (not company 1's two, not company 2's none), sorted: two requests of ≤ 20 ids. */
const revenueIds = metrics
  .filter((m) => m.portfolio_company_profile_id && m.portfolio_company_profile_id !== profiles[0]!.id)
  .map((m) => m.id)
  .sort();
const seriesSteps = (date: string): Step[] => [
  {
    match: `GET /data_points?${revenueIds
      .slice(0, 20)
      .map((m) => `metric_id[]=${m}`)
      .join('&')}&page_size=100&page=1`,
    reply: page(
      'data_points',
      revenueIds.slice(0, 20).map((m, i) => ({ id: `p${i}`, metric_id: m, date, value: `${i}.0` })),
    ),
  },
  {
    match: `GET /data_points?${revenueIds
      .slice(20)
      .map((m) => `metric_id[]=${m}`)
      .join('&')}&page_size=100&page=1`,
    reply: page(
      'data_points',
      revenueIds.slice(20).map((m, i) => ({ id: `q${i}`, metric_id: m, date, value: i === 0 ? null : `${20 + i}` })),
    ),
  },
];

describe('PORTFOLIO_METRIC', () => {
  it('reads every page of both listings once, then the series 20 ids a request, fetched together; none warm', () => {
    const { ctx, transport, cache } = context([...listingSteps, ...seriesSteps('2024-04-01')]);
    const table = portfolioMetric(ctx, 'REVENUE', [['2024-Q2']], '');
    transport.assertDone();
    expect(transport.sent).toHaveLength(6);
    // The two series requests went in one wave.
    expect(transport.waves.at(-1)).toBe(2);
    expect(table[0]).toEqual(['Company', '2024-Q2', 'Unit']);
    // No unit where the company has two metrics of the name, or none: their cells say why.
    expect(table[1]).toEqual(['Company 1', '2 metrics "REVENUE": read one by id (METRIC_VALUE)', '']);
    expect(table[2]).toEqual(['Company 2', 'no metric "REVENUE"', '']);
    expect(table[3]).toEqual(['Company 3', revenueIds.indexOf(id('b', 3)) < 20 ? revenueIds.indexOf(id('b', 3)) : '', 'USD']);
    // The last row counts the companies with a number: not the two with text, nor those with an empty cell.
    const numbers = table.slice(1, 26).filter((row) => typeof row[1] === 'number').length;
    expect(numbers).toBeLessThan(23);
    expect(table.at(-1)).toEqual(['Companies with a value', `${numbers} of 25`, 'USD']);
    expect(table).toHaveLength(27);
    const warm = context([], cache);
    const spelt = (cell: unknown) => (typeof cell === 'string' ? cell.replace('"REVENUE"', '"Revenue"') : cell);
    expect(portfolioMetric(warm.ctx, 'Revenue', '2024-Q2', FUND).slice(1)).toEqual(table.slice(1).map((row) => row.map(spelt)));
    expect(warm.transport.sent).toHaveLength(0);
    // The same metrics named in another order (companies bottom up, by PORTFOLIO_VALUE) find the same cached read.
    const reversed = profiles.map((p) => [p.name]).reverse();
    const grid = portfolioValue(warm.ctx, reversed, 'Revenue', [['2024-Q2']]) as unknown[][];
    expect(
      grid
        .reverse()
        .slice(2)
        .map(([value]) => value),
    ).toEqual(table.slice(3, 26).map((row) => row[1]));
    expect(warm.transport.sent).toHaveLength(0);
  });

  it('refuses a fund the owner has not allowed, before any request', () => {
    const { ctx, transport } = context([]);
    expect(() => portfolioMetric(ctx, 'Revenue', '2024-Q2', OTHER_FUND)).toThrow(`Formulas in this spreadsheet may not read the data of company ${OTHER_FUND}`);
    expect(transport.sent).toHaveLength(0);
  });

  it('refuses an unreadable period label before any request', () => {
    const { ctx, transport } = context([]);
    expect(() => portfolioMetric(ctx, 'Revenue', [['2024-Q5']], '')).toThrow();
    expect(transport.sent).toHaveLength(0);
  });
});

describe('PORTFOLIO_VALUE', () => {
  it('finds a company by name, id or label, and tells two companies of one name apart by their ids', () => {
    const twins = [...profiles.slice(0, 2), { ...profiles[2]!, name: ' company 1' }];
    const { ctx } = context([
      { match: `GET /portfolio_company_profiles?company_id=${FUND}&page=1`, reply: page('portfolio_company_profiles', twins) },
      { match: `GET /metrics?company_id=${FUND}&page=1`, reply: page('metrics', metrics.slice(0, 3)) },
      {
        match: `GET /data_points?metric_id=${id('b', 3)}&page_size=100&page=1`,
        reply: page('data_points', [{ id: 'p', metric_id: id('b', 3), date: '2024-01-01', value: '12.0' }]),
      },
    ]);
    expect(() => portfolioValue(ctx, 'COMPANY 1', 'Revenue', '2024-Q1')).toThrow(
      `2 portfolio companies of fund ${FUND} are named "COMPANY 1": give the one you mean as "Company 1 (${id('c', 1)})" or "company 1 (${id('c', 3)})" (or its profile id).`,
    );
    expect(portfolioValue(ctx, id('c', 3).toUpperCase(), 'Revenue', '2024-Q1')).toBe(12);
    // The label the fund's tables write for a shared name reads back as that company.
    expect(portfolioValue(ctx, ` company 1 (${id('c', 3)}) `, 'Revenue', '2024-Q1')).toBe(12);
    expect(() => portfolioValue(ctx, `Company 2 (${id('c', 3)})`, 'Revenue', '2024-Q1')).toThrow(
      `The profile id in "Company 2 (${id('c', 3)})" is that of "company 1", not of "Company 2": correct the name or the id.`,
    );
    expect(portfolioValue(ctx, 'Company 2', 'Revenue', '2024-Q1')).toBe('no metric "Revenue"');
  });

  it('refuses two ranges that are not a column of companies and a row', () => {
    const { ctx } = context(listingSteps);
    expect(() => portfolioValue(ctx, [['Company 1', 'Company 3']], 'Revenue', [['2024-Q1', '2024-Q2']])).toThrow(
      'With two ranges, give the companies as a column',
    );
    // The column must be the companies': a column of names against a row of periods is refused too.
    expect(() => portfolioValue(ctx, 'Company 1', [['Revenue'], ['Churn']], [['2024-Q1', '2024-Q2']])).toThrow(
      'With two ranges, give the companies as a column',
    );
  });
});

describe('PORTFOLIO_COVERAGE', () => {
  it('refuses fiscal labels and mismatched lengths, before any request', () => {
    const { ctx, transport } = context([]);
    expect(() => portfolioCoverage(ctx, 'Revenue', 'FY2024', 'FY2025', '')).toThrow('is a fiscal label');
    expect(() => portfolioCoverage(ctx, 'Revenue', '2024-Q1', '2024-12', '')).toThrow('must be of one length');
    expect(() => portfolioCoverage(ctx, 'Revenue', '2024-Q3', '2024-Q1', '')).toThrow('is before the start period');
    expect(transport.sent).toHaveLength(0);
  });

  it('judges a quarterly metric in monthly columns by the quarter that holds each month', () => {
    const { ctx } = context([
      { match: `GET /portfolio_company_profiles?company_id=${FUND}&page=1`, reply: page('portfolio_company_profiles', profiles.slice(2, 3)) },
      { match: `GET /metrics?company_id=${FUND}&page=1`, reply: page('metrics', metrics.slice(1, 2)) },
      {
        match: `GET /data_points?metric_id=${id('b', 3)}&page_size=100&page=1`,
        reply: page('data_points', [
          { id: 'p', metric_id: id('b', 3), date: '2024-01-01', value: '1' },
          { id: 'q', metric_id: id('b', 3), date: '2024-04-01', value: null },
        ]),
      },
    ]);
    const table = portfolioCoverage(ctx, 'Revenue', '2024-02', '2024-05', '');
    expect(table[0]).toEqual(['Company', 'Metric', '2024-02', '2024-03', '2024-04', '2024-05', 'Reported', 'Blank', 'No such metric', 'Ambiguous name']);
    expect(table[1]).toEqual(['Company 3', 'Revenue', 'reported', 'reported', 'blank', 'blank', 2, 2, 0, 0]);
  });

  it('takes calendar years, as its refusals offer: a year is reported when every quarter of it has a value', () => {
    const { ctx } = context([
      { match: `GET /portfolio_company_profiles?company_id=${FUND}&page=1`, reply: page('portfolio_company_profiles', profiles.slice(2, 3)) },
      { match: `GET /metrics?company_id=${FUND}&page=1`, reply: page('metrics', metrics.slice(1, 2)) },
      {
        match: `GET /data_points?metric_id=${id('b', 3)}&page_size=100&page=1`,
        reply: page(
          'data_points',
          ['2023-01-01', '2023-04-01', '2023-07-01', '2023-10-01', '2024-01-01', '2024-04-01', '2024-07-01', '2024-10-01'].map((date, i) => ({
            id: `p${i}`,
            metric_id: id('b', 3),
            date,
            value: date === '2024-07-01' ? null : '1',
          })),
        ),
      },
    ]);
    const table = portfolioCoverage(ctx, 'Revenue', '2023', '2024', '');
    expect(table[0]).toEqual(['Company', 'Metric', '2023', '2024', 'Reported', 'Blank', 'No such metric', 'Ambiguous name']);
    expect(table[1]).toEqual(['Company 3', 'Revenue', 'reported', 'blank', 1, 1, 0, 0]);
  });
});

describe('units: one metric name kept in different currencies', () => {
  /** Three companies: Revenue in USD, in EUR, and none (company 2). */
  const mixed = [profiles[0]!, profiles[1]!, profiles[2]!];
  const mixedMetrics = [
    { id: id('b', 1), name: 'Revenue', frequency: 'quarterly', unit: 'usd', company_id: FUND, portfolio_company_profile_id: profiles[0]!.id },
    { id: id('b', 3), name: 'Revenue', frequency: 'quarterly', unit: 'EUR', company_id: FUND, portfolio_company_profile_id: profiles[2]!.id },
  ];
  const listings: Step[] = [
    { match: `GET /portfolio_company_profiles?company_id=${FUND}&page=1`, reply: page('portfolio_company_profiles', mixed) },
    { match: `GET /metrics?company_id=${FUND}&page=1`, reply: page('metrics', mixedMetrics) },
  ];

  it('PORTFOLIO_METRIC ends each row in its unit, and its last line says a total adds different currencies', () => {
    const { ctx } = context([
      ...listings,
      {
        match: `GET /data_points?metric_id[]=${id('b', 1)}&metric_id[]=${id('b', 3)}&page_size=100&page=1`,
        reply: page('data_points', [
          { id: 'p', metric_id: id('b', 1), date: '2024-01-01', value: '10' },
          { id: 'q', metric_id: id('b', 3), date: '2024-01-01', value: '20' },
        ]),
      },
    ]);
    expect(portfolioMetric(ctx, 'Revenue', '2024-Q1', '')).toEqual([
      ['Company', '2024-Q1', 'Unit'],
      ['Company 1', 10, 'USD'],
      ['Company 2', 'no metric "Revenue"', ''],
      ['Company 3', 20, 'EUR'],
      ['Companies with a value', '2 of 3', 'rows in EUR and USD: a total over them adds different currencies'],
    ]);
  });

  it("PORTFOLIO_UNIT gives each company's unit, and on a model's last line the block's units, reading listings only", () => {
    const { ctx, transport } = context(listings);
    expect(portfolioUnit(ctx, 'Company 3', 'Revenue (sum)')).toBe('EUR');
    expect(portfolioUnit(ctx, 'Company 2', 'Revenue')).toBe('');
    expect(portfolioUnit(ctx, [['Company 1'], ['Company 2'], [''], ['Company 3'], ['Companies with a value']], 'Revenue')).toEqual([
      ['USD'],
      [''],
      [''],
      ['EUR'],
      ['rows in EUR and USD: a total over them adds different currencies'],
    ]);
    expect(portfolioUnit(ctx, [['Company 1'], ['Companies with a value']], 'Revenue')).toEqual([['USD'], ['USD']]);
    expect(() => portfolioUnit(ctx, 'Company 9', 'Revenue')).toThrow('No portfolio company named "Company 9"');
    expect(() => portfolioUnit(ctx, 'Company 1', 'Revenu')).toThrow('No metric named "Revenu"');
    expect(transport.sent.every((request) => !JSON.stringify(request).includes('/data_points'))).toBe(true);
  });

  it("a fund model block has a unit column: its header, covered by the block's one PORTFOLIO_VALUE (or a cell each)", () => {
    const { ctx } = context(listings);
    const choice = { metricNames: ['Revenue', 'Revenue (sum)'], periods: ['2024-Q1', '2024-Q2'], startPeriod: null, endPeriod: null, aggregate: null };
    const cells = fundModelCells(fundDirectory(ctx, FUND), choice, { row: 3, column: 2 });
    expect(cells[0]!.at(-1)).toEqual({ text: 'Unit' });
    expect(cells[1]).toEqual([{ text: 'Company 1' }, { formula: '=PORTFOLIO_VALUE($B4:$B6, $B$3, C$3:E$3)' }, null, null]);
    expect(cells[2]).toHaveLength(4);
    // The second block, after a blank row, refers to its own rows.
    expect(cells[6]!.at(-1)).toEqual({ text: 'Unit' });
    expect(cells[7]![1]).toEqual({ formula: '=PORTFOLIO_VALUE($B10:$B12, $B$9, C$9:E$9)' });
    const perCell = fundModelCells(fundDirectory(ctx, FUND), choice, { row: 3, column: 2 }, 'cell');
    expect(perCell[1]!.at(-1)).toEqual({ formula: '=PORTFOLIO_VALUE($B4, $B$3, E$3)' });
    // PORTFOLIO_VALUE under the Unit header shows the company's unit.
    expect(portfolioValue(ctx, [['Company 1']], 'Revenue', [['Unit']])).toEqual([['USD']]);
    expect(portfolioValue(ctx, 'Company 1', 'Revenue', 'Unit')).toBe('USD');
  });
});

describe('the fund model layout', () => {
  it('names columns past Z as Sheets does, so a wide model refers to its own headers', () => {
    expect([1, 26, 27, 52, 53, 702, 703].map(columnLetters)).toEqual(['A', 'Z', 'AA', 'AZ', 'BA', 'ZZ', 'AAA']);
  });
});
