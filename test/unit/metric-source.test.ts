// Provenance in cells: METRIC_VALUES(…, "source") and METRIC_SOURCE against a scripted API, and the
// series cache that keeps a series with sources apart from one without.

import { metricSource, metricValue, metricValues } from '../../src/core/formulas/metric-formulas';
import { sourceCells } from '../../src/core/sheets/source-cells';
import { latestValues, safeAppUrl } from '../../src/core/series/latest-values';
import { intlDateFormatter } from '../../src/core/validate/dates';
import { MemoryCache } from '../support/memory-cache';
import { scriptedFormulaContext } from '../support/formula-context';
import type { Step } from '../support/scripted-transport';

const COMPANY = '0a000000-0000-4000-8000-000000000001';
const REVENUE = '0b000000-0000-4000-8000-000000000001';
const CHURN = '0b000000-0000-4000-8000-000000000002';
const TZ = 'Europe/Berlin';

function context(steps: Step[], cache = new MemoryCache()) {
  return scriptedFormulaContext({ steps, cache, timeZone: TZ, defaultCompanyId: COMPANY, allowedCompanyIds: [COMPANY] });
}

const page = (key: string, items: unknown[]) => ({
  status: 200,
  body: { [key]: items, meta: { page: 1, total_pages: items.length ? 1 : 0, total: items.length } },
});
const listing = {
  match: `GET /metrics?company_id=${COMPANY}&page=1`,
  reply: page('metrics', [
    { id: REVENUE, name: 'Revenue', frequency: 'monthly', unit: 'USD', company_id: COMPANY, portfolio_company_profile_id: null },
    { id: CHURN, name: 'Churn', frequency: 'quarterly', unit: 'percent', company_id: COMPANY, portfolio_company_profile_id: null },
  ]),
};
const link = (n: number) => `https://app.test/data_points/${n}`;
const sourced = [
  { id: 'p1', metric_id: REVENUE, date: '2024-02-01', value: '20', source: { source_type: 'ai_inbox', label: 'AI inbox: board-pack.pdf', app_url: link(2) } },
  { id: 'p2', metric_id: REVENUE, date: '2024-01-01', value: '10', source: { source_type: 'user_provided', label: 'Entered by Dana', app_url: link(1) } },
  { id: 'p3', metric_id: REVENUE, date: '2024-03-01', value: null, source: { source_type: 'unknown', label: 'Unknown source' } },
  { id: 'p4', metric_id: REVENUE, date: '2024-04-01', value: '40', source: { source_type: 'integration', label: 'Synced', app_url: link(4) } },
];
const plain = sourced.map(({ source: _source, ...rest }) => rest);
const revenueWithSources = { match: `GET /data_points?metric_id=${REVENUE}&page_size=100&include_source=true&page=1`, reply: page('data_points', sourced) };
const revenuePlain = { match: `GET /data_points?metric_id=${REVENUE}&page_size=100&page=1`, reply: page('data_points', plain) };
const dateText = (cell: unknown) => intlDateFormatter(cell as Date, TZ);

describe('the source cells', () => {
  it('marks ai_inbox for review, keeps types the document does not list, and leaves a missing source blank', () => {
    expect(sourceCells({ source_type: 'ai_inbox', label: 'AI inbox: x.pdf', app_url: link(1) })).toEqual(['ai_inbox (review)', 'AI inbox: x.pdf', link(1)]);
    expect(sourceCells({ source_type: 'update_request', label: 'Update request: KPIs' })).toEqual(['update_request', 'Update request: KPIs', null]);
    expect(sourceCells({ source_type: 'integration', label: 'Synced', app_url: link(2) })).toEqual(['integration', 'Synced', link(2)]);
    expect(sourceCells(undefined)).toEqual([null, null, null]);
  });
});

describe('METRIC_VALUES with "source"', () => {
  it('asks with include_source=true and puts type, label and link beside each value, under a header row', () => {
    const { ctx, transport } = context([listing, revenueWithSources]);
    const rows = metricValues(ctx, REVENUE, '', '', 'source');
    expect(rows[0]).toEqual(['Date', 'Revenue', 'Revenue source type', 'Revenue source label', 'Revenue source link']);
    expect(rows.slice(1).map(([date, ...rest]) => [dateText(date), ...rest])).toEqual([
      ['2024-01-01', 10, 'user_provided', 'Entered by Dana', link(1)],
      ['2024-02-01', 20, 'ai_inbox (review)', 'AI inbox: board-pack.pdf', link(2)],
      ['2024-03-01', null, 'unknown', 'Unknown source', null],
      ['2024-04-01', 40, 'integration', 'Synced', link(4)],
    ]);
    transport.assertDone();
  });

  it('gives each metric of a wide table its four columns, blank where the metric has no point that day', () => {
    const both = [
      {
        id: 'c1',
        metric_id: CHURN,
        date: '2024-01-01',
        value: '2.5',
        source: { source_type: 'update_request', label: 'Update request: Q1', app_url: link(9) },
      },
      sourced[1],
      sourced[0],
    ];
    const { ctx } = context([
      { match: `GET /data_points?metric_id[]=${REVENUE}&metric_id[]=${CHURN}&page_size=100&include_source=true&page=1`, reply: page('data_points', both) },
      listing,
    ]);
    const rows = metricValues(ctx, [[REVENUE], [CHURN]], '', '', 'source, text');
    expect(rows[0]).toEqual([
      'Date',
      'Revenue',
      'Revenue source type',
      'Revenue source label',
      'Revenue source link',
      'Churn',
      'Churn source type',
      'Churn source label',
      'Churn source link',
    ]);
    expect(rows.slice(1).map(([date, ...rest]) => [dateText(date), ...rest])).toEqual([
      ['2024-01-01', '10', 'user_provided', 'Entered by Dana', link(1), '2.5', 'update_request', 'Update request: Q1', link(9)],
      ['2024-02-01', '20', 'ai_inbox (review)', 'AI inbox: board-pack.pdf', link(2), null, null, null, null],
    ]);
  });

  it('keeps the header row and its width when the range holds no point', () => {
    const { ctx } = context([
      listing,
      { match: `GET /data_points?metric_id=${REVENUE}&page_size=100&start_date=2030-01-01&include_source=true&page=1`, reply: page('data_points', []) },
    ]);
    const rows = metricValues(ctx, REVENUE, '2030-01-01', '', 'source');
    expect(rows).toEqual([
      ['Date', 'Revenue', 'Revenue source type', 'Revenue source label', 'Revenue source link'],
      ['No data points from 2030-01-01 on.', '', '', '', ''],
    ]);
  });

  it('caches the sourced series apart: a plain table after a sourced one asks again without include_source, and each repeats from its own entry', () => {
    const cache = new MemoryCache();
    const first = context([listing, revenueWithSources], cache);
    metricValues(first.ctx, REVENUE, '', '', 'source');
    const second = context([revenuePlain], cache);
    expect(metricValues(second.ctx, REVENUE, '', '', '').map((row) => row.length)).toEqual([2, 2, 2, 2]);
    second.transport.assertDone();
    const third = context([], cache);
    expect(metricValues(third.ctx, REVENUE, '', '', 'source')[2]!.slice(1)).toEqual([20, 'ai_inbox (review)', 'AI inbox: board-pack.pdf', link(2)]);
    expect(metricValues(third.ctx, REVENUE, '', '', '')[1]![1]).toBe(20);
    expect(third.transport.sent).toHaveLength(0);
  });
});

describe('METRIC_SOURCE', () => {
  it('gives one row of type, label and link, from one sourced series every cell of the metric shares', () => {
    const cache = new MemoryCache();
    const { ctx, transport } = context([listing, revenueWithSources], cache);
    expect(metricSource(ctx, REVENUE, '2024-02')).toEqual([['ai_inbox (review)', 'AI inbox: board-pack.pdf', link(2)]]);
    expect(metricSource(ctx, REVENUE, '2024-01-01')).toEqual([['user_provided', 'Entered by Dana', link(1)]]);
    expect(metricSource(ctx, REVENUE, new Date(Date.UTC(2024, 1, 29, 23)))).toEqual([['unknown', 'Unknown source', '']]);
    expect(transport.sent).toHaveLength(2);
  });

  it('does not serve METRIC_VALUE from the sourced entry, nor the other way round', () => {
    const cache = new MemoryCache();
    const { ctx, transport } = context([listing, revenuePlain, revenueWithSources], cache);
    expect(metricValue(ctx, REVENUE, '2024-02')).toBe(20);
    expect(metricSource(ctx, REVENUE, '2024-02')).toEqual([['ai_inbox (review)', 'AI inbox: board-pack.pdf', link(2)]]);
    transport.assertDone();
  });

  it('leaves a period without a point blank, and refuses a date no period starts on, a longer label and a range', () => {
    const { ctx } = context([listing, revenueWithSources]);
    expect(metricSource(ctx, REVENUE, '2024-06')).toEqual([['', '', '']]);
    expect(() => metricSource(ctx, REVENUE, '2024-06-15')).toThrow('2024-06-15 does not start a monthly period of "Revenue": its period starts on 2024-06-01.');
    expect(() => metricSource(ctx, REVENUE, '2024-Q1')).toThrow(
      '"2024-Q1" is calendar quarter 1 of 2024, longer than one period of "Revenue", a monthly metric, and each of its periods has its own source. Give a label of one monthly period, like 2024-01.',
    );
    expect(() => metricSource(ctx, REVENUE, [['2024-01']])).toThrow('The period must be one cell, not a range.');
  });
});

describe("the metric browser's latest values", () => {
  it("takes each metric's newest non-blank point, in the order asked, and passes only https links to the page", () => {
    const points = [
      { id: '1', metric_id: REVENUE, date: '2024-01-01', value: '10', source: { source_type: 'ai_inbox', label: 'AI inbox: a.pdf', app_url: link(1) } },
      { id: '2', metric_id: REVENUE, date: '2024-02-01', value: '', source: { source_type: 'user_provided', label: 'Blank' } },
      { id: '3', metric_id: CHURN, date: '2024-01-01', value: '2.5', source: { source_type: 'user_provided', label: 'Dana', app_url: 'javascript:alert(1)' } },
    ];
    expect(latestValues(points, [CHURN, REVENUE, COMPANY])).toEqual([
      { metricId: CHURN, date: '2024-01-01', value: '2.5', source: { type: 'user_provided', label: 'Dana', link: null, review: false } },
      { metricId: REVENUE, date: '2024-01-01', value: '10', source: { type: 'ai_inbox (review)', label: 'AI inbox: a.pdf', link: link(1), review: true } },
      { metricId: COMPANY, date: null, value: null, source: null },
    ]);
    expect(['http://app.test/x', 'data:text/html,x', 'https://', 'https://app.test/ok'].map((url) => safeAppUrl(url))).toEqual([
      null,
      null,
      null,
      'https://app.test/ok',
    ]);
  });
});
