// PORTFOLIO_SOURCE and the provenance table against a scripted API: each case of a fund cell, a quarter of a monthly
// metric's months, one sourced read per metric name shared by every cell, and the table's rows.

import { describeSources, NO_SOURCE, portfolioSource, provenanceTable, sourceText } from '../../src/core/formulas/fund-sources';
import { fundDirectory } from '../../src/core/formulas/fund-functions';
import { MemoryCache } from '../support/memory-cache';
import { scriptedFormulaContext } from '../support/formula-context';
import type { Step } from '../support/scripted-transport';

const FUND = '0a000000-0000-4000-8000-000000000001';
const id = (kind: string, n: number) => `0${kind}000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

function context(steps: Step[], cache = new MemoryCache()) {
  return scriptedFormulaContext({ steps, cache, timeZone: 'UTC', defaultCompanyId: FUND, allowedCompanyIds: [FUND] });
}

const page = (key: string, items: unknown[]) => ({
  status: 200,
  body: { [key]: items, meta: { page: 1, total_pages: items.length ? 1 : 0, total: items.length } },
});

// Aurora: monthly Cash. Borealis: quarterly Cash, fiscal year ending in March. Cirrus: none. Dune: two "Cash".
const profiles = [
  { id: id('c', 1), name: 'Aurora', company_id: FUND, fiscal_year_end_month: 12 },
  { id: id('c', 2), name: 'Borealis', company_id: FUND, fiscal_year_end_month: 3 },
  { id: id('c', 3), name: 'Cirrus', company_id: FUND, fiscal_year_end_month: 12 },
  { id: id('c', 4), name: 'Dune', company_id: FUND, fiscal_year_end_month: 12 },
];
const metric = (n: number, profile: number, frequency: string, name = 'Cash') => ({
  id: id('b', n),
  name,
  frequency,
  unit: 'USD',
  company_id: FUND,
  portfolio_company_profile_id: id('c', profile),
});
const metrics = [
  metric(1, 1, 'monthly'),
  metric(2, 2, 'quarterly'),
  metric(4, 4, 'monthly'),
  metric(5, 4, 'monthly', 'cash '),
  metric(6, 3, 'monthly', 'Revenue'),
];
const listings: Step[] = [
  { match: `GET /portfolio_company_profiles?company_id=${FUND}&page=1`, reply: page('portfolio_company_profiles', profiles) },
  { match: `GET /metrics?company_id=${FUND}&page=1`, reply: page('metrics', metrics) },
];

const link = (n: number) => `https://app.test/data_points/${n}`;
const dana = (n: number) => ({ source_type: 'user_provided', label: 'Entered by Dana', app_url: link(n) });
const ai = (n: number) => ({ source_type: 'ai_inbox', label: 'AI inbox: board-pack.pdf', app_url: link(n) });
const point = (metricN: number, date: string, value: string | null, source: object) => ({
  id: `p-${metricN}-${date}`,
  metric_id: id('b', metricN),
  date,
  value,
  source,
});
const cashPoints = [
  // Aurora's Q1 from three sources of one kind; Q2 of two kinds with a blank May.
  point(1, '2024-01-01', '10', dana(1)),
  point(1, '2024-02-01', '11', dana(2)),
  point(1, '2024-03-01', '12', dana(3)),
  point(1, '2024-04-01', '13', ai(4)),
  point(1, '2024-05-01', null, dana(5)),
  point(1, '2024-06-01', '15', dana(6)),
  point(2, '2024-01-01', '500', ai(7)),
  point(2, '2024-04-01', '600', dana(8)),
];
/** Every "Cash" metric of the fund (Dune's two included), ids sorted, in one request with sources. */
const cashIds = [1, 2, 4, 5].map((n) => id('b', n)).sort();
const cashRead: Step = {
  match: `GET /data_points?${cashIds.map((m) => `metric_id[]=${m}`).join('&')}&page_size=100&include_source=true&page=1`,
  reply: page('data_points', cashPoints),
};

const companies = [['Aurora'], ['Borealis'], ['Cirrus'], ['Dune'], ['']];

describe('a source as text', () => {
  it('is the type as METRIC_SOURCE shows it, then the label; a point without its source says so', () => {
    expect(sourceText(ai(1))).toBe('ai_inbox (review): AI inbox: board-pack.pdf');
    expect(sourceText({ source_type: 'unknown', label: '' })).toBe('unknown');
    expect(sourceText(undefined)).toBe(NO_SOURCE);
  });

  it("lists several periods' sources, gives them once when they read alike, and nothing when no period has a value", () => {
    const part = (label: string, value: string | null, source: object) => ({ label, point: { id: '', metric_id: '', date: '', value, source } as never });
    expect(describeSources([part('2024-01', '1', dana(1)), part('2024-02', '2', dana(2))], false)).toEqual({
      text: 'user_provided: Entered by Dana',
      link: `2024-01: ${link(1)}; 2024-02: ${link(2)}`,
    });
    expect(describeSources([part('2024-01', '1', dana(1)), part('2024-02', '', dana(2)), { label: '2024-03', point: undefined }], false)).toEqual({
      text: '2024-01: user_provided: Entered by Dana; 2024-02: no value; 2024-03: no value',
      link: `2024-01: ${link(1)}`,
    });
    expect(describeSources([part('2024-01', null, dana(1)), { label: '2024-02', point: undefined }], false)).toEqual({ text: '', link: '' });
    expect(describeSources([part('2024-Q1', '5', ai(3))], true)).toEqual({ text: 'ai_inbox (review): AI inbox: board-pack.pdf', link: link(3) });
  });
});

describe('PORTFOLIO_SOURCE', () => {
  it('fills a block from one read of every metric of the name, each case as PORTFOLIO_VALUE shows it; the next cell reads nothing', () => {
    const { ctx, transport, cache } = context([...listings, cashRead]);
    const grid = portfolioSource(ctx, companies, 'Cash', [['2024-Q1', '2024-Q2', '2024-02']]);
    transport.assertDone();
    expect(transport.sent.filter((request) => request.url.includes('/data_points'))).toHaveLength(1);
    expect(grid).toEqual([
      [
        'user_provided: Entered by Dana',
        '2024-04: ai_inbox (review): AI inbox: board-pack.pdf; 2024-05: no value; 2024-06: user_provided: Entered by Dana',
        'user_provided: Entered by Dana',
      ],
      // Borealis' quarters are its own periods; February starts none of them, which is said, as PORTFOLIO_VALUE's grid says it.
      [
        'ai_inbox (review): AI inbox: board-pack.pdf',
        'user_provided: Entered by Dana',
        '2024-02-01 does not start a quarterly period of "Cash": its period starts on 2024-01-01.',
      ],
      ['no metric "Cash"', 'no metric "Cash"', 'no metric "Cash"'],
      ['2 metrics "Cash": read one by id (METRIC_VALUE)', '2 metrics "Cash": read one by id (METRIC_VALUE)', '2 metrics "Cash": read one by id (METRIC_VALUE)'],
      ['', '', ''],
    ]);
    const warm = context([], cache);
    expect(portfolioSource(warm.ctx, 'Borealis', 'cash', '2024-Q2')).toBe('user_provided: Entered by Dana');
    expect(portfolioSource(warm.ctx, 'Aurora', 'Cash (last)', '2024-Q2')).toBe('2024-06: user_provided: Entered by Dana');
    expect(portfolioSource(warm.ctx, 'Aurora', 'Cash (first)', '2024-Q2')).toBe('2024-04: ai_inbox (review): AI inbox: board-pack.pdf');
    // A sum missing May has no value; its source still says which month is missing.
    expect(portfolioSource(warm.ctx, 'Aurora', 'Cash (sum)', '2024-Q2')).toContain('2024-05: no value');
    expect(portfolioSource(warm.ctx, 'Aurora', 'Cash', '2024-05')).toBe('');
    expect(portfolioSource(warm.ctx, 'Aurora', 'Cash', '2023-12')).toBe('');
    expect(() => portfolioSource(warm.ctx, 'Aurora', 'Cash', '2024-01-15')).toThrow('does not start a monthly period');
    expect(warm.transport.sent).toHaveLength(0);
  });

  it("leaves the fund model's Unit column empty, a unit having no source, and reads nothing for it", () => {
    const { ctx, transport } = context([...listings, cashRead]);
    const grid = portfolioSource(ctx, companies, 'Cash', [['2024-Q1', 'Unit']]) as unknown[][];
    transport.assertDone();
    expect(grid.map((row) => row[1])).toEqual(['', '', '', '', '']);
    expect(grid[0]![0]).toBe('user_provided: Entered by Dana');
    const unitOnly = context([...listings]);
    expect(portfolioSource(unitOnly.ctx, companies, 'Cash', [['unit']])).toEqual([[''], [''], [''], [''], ['']]);
    expect(portfolioSource(unitOnly.ctx, 'Aurora', 'Cash', 'Unit')).toBe('');
    expect(unitOnly.transport.sent.filter((request) => request.url.includes('/data_points'))).toHaveLength(0);
  });

  it("is an error for a mistyped name or a period no company can read, before any data point is read; a single cell's period error is its error", () => {
    const { ctx, transport } = context([...listings]);
    expect(() => portfolioSource(ctx, companies, 'Cahs', [['2024-Q1']])).toThrow('No metric named "Cahs"');
    expect(() => portfolioSource(ctx, 'Aurora', 'Cash', '2024-Q5')).toThrow();
    expect(() => portfolioSource(ctx, [['Aurora']], [['Cash', 'Revenue']], [['2024-Q1', '2024-Q2']])).toThrow('With two ranges');
    expect(transport.sent.filter((request) => request.url.includes('/data_points'))).toHaveLength(0);
  });
});

describe('the provenance table', () => {
  it("has one row per name, company and period with PORTFOLIO_VALUE's value, the source and each point's link, from one read per name", () => {
    const { ctx, transport } = context([...listings, cashRead]);
    const table = provenanceTable(ctx, fundDirectory(ctx, FUND), { nameCells: ['Cash (last)'], periods: ['2024-Q1', '2024-Q2'] });
    transport.assertDone();
    expect(table).toEqual([
      ['Company', 'Metric', 'Period', 'Value', 'Source', 'Source link'],
      ['Aurora', 'Cash (last)', '2024-Q1', 12, '2024-03: user_provided: Entered by Dana', `2024-03: ${link(3)}`],
      ['Aurora', 'Cash (last)', '2024-Q2', 15, '2024-06: user_provided: Entered by Dana', `2024-06: ${link(6)}`],
      ['Borealis', 'Cash (last)', '2024-Q1', 500, 'ai_inbox (review): AI inbox: board-pack.pdf', link(7)],
      ['Borealis', 'Cash (last)', '2024-Q2', 600, 'user_provided: Entered by Dana', link(8)],
      ['Cirrus', 'Cash (last)', '2024-Q1', 'no metric "Cash"', 'no metric "Cash"', ''],
      ['Cirrus', 'Cash (last)', '2024-Q2', 'no metric "Cash"', 'no metric "Cash"', ''],
      ['Dune', 'Cash (last)', '2024-Q1', '2 metrics "Cash": read one by id (METRIC_VALUE)', '2 metrics "Cash": read one by id (METRIC_VALUE)', ''],
      ['Dune', 'Cash (last)', '2024-Q2', '2 metrics "Cash": read one by id (METRIC_VALUE)', '2 metrics "Cash": read one by id (METRIC_VALUE)', ''],
    ]);
  });

  it('lists each month for a name without an aggregate, whose value asks for one', () => {
    const { ctx } = context([...listings, cashRead]);
    const table = provenanceTable(ctx, fundDirectory(ctx, FUND), { nameCells: ['Cash'], periods: ['2024-Q1'] });
    expect(table[1]).toEqual([
      'Aurora',
      'Cash',
      '2024-Q1',
      expect.stringMatching(/^3 monthly values: type "Cash \(sum\)"/),
      'user_provided: Entered by Dana',
      `2024-01: ${link(1)}; 2024-02: ${link(2)}; 2024-03: ${link(3)}`,
    ]);
  });
});
