// The fund's grid on the built add-in against the emulator: PORTFOLIO_VALUE, PORTFOLIO_METRIC and
// PORTFOLIO_COVERAGE over a fixture fund made for them (demo data stays as other tests expect it).

import { errorOf } from '../support/formula-errors';
import { useStack, type Stack } from '../support/stack';

let stack: Stack;
useStack((started) => (stack = started));

interface Fund {
  fundId: string;
  profile: Record<string, string>;
  metric: Record<string, string>;
}

const QUARTERS_2024 = ['2024-01-01', '2024-04-01', '2024-07-01', '2024-10-01'];
const MONTHS_2024 = Array.from({ length: 12 }, (_, i) => `2024-${String(i + 1).padStart(2, '0')}-01`);

/**
 * Seven companies: overlapping names, one with two metrics named Revenue, one without Revenue,
 * fiscal years ending in December, March, June and September (and one with none), quarterly and
 * monthly metrics, null points pre-created as the live service does, values as it sends them.
 */
async function createFund(): Promise<Fund> {
  const control = stack.emulator.control;
  const { companies } = await control.fixtures({ companies: [{ name: 'Grid Fund', kind: 'investor' }] });
  const fundId = companies[0]!.id;
  const companySpecs: Array<[string, string, number | null]> = [
    ['alpha', 'Alpha Labs', 12],
    ['beta', 'Beta Works', 3],
    ['gamma', 'Gamma Co', 6],
    ['delta', 'Delta Inc', 12],
    ['epsilon', 'Epsilon', 9],
    ['zeta', 'Zeta', 12],
    ['eta', 'Eta', null],
  ];
  const profiles = (
    await control.fixtures({
      portfolio_company_profiles: companySpecs.map(([, name, fiscal]) => ({ company_id: fundId, name, fiscal_year_end_month: fiscal })),
    })
  ).portfolio_company_profiles;
  const profile = Object.fromEntries(companySpecs.map(([key], i) => [key, profiles[i]!.id]));
  const metricSpecs: Array<[string, string, string, string]> = [
    ['alphaRevenue', 'alpha', 'Revenue', 'quarterly'],
    ['alphaCash', 'alpha', 'Cash', 'monthly'],
    ['betaRevenue', 'beta', 'revenue ', 'monthly'],
    ['betaCash', 'beta', 'Cash', 'quarterly'],
    ['gammaRevenue1', 'gamma', 'Revenue', 'quarterly'],
    ['gammaRevenue2', 'gamma', ' REVENUE', 'quarterly'],
    ['deltaCash', 'delta', 'Cash', 'monthly'],
    ['epsilonRevenue', 'epsilon', 'Revenue', 'quarterly'],
    ['zetaRevenue', 'zeta', 'Revenue', 'quarterly'],
    ['zetaHeadcount', 'zeta', 'Headcount', 'monthly'],
    ['etaRevenue', 'eta', 'Revenue', 'quarterly'],
  ];
  const metrics = (
    await control.fixtures({
      metrics: metricSpecs.map(([, company, name, frequency]) => ({
        company_id: fundId,
        portfolio_company_profile_id: profile[company],
        name,
        frequency,
        unit: 'USD',
      })),
    })
  ).metrics;
  const metric = Object.fromEntries(metricSpecs.map(([key], i) => [key, metrics[i]!.id]));
  const points: Array<{ metric_id: string; date: string; value: string | null }> = [];
  const series = (key: string, dates: string[], value: (i: number) => string | null) =>
    dates.forEach((date, i) => points.push({ metric_id: metric[key]!, date, value: value(i) }));
  series('alphaRevenue', QUARTERS_2024, (i) => `${100 + i}.0`);
  series('alphaCash', MONTHS_2024, (i) => (i === 4 ? null : `${50 + i}`));
  series('betaRevenue', MONTHS_2024, (i) => (i === 1 ? '141.6666666666666' : `${10 + i}.5`));
  series('betaCash', QUARTERS_2024, (i) => `${7 + i}`);
  series('gammaRevenue1', QUARTERS_2024, () => '1');
  series('gammaRevenue2', QUARTERS_2024, () => '2');
  series('deltaCash', MONTHS_2024, () => '9');
  // Pre-created and never filled after Q2, as the live service does.
  series('epsilonRevenue', QUARTERS_2024, (i) => (i < 2 ? `${300 + i}` : null));
  series('zetaRevenue', QUARTERS_2024, (i) => `${400 + i}`);
  series('zetaHeadcount', MONTHS_2024, (i) => `${20 + i}`);
  series('etaRevenue', QUARTERS_2024, (i) => (i === 3 ? '' : `${500 + i}`));
  await control.fixtures({ data_points: points });
  return { fundId, profile, metric };
}

function runtimeFor(fund: Fund) {
  // The fund is the owner's default company, so formula access allows it.
  return stack.runtime({ defaultCompany: fund.fundId });
}

const countBy = (requests: Array<{ path: string }>, path: string) => requests.filter((r) => r.path === path).length;

describe('PORTFOLIO_VALUE', () => {
  it('reads one value by company name (any case, trimmed) or profile id, with fiscal labels per company', async () => {
    const fund = await createFund();
    const rt = runtimeFor(fund);
    expect(rt.runCustomFunction('PORTFOLIO_VALUE', ['  alpha labs ', 'revenue', '2024-Q2'])).toBe(101);
    expect(rt.runCustomFunction('PORTFOLIO_VALUE', [fund.profile.alpha, 'Revenue', '2024-04-01'])).toBe(101);
    // Beta's fiscal year ends in March: Q1 FY2025 is April to June 2024, its monthly revenue 13.5 + 14.5 + 15.5,
    // added up because the name says so.
    expect(rt.runCustomFunction('PORTFOLIO_VALUE', ['Beta Works', 'Revenue (sum)', 'Q1 FY2025'])).toBe(43.5);
    expect(rt.runCustomFunction('PORTFOLIO_VALUE', ['Beta Works', ' revenue ( SUM ) ', 'Q1 FY2025'])).toBe(43.5);
    // Alpha's fiscal year is the calendar year: Q1 FY2024 is its 2024-Q1.
    expect(rt.runCustomFunction('PORTFOLIO_VALUE', ['Alpha Labs', 'Revenue', 'Q1 FY2024'])).toBe(100);
    // Epsilon's ends in September: FY2024 Q4 is July to September 2024, a null point pre-created.
    expect(rt.runCustomFunction('PORTFOLIO_VALUE', ['Epsilon', 'Revenue', 'Q4 FY2024'])).toBe('');
    expect(rt.runCustomFunction('PORTFOLIO_VALUE', ['Epsilon', 'Revenue', 'Q3 FY2024'])).toBe(301);
    expect(rt.runCustomFunction('PORTFOLIO_VALUE', ['Beta Works', 'Revenue', '2024-02'])).toBe(141.6666666666666);
  });

  it('combines a period of several values only with the aggregate its name names; the older last argument alone combines nothing', async () => {
    const fund = await createFund();
    const rt = runtimeFor(fund);
    const ask = '3 monthly values: type "Revenue (sum)", "Revenue (last)", "Revenue (average)" or "Revenue (first)" as the name';
    expect(rt.runCustomFunction('PORTFOLIO_VALUE', ['Beta Works', 'Revenue', 'Q1 FY2025'])).toBe(ask);
    // The older form: its "sum" is not tied to the name the cell reads, so it is not applied; the cell says what to type.
    expect(rt.runCustomFunction('PORTFOLIO_VALUE', ['Beta Works', 'Revenue', 'Q1 FY2025', 'sum'])).toBe(ask);
    // A period of one value needs no aggregate, in either form.
    expect(rt.runCustomFunction('PORTFOLIO_VALUE', ['Alpha Labs', 'Revenue', '2024-Q2', 'sum'])).toBe(101);
    expect(rt.runCustomFunction('PORTFOLIO_VALUE', ['Beta Works', 'Revenue (sum)', 'Q1 FY2025', 'sum'])).toBe(43.5);
    expect(errorOf(() => rt.runCustomFunction('PORTFOLIO_VALUE', ['Beta Works', 'Revenue (sum)', 'Q1 FY2025', 'last']))).toBe(
      'The name "Revenue (sum)" names "sum" and the formula\'s last argument "last": leave the last argument out, the name\'s aggregate is the one used.',
    );
    // Cash typed where Revenue (sum) stood: the sum was Revenue's, so Alpha's monthly Cash asks, and never shows a summed balance.
    expect(rt.runCustomFunction('PORTFOLIO_VALUE', ['Alpha Labs', 'Cash', '2024-Q1'])).toBe(
      '3 monthly values: type "Cash (sum)", "Cash (last)", "Cash (average)" or "Cash (first)" as the name',
    );
    expect(rt.runCustomFunction('PORTFOLIO_VALUE', ['Alpha Labs', 'Cash (last)', '2024-Q1'])).toBe(52);
  });

  it('shows text SUM skips for a company without the metric or with two of it; a name no company has is an error', async () => {
    const fund = await createFund();
    const rt = runtimeFor(fund);
    expect(rt.runCustomFunction('PORTFOLIO_VALUE', ['Delta Inc', 'Revenue', '2024-Q1'])).toBe('no metric "Revenue"');
    // A name that matches nothing in the fund names the nearest names, for the company and for the metric.
    expect(errorOf(() => rt.runCustomFunction('PORTFOLIO_VALUE', ['Alpah Labs', 'Revenue', '2024-Q1']))).toBe(
      `No portfolio company named "Alpah Labs" in fund ${fund.fundId}; did you mean "Alpha Labs"?`,
    );
    expect(errorOf(() => rt.runCustomFunction('PORTFOLIO_VALUE', ['Alpha Labs', 'Revnue', '2024-Q1']))).toBe(
      `No metric named "Revnue" in fund ${fund.fundId}; did you mean "Revenue"?`,
    );
    // Zeta has Headcount, Alpha has not: a company that lacks a name the fund has says so plainly, as text.
    expect(rt.runCustomFunction('PORTFOLIO_VALUE', ['Alpha Labs', 'Headcount', '2024-Q1'])).toBe('no metric "Headcount"');
    expect(errorOf(() => rt.runCustomFunction('PORTFOLIO_VALUE', ['Alpha Labs', 'Headcont', '2024-Q1']))).toBe(
      `No metric named "Headcont" in fund ${fund.fundId}; did you mean "Headcount"?`,
    );
    expect(() => rt.runCustomFunction('PORTFOLIO_VALUE', ['Omega', 'Revenue', '2024-Q1'])).toThrow(
      `No portfolio company named "Omega" in fund ${fund.fundId}, nor with that profile id`,
    );
    expect(rt.runCustomFunction('PORTFOLIO_VALUE', ['Gamma Co', 'Revenue', '2024-Q1'])).toBe('2 metrics "Revenue": read one by id (METRIC_VALUE)');
  });

  it('fills a grid of companies against periods, and of companies against metric names, in one batched read, none warm', async () => {
    const fund = await createFund();
    const rt = runtimeFor(fund);
    await stack.takeRequests();
    const companies = [['Alpha Labs'], ['Beta Works'], ['Gamma Co'], ['Delta Inc'], ['Epsilon'], ['Zeta'], ['Eta']];
    const grid = rt.runCustomFunction('PORTFOLIO_VALUE', [companies, 'Revenue (sum)', [['2024-Q1', '2024-Q3', '2024-Q4']]]);
    expect(grid).toEqual([
      [100, 102, 103],
      [164.6666666666666, 52.5, 61.5],
      [1, 1, 1].map(() => '2 metrics "Revenue": read one by id (METRIC_VALUE)'),
      ['no metric "Revenue"', 'no metric "Revenue"', 'no metric "Revenue"'],
      [300, '', ''],
      [400, 402, 403],
      [500, 502, ''],
    ]);
    const cold = await stack.takeRequests();
    // Two listings, then every series in one request (7 ids, fewer than 20, one page).
    expect(countBy(cold, '/metrics')).toBe(1);
    expect(countBy(cold, '/portfolio_company_profiles')).toBe(1);
    expect(countBy(cold, '/data_points')).toBe(1);
    expect(cold).toHaveLength(3);
    // Each name its own aggregate: Cash's "last" is Cash's, and Revenue is never combined by it.
    const byName = rt.runCustomFunction('PORTFOLIO_VALUE', [
      [['Alpha Labs'], ['Delta Inc'], ['Zeta']],
      [['Revenue', 'Cash (last)', 'Headcount (last)']],
      '2024-Q1',
    ]);
    expect(byName).toEqual([
      [100, 52, 'no metric "Headcount"'],
      ['no metric "Revenue"', 9, 'no metric "Headcount"'],
      [400, 'no metric "Cash"', 22],
    ]);
    // A new set of metrics: one series request, no listing.
    expect((await stack.takeRequests()).map((r) => r.path)).toEqual(['/data_points']);
    // Warm: the same grids again cost nothing.
    rt.runCustomFunction('PORTFOLIO_VALUE', [companies, 'Revenue (sum)', [['2024-Q1', '2024-Q3', '2024-Q4']]]);
    rt.runCustomFunction('PORTFOLIO_VALUE', [[['Alpha Labs'], ['Delta Inc'], ['Zeta']], [['Revenue', 'Cash (last)', 'Headcount (last)']], '2024-Q1']);
    expect(await stack.takeRequests()).toEqual([]);
  });
});

describe('PORTFOLIO_METRIC', () => {
  it('gives one row per company under a header, the cells PORTFOLIO_VALUE shows, and a last row counting the companies with a value', async () => {
    const fund = await createFund();
    const rt = runtimeFor(fund);
    const table = rt.runCustomFunction('PORTFOLIO_METRIC', [' Revenue', [['2024-Q1', '2024-Q2', 'Q4 FY2024']]]) as unknown[][];
    const dup = '2 metrics "Revenue": read one by id (METRIC_VALUE)';
    // The last column is each row's unit: none where the company has two metrics of the name, or none.
    expect(table[0]).toEqual(['Company', '2024-Q1', '2024-Q2', 'Q4 FY2024', 'Unit']);
    expect(table.slice(1, 8).map((row) => row[0])).toEqual(['Alpha Labs', 'Beta Works', 'Gamma Co', 'Delta Inc', 'Epsilon', 'Zeta', 'Eta']);
    expect(table[1]).toEqual(['Alpha Labs', 100, 101, 103, 'USD']);
    expect(table[3]).toEqual(['Gamma Co', dup, dup, dup, '']);
    expect(table[4]).toEqual(['Delta Inc', 'no metric "Revenue"', 'no metric "Revenue"', 'no metric "Revenue"', '']);
    // Epsilon's FY2024 ends in September: its Q4 is 2024-Q3, a pre-created null.
    expect(table[5]).toEqual(['Epsilon', 300, 301, '', 'USD']);
    expect(table[6]).toEqual(['Zeta', 400, 401, 403, 'USD']);
    // Eta has no fiscal year end: the calendar year.
    expect(table[7]).toEqual(['Eta', 500, 501, '', 'USD']);
    expect(table[8]).toEqual(['Companies with a value', '4 of 7', '4 of 7', '2 of 7', 'USD']);
    expect(table).toHaveLength(9);
    // Each cell is what PORTFOLIO_VALUE shows for that company, name and period.
    for (const row of table.slice(1, 8)) {
      expect(row.slice(1, 4)).toEqual(
        ['2024-Q1', '2024-Q2', 'Q4 FY2024'].map((period) => rt.runCustomFunction('PORTFOLIO_VALUE', [row[0], ' Revenue', period])),
      );
    }
  });

  it("says in the cell why a period does not fit one company's metric, and fills the others", async () => {
    const fund = await createFund();
    const rt = runtimeFor(fund);
    const quarter = rt.runCustomFunction('PORTFOLIO_METRIC', ['Cash', '2024-Q1']) as unknown[][];
    // Alpha's and Delta's Cash are monthly: a quarter needs an aggregate, which the name does not name.
    expect(quarter[1]![1]).toBe('3 monthly values: type "Cash (sum)", "Cash (last)", "Cash (average)" or "Cash (first)" as the name');
    expect(quarter[2]).toEqual(['Beta Works', 7, 'USD']);
    const months = rt.runCustomFunction('PORTFOLIO_METRIC', ['Cash', [['2024-04', '2024-05', '2024-06']], fund.fundId]) as unknown[][];
    expect(months.slice(1)).toEqual([
      ['Alpha Labs', 53, '', 55, 'USD'],
      // Beta's Cash is quarterly: April starts its Q2; no period of it starts in May or June.
      [
        'Beta Works',
        8,
        '2024-05-01 does not start a quarterly period of "Cash": its period starts on 2024-04-01.',
        '2024-06-01 does not start a quarterly period of "Cash": its period starts on 2024-04-01.',
        'USD',
      ],
      ...['Gamma Co', 'Delta Inc', 'Epsilon', 'Zeta', 'Eta'].map((company) =>
        company === 'Delta Inc' ? [company, 9, 9, 9, 'USD'] : [company, ...Array(3).fill('no metric "Cash"'), ''],
      ),
      ['Companies with a value', '3 of 7', '1 of 7', '2 of 7', 'USD'],
    ]);
  });
});

describe('the aggregate and misspelt names of the table forms', () => {
  it('takes Cash at quarter end with "Cash (last)" in PORTFOLIO_METRIC and "last" in PORTFOLIO_COVERAGE', async () => {
    const fund = await createFund();
    const rt = runtimeFor(fund);
    const table = rt.runCustomFunction('PORTFOLIO_METRIC', ['Cash (last)', [['2024-Q1', '2024-Q2']]]) as unknown[][];
    expect(table.slice(0, 5)).toEqual([
      ['Company', '2024-Q1', '2024-Q2', 'Unit'],
      // Alpha's monthly Cash: March and June; Beta's is quarterly, its own value; Delta's monthly 9s.
      ['Alpha Labs', 52, 55, 'USD'],
      ['Beta Works', 7, 8, 'USD'],
      ['Gamma Co', 'no metric "Cash"', 'no metric "Cash"', ''],
      ['Delta Inc', 9, 9, 'USD'],
    ]);
    // The older last argument does not combine a name that names no aggregate.
    const older = rt.runCustomFunction('PORTFOLIO_METRIC', ['Cash', [['2024-Q1', '2024-Q2']], '', 'last']) as unknown[][];
    expect(older[1]).toEqual([
      'Alpha Labs',
      ...Array(2).fill('3 monthly values: type "Cash (sum)", "Cash (last)", "Cash (average)" or "Cash (first)" as the name'),
      'USD',
    ]);
    const sums = rt.runCustomFunction('PORTFOLIO_METRIC', ['Revenue (sum)', [[2024]], fund.fundId]) as unknown[][];
    expect(sums[1]).toEqual(['Alpha Labs', 406, 'USD']);
    // Alpha's May Cash is null: every month of Q2 is needed without an aggregate, only June with "last".
    const all = rt.runCustomFunction('PORTFOLIO_COVERAGE', ['Cash', '2024-Q2', '2024-Q2']) as unknown[][];
    const last = rt.runCustomFunction('PORTFOLIO_COVERAGE', ['Cash', '2024-Q2', '2024-Q2', '', 'last']) as unknown[][];
    const named = rt.runCustomFunction('PORTFOLIO_COVERAGE', ['Cash (last)', '2024-Q2', '2024-Q2']) as unknown[][];
    expect(all[1]).toEqual(['Alpha Labs', 'Cash', 'blank', 0, 1, 0, 0]);
    expect(last[1]).toEqual(['Alpha Labs', 'Cash', 'reported', 1, 0, 0, 0]);
    expect(named[1]).toEqual(['Alpha Labs', 'Cash (last)', 'reported', 1, 0, 0, 0]);
    expect(errorOf(() => rt.runCustomFunction('PORTFOLIO_METRIC', ['Cash', '2024-Q1', '', 'median']))).toMatch(/^Unknown aggregate "median"/);
  });

  it('refuses a metric name no company has, for the whole table, naming the nearest names', async () => {
    const fund = await createFund();
    const rt = runtimeFor(fund);
    expect(errorOf(() => rt.runCustomFunction('PORTFOLIO_METRIC', ['Cahs', '2024-Q1']))).toBe(
      `No metric named "Cahs" in fund ${fund.fundId}; did you mean "Cash"?`,
    );
    expect(errorOf(() => rt.runCustomFunction('PORTFOLIO_COVERAGE', [[['Revenue', 'Revenu']], '2024-Q1', '2024-Q2']))).toBe(
      `No metric named "Revenu" in fund ${fund.fundId}; did you mean "Revenue"?`,
    );
    expect(errorOf(() => rt.runCustomFunction('PORTFOLIO_METRIC', ['Burn multiple', '2024-Q1']))).toBe(
      `No metric named "Burn multiple" in fund ${fund.fundId}: none of its companies has a metric of that name (=METRICS lists them).`,
    );
  });
});

describe('PORTFOLIO_COVERAGE', () => {
  it('marks reported, blank and missing per company, metric and period, with counts', async () => {
    const fund = await createFund();
    const rt = runtimeFor(fund);
    await stack.takeRequests();
    const table = rt.runCustomFunction('PORTFOLIO_COVERAGE', [[['Revenue', 'Cash']], '2024-Q2', '2024-Q4']) as unknown[][];
    expect(table[0]).toEqual(['Company', 'Metric', '2024-Q2', '2024-Q3', '2024-Q4', 'Reported', 'Blank', 'No such metric', 'Ambiguous name']);
    const R = 'reported',
      B = 'blank',
      N = 'no such metric',
      A = 'ambiguous name';
    expect(table.slice(1, 15)).toEqual([
      ['Alpha Labs', 'Revenue', R, R, R, 3, 0, 0, 0],
      // Alpha's monthly Cash has a null point in May: its Q2 is blank.
      ['Alpha Labs', 'Cash', B, R, R, 2, 1, 0, 0],
      ['Beta Works', 'Revenue', R, R, R, 3, 0, 0, 0],
      ['Beta Works', 'Cash', R, R, R, 3, 0, 0, 0],
      // Two metrics of one name are their own kind, counted: the company falls out of no total.
      ['Gamma Co', 'Revenue', A, A, A, 0, 0, 0, 3],
      ['Gamma Co', 'Cash', N, N, N, 0, 0, 3, 0],
      ['Delta Inc', 'Revenue', N, N, N, 0, 0, 3, 0],
      ['Delta Inc', 'Cash', R, R, R, 3, 0, 0, 0],
      ['Epsilon', 'Revenue', R, B, B, 1, 2, 0, 0],
      ['Epsilon', 'Cash', N, N, N, 0, 0, 3, 0],
      ['Zeta', 'Revenue', R, R, R, 3, 0, 0, 0],
      ['Zeta', 'Cash', N, N, N, 0, 0, 3, 0],
      // An empty-string value is blank as much as a null one.
      ['Eta', 'Revenue', R, R, B, 2, 1, 0, 0],
      ['Eta', 'Cash', N, N, N, 0, 0, 3, 0],
    ]);
    expect(table.slice(15, 22)).toEqual([
      ['Alpha Labs', 'All metrics', 1, 2, 2, 5, 1, 0, 0],
      ['Beta Works', 'All metrics', 2, 2, 2, 6, 0, 0, 0],
      ['Gamma Co', 'All metrics', 0, 0, 0, 0, 0, 3, 3],
      ['Delta Inc', 'All metrics', 1, 1, 1, 3, 0, 3, 0],
      ['Epsilon', 'All metrics', 1, 0, 0, 1, 2, 3, 0],
      ['Zeta', 'All metrics', 1, 1, 1, 3, 0, 3, 0],
      ['Eta', 'All metrics', 1, 1, 0, 2, 1, 3, 0],
    ]);
    // Every company-metric-period is counted once: 7 companies × 2 names × 3 periods = 42.
    expect(table.slice(22)).toEqual([
      ['All companies', R, 7, 7, 6, 20, '', '', ''],
      ['All companies', B, 1, 1, 2, '', 4, '', ''],
      ['All companies', N, 5, 5, 5, '', '', 15, ''],
      ['All companies', A, 1, 1, 1, '', '', '', 3],
    ]);
    const cold = await stack.takeRequests();
    expect(cold.map((r) => r.path).sort()).toEqual(['/data_points', '/metrics', '/portfolio_company_profiles']);
    // The request asked for the eight metrics the table needs, and no other.
    const asked = cold
      .find((r) => r.path === '/data_points')!
      .query.match(/metric_id\[\]=[0-9a-f-]+/g)!
      .map((q) => q.slice(12))
      .sort();
    expect(asked).toEqual(
      [
        fund.metric.alphaRevenue,
        fund.metric.alphaCash,
        fund.metric.betaRevenue,
        fund.metric.betaCash,
        fund.metric.deltaCash,
        fund.metric.epsilonRevenue,
        fund.metric.zetaRevenue,
        fund.metric.etaRevenue,
      ].sort(),
    );
    rt.runCustomFunction('PORTFOLIO_COVERAGE', [[['Revenue', 'Cash']], '2024-Q2', '2024-Q4']);
    expect(await stack.takeRequests()).toEqual([]);
  });
});

describe('a year typed into a cell (Sheets keeps the number 2024)', () => {
  it('is the calendar year wherever a label is accepted', async () => {
    const fund = await createFund();
    const rt = runtimeFor(fund);
    expect(rt.runCustomFunction('METRIC_VALUE', [fund.metric.alphaRevenue, 2024, 'sum'])).toBe(406);
    expect(rt.runCustomFunction('PORTFOLIO_VALUE', ['Alpha Labs', 'Revenue (sum)', 2024])).toBe(406);
    const table = rt.runCustomFunction('PORTFOLIO_METRIC', ['Revenue', [[2024]]]) as unknown[][];
    expect(table[0]).toEqual(['Company', 2024, 'Unit']);
    expect(table[1]![1]).toBe('4 quarterly values: type "Revenue (sum)", "Revenue (last)", "Revenue (average)" or "Revenue (first)" as the name');
    const coverage = rt.runCustomFunction('PORTFOLIO_COVERAGE', [[['Revenue']], 2023, 2024]) as unknown[][];
    expect(coverage[0]).toEqual(['Company', 'Metric', '2023', '2024', 'Reported', 'Blank', 'No such metric', 'Ambiguous name']);
    expect(coverage[1]).toEqual(['Alpha Labs', 'Revenue', 'blank', 'reported', 1, 1, 0, 0]);
  });
});

describe('a grid of 50 companies × 5 metrics × 8 quarters', () => {
  it('costs the listings plus ceil(250 / 20) × pages series requests cold, and none warm', async () => {
    const control = stack.emulator.control;
    const { companies } = await control.fixtures({ companies: [{ name: 'Big Fund', kind: 'investor' }] });
    const fundId = companies[0]!.id;
    const profiles = (
      await control.fixtures({
        portfolio_company_profiles: Array.from({ length: 50 }, (_, i) => ({
          company_id: fundId,
          name: `Company ${i + 1}`,
          fiscal_year_end_month: (i % 12) + 1,
        })),
      })
    ).portfolio_company_profiles;
    const names = ['Revenue', 'Cash', 'Burn', 'Headcount', 'ARR'];
    const metrics = (
      await control.fixtures({
        metrics: profiles.flatMap((p) => names.map((name) => ({ company_id: fundId, portfolio_company_profile_id: p.id, name, frequency: 'quarterly' }))),
      })
    ).metrics;
    const quarters = ['2023-01-01', '2023-04-01', '2023-07-01', '2023-10-01', ...QUARTERS_2024];
    await control.fixtures({
      data_points: metrics.flatMap((m, i) => quarters.map((date, q) => ({ metric_id: m.id, date, value: q === 7 && i % 3 === 0 ? null : `${i}.${q}` }))),
    });
    const rt = stack.runtime({ defaultCompany: fundId });
    await stack.takeRequests();
    const periods = [['2023-Q1', '2023-Q2', '2023-Q3', '2023-Q4', '2024-Q1', '2024-Q2', '2024-Q3', '2024-Q4']];
    const tables = names.map((name) => rt.runCustomFunction('PORTFOLIO_METRIC', [name, periods]) as unknown[][]);
    const coverage = rt.runCustomFunction('PORTFOLIO_COVERAGE', [[names], '2023-Q1', '2024-Q4']) as unknown[][];
    expect(tables[0]![1]).toEqual(['Company 1', 0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, '', 'number']);
    expect(tables[4]![50]).toEqual(['Company 50', ...quarters.map((_, q) => (q === 7 && 249 % 3 === 0 ? '' : Number(`249.${q}`))), 'number']);
    expect(coverage.at(-4)).toEqual(['All companies', 'reported', ...quarters.map((_, q) => (q === 7 ? 250 - 84 : 250)), 2000 - 84, '', '', '']);
    const cold = await stack.takeRequests();
    // The listings: 250 metrics at the emulator's 25 a page, 50 profiles at 25.
    expect(countBy(cold, '/metrics')).toBe(10);
    expect(countBy(cold, '/portfolio_company_profiles')).toBe(2);
    const series = cold.filter((r) => r.path === '/data_points');
    for (const request of series) expect((request.query.match(/metric_id\[\]=/g) ?? []).length).toBeLessThanOrEqual(20);
    // 12 requests of 20 ids hold 160 points (2 pages), the 13th of 10 ids 80 (1 page).
    const coverageRequests = series.slice(-25);
    expect(coverageRequests.filter((r) => /(^|&)page=1(&|$)/.test(r.query))).toHaveLength(Math.ceil(250 / 20));
    expect(coverageRequests.filter((r) => /(^|&)page=2(&|$)/.test(r.query))).toHaveLength(12);
    // Each PORTFOLIO_METRIC: 20 + 20 + 10 ids, 2 + 2 + 1 pages.
    expect(series).toHaveLength(5 * 5 + 25);
    // Warm: every table again, no request.
    for (const name of names) rt.runCustomFunction('PORTFOLIO_METRIC', [name, periods]);
    rt.runCustomFunction('PORTFOLIO_COVERAGE', [[names], '2023-Q1', '2024-Q4']);
    expect(await stack.takeRequests()).toEqual([]);
  });
});

describe("the README's examples on the demo fund", () => {
  it('answer with the demo data: the value of Aurora Robotics, the Net Burn table, the coverage', async () => {
    const state = await stack.emulator.control.state();
    const rt = stack.runtime();
    const mrr = state.metrics.find((m) => m.name === 'Monthly Recurring Revenue')!;
    const q1 = ['2024-01-01', '2024-02-01', '2024-03-01'].map((date) => state.data_points.find((p) => p.metric_id === mrr.id && p.date === date)?.value);
    const value = rt.runCustomFunction('PORTFOLIO_VALUE', ['Aurora Robotics', 'Monthly Recurring Revenue (sum)', '2024-Q1']);
    expect(value).toBe(q1.every((v) => v) ? Number(q1.reduce((sum, v) => sum + Number(v), 0).toFixed(2)) : '');
    const burn = rt.runCustomFunction('PORTFOLIO_METRIC', ['Net Burn', [['2024-01', '2024-02', '2024-03']]]) as unknown[][];
    expect(burn[0]).toEqual(['Company', '2024-01', '2024-02', '2024-03', 'Unit']);
    expect(burn.find((row) => row[0] === 'Aurora Robotics')!.slice(1)).toEqual([...Array(3).fill('no metric "Net Burn"'), '']);
    expect(burn.at(-1)![0]).toBe('Companies with a value');
    const coverage = rt.runCustomFunction('PORTFOLIO_COVERAGE', [
      [['Monthly Recurring Revenue', 'Net Burn', 'Cash Balance']],
      '2024-01',
      '2024-06',
    ]) as unknown[][];
    expect(coverage[1]!.slice(0, 2)).toEqual(['Aurora Robotics', 'Monthly Recurring Revenue']);
    expect(coverage.at(-4)![0]).toBe('All companies');
  });
});
