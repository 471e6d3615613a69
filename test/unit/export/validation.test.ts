// Every validation case of the exporter, with its exact reason: nothing invalid is ever planned.

import { BLANK_REFUSED } from '../../../src/core/export/validate';
import { AUDITED, dateCell, HEADCOUNT, longSpec, outcomes, PARTNERS, prepare, REVENUE, SIGNUPS, TZ, USERS } from './export-fixtures';

/** The single item of a one-row long export of `metricId`. */
function one(date: unknown, value: unknown, metricId = REVENUE, overrides = {}) {
  const state = prepare([[date, value]], longSpec({ metricId, ...overrides }));
  expect(state.items).toHaveLength(1);
  return state.items[0]!;
}

describe('dates', () => {
  it('reads a Date cell as the day it shows in the spreadsheet time zone', () => {
    // Midnight of 1 March in New York is 05:00 UTC: read in UTC it would still be 1 March, but 23:30 on
    // 29 February in New York would not, which is why the time zone is passed in.
    expect(one(dateCell('2024-03-01'), 10)).toMatchObject({ outcome: 'pending', date: '2024-03-01', value: '10' });
    expect(one(new Date('2024-03-01T04:30:00Z'), 10, USERS)).toMatchObject({ outcome: 'pending', date: '2024-02-29' });
  });

  it('accepts YYYY-MM-DD text with stray spaces', () => {
    expect(one(' 2024-03-01 ', '5')).toMatchObject({ outcome: 'pending', date: '2024-03-01', value: '5' });
  });

  it.each([
    ['01/03/2024', 'the date must be a date cell or text like 2024-01-31, but it is "01/03/2024"'],
    ['2024-02-30', 'the date must be a date cell or text like 2024-01-31, but it is "2024-02-30"'],
    [45000, 'the date must be a date cell or text like 2024-01-31, but it is the number 45000'],
    [true, 'the date must be a date cell or text like 2024-01-31, but it is true'],
    ['', 'the date is empty: give a date cell or text like 2024-01-31'],
    [new Date(NaN), 'the date is not a valid date'],
    ['#REF!', 'the date cell shows the error #REF!'],
    ['Loading...', 'the date cell shows "Loading…" (a custom function is still calculating): wait until it shows its value, then run this again'],
    ['0024-01-01', 'the date "0024-01-01" is out of range: use a year from 1000 to 9999'],
  ])('refuses the date %p: %s', (date, reason) => {
    expect(one(date, 1)).toMatchObject({ outcome: 'failed', reason });
  });

  it('refuses a cell that holds only a time of day', () => {
    const nineAm = new Date(dateCell('1899-12-30').getTime() + 9 * 3600_000);
    expect(one(nineAm, 1, USERS)).toMatchObject({ outcome: 'failed', reason: 'the date cell holds only a time of day, not a date' });
  });
});

describe('values', () => {
  it.each([
    [1234.5, '1234.5'],
    [0.1 + 0.2, '0.30000000000000004'],
    [1e21, '1000000000000000000000'],
    [-0, '0'],
    [-12, '-12'],
    [' 12.50 ', '12.50'],
    ['1e3', '1000'],
    ['-0.000', '0.000'],
  ])('sends %p as the exact decimal %p', (value, decimal) => {
    expect(one('2024-03-01', value)).toMatchObject({ outcome: 'pending', value: decimal });
  });

  it.each([
    ['1,234', 'the value must be a number or decimal text like 1234.5, but it is "1,234"'],
    ['$5', 'the value must be a number or decimal text like 1234.5, but it is "$5"'],
    [true, 'the value must be a number, but it is the boolean true'],
    [NaN, 'the value is not a finite number'],
    [Infinity, 'the value is not a finite number'],
    ['#N/A', 'the cell shows the error #N/A'],
    ['#DIV/0!', 'the cell shows the error #DIV/0!'],
    ['#REF!', 'the cell shows the error #REF!'],
    ['#ERROR!', 'the cell shows the error #ERROR!'],
    ['Loading…', 'the cell shows "Loading…" (a custom function is still calculating): wait until it shows its value, then run this again'],
    [dateCell('2024-01-01'), 'the value is a date, not a number'],
  ])('refuses the value %p: %s', (value, reason) => {
    expect(one('2024-03-01', value)).toMatchObject({ outcome: 'failed', reason });
  });

  it('skips blank values by default, with the reason', () => {
    const state = prepare(
      [
        ['2024-03-01', ''],
        ['2024-04-01', '   '],
        ['2024-05-01', null],
      ],
      longSpec(),
    );
    expect(outcomes(state)).toEqual([
      ['skipped', 'blank value'],
      ['skipped', 'blank value'],
      ['skipped', 'blank value'],
    ]);
  });

  it('fails blank values when blanks are not to be skipped', () => {
    expect(one('2024-03-01', '', REVENUE, { skipBlanks: false })).toMatchObject({ outcome: 'failed', reason: BLANK_REFUSED });
    expect(BLANK_REFUSED).toBe('blank value: the API cannot store a blank, and this export does not skip blanks');
  });
});

describe('calendar periods', () => {
  it.each([
    [REVENUE, '2024-03-15', '2024-03-15 is not the start of a monthly period: use 2024-03-01'],
    [SIGNUPS, '2024-03-13', '2024-03-13 is not the start of a weekly period (weeks start on Monday): use 2024-03-11'],
    [HEADCOUNT, '2024-05-01', '2024-05-01 is not the start of a quarterly period (quarters start on 1 January, April, July and October): use 2024-04-01'],
    [AUDITED, '2024-02-01', '2024-02-01 is not the start of an annual period (years start on 1 January): use 2024-01-01'],
  ])('refuses a date of %s that does not start its period, naming the right one', (metricId, date, reason) => {
    expect(one(date, 1, metricId)).toMatchObject({ outcome: 'failed', reason });
  });

  it('moves an off-period date to its period start when asked, and says so', () => {
    expect(one('2024-03-15', 1, REVENUE, { offPeriod: 'normalise' })).toMatchObject({
      outcome: 'pending',
      date: '2024-03-01',
      note: '2024-03-15 moved to 2024-03-01, the start of its monthly period',
    });
  });

  it('treats two dates normalised onto one period start as duplicates', () => {
    const state = prepare(
      [
        ['2024-03-15', 1],
        ['2024-03-20', 2],
      ],
      longSpec({ offPeriod: 'normalise' }),
    );
    expect(outcomes(state)).toEqual([
      ['failed', 'duplicate date 2024-03-01, also in row 2'],
      ['failed', 'duplicate date 2024-03-01, also in row 1'],
    ]);
    expect(state.batches).toEqual([]);
  });

  it('accepts any day of a daily metric', () => {
    expect(one('2024-03-13', 1, USERS)).toMatchObject({ outcome: 'pending', date: '2024-03-13' });
  });

  it('sends dates of an unknown frequency unchecked, with a note', () => {
    expect(one('2024-03-13', 1, PARTNERS)).toMatchObject({
      outcome: 'pending',
      date: '2024-03-13',
      note: 'the metric\'s frequency "fortnightly" is unknown to the add-in, so the date was not checked against its periods',
    });
  });
});

describe('duplicate dates', () => {
  const rows = [
    ['2024-03-01', 1],
    ['2024-04-01', 2],
    [dateCell('2024-03-01'), 3],
    ['2024-03-01', 4],
  ];

  it('fails every duplicate, naming the other rows, when duplicates are refused', () => {
    const state = prepare(rows, longSpec(), { origin: { row: 5, column: 2 } });
    // The range starts at sheet row 5, so its rows are named 5 to 8.
    expect(outcomes(state)).toEqual([
      ['failed', 'duplicate date 2024-03-01, also in rows 7 and 8'],
      ['pending', undefined],
      ['failed', 'duplicate date 2024-03-01, also in rows 5 and 8'],
      ['failed', 'duplicate date 2024-03-01, also in rows 5 and 7'],
    ]);
  });

  it('sends only the last when the last one wins, the others naming it', () => {
    const state = prepare(rows, longSpec({ duplicates: 'last_wins' }));
    expect(outcomes(state)).toEqual([
      ['skipped', 'duplicate date 2024-03-01: row 4 wins'],
      ['pending', undefined],
      ['skipped', 'duplicate date 2024-03-01: row 4 wins'],
      ['pending', undefined],
    ]);
    expect(state.batches.map((batch) => batch.items)).toEqual([[1, 3]]);
  });

  it('lets an invalid row not count as a duplicate of a valid one', () => {
    const state = prepare(
      [
        ['2024-03-01', 'n/a'],
        ['2024-03-01', 4],
      ],
      longSpec(),
    );
    expect(outcomes(state)).toEqual([
      ['failed', 'the value must be a number or decimal text like 1234.5, but it is "n/a"'],
      ['pending', undefined],
    ]);
  });
});

describe('the metric and the shape of the range', () => {
  it('fails every item of a long export whose metric id is not a UUID', () => {
    const state = prepare(
      [
        ['2024-03-01', 1],
        ['2024-04-01', 2],
      ],
      longSpec({ metricId: '12345' }),
    );
    const reason = 'the metric id "12345" is not a UUID (ids look like 123e4567-e89b-12d3-a456-426614174000)';
    expect(outcomes(state)).toEqual([
      ['failed', reason],
      ['failed', reason],
    ]);
    expect(state.status).toBe('done');
  });

  it("fails every item of a metric that is not among the company's metrics", () => {
    const unknown = '0b000000-0000-4000-8000-0000000000ff';
    expect(one('2024-03-01', 1, unknown)).toMatchObject({ outcome: 'failed', reason: `the metric ${unknown} is not one of this company's metrics` });
  });

  it('accepts the metric id in any case with stray spaces', () => {
    const state = prepare([['2024-03-01', 1]], longSpec({ metricId: ` ${REVENUE.toUpperCase()} ` }));
    expect(state.metrics.map((m) => m.id)).toEqual([REVENUE]);
    expect(state.items[0]).toMatchObject({ outcome: 'pending' });
  });

  it('refuses a long range that is not two columns, and a long export without a metric', () => {
    expect(() => prepare([['2024-03-01', 1, 2]], longSpec())).toThrow(
      'The long layout reads two columns, dates then values, but the range has 3. Select just those two columns.',
    );
    expect(() => prepare([['2024-03-01', 1]], longSpec({ metricId: '' }))).toThrow('Choose the metric the values belong to.');
  });

  it('reads past the header row and does not count empty rows as items', () => {
    const state = prepare(
      [
        ['Date', 'Revenue'],
        ['2024-03-01', 1],
        ['', ''],
        [null, '  '],
        ['2024-04-01', 2],
      ],
      longSpec({ hasHeaderRow: true }),
    );
    expect(state.items.map((item) => item.row)).toEqual([2, 5]);
    expect(state).toMatchObject({ rowCount: 5, rowsRead: 2, emptyRows: 2 });
  });

  it('fails a row with a value but no date', () => {
    const state = prepare([['', 7]], longSpec());
    expect(outcomes(state)).toEqual([['failed', 'the date is empty: give a date cell or text like 2024-01-31']]);
  });

  it("reads Date cells in the time zone it is given, not the machine's", () => {
    const tokyoMidnight = new Date('2024-02-29T15:00:00Z');
    expect(TZ).toBe('America/New_York');
    // The same instant is 29 February in New York: the spreadsheet's zone decides.
    expect(one(tokyoMidnight, 1, USERS)).toMatchObject({ date: '2024-02-29' });
  });
});
