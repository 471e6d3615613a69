// Percent cells: a cell showing 12% holds 0.12, and a `percent` metric holds percentage points (62.3 for
// 62.3 %), so the exporter sends 12, shifting the point on the exact decimal text; any other unit refuses it.

import fc from 'fast-check';
import { fractionToPoints, isPercentFormat, percentTextToPoints } from '../../../src/core/export/percent';
import { previewExport } from '../../../src/core/export/preview';
import { numberToDecimal } from '../../../src/core/validate/decimal';
import { prepareExport } from '../../../src/core/export/export-state';
import type { MetricRef } from '../../../src/core/export/types';
import { intlDateFormatter } from '../../../src/core/validate/dates';
import { CHURN_A, longSpec, MARGIN, prepare, REVENUE, TZ, USERS } from './export-fixtures';

/** The single item of a one-row long export of `metricId`, its value cell under `format`. */
function one(value: unknown, format: string | undefined, metricId = MARGIN) {
  const state = prepare([['2024-03-01', value]], longSpec({ metricId }), format === undefined ? {} : { numberFormats: [['yyyy-mm-dd', format]] });
  expect(state.items).toHaveLength(1);
  return state.items[0]!;
}

/** An exact decimal as an integer and a power of ten (value = digits / 10^scale), for exact comparisons. */
function exact(decimal: string): { digits: bigint; scale: number } {
  const [whole = '0', fraction = ''] = decimal.replace('-', '').split('.');
  const digits = BigInt(whole + fraction) * (decimal.startsWith('-') ? -1n : 1n);
  return { digits, scale: fraction.length };
}

function sameValue(a: { digits: bigint; scale: number }, b: { digits: bigint; scale: number }): boolean {
  const scale = Math.max(a.scale, b.scale);
  return a.digits * 10n ** BigInt(scale - a.scale) === b.digits * 10n ** BigInt(scale - b.scale);
}

describe('shifting a fraction to percentage points', () => {
  it.each([
    ['0.12', '12'],
    ['0.123', '12.3'],
    ['0.07', '7'],
    ['0.145', '14.5'],
    ['0.1', '10'],
    ['1', '100'],
    ['12.5', '1250'],
    ['0', '0'],
    ['-0.005', '-0.5'],
    ['0.00001', '0.001'],
    ['0.30000000000000004', '30.000000000000004'],
    ['0.120', '12'],
  ])('%s is %s points', (fraction, points) => {
    expect(fractionToPoints(fraction)).toBe(points);
  });

  it('never adds the noise multiplying the double by 100 would', () => {
    // The very values the shift exists for: each one times 100 is not the decimal the cell shows.
    expect([0.07 * 100, 0.145 * 100, 0.29 * 100]).toEqual([7.000000000000001, 14.499999999999998, 28.999999999999996]);
    expect([0.07, 0.145, 0.29].map((value) => fractionToPoints(numberToDecimal(value)))).toEqual(['7', '14.5', '29']);
  });

  const SEED = 20250614;
  it(`equals the exact decimal times 100, for any decimal text and any double (fast-check seed ${SEED})`, () => {
    console.log(`percent shift property: fast-check seed ${SEED}`);
    const decimalText = fc
      .tuple(fc.boolean(), fc.bigInt({ min: 0n, max: 10n ** 20n }), fc.stringMatching(/^\d{0,12}$/))
      .map(([negative, whole, fraction]) => `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`);
    const fromDouble = fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e12, max: 1e12 }).map(numberToDecimal);
    fc.assert(
      fc.property(fc.oneof(decimalText, fromDouble), (decimal) => {
        const points = fractionToPoints(decimal);
        expect(points).toMatch(/^-?\d+(\.\d+)?$/);
        const source = exact(decimal);
        expect(sameValue(exact(points), { digits: source.digits * 100n, scale: source.scale })).toBe(true);
      }),
      { seed: SEED, numRuns: 500 },
    );
  });
});

describe('which formats are percent formats', () => {
  it.each([
    ['0%', 0.12, true],
    ['0.00%', 0.12, true],
    ['#,##0.0%', 0.12, true],
    ['[Red]0.0%', 0.12, true],
    // The section that applies decides: positive;negative;zero.
    ['0;-0%', 0.12, false],
    ['0;-0%', -0.12, true],
    ['0%;-0%;"none"', 0, false],
    // A quoted or escaped % is a literal: the number shows as it is.
    ['0.0" %"', 12, false],
    ['0\\%', 12, false],
    ['0.###############', 0.12, false],
    ['@', 0.12, false],
    ['yyyy-mm-dd', 0.12, false],
    [undefined, 0.12, false],
  ])('%p for %p: %p', (format, value, percent) => {
    expect(isPercentFormat(format, value)).toBe(percent);
  });

  it('reads percent text as the points it shows', () => {
    expect(['12%', ' 12.5 % ', '-3%', '.5%', '+7%', '12', '12%%', '%', '1,234%'].map(percentTextToPoints)).toEqual([
      '12',
      '12.5',
      '-3',
      '0.5',
      '7',
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });
});

describe('percent cells in an export', () => {
  it('sends a percent-formatted cell to a percent metric as percentage points, whatever the case of the unit', () => {
    // MARGIN's unit is "Percent", CHURN_A's "percent".
    expect(one(0.12, '0%')).toMatchObject({ outcome: 'pending', value: '12' });
    expect(one(0.123, '0.0%')).toMatchObject({ outcome: 'pending', value: '12.3' });
    expect(one(0.07, '0%', CHURN_A)).toMatchObject({ outcome: 'pending', value: '7' });
  });

  it('sends a plain number to a percent metric as it is: the metric already holds points', () => {
    expect(one(62.3, '0.###############')).toMatchObject({ outcome: 'pending', value: '62.3' });
    expect(one(62.3, undefined)).toMatchObject({ outcome: 'pending', value: '62.3' });
  });

  it('refuses a percent-formatted cell for any other unit, naming the unit', () => {
    expect(one(0.12, '0%', REVENUE)).toMatchObject({
      outcome: 'failed',
      reason:
        'the cell is formatted as a percentage but the metric\'s unit is "USD", not percent: type the number the metric holds and format the cell as a number, or choose a metric whose unit is percent',
    });
    expect(one(0.12, '0.00%', USERS)).toMatchObject({ outcome: 'failed', reason: expect.stringContaining('the metric\'s unit is "number", not percent') });
  });

  it('follows the same rule for percent text: points to a percent metric, refused elsewhere', () => {
    expect(one('12%', '@')).toMatchObject({ outcome: 'pending', value: '12' });
    expect(one(' 62.3 % ', '@')).toMatchObject({ outcome: 'pending', value: '62.3' });
    expect(one('12%', '@', REVENUE)).toMatchObject({
      outcome: 'failed',
      reason:
        'the value "12%" is a percentage but the metric\'s unit is "USD", not percent: type the number the metric holds without the % sign, or choose a metric whose unit is percent',
    });
  });

  it('refuses a percent cell when the metric has no unit (an export stored before units were read)', () => {
    // The cache hands back what was stored: a metric without the unit property the type now requires.
    const stale = JSON.parse(JSON.stringify({ id: MARGIN, name: 'Gross Margin', frequency: 'monthly' })) as MetricRef;
    const state = prepareExport({
      range: { values: [['2024-03-01', 0.12]], numberFormats: [['', '0%']] },
      spec: longSpec({ metricId: MARGIN }),
      metrics: [stale],
      timeZone: TZ,
      formatDate: intlDateFormatter,
    });
    expect(state.items[0]).toMatchObject({
      outcome: 'failed',
      reason: expect.stringContaining("the cell is formatted as a percentage but the metric's unit is not known, not percent"),
    });
  });

  it('previews the cell as the sheet shows it beside the exact text sent', () => {
    const state = prepare(
      [
        ['2024-03-01', 0.12],
        ['2024-04-01', 0.123],
      ],
      longSpec({ metricId: MARGIN }),
      {
        numberFormats: [
          ['', '0%'],
          ['', '0.0%'],
        ],
      },
    );
    const preview = previewExport(state, [
      ['3/1/2024', '12%'],
      ['4/1/2024', '12.3%'],
    ]);
    expect(preview.sample.map((item) => [item.shownValue, item.value])).toEqual([
      ['12%', '12'],
      ['12.3%', '12.3'],
    ]);
    const refused = previewExport(prepare([['2024-03-01', 0.12]], longSpec(), { numberFormats: [['', '0%']] }), [['3/1/2024', '12%']]);
    expect(refused.problems).toMatchObject([{ cell: 'B1', shownValue: '12%', outcome: 'failed' }]);
  });
});
