import fc from 'fast-check';
import { aggregate, divideDecimal, sumDecimals } from '../../src/core/sheets/period-aggregate';
import { addDays, inferPeriods, parsePeriodLabel, periodStart, periodStartsWithin } from '../../src/core/sheets/periods';

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
    ['2024', null, '2024-01-01'],
    ['2024', 3, '2024-01-01'], // a calendar year whatever the fiscal year end
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

describe('period arithmetic, against independent computations', () => {
  // A fixed seed, in the test names so a failure can be replayed: fc.assert(..., { seed: SEED }).
  const SEED = 1402_2024;
  const utc = (year: number, monthIndex: number, day: number) => new Date(Date.UTC(year, monthIndex, day)).toISOString().slice(0, 10);
  /** A value of up to 6 decimals as integer micro-units, small enough that 12 of them add up exactly in a double. */
  const micros = fc.integer({ min: -(2 ** 40), max: 2 ** 40 });
  const microText = (n: number) => {
    const sign = n < 0 ? '-' : '';
    const digits = String(Math.abs(n)).padStart(7, '0');
    return `${sign}${digits.slice(0, -6)}.${digits.slice(-6)}`;
  };

  it(`fiscal quarters tile the fiscal year for every fiscal year end month (seed ${SEED})`, () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1990, max: 2090 }), (endMonth, year) => {
        const fy = parsePeriodLabel(`FY${year}`, endMonth);
        // FY`year` ends on the last day of `endMonth` of `year`, and starts twelve months before.
        expect([fy.start, fy.end, fy.span]).toEqual([utc(year - 1, endMonth, 1), utc(year, endMonth, 0), 'year']);
        let next = fy.start;
        for (const quarter of [1, 2, 3, 4]) {
          const q = parsePeriodLabel(`Q${quarter} FY${year}`, endMonth);
          expect([q.start, q.end, q.span]).toEqual([next, utc(year, endMonth - 3 * (4 - quarter), 0), 'quarter']);
          next = addDays(q.end, 1);
        }
        expect(next).toBe(addDays(fy.end, 1));
        expect(periodStartsWithin(fy.start, fy.end, 'monthly')).toHaveLength(12);
        // Calendar quarters fit inside a fiscal year only when it ends with one.
        if (endMonth % 3 === 0) expect(periodStartsWithin(fy.start, fy.end, 'quarterly')).toHaveLength(4);
      }),
      { seed: SEED, numRuns: 300 },
    );
    // And every end month at least once, whatever the generator chose.
    for (let endMonth = 1; endMonth <= 12; endMonth++) {
      expect(parsePeriodLabel('Q1 FY2024', endMonth).start).toBe(utc(2023, endMonth, 1));
      expect(parsePeriodLabel('Q4 FY2024', endMonth).end).toBe(utc(2024, endMonth, 0));
    }
  });

  it(`the sum over a quarter is the sum of its three months, and a year the sum of its quarters (seed ${SEED})`, () => {
    fc.assert(
      fc.property(fc.integer({ min: 2000, max: 2060 }), fc.array(micros, { minLength: 12, maxLength: 12 }), (year, values) => {
        const month = (m: number) => utc(year, m - 1, 1);
        const series = new Map(values.map((v, i) => [month(i + 1), microText(v)]));
        const over = (start: string, end: string) => periodStartsWithin(start, end, 'monthly').map((date) => ({ date, value: series.get(date) }));
        for (const quarter of [1, 2, 3, 4]) {
          const label = parsePeriodLabel(`${year}-Q${quarter}`, null);
          const expected = values.slice(3 * (quarter - 1), 3 * quarter).reduce((a, b) => a + b, 0);
          expect(aggregate('sum', over(label.start, label.end))).toBe(Number(microText(expected)));
          expect(aggregate('first', over(label.start, label.end))).toBe(Number(microText(values[3 * (quarter - 1)]!)));
          expect(aggregate('last', over(label.start, label.end))).toBe(Number(microText(values[3 * quarter - 1]!)));
        }
        const fy = parsePeriodLabel(`FY${year}`, 12);
        expect(aggregate('sum', over(fy.start, fy.end))).toBe(Number(microText(values.reduce((a, b) => a + b, 0))));
        // One blank month empties the year's sum and average, never a partial sum.
        series.set(month(1 + (Math.abs(values[0]!) % 12)), null as unknown as string);
        expect(aggregate('sum', over(fy.start, fy.end))).toBe('');
        expect(aggregate('average', over(fy.start, fy.end))).toBe('');
      }),
      { seed: SEED, numRuns: 200 },
    );
  });

  it(`an average is the exact sum divided once, rounded as a double division rounds (seed ${SEED})`, () => {
    fc.assert(
      fc.property(fc.integer({ min: -(2 ** 53) + 1, max: 2 ** 53 - 1 }), fc.integer({ min: 1, max: 5000 }), (sum, count) => {
        // Both are exact doubles, and IEEE division rounds correctly: the exact quotient's nearest double.
        expect(Number(divideDecimal(String(sum), count))).toBe(sum / count);
      }),
      { seed: SEED, numRuns: 2000 },
    );
    expect(divideDecimal('1', 3)).toBe('0.33333333333333333333333333333333333333331');
    expect(divideDecimal('-0.6', 3)).toMatch(/^-0\.20{40,}$/); // exact: no sticky digit
  });

  it(`weeks belong to the month they start in (seed ${SEED})`, () => {
    fc.assert(
      fc.property(fc.integer({ min: 2000, max: 2060 }), fc.integer({ min: 1, max: 12 }), (year, month) => {
        const label = parsePeriodLabel(`${year}-${String(month).padStart(2, '0')}`, null);
        const weeks = periodStartsWithin(label.start, label.end, 'weekly');
        const mondays: string[] = [];
        for (let day = 1; day <= 31; day++) {
          const date = new Date(Date.UTC(year, month - 1, day));
          if (date.getUTCMonth() === month - 1 && date.getUTCDay() === 1) mondays.push(date.toISOString().slice(0, 10));
        }
        expect(weeks).toEqual(mondays);
      }),
      { seed: SEED, numRuns: 200 },
    );
  });

  it('sums decimal text exactly, whatever its scale', () => {
    expect(
      sumDecimals([
        { date: 'a', value: '141.6666666666666' },
        { date: 'b', value: '0.1' },
        { date: 'c', value: '-0.0000000000000001' },
      ]),
    ).toBe('141.7666666666665999');
    expect(
      sumDecimals([
        { date: 'a', value: '1e3' },
        { date: 'b', value: '-1000' },
      ]),
    ).toBe('0');
    expect(() => sumDecimals([{ date: '2024-01-01', value: 'n/a' }])).toThrow('The value on 2024-01-01 is "n/a", not a number, so it cannot be added up.');
  });
});
