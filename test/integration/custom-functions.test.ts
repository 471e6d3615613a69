// The built add-in's custom functions, run in the Node runtime for Apps Script against the emulator.

import { DEMO_IDS, FORMULA_TEXT } from '../../emulator/demo-data';
import type { EmulatorState } from '../../emulator/records';
import { grantFormulaAccess, useStackWithState, OWNER, type Stack } from '../support/stack';
import { errorOf } from '../support/formula-errors';
import { DEMO_FUND_LISTING, DEMO_FUND_LISTING_PAGES } from '../support/demo-fund';

const M = DEMO_IDS.metrics;
let stack: Stack;
let state: EmulatorState;
useStackWithState((started, demo) => ((stack = started), (state = demo)));

/** The emulator's own points of a metric, oldest first: what a sheet must show, computed independently. */
function expectedSeries(metricId: string, start = '0000-00-00', end = '9999-99-99'): Array<[string, number | null]> {
  return state.data_points
    .filter((p) => p.metric_id === metricId && p.date >= start && p.date <= end)
    .sort((a, b) => a.date.localeCompare(b.date))
    .map((p) => [p.date, p.value === null ? null : Number(p.value)]);
}

/** A Date cell shown as the spreadsheet shows it: its day in the spreadsheet's time zone. */
function day(cell: unknown, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(cell as Date);
}

describe('METRIC_VALUES', () => {
  it("gives a monthly series oldest first, numbers and blanks, in one series request after the access check's listing", async () => {
    const rt = stack.runtime();
    const rows = rt.runCustomFunction('METRIC_VALUES', [M.monthlyRecurringRevenue]) as unknown[][];
    expect(rows.map((r) => [day(r[0], 'America/New_York'), r[1] === '' ? null : r[1]])).toEqual(expectedSeries(M.monthlyRecurringRevenue));
    const requests = await stack.takeRequests();
    expect(requests.map((r) => r.path)).toEqual([...DEMO_FUND_LISTING, '/data_points']);
    expect(requests[0]!.query).toBe(`company_id=${stack.emulator.companyId}&page=1`);
    expect(requests[DEMO_FUND_LISTING_PAGES]!.query).toContain('page_size=100');
  });

  it('reads a year of daily points in 4 requests (and the access listing), and a repeated call in 0', async () => {
    const rt = stack.runtime();
    const rows = rt.runCustomFunction('METRIC_VALUES', [M.dailyActiveUsers, '2024-01-01', '2024-12-31']) as unknown[][];
    const expected = expectedSeries(M.dailyActiveUsers, '2024-01-01', '2024-12-31');
    expect(expected).toHaveLength(366);
    expect(rows.map((r) => [day(r[0], 'America/New_York'), r[1] === '' ? null : r[1]])).toEqual(expected);
    expect(expected.some(([, v]) => v === null)).toBe(true); // blanks stay blank, never 0
    expect((await stack.takeRequests()).map((r) => r.path)).toEqual([...DEMO_FUND_LISTING, ...Array(4).fill('/data_points')]);

    rt.runCustomFunction('METRIC_VALUES', [M.dailyActiveUsers, '2024-01-01', '2024-12-31']);
    expect(await stack.takeRequests()).toHaveLength(0);
  });

  it("caches a ten-year daily series over CacheService's 100 KB limit in chunks, and serves it again with no request", async () => {
    const [metric] = (await stack.emulator.control.fixtures({ metrics: [{ company_id: DEMO_IDS.fund, name: 'Ten years', frequency: 'daily', unit: 'USD' }] }))
      .metrics;
    const points = Array.from({ length: 3653 }, (_, i) => ({
      metric_id: metric!.id,
      date: new Date(Date.UTC(2015, 0, 1 + i)).toISOString().slice(0, 10),
      value: `${1_000_000 + i}.123456789`,
    }));
    await stack.emulator.control.fixtures({ data_points: points });
    await stack.emulator.control.clearRequests();
    const rt = stack.runtime();
    const first = rt.runCustomFunction('METRIC_VALUES', [metric!.id, '', '', 'text']) as unknown[][];
    expect(first).toHaveLength(3653);
    expect(first[0]![1]).toBe('1000000.123456789');
    expect((await stack.takeRequests()).filter((r) => r.path === '/data_points')).toHaveLength(37);
    const cache = rt.cache.user(OWNER);
    const chunks = cache._keys().filter((key) => /#\d+$/.test(key));
    expect(chunks.length).toBeGreaterThan(1);
    const second = rt.runCustomFunction('METRIC_VALUES', [metric!.id, '', '', 'text']) as unknown[][];
    expect(second).toEqual(first);
    expect(await stack.takeRequests()).toHaveLength(0);
  });

  it('gives several metrics as one wide table headed by their names, from one series request', async () => {
    const rt = stack.runtime();
    const rows = rt.runCustomFunction('METRIC_VALUES', [[[M.monthlyRecurringRevenue], [M.headcount]], '2024-01-01', '2024-12-31']) as unknown[][];
    const names = state.metrics.filter((m) => m.id === M.monthlyRecurringRevenue || m.id === M.headcount).map((m) => [m.id, m.name]);
    expect(rows[0]).toEqual(['Date', names.find(([id]) => id === M.monthlyRecurringRevenue)![1], names.find(([id]) => id === M.headcount)![1]]);
    const mrr = new Map(expectedSeries(M.monthlyRecurringRevenue, '2024-01-01', '2024-12-31'));
    const heads = new Map(expectedSeries(M.headcount, '2024-01-01', '2024-12-31'));
    const dates = [...new Set([...mrr.keys(), ...heads.keys()])].sort();
    expect(rows.slice(1).map((r) => [day(r[0], 'America/New_York'), r[1], r[2]])).toEqual(dates.map((d) => [d, mrr.get(d) ?? '', heads.get(d) ?? '']));
    const requests = await stack.takeRequests();
    const series = requests.filter((r) => r.path === '/data_points');
    expect(series).toHaveLength(1);
    expect(series[0]!.query).toContain(`metric_id[]=${M.monthlyRecurringRevenue}&metric_id[]=${M.headcount}`);
    expect(requests.filter((r) => r.path === '/metrics')).toHaveLength(DEMO_FUND_LISTING_PAGES); // the names, once
  });

  it("reads Date-cell arguments in the spreadsheet's time zone, not UTC", async () => {
    const timeZone = 'Pacific/Auckland';
    const rt = stack.runtime({ timeZone });
    // Midnight of 1 March 2024 in Auckland is 11:00 UTC on 29 February.
    const start = new Date('2024-02-29T11:00:00Z');
    const end = new Date('2024-03-30T11:00:00Z'); // midnight of 31 March in Auckland
    const rows = rt.runCustomFunction('METRIC_VALUES', [M.dailyActiveUsers, start, end]) as unknown[][];
    expect(day(rows[0]![0], timeZone)).toBe('2024-03-01');
    expect(day(rows[rows.length - 1]![0], timeZone)).toBe('2024-03-31');
    const [request] = (await stack.takeRequests()).filter((r) => r.path === '/data_points');
    expect(request!.query).toContain('start_date=2024-03-01&end_date=2024-03-31');
  });

  it('recovers from a 429 in the middle of a pull, with Retry-After and without', async () => {
    for (const retryAfter of [true, false]) {
      await stack.emulator.control.reset();
      // A 5 s window: backoffs without Retry-After (equal jitter from 2 s: at least 1, 2, 4 s) outlast it by
      // the third try, well inside a custom function's 30 s; a 10 s window left that to the jitter's luck.
      // The access check's metric listing comes first: its pages more than before.
      await stack.emulator.control.rateLimit({ limit: 3 + DEMO_FUND_LISTING_PAGES, windowSeconds: 5, retryAfter, freshWindow: true });
      await stack.emulator.control.clearRequests();
      const rt = stack.runtime();
      const rows = rt.runCustomFunction('METRIC_VALUES', [M.dailyActiveUsers, '2024-01-01', '2024-12-31']) as unknown[][];
      expect(rows).toHaveLength(366);
      const all = await stack.takeRequests();
      expect(all.filter((r) => r.path === '/metrics').map((r) => r.status)).toEqual(Array(DEMO_FUND_LISTING_PAGES).fill(200));
      const requests = all.filter((r) => r.path === '/data_points');
      // Page 1, then pages 2-4 together: the window allows two of them, the third is refused and
      // sent again after the wait (more than once when a backoff without Retry-After ends early).
      const refused = requests.filter((r) => r.status === 429);
      expect(refused.length).toBeGreaterThanOrEqual(1);
      if (retryAfter) expect(refused).toHaveLength(1);
      expect(
        requests
          .filter((r) => r.status === 200)
          .map((r) => /page=(\d+)/.exec(r.query)![1])
          .sort(),
      ).toEqual(['1', '2', '3', '4']);
      expect(requests).toHaveLength(4 + refused.length);
    }
  });

  it('keeps exact results with latency, 503s and dropped connections', async () => {
    const rt = stack.runtime();
    // The access check's listing first, without faults: the seeded faults then fall on the series' pages
    // alone, whatever the demo fund's listing holds.
    rt.runCustomFunction('METRICS', [stack.emulator.companyId]);
    await stack.takeRequests();
    await stack.emulator.control.faults({ latencyMs: 40, failRate: 0.3, dropRate: 0.1, seed: 7 });
    const rows = rt.runCustomFunction('METRIC_VALUES', [M.dailyActiveUsers]) as unknown[][];
    expect(rows.map((r) => [day(r[0], 'America/New_York'), r[1] === '' ? null : r[1]])).toEqual(expectedSeries(M.dailyActiveUsers));
    const all = await stack.takeRequests();
    expect(all.filter((r) => r.path === '/metrics')).toHaveLength(0);
    const requests = all.filter((r) => r.path === '/data_points');
    const pages = Math.ceil(expectedSeries(M.dailyActiveUsers).length / 100);
    // Every page answered exactly once; every other request was a fault that the client retried.
    expect(requests.filter((r) => r.status === 200)).toHaveLength(pages);
    expect(requests.filter((r) => r.status !== 200).every((r) => r.status === 503 || r.status === 0)).toBe(true);
    expect(requests.length).toBeGreaterThan(pages);
  });

  it("stops before Apps Script's 30-second limit with a sentence, never a partial table", async () => {
    // The series' first page takes 11 s, on the runtime's clock (its networkLatency): the add-in reads the time as the cell does.
    let slowNext = false;
    const rt = stack.runtime({ networkLatency: ({ url }) => (slowNext && new URL(url).pathname === '/data_points' ? ((slowNext = false), 11_000) : 0) });
    rt.runCustomFunction('METRICS', [stack.emulator.companyId]); // the access check's listing, cached: the slow answer is page 1
    await stack.emulator.control.clearRequests();
    slowNext = true;
    const message = errorOf(() => rt.runCustomFunction('METRIC_VALUES', [M.dailyActiveUsers]));
    expect(message).toMatch(/more than a formula can read within Apps Script's 30-second limit\. Narrow the date range/);
    expect(await stack.takeRequests()).toHaveLength(1);
  }, 40_000);
});

describe('METRIC_VALUE and METRIC_LATEST', () => {
  it('answer 200 cells over 5 metrics with one series fetch per metric', async () => {
    const rt = stack.runtime();
    const metrics = [M.monthlyRecurringRevenue, M.netBurn, M.cashBalance, M.dailyActiveUsers, M.headcount];
    const months = Array.from({ length: 40 }, (_, i) => `${2021 + Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}`);
    let cells = 0;
    for (const metric of metrics) {
      const frequency = state.metrics.find((m) => m.id === metric)!.frequency;
      for (const month of months) {
        const period = frequency === 'quarterly' ? `${month.slice(0, 4)}-Q${Math.floor((Number(month.slice(5)) - 1) / 3) + 1}` : month;
        const value = rt.runCustomFunction('METRIC_VALUE', [metric, frequency === 'daily' ? `${month}-01` : period]);
        const expected = new Map(expectedSeries(metric)).get(
          frequency === 'quarterly' ? `${period.slice(0, 4)}-${String((Number(period.slice(6)) - 1) * 3 + 1).padStart(2, '0')}-01` : `${month}-01`,
        );
        expect(value).toBe(expected ?? '');
        cells++;
      }
    }
    expect(cells).toBe(200);
    const requests = await stack.takeRequests();
    const firstPages = requests.filter((r) => r.path === '/data_points' && /(^|&)page=1(&|$)/.test(r.query));
    expect(firstPages).toHaveLength(5);
    const pagination = metrics.reduce((sum, m) => sum + Math.max(0, Math.ceil(expectedSeries(m).length / 100) - 1), 0);
    expect(requests.filter((r) => r.path === '/data_points')).toHaveLength(5 + pagination);
  });

  it("follows the portfolio company's fiscal year for FY labels", () => {
    const rt = stack.runtime();
    const metric = state.metrics.find(
      (m) =>
        m.frequency === 'monthly' &&
        m.portfolio_company_profile_id &&
        state.portfolio_company_profiles.find((p) => p.id === m.portfolio_company_profile_id)?.fiscal_year_end_month === 3 &&
        state.data_points.some((p) => p.metric_id === m.id && p.date === '2023-04-01'),
    );
    expect(metric).toBeDefined();
    // A fiscal year of a monthly metric is longer than its months: "first" reads its first month.
    const april2023 = new Map(expectedSeries(metric!.id)).get('2023-04-01');
    expect(rt.runCustomFunction('METRIC_VALUE', [metric!.id, 'FY2024', 'first'])).toBe(april2023 ?? '');
    const october2023 = new Map(expectedSeries(metric!.id)).get('2023-10-01');
    expect(rt.runCustomFunction('METRIC_VALUE', [metric!.id, 'Q3 FY2024', 'first'])).toBe(october2023 ?? '');
    const march2024 = new Map(expectedSeries(metric!.id)).get('2024-03-01');
    expect(rt.runCustomFunction('METRIC_VALUE', [metric!.id, 'FY2024', 'last'])).toBe(march2024 ?? '');
  });

  it('gives the latest non-blank value on or before a date, with its date on request', () => {
    const rt = stack.runtime();
    const series = expectedSeries(M.dailyActiveUsers).filter(([d, v]) => v !== null && d <= '2024-06-30');
    const [date, value] = series[series.length - 1]!;
    expect(rt.runCustomFunction('METRIC_LATEST', [M.dailyActiveUsers, '2024-06-30'])).toBe(value);
    const [[cell, withDate]] = rt.runCustomFunction('METRIC_LATEST', [M.dailyActiveUsers, '2024-06-30', 'with_date']) as unknown[][] as [[Date, number]];
    expect([day(cell, 'America/New_York'), withDate]).toEqual([date, value]);
  });
});

describe("METRIC_VALUE over a period longer than the metric's", () => {
  /** The exact sum of the emulator's stored decimal texts, as a number: written apart from the add-in's own arithmetic. */
  function exactSum(texts: string[]): number {
    const scale = Math.max(0, ...texts.map((t) => (t.split('.')[1] ?? '').length));
    const total = texts.reduce((sum, t) => {
      const [whole, fraction = ''] = t.replace('-', '').split('.') as [string, string?];
      const units = BigInt(whole + fraction.padEnd(scale, '0'));
      return sum + (t.startsWith('-') ? -units : units);
    }, 0n);
    const negative = total < 0n;
    const digits = (negative ? -total : total).toString().padStart(scale + 1, '0');
    return Number(`${negative ? '-' : ''}${digits.slice(0, digits.length - scale)}.${digits.slice(digits.length - scale) || '0'}`);
  }
  /** The stored values of a metric on these dates; undefined when one is missing or blank. */
  function storedValues(metricId: string, dates: string[]): string[] | undefined {
    const values = dates.map((date) => state.data_points.find((p) => p.metric_id === metricId && p.date === date)?.value);
    return values.every((v): v is string => typeof v === 'string') ? values : undefined;
  }
  const quarterMonths = (year: number, quarter: number) => [0, 1, 2].map((i) => `${year}-${String((quarter - 1) * 3 + 1 + i).padStart(2, '0')}-01`);

  it('refuses a quarter of a monthly metric without an aggregate, naming the label, "monthly" and the choices, before any series request', async () => {
    const rt = stack.runtime();
    const text = errorOf(() => rt.runCustomFunction('METRIC_VALUE', [M.monthlyRecurringRevenue, '2024-Q1']));
    expect(text).toBe(
      '"2024-Q1" is calendar quarter 1 of 2024, longer than one period of "Monthly Recurring Revenue", a monthly metric. Give an aggregate as the third argument to combine its monthly values: "sum", "average", "first" or "last"; or give a label of one monthly period, like 2024-01.',
    );
    expect(errorOf(() => rt.runCustomFunction('METRIC_VALUE', [M.monthlyRecurringRevenue, '2024-Q1', 'total']))).toBe(
      'Unknown aggregate "total": use "sum", "average", "first" or "last".',
    );
    expect((await stack.takeRequests()).map((r) => r.path)).toEqual(DEMO_FUND_LISTING);
  });

  it('with "sum" gives the exact sum of the quarter\'s three stored months, and asks for no more than a single month does', async () => {
    const plain = stack.runtime();
    const january = plain.runCustomFunction('METRIC_VALUE', [M.monthlyRecurringRevenue, '2024-01']);
    expect(january).toBe(Number(storedValues(M.monthlyRecurringRevenue, ['2024-01-01'])![0]));
    const single = await stack.takeRequests();

    const rt = stack.runtime();
    const values = storedValues(M.monthlyRecurringRevenue, quarterMonths(2024, 1))!;
    expect(values).toHaveLength(3);
    expect(rt.runCustomFunction('METRIC_VALUE', [M.monthlyRecurringRevenue, '2024-Q1', 'sum'])).toBe(exactSum(values));
    expect(rt.runCustomFunction('METRIC_VALUE', [M.monthlyRecurringRevenue, '2024-Q1', 'first'])).toBe(Number(values[0]));
    expect(rt.runCustomFunction('METRIC_VALUE', [M.monthlyRecurringRevenue, '2024-Q1', 'last'])).toBe(Number(values[2]));
    const aggregated = await stack.takeRequests();
    // The same requests: the metric's whole series (no date window that could cut the quarter) and its record.
    expect(aggregated.map((r) => `${r.path}?${r.query}`)).toEqual(single.map((r) => `${r.path}?${r.query}`));
    const series = aggregated.filter((r) => r.path === '/data_points');
    expect(series).toHaveLength(1);
    expect(series[0]!.query).not.toMatch(/start_date|end_date/);
  });

  it('gives an empty cell for a quarter with a blank month, never a partial sum', () => {
    const rt = stack.runtime();
    const blank = state.data_points.find((p) => p.metric_id === M.netBurn && p.value === null && p.date >= '2020-01-01')!;
    expect(blank).toBeDefined();
    const [year, month] = blank.date.split('-').map(Number) as [number, number];
    const quarter = Math.floor((month - 1) / 3) + 1;
    expect(storedValues(M.netBurn, quarterMonths(year, quarter))).toBeUndefined();
    expect(rt.runCustomFunction('METRIC_VALUE', [M.netBurn, `${year}-Q${quarter}`, 'sum'])).toBe('');
    expect(rt.runCustomFunction('METRIC_VALUE', [M.netBurn, `${year}-Q${quarter}`, 'average'])).toBe('');
  });

  it('fills a grid of ids against quarters with the aggregate applied to every cell, one series per metric', async () => {
    const rt = stack.runtime();
    const ids = [M.monthlyRecurringRevenue, M.netBurn, M.cashBalance];
    const quarters = [1, 2, 3, 4].map((q) => `2023-Q${q}`);
    const grid = rt.runCustomFunction('METRIC_VALUE', [ids.map((id) => [id]), [quarters], 'sum']) as unknown[][];
    expect(grid).toEqual(
      ids.map((id) =>
        [1, 2, 3, 4].map((q) => {
          const values = storedValues(id, quarterMonths(2023, q));
          return values ? exactSum(values) : '';
        }),
      ),
    );
    expect(grid.flat()).toContain(''); // Net Burn has a blank month in 2023
    const series = (await stack.takeRequests()).filter((r) => r.path === '/data_points');
    expect(series).toHaveLength(ids.length);
  });

  it('averages the days of a daily metric and sums the weeks that start in a month', () => {
    const rt = stack.runtime();
    const days = Array.from({ length: 31 }, (_, i) => `2024-03-${String(i + 1).padStart(2, '0')}`);
    const revenue = storedValues(M.dailyRevenue, days)!;
    // Two-decimal values: the exact sum in cents and the day count are exact doubles, so one division rounds as the add-in must.
    const cents = exactSum(revenue) * 100;
    expect(Number.isInteger(Math.round(cents))).toBe(true);
    expect(rt.runCustomFunction('METRIC_VALUE', [M.dailyRevenue, '2024-03', 'average'])).toBe(Math.round(cents) / (100 * 31));
    const mondays = days.filter((d) => new Date(`${d}T00:00:00Z`).getUTCDay() === 1);
    expect(mondays).toEqual(['2024-03-04', '2024-03-11', '2024-03-18', '2024-03-25']);
    expect(rt.runCustomFunction('METRIC_VALUE', [M.weeklySignups, '2024-03', 'sum'])).toBe(exactSum(storedValues(M.weeklySignups, mondays)!));
    expect(errorOf(() => rt.runCustomFunction('METRIC_VALUE', [M.weeklySignups, '2024-03']))).toMatch(
      /^"2024-03" is the month 2024-03, longer than one period of "Weekly Signups", a weekly metric\. /,
    );
  });

  it('refuses FY2024 of a quarterly metric without an aggregate; with "last" gives the quarter the fiscal year ends with', async () => {
    const fixtures = await stack.emulator.control.fixtures({
      portfolio_company_profiles: [{ company_id: DEMO_IDS.fund, name: 'June Co', fiscal_year_end_month: 6 }],
    });
    const profile = fixtures.portfolio_company_profiles[0]!;
    const [metric] = (
      await stack.emulator.control.fixtures({
        metrics: [{ company_id: DEMO_IDS.fund, name: 'Quarterly orders', frequency: 'quarterly', unit: 'usd', portfolio_company_profile_id: profile.id }],
      })
    ).metrics;
    const quarters = ['2023-04-01', '2023-07-01', '2023-10-01', '2024-01-01', '2024-04-01', '2024-07-01'];
    const stored = (
      await stack.emulator.control.fixtures({ data_points: quarters.map((date, i) => ({ metric_id: metric!.id, date, value: `${i + 1}00.${i + 1}` })) })
    ).data_points;
    const valueOf = (date: string) => stored.find((p) => p.date === date)!.value as string;
    const rt = stack.runtime();
    expect(errorOf(() => rt.runCustomFunction('METRIC_VALUE', [metric!.id, 'FY2024']))).toBe(
      '"FY2024" is fiscal year 2024 (ending in June), longer than one period of "Quarterly orders", a quarterly metric. Give an aggregate as the third argument to combine its quarterly values: "sum", "average", "first" or "last"; or give a label of one quarterly period, like 2023-Q3.',
    );
    // A June year end: FY2024 runs July 2023 to June 2024, so its last quarter starts in April 2024.
    expect(rt.runCustomFunction('METRIC_VALUE', [metric!.id, 'FY2024', 'last'])).toBe(Number(valueOf('2024-04-01')));
    expect(rt.runCustomFunction('METRIC_VALUE', [metric!.id, 'FY2024', 'first'])).toBe(Number(valueOf('2023-07-01')));
    expect(rt.runCustomFunction('METRIC_VALUE', [metric!.id, 'FY2024', 'sum'])).toBe(
      exactSum(['2023-07-01', '2023-10-01', '2024-01-01', '2024-04-01'].map(valueOf)),
    );
    expect(rt.runCustomFunction('METRIC_VALUE', [metric!.id, 'Q4 FY2024', 'sum'])).toBe(Number(valueOf('2024-04-01'))); // its own period
  });
});

describe('lists with nothing to list', () => {
  it('PORTFOLIO_PROPERTY_OPTIONS on a number property says it has no options, and why', () => {
    const rt = stack.runtime();
    const property = state.portfolio_properties.find((p) => p.company_id === DEMO_IDS.fund && p.data_type === 'number')!;
    expect(property).toBeDefined();
    expect(rt.runCustomFunction('PORTFOLIO_PROPERTY_OPTIONS', [property.id])).toEqual([
      ['Label', 'Id'],
      [`No options: "${property.name}" is a number property, and only select and multiselect properties have options.`, ''],
    ]);
  });

  it('METRICS of a portfolio company without metrics says so under its header row', async () => {
    const [profile] = (await stack.emulator.control.fixtures({ portfolio_company_profiles: [{ company_id: DEMO_IDS.fund, name: 'No Metrics Co' }] }))
      .portfolio_company_profiles;
    const rt = stack.runtime();
    expect(rt.runCustomFunction('METRICS', [DEMO_IDS.fund, profile!.id])).toEqual([
      ['Name', 'Id', 'Frequency', 'Unit', 'Portfolio company profile id'],
      ['No metrics: this portfolio company has none in this fund.', '', '', '', ''],
    ]);
  });
});

describe('lists', () => {
  it('read every page with a header row', async () => {
    const rt = stack.runtime();
    const notes = rt.runCustomFunction('PORTFOLIO_NOTES', [DEMO_IDS.profile(1)]) as unknown[][];
    const expected = state.portfolio_notes.filter((n) => n.portfolio_company_profile_id === DEMO_IDS.profile(1));
    expect(expected.length).toBeGreaterThan(25);
    expect(notes[0]).toEqual(['Name', 'Content', 'Created at', 'Id']);
    expect(
      notes
        .slice(1)
        .map((r) => r[3])
        .sort(),
    ).toEqual(expected.map((n) => n.id).sort());
    const requests = await stack.takeRequests();
    // The access check: the profile is one of the allowed fund's (its listing, once per cache period).
    expect(requests.filter((r) => r.path === '/portfolio_company_profiles').map((r) => r.query)).toContain(`company_id=${DEMO_IDS.fund}&page=1`);
    expect(requests.filter((r) => r.path === '/portfolio_notes').map((r) => r.query)).toEqual([
      `portfolio_company_profile_id=${DEMO_IDS.profile(1)}&page=1`,
      `portfolio_company_profile_id=${DEMO_IDS.profile(1)}&page=2`,
    ]);

    const metrics = rt.runCustomFunction('METRICS', [DEMO_IDS.fund]) as unknown[][];
    expect(metrics[0]).toEqual(['Name', 'Id', 'Frequency', 'Unit', 'Portfolio company profile id']);
    expect(metrics).toHaveLength(state.metrics.filter((m) => m.company_id === DEMO_IDS.fund).length + 1);
    expect(metrics.find((r) => r[1] === M.auditedRevenue)![2]).toBe('annually'); // an unknown frequency is shown
  });

  it('take a portfolio company by its name, and say a mistyped id or name is no record of the companies it may read', () => {
    const rt = stack.runtime();
    const profile = state.portfolio_company_profiles.find((p) => p.id === DEMO_IDS.profile(3))!;
    const byName = rt.runCustomFunction('PORTFOLIO_NOTES', [`  ${profile.name.toUpperCase()} `]) as unknown[][];
    expect(byName).toEqual(rt.runCustomFunction('PORTFOLIO_NOTES', [profile.id]));
    expect(rt.runCustomFunction('PORTFOLIO_PROPERTY_VALUES', [profile.name])).toEqual(
      rt.runCustomFunction('PORTFOLIO_PROPERTY_VALUES', [profile.id, DEMO_IDS.fund]),
    );
    const typo = profile.name.slice(0, -1);
    expect(errorOf(() => rt.runCustomFunction('PORTFOLIO_NOTES', [typo]))).toBe(
      `No portfolio company named "${typo}" in fund ${DEMO_IDS.fund}; did you mean "${profile.name}"?`,
    );
    const mistyped = '00000000-0000-4000-8000-00000000beef';
    expect(errorOf(() => rt.runCustomFunction('PORTFOLIO_NOTES', [mistyped]))).toMatch(
      new RegExp(
        `^No portfolio company profile with id ${mistyped} was found in the companies this spreadsheet may read \\(1 company\\): check the id\\. If it is another company's`,
      ),
    );
    expect(errorOf(() => rt.runCustomFunction('PORTFOLIO_PROPERTY_OPTIONS', [mistyped]))).toMatch(
      new RegExp(`^No portfolio property with id ${mistyped} was found in the companies this spreadsheet may read`),
    );
    expect(errorOf(() => rt.runCustomFunction('METRIC_VALUE', [mistyped, '2024-01']))).toMatch(
      new RegExp(`^No metric with id ${mistyped} was found in the companies this spreadsheet may read`),
    );
  });

  it('return API text that looks like a formula as plain text', () => {
    const rt = stack.runtime();
    const note = state.portfolio_notes.find((n) => n.content === FORMULA_TEXT)!;
    const rows = rt.runCustomFunction('PORTFOLIO_NOTES', [note.portfolio_company_profile_id]) as unknown[][];
    expect(rows.find((r) => r[3] === note.id)![1]).toBe(FORMULA_TEXT);
  });

  it('show property values as a person reads them', () => {
    const rt = stack.runtime();
    const rows = rt.runCustomFunction('PORTFOLIO_PROPERTY_VALUES', [DEMO_IDS.profile(3)]) as unknown[][];
    expect(rows[0]).toEqual(['Property', 'Value', 'Data type', 'Property id']);
    const byType = new Map(rows.slice(1).map((r) => [r[2], r[1]]));
    if (byType.has('multiselect')) expect(typeof byType.get('multiselect')).toBe('string');
    if (byType.has('boolean')) expect(typeof byType.get('boolean')).toBe('boolean');
    if (byType.has('number')) expect(typeof byType.get('number')).toBe('number');
    expect(rows.some((r) => r[1] === FORMULA_TEXT)).toBe(true);
    const options = rt.runCustomFunction('PORTFOLIO_PROPERTY_OPTIONS', [
      state.portfolio_property_options[0]!.portfolio_property_id,
      state.portfolio_property_options[0]!.label.toUpperCase(),
    ]) as unknown[][];
    expect(options).toEqual([
      ['Label', 'Id'],
      [state.portfolio_property_options[0]!.label, state.portfolio_property_options[0]!.id],
    ]);
  });
});

describe('errors a user can act on', () => {
  it.each([
    [
      'no token',
      { token: null },
      'METRIC_VALUES',
      [DEMO_IDS.metrics.monthlyRecurringRevenue],
      /^Formulas in this spreadsheet use its owner's API connection, and the owner has not set an API token\. The owner can set it in Extensions › Portfolio Metrics › Open sidebar › Settings/,
    ],
    ['a rejected token', { token: 'wrong-token-1234' }, 'METRIC_VALUES', [DEMO_IDS.metrics.monthlyRecurringRevenue], /^The API token was rejected\./],
    [
      'a company the owner did not allow',
      {},
      'METRICS',
      [DEMO_IDS.otherFund],
      new RegExp(
        `^Formulas in this spreadsheet may not read the data of company ${DEMO_IDS.otherFund}: the spreadsheet's owner has not allowed that company\\. The spreadsheet's owner can allow a company in the add-in's Settings › Formula access`,
      ),
    ],
    [
      'an unknown metric',
      {},
      'METRIC_VALUES',
      ['00000000-0000-4000-8000-00000000dead'],
      /^No metric with id 00000000-0000-4000-8000-00000000dead was found in the companies this spreadsheet may read \(1 company\): check the id\. If it is another company's/,
    ],
    [
      'an id that is not a UUID',
      {},
      'METRIC_VALUES',
      ['../metrics?x=1'],
      /^The metric id must be an id like 123e4567-e89b-12d3-a456-426614174000, but it is "\.\.\/metrics\?x=1"\.$/,
    ],
    [
      'a date that is not a date',
      {},
      'METRIC_VALUES',
      [DEMO_IDS.metrics.monthlyRecurringRevenue, '31/12/2024'],
      /^The start date must be a date cell or text like 2024-01-31, but it is "31\/12\/2024"\.$/,
    ],
    [
      'a period that is not a period',
      {},
      'METRIC_VALUE',
      [DEMO_IDS.metrics.monthlyRecurringRevenue, 'March'],
      /^"March" is not a period: use a date, 2024-03, 2024-Q1, FY2024 or Q3 FY2024\.$/,
    ],
  ] as const)('%s', (_label, options, name, args, message) => {
    const rt = stack.runtime(options);
    const text = errorOf(() => rt.runCustomFunction(name, [...args]));
    expect(text).toMatch(message);
    expect(text).not.toContain(stack.emulator.token);
  });

  it.each([
    ['no access to a company', 'METRICS', DEMO_IDS.otherFund, /^This API token has no access to that company or record\./],
    ['a portfolio list of a startup', 'PORTFOLIO_COMPANIES', DEMO_IDS.startup, /portfolio data exists only for investor \(fund\) companies/],
  ] as const)('%s, once the owner allowed it', (_label, name, companyId, message) => {
    const rt = stack.runtime();
    grantFormulaAccess(rt, [stack.emulator.companyId, companyId]);
    expect(errorOf(() => rt.runCustomFunction(name, [companyId]))).toMatch(message);
  });

  it('says when to try again while rate limited', async () => {
    // The first formula's access listing (every page) and series; the second's listing is cached.
    await stack.emulator.control.rateLimit({ limit: DEMO_FUND_LISTING_PAGES + 1, windowSeconds: 300, retryAfter: true, freshWindow: true });
    const rt = stack.runtime();
    rt.runCustomFunction('METRIC_VALUES', [DEMO_IDS.metrics.monthlyRecurringRevenue]);
    const text = errorOf(() => rt.runCustomFunction('METRIC_VALUES', [DEMO_IDS.metrics.headcount]));
    expect(text).toMatch(/^The API's rate limit was reached\. Try again in \d+ seconds\.$/);
  });

  it('never sends a request for an id that is not a UUID', async () => {
    const rt = stack.runtime();
    errorOf(() => rt.runCustomFunction('METRIC_VALUES', ['a/../../b']));
    expect(await stack.takeRequests()).toHaveLength(0);
  });
});
