import { inferPeriods, parsePeriodLabel, periodStart } from '../../src/core/sheets/periods';

describe('periodStart', () => {
  it.each([
    ['2024-03-15', 'daily', '2024-03-15'],
    ['2024-03-15', 'weekly', '2024-03-11'], // a Friday; its week starts on Monday the 11th
    ['2024-03-11', 'weekly', '2024-03-11'],
    ['2024-01-03', 'weekly', '2024-01-01'],
    ['2023-01-01', 'weekly', '2022-12-26'], // a Sunday belongs to the week that began the Monday before
    ['2024-03-15', 'monthly', '2024-03-01'],
    ['2024-03-15', 'quarterly', '2024-01-01'],
    ['2024-12-31', 'quarterly', '2024-10-01'],
    ['2024-12-31', 'annually', '2024-01-01'],
  ])('%s in a %s metric starts its period on %s', (date, frequency, start) => {
    expect(periodStart(date, frequency)).toBe(start);
  });

  it('does not guess for a frequency it does not know', () => {
    expect(periodStart('2024-03-15', 'fortnightly')).toBeUndefined();
  });
});

describe('parsePeriodLabel', () => {
  it.each([
    ['2024-03-15', null, '2024-03-15'],
    ['2024-03', null, '2024-03-01'],
    ['2024-Q1', null, '2024-01-01'],
    ['2024-q4', null, '2024-10-01'],
    ['Q2 2024', null, '2024-04-01'],
    ['FY2024', null, '2024-01-01'],
    ['FY2024', 12, '2024-01-01'],
    ['FY2024', 3, '2023-04-01'], // a March year end: FY2024 runs April 2023 to March 2024
    ['FY2024', 6, '2023-07-01'],
    ['Q1 FY2024', 3, '2023-04-01'],
    ['Q3 FY2024', 3, '2023-10-01'],
    ['Q4 FY2024', 3, '2024-01-01'],
    ['Q3 FY2024', null, '2024-07-01'],
    ['q3 fy24', 6, '2024-01-01'],
  ])('%s with fiscal year end month %p starts on %s', (label, endMonth, start) => {
    expect(parsePeriodLabel(label, endMonth).start).toBe(start);
  });

  it.each(['2024-13', '2024-02-30', 'Q5 2024', 'FY', 'March 2024', ''])('refuses %p with the forms it accepts', (label) => {
    expect(() => parsePeriodLabel(label, null)).toThrow(/is not a period: use a date, 2024-03, 2024-Q1, FY2024 or Q3 FY2024\./);
  });
});

describe('more fiscal labels, and periods judged from a series', () => {
  it.each([
    ['FY2024 Q3', 3, '2023-10-01'],
    ['Q3-FY2024', 3, '2023-10-01'],
    ['fy2024-q1', null, '2024-01-01'],
    ['FY24', 6, '2023-07-01'],
    ['Q2 FY99', 12, '2099-04-01'],
  ] as const)('%s with fiscal year end month %s starts on %s', (label, endMonth, start) => {
    expect(parsePeriodLabel(label, endMonth).start).toBe(start);
  });

  it('infers month, quarter, year and week starts from at least three dates', () => {
    expect(inferPeriods(['2024-01-01', '2024-02-01'])).toBeUndefined();
    const monthly = inferPeriods(['2024-01-01', '2024-02-01', '2024-04-01'])!;
    expect([monthly.words, monthly.fits('2024-03-01'), monthly.fits('2024-03-15')]).toEqual(['the first of each month', true, false]);
    const quarterly = inferPeriods(['2024-02-01', '2024-05-01', '2024-08-01'])!;
    expect([quarterly.words, quarterly.fits('2024-11-01'), quarterly.fits('2024-03-01')]).toEqual(['1 February, 1 May, 1 August and 1 November', true, false]);
    const yearly = inferPeriods(['2021-01-01', '2022-01-01', '2023-01-01'])!;
    expect([yearly.words, yearly.fits('2024-01-01'), yearly.fits('2024-04-01')]).toEqual(['1 January', true, false]);
    const weekly = inferPeriods(['2024-01-01', '2024-01-08', '2024-01-22'])!;
    expect([weekly.words, weekly.fits('2024-01-15'), weekly.fits('2024-01-16')]).toEqual(['Mondays', true, false]);
    expect(inferPeriods(['2024-01-01', '2024-01-02', '2024-01-03'])).toBeUndefined(); // daily: any date fits
  });
});
