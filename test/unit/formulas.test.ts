// The core formulas against a scripted API: shapes, caching, periods and errors.

import { metricLatest, metricValue, metricValues } from '../../src/core/formulas/metric-formulas';
import { contactLists, metrics, portfolioNotes, portfolioPropertyOptions, portfolioPropertyValues, readableValue } from '../../src/core/formulas/list-formulas';
import { intlDateFormatter } from '../../src/core/validate/dates';
import { MemoryCache } from '../support/memory-cache';
import { scriptedFormulaContext } from '../support/formula-context';
import type { Step } from '../support/scripted-transport';

const COMPANY = '0a000000-0000-4000-8000-000000000001';
const REVENUE = '0b000000-0000-4000-8000-000000000001';
const CHURN = '0b000000-0000-4000-8000-000000000002';
const PROFILE = '0c000000-0000-4000-8000-000000000001';
const TZ = 'America/New_York';

function context(steps: Step[], cache = new MemoryCache()) {
  return scriptedFormulaContext({ steps, cache, timeZone: TZ, defaultCompanyId: COMPANY, allowedCompanyIds: [COMPANY] });
}

const point = (metric_id: string, date: string, value: string | null) => ({ id: `${metric_id}-${date}`, metric_id, date, value });
const page = (key: string, items: unknown[]) => ({
  status: 200,
  body: { [key]: items, meta: { page: 1, total_pages: items.length ? 1 : 0, total: items.length } },
});
const metricsList = page('metrics', [
  { id: REVENUE, name: 'Revenue', frequency: 'monthly', unit: 'USD', company_id: COMPANY, portfolio_company_profile_id: PROFILE },
  { id: CHURN, name: 'Churn', frequency: 'quarterly', unit: 'percent', company_id: COMPANY, portfolio_company_profile_id: null },
]);

/** The access check's listing of the allowed company: every metric formula reads it (once per cache period). */
const listing = { match: `GET /metrics?company_id=${COMPANY}&page=1`, reply: metricsList };
const profilesOfCompany = {
  match: `GET /portfolio_company_profiles?company_id=${COMPANY}&page=1`,
  reply: page('portfolio_company_profiles', [
    {
      id: PROFILE,
      name: 'Acme',
      company_id: COMPANY,
      fiscal_year_end_month: 3,
      website_url: null,
      currency: null,
      primary_contact_id: null,
      created_at: '2020-01-01T00:00:00Z',
    },
  ]),
};

const dateText = (cell: unknown) => intlDateFormatter(cell as Date, TZ);

describe('METRIC_VALUES', () => {
  it('answers oldest first with numbers and blanks, whatever order the API used', () => {
    const { ctx } = context([
      listing,
      {
        match: `GET /data_points?metric_id=${REVENUE}&page_size=100&start_date=2024-01-01&page=1`,
        reply: page('data_points', [point(REVENUE, '2024-03-01', '30.5'), point(REVENUE, '2024-02-01', null), point(REVENUE, '2024-01-01', '10')]),
      },
    ]);
    const rows = metricValues(ctx, REVENUE, '2024-01-01', '', '');
    expect(rows.map((r) => [dateText(r[0]), r[1]])).toEqual([
      ['2024-01-01', 10],
      ['2024-02-01', null],
      ['2024-03-01', 30.5],
    ]);
  });

  it('gives several metrics as one wide table headed by their names, in one request', () => {
    const { ctx, transport } = context([
      {
        match: `GET /data_points?metric_id[]=${REVENUE}&metric_id[]=${CHURN}&page_size=100&page=1`,
        reply: page('data_points', [point(CHURN, '2024-01-01', '2.5'), point(REVENUE, '2024-02-01', '20'), point(REVENUE, '2024-01-01', '10')]),
      },
      { match: `GET /metrics?company_id=${COMPANY}&page=1`, reply: metricsList },
    ]);
    const rows = metricValues(ctx, [[REVENUE], [CHURN]], '', '', '');
    expect(rows[0]).toEqual(['Date', 'Revenue', 'Churn']);
    expect(rows.slice(1).map((r) => [dateText(r[0]), r[1], r[2]])).toEqual([
      ['2024-01-01', 10, 2.5],
      ['2024-02-01', 20, null],
    ]);
    expect(transport.sent).toHaveLength(2);
  });

  it('serves a repeated call from the cache with no request', () => {
    const cache = new MemoryCache();
    const steps = [
      listing,
      { match: `GET /data_points?metric_id=${REVENUE}&page_size=100&page=1`, reply: page('data_points', [point(REVENUE, '2024-01-01', '1')]) },
    ];
    metricValues(context(steps, cache).ctx, REVENUE, '', '', '');
    const second = context([], cache);
    expect(metricValues(second.ctx, REVENUE, '', '', 'text')[0]![1]).toBe('1');
    expect(second.transport.sent).toHaveLength(0);
  });

  it('looks every name of a wide table up in one listing, even when the cache keeps nothing', () => {
    // CacheService may drop an entry as soon as it is put: the listing must not be fetched once per name.
    class ForgetfulCache extends MemoryCache {
      override get(): string | null {
        return null;
      }
    }
    const { ctx, transport } = context(
      [
        {
          match: `GET /data_points?metric_id[]=${REVENUE}&metric_id[]=${CHURN}&page_size=100&page=1`,
          reply: page('data_points', [point(REVENUE, '2024-01-01', '10')]),
        },
        { match: `GET /metrics?company_id=${COMPANY}&page=1`, reply: metricsList },
      ],
      new ForgetfulCache(),
    );
    expect(metricValues(ctx, [[REVENUE], [CHURN]], '', '', '')[0]).toEqual(['Date', 'Revenue', 'Churn']);
    expect(transport.sent.filter((request) => request.url.includes('/metrics'))).toHaveLength(1);
  });

  it('refuses a start after the end, and unknown options', () => {
    const { ctx } = context([]);
    expect(() => metricValues(ctx, REVENUE, '2024-02-01', '2024-01-01', '')).toThrow('The start date 2024-02-01 is after the end date 2024-01-01.');
    expect(() => metricValues(ctx, REVENUE, '', '', 'headrs')).toThrow('Unknown option "headrs". Known options: headers, exclude_blank, text, source.');
    // Words that name Object's own properties are unknown options too, not silently accepted.
    expect(() => metricValues(ctx, REVENUE, '', '', 'constructor')).toThrow('Unknown option "constructor".');
  });
});

describe('METRIC_VALUE', () => {
  const series = {
    match: `GET /data_points?metric_id=${REVENUE}&page_size=100&page=1`,
    reply: page('data_points', [point(REVENUE, '2023-04-01', '4'), point(REVENUE, '2024-03-01', '3'), point(REVENUE, '2024-01-01', null)]),
  };
  const profiles = {
    match: `GET /portfolio_company_profiles?company_id=${COMPANY}&page=1`,
    reply: page('portfolio_company_profiles', [
      {
        id: PROFILE,
        name: 'Acme',
        company_id: COMPANY,
        fiscal_year_end_month: 3,
        website_url: null,
        currency: null,
        primary_contact_id: null,
        created_at: '2020-01-01T00:00:00Z',
      },
    ]),
  };

  it('reads a month label, a Date cell in the spreadsheet time zone, and a blank as an empty cell', () => {
    // The access check reads the default company's listing, which also gives the metric's frequency.
    const { ctx } = context([series, listing]);
    expect(metricValue(ctx, REVENUE, '2024-03')).toBe(3);
    expect(metricValue(ctx, REVENUE, new Date('2024-03-01T05:00:00Z'))).toBe(3);
    expect(metricValue(ctx, REVENUE, '2024-01')).toBe('');
  });

  it("follows the profile's fiscal year for FY labels, which a monthly metric reads only with an aggregate", () => {
    const { ctx } = context([series, { match: `GET /metrics?company_id=${COMPANY}&page=1`, reply: metricsList }, profiles]);
    expect(() => metricValue(ctx, REVENUE, 'FY2024')).toThrow(
      '"FY2024" is fiscal year 2024 (ending in March), longer than one period of "Revenue", a monthly metric. Give an aggregate as the third argument to combine its monthly values: "sum", "average", "first" or "last"; or give a label of one monthly period, like 2023-04.',
    );
    expect(metricValue(ctx, REVENUE, 'FY2024', 'first')).toBe(4); // March year end: FY2024 starts April 2023
    expect(metricValue(ctx, REVENUE, 'FY2024', 'LAST')).toBe(3); // and ends in March 2024
    expect(metricValue(ctx, REVENUE, 'FY2024', 'sum')).toBe(''); // most of its months have no point: never a partial sum
  });

  it('leaves a blank cell of a range blank, but refuses a blank period given alone', () => {
    const { ctx } = context([series, listing]);
    expect(metricValue(ctx, [[REVENUE], ['']], '2024-03')).toEqual([[3], ['']]);
    expect(() => metricValue(ctx, [[REVENUE]], '')).toThrow('The period is missing');
  });

  it('says when a date does not start a period of the metric', () => {
    const { ctx } = context([series, { match: `GET /metrics?company_id=${COMPANY}&page=1`, reply: metricsList }]);
    expect(() => metricValue(ctx, REVENUE, '2024-03-31')).toThrow('2024-03-31 does not start a monthly period of "Revenue": its period starts on 2024-03-01.');
  });

  it('fills a grid from a column of ids and a row of periods with one fetch per metric', () => {
    const { ctx, transport } = context([
      series,
      { match: `GET /data_points?metric_id=${CHURN}&page_size=100&page=1`, reply: page('data_points', [point(CHURN, '2024-01-01', '1.5')]) },
      { match: `GET /metrics?company_id=${COMPANY}&page=1`, reply: metricsList },
    ]);
    // "last" of a quarter is March for the monthly metric, and the quarter itself for the quarterly one.
    expect(metricValue(ctx, [[REVENUE], [CHURN]], [['2024-Q1', '2023-04-01']], 'last')).toEqual([
      [3, 4],
      [1.5, ''],
    ]);
    // One series per metric, plus one listing of the company's metrics to tell a missing point from a wrong date.
    expect(transport.sent).toHaveLength(3);
  });

  it('fails the whole grid, with the reason, when one period cannot start a period of its metric', () => {
    const { ctx } = context([
      series,
      { match: `GET /data_points?metric_id=${CHURN}&page_size=100&page=1`, reply: page('data_points', [point(CHURN, '2024-01-01', '1.5')]) },
      { match: `GET /metrics?company_id=${COMPANY}&page=1`, reply: metricsList },
    ]);
    expect(() => metricValue(ctx, [[REVENUE], [CHURN]], [['2024-03']])).toThrow(
      '2024-03-01 does not start a quarterly period of "Churn": its period starts on 2024-01-01.',
    );
  });
});

describe('METRIC_LATEST', () => {
  it('skips blanks and later dates, and can give the date too', () => {
    const { ctx } = context([
      listing,
      {
        match: `GET /data_points?metric_id=${REVENUE}&page_size=100&page=1`,
        reply: page('data_points', [point(REVENUE, '2024-05-01', null), point(REVENUE, '2024-04-01', '7'), point(REVENUE, '2024-09-01', '9')]),
      },
    ]);
    expect(metricLatest(ctx, REVENUE, '', '')).toBe(7); // today is 2024-07-15
    const [[date, value]] = metricLatest(ctx, REVENUE, '2024-12-31', 'with_date') as unknown[][] as [[Date, number]];
    expect([dateText(date), value]).toEqual(['2024-09-01', 9]);
  });
});

describe('PORTFOLIO_PROPERTY_VALUES', () => {
  it('shows labels, joined lists, booleans and dates as a person reads them', () => {
    expect(readableValue(['Seed', 'Series A'], 'multiselect', TZ)).toBe('Seed, Series A');
    expect(readableValue('true', 'boolean', TZ)).toBe(true);
    expect(readableValue(12.5, 'number', TZ)).toBe(12.5);
    expect(dateText(readableValue('2024-02-29', 'date', TZ))).toBe('2024-02-29');
    expect(readableValue('=IMPORTXML("http://x","//a")', 'string', TZ)).toBe('=IMPORTXML("http://x","//a")');
    expect(readableValue(null, 'string', TZ)).toBe('');
  });

  it('needs the fund for property names, and takes the default company', () => {
    const { ctx } = context([
      profilesOfCompany,
      {
        match: `GET /portfolio_properties?company_id=${COMPANY}&page=1`,
        reply: page('portfolio_properties', [{ id: 'p1', name: 'Stage', data_type: 'select', company_id: COMPANY }]),
      },
      {
        match: `GET /portfolio_property_values?portfolio_company_profile_id=${PROFILE}&page=1`,
        reply: page('portfolio_property_values', [
          {
            id: 'v',
            value: 'Seed',
            portfolio_property_id: 'p1',
            portfolio_company_profile_id: PROFILE,
            portfolio_property_option_id: 'o',
            portfolio_property_option_ids: ['o'],
          },
        ]),
      },
    ]);
    expect(portfolioPropertyValues(ctx, PROFILE, '')).toEqual([
      ['Property', 'Value', 'Data type', 'Property id'],
      ['Stage', 'Seed', 'select', 'p1'],
    ]);
  });
});

describe('rich text values', () => {
  it('are plain text with their line breaks, tags dropped and entities decoded', () => {
    expect(readableValue('<p>First line &amp; more</p>\n<p>Second <b>line</b><br>third</p><ul><li>One</li><li>Two &lt;3&#33;</li></ul>', 'rich_text', TZ)).toBe(
      'First line & more\nSecond line\nthird\n• One\n• Two <3!',
    );
    expect(readableValue('<p>=SUM(A1)</p>', 'rich_text', TZ)).toBe('=SUM(A1)');
    expect(readableValue('plain &nbsp; text', 'rich_text', TZ)).toBe('plain text');
    // An entity named like one of Object's own properties is left as written, never a function's source.
    expect(readableValue('<p>a &constructor; b &toString;</p>', 'rich_text', TZ)).toBe('a &constructor; b &toString;');
  });
});

describe("METRIC_VALUE over a period longer than the metric's", () => {
  const WEEKLY = '0b000000-0000-4000-8000-000000000003';
  const list = {
    match: `GET /metrics?company_id=${COMPANY}&page=1`,
    reply: page('metrics', [
      { id: REVENUE, name: 'Revenue', frequency: 'monthly', unit: 'USD', company_id: COMPANY, portfolio_company_profile_id: null },
      { id: CHURN, name: 'Churn', frequency: 'quarterly', unit: 'percent', company_id: COMPANY, portfolio_company_profile_id: null },
      { id: WEEKLY, name: 'Signups', frequency: 'weekly', unit: 'number', company_id: COMPANY, portfolio_company_profile_id: null },
    ]),
  };
  const months = {
    match: `GET /data_points?metric_id=${REVENUE}&page_size=100&page=1`,
    reply: page('data_points', [
      point(REVENUE, '2024-01-01', '141.6666666666666'),
      point(REVENUE, '2024-02-01', '0.1'),
      point(REVENUE, '2024-03-01', '0.2'),
      point(REVENUE, '2024-04-01', '1'),
      point(REVENUE, '2024-05-01', null),
      point(REVENUE, '2024-06-01', '3'),
    ]),
  };

  it('sums exactly from the decimal text, and averages the exact sum', () => {
    const { ctx } = context([months, list]);
    // 141.6666666666666 + 0.1 + 0.2 = 141.9666666666666 exactly; adding the doubles gives 141.96666666666658.
    expect(141.6666666666666 + 0.1 + 0.2).not.toBe(141.9666666666666);
    expect(metricValue(ctx, REVENUE, '2024-Q1', 'sum')).toBe(141.9666666666666);
    expect(metricValue(ctx, REVENUE, '2024-Q1', 'Average')).toBe(Number('47.32222222222220'));
    expect(metricValue(ctx, REVENUE, '2024-Q1', 'first')).toBe(141.6666666666666);
  });

  it('gives an empty cell when a month is blank, for sum and average, and for last when the last month is', () => {
    const { ctx } = context([months, list]);
    expect(metricValue(ctx, REVENUE, '2024-Q2', 'sum')).toBe('');
    expect(metricValue(ctx, REVENUE, '2024-Q2', 'average')).toBe('');
    expect(metricValue(ctx, REVENUE, '2024-Q2', 'first')).toBe(1);
    expect(metricValue(ctx, REVENUE, '2024-Q2', 'last')).toBe(3);
    expect(metricValue(ctx, REVENUE, '2024-Q3', 'last')).toBe(''); // no point at all
  });

  it("gives an empty cell for last when the last month is blank, and for first when the first is, never a neighbour's value", () => {
    const blankEnds = {
      match: `GET /data_points?metric_id=${REVENUE}&page_size=100&page=1`,
      reply: page('data_points', [
        point(REVENUE, '2024-01-01', '1'),
        point(REVENUE, '2024-02-01', '2'),
        point(REVENUE, '2024-03-01', null),
        point(REVENUE, '2024-04-01', null),
        point(REVENUE, '2024-05-01', '5'),
        point(REVENUE, '2024-06-01', '6'),
      ]),
    };
    const { ctx } = context([blankEnds, list]);
    expect([metricValue(ctx, REVENUE, '2024-Q1', 'first'), metricValue(ctx, REVENUE, '2024-Q1', 'last')]).toEqual([1, '']);
    expect([metricValue(ctx, REVENUE, '2024-Q2', 'first'), metricValue(ctx, REVENUE, '2024-Q2', 'last')]).toEqual(['', 6]);
  });

  it("returns the period's own value when the aggregate is given with a label of the metric's own period", () => {
    const { ctx } = context([months, list]);
    for (const how of ['sum', 'average', 'first', 'last']) expect(metricValue(ctx, REVENUE, '2024-01', how)).toBe(141.6666666666666);
    expect(metricValue(ctx, REVENUE, '2024-05', 'sum')).toBe('');
  });

  it('refuses an unknown aggregate, listing the four, before any request', () => {
    const { ctx, transport } = context([]);
    expect(() => metricValue(ctx, REVENUE, '2024-Q1', 'total')).toThrow('Unknown aggregate "total": use "sum", "average", "first" or "last".');
    expect(() => metricValue(ctx, REVENUE, '2024-Q1', [['sum']])).toThrow('The aggregate must be one cell, not a range');
    expect(transport.sent).toHaveLength(0);
  });

  it('counts the weeks that start inside a month', () => {
    // March 2024: Mondays 4, 11, 18, 25; the week of 26 February ends in March but started in February.
    const weeks = {
      match: `GET /data_points?metric_id=${WEEKLY}&page_size=100&page=1`,
      reply: page('data_points', [
        point(WEEKLY, '2024-02-26', '1000'),
        point(WEEKLY, '2024-03-04', '1'),
        point(WEEKLY, '2024-03-11', '2'),
        point(WEEKLY, '2024-03-18', '3'),
        point(WEEKLY, '2024-03-25', '4'),
        point(WEEKLY, '2024-04-01', '2000'),
      ]),
    };
    const { ctx } = context([weeks, list]);
    expect(metricValue(ctx, WEEKLY, '2024-03', 'sum')).toBe(10);
    expect(metricValue(ctx, WEEKLY, '2024-03', 'first')).toBe(1);
    expect(metricValue(ctx, WEEKLY, '2024-03', 'last')).toBe(4);
    expect(() => metricValue(ctx, WEEKLY, '2024-03')).toThrow(
      '"2024-03" is the month 2024-03, longer than one period of "Signups", a weekly metric. Give an aggregate as the third argument to combine its weekly values: "sum", "average", "first" or "last"; or give a label of one weekly period, like 2024-03-04.',
    );
  });

  it('refuses a year of a quarterly metric without an aggregate, naming its frequency and the choices', () => {
    const quarters = {
      match: `GET /data_points?metric_id=${CHURN}&page_size=100&page=1`,
      reply: page(
        'data_points',
        ['01', '04', '07', '10'].map((m, i) => point(CHURN, `2024-${m}-01`, String(i + 1))),
      ),
    };
    const { ctx } = context([quarters, list]);
    expect(() => metricValue(ctx, CHURN, 'FY2024')).toThrow(
      /^"FY2024" is fiscal year 2024, longer than one period of "Churn", a quarterly metric\. .*"sum", "average", "first" or "last"; or give a label of one quarterly period, like 2024-Q1\.$/,
    );
    expect(metricValue(ctx, CHURN, 'FY2024', 'sum')).toBe(10);
    expect(metricValue(ctx, CHURN, 'FY2024', 'last')).toBe(4);
    expect(metricValue(ctx, CHURN, '2024-Q3', 'sum')).toBe(3);
  });

  it('refuses a longer label of a metric whose frequency the add-in does not know, even with an aggregate', () => {
    // Enums grow: a frequency the add-in does not know (say "biweekly") has periods it cannot count.
    const odd = {
      match: `GET /metrics?company_id=${COMPANY}&page=1`,
      reply: page('metrics', [{ id: REVENUE, name: 'Revenue', frequency: 'biweekly', unit: 'USD', company_id: COMPANY, portfolio_company_profile_id: null }]),
    };
    const { ctx } = context([months, odd]);
    const refusal =
      '"2024-Q1" is calendar quarter 1 of 2024, and "Revenue" has the frequency "biweekly", which the add-in cannot divide periods by (judging by its data its points fall on the first of each month). Give the date of one of its data points.';
    expect(() => metricValue(ctx, REVENUE, '2024-Q1')).toThrow(refusal);
    expect(() => metricValue(ctx, REVENUE, '2024-Q1', 'sum')).toThrow(refusal);
    expect(metricValue(ctx, REVENUE, '2024-02')).toBe(0.1);
  });
});

describe('list functions that have nothing to list', () => {
  const NUMBER_PROPERTY = '0d000000-0000-4000-8000-000000000001';
  const SELECT_PROPERTY = '0d000000-0000-4000-8000-000000000002';
  const properties = {
    match: `GET /portfolio_properties?company_id=${COMPANY}&page=1`,
    reply: page('portfolio_properties', [
      { id: NUMBER_PROPERTY, name: 'ARR', data_type: 'number', company_id: COMPANY },
      { id: SELECT_PROPERTY, name: 'Stage', data_type: 'select', company_id: COMPANY },
    ]),
  };
  const noOptions = (property: string, label = '') => ({
    match: `GET /portfolio_property_options?portfolio_property_id=${property}${label ? `&label=${label}` : ''}`,
    reply: { status: 200, body: { portfolio_property_options: [] } },
  });

  it('PORTFOLIO_PROPERTY_OPTIONS says a number property has no options', () => {
    const { ctx } = context([noOptions(NUMBER_PROPERTY), properties]);
    expect(portfolioPropertyOptions(ctx, NUMBER_PROPERTY, '')).toEqual([
      ['Label', 'Id'],
      ['No options: "ARR" is a number property, and only select and multiselect properties have options.', ''],
    ]);
  });

  it('PORTFOLIO_PROPERTY_OPTIONS says no option has the label asked for', () => {
    const { ctx } = context([noOptions(SELECT_PROPERTY, 'Series Z'), properties]);
    expect(portfolioPropertyOptions(ctx, SELECT_PROPERTY, 'Series Z')).toEqual([
      ['Label', 'Id'],
      ['No options: "Stage" has no option labelled "Series Z".', ''],
    ]);
  });

  it('the other lists say what is empty, under their header row', () => {
    const { ctx } = context([
      { match: `GET /metrics?company_id=${COMPANY}&page=1`, reply: page('metrics', []) },
      { match: `GET /contact_lists?company_id=${COMPANY}&page=1`, reply: page('contact_lists', []) },
      // The access check finds the profile in the allowed fund's profile list first.
      profilesOfCompany,
      { match: `GET /portfolio_notes?portfolio_company_profile_id=${PROFILE}&page=1`, reply: page('portfolio_notes', []) },
    ]);
    expect(metrics(ctx, COMPANY, '')).toEqual([
      ['Name', 'Id', 'Frequency', 'Unit', 'Portfolio company profile id'],
      ['No metrics: this company has none yet.', '', '', '', ''],
    ]);
    expect(contactLists(ctx, COMPANY)).toEqual([
      ['Name', 'Id'],
      ['No contact lists: this company has none yet.', ''],
    ]);
    expect(portfolioNotes(ctx, PROFILE)).toEqual([
      ['Name', 'Content', 'Created at', 'Id'],
      ['No portfolio notes: this portfolio company has none yet.', '', '', ''],
    ]);
  });
});
