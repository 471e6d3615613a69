import fc from 'fast-check';
import { PROPERTY_SEED, seeded } from '../support/property-seed';
import { intlDateFormatter, isIsoDate, toIsoDate } from '../../src/core/validate/dates';
import { isExactAsDouble, normaliseDecimal, numberToDecimal, toDecimal } from '../../src/core/validate/decimal';
import { isUuid, requireUuid } from '../../src/core/validate/uuid';

describe('UUIDs', () => {
  it('accepts a UUID in any case with stray spaces and returns it lower-cased', () => {
    expect(requireUuid(' 123E4567-E89B-12D3-A456-426614174000 ', 'The metric id')).toBe('123e4567-e89b-12d3-a456-426614174000');
  });
  it.each(['', '../metrics', '123e4567-e89b-12d3-a456-42661417400', 'a/b?c', '123e4567e89b12d3a456426614174000'])(
    'refuses %p with a sentence naming the field',
    (value) => {
      expect(() => requireUuid(value, 'The metric id')).toThrow(/^The metric id must be an id like/);
    },
  );
  it('refuses non-strings', () => {
    expect(isUuid(42)).toBe(false);
    expect(() => requireUuid(undefined, 'The company id')).toThrow('The company id must be an id like 123e4567-e89b-12d3-a456-426614174000, but it is empty.');
    // From the page any JSON can arrive; String() of some of it throws, which must not replace the sentence.
    expect(() => requireUuid([{ toString: '' }], 'The company id')).toThrow(
      'The company id must be an id like 123e4567-e89b-12d3-a456-426614174000, but it is a list.',
    );
    expect(() => requireUuid({ toString: 1 }, 'The company id')).toThrow(/but it is an object\.$/);
    expect(() => requireUuid(new Date(2024, 0, 1), 'The metric id')).toThrow(/but it is a date\.$/);
    expect(() => requireUuid(42, 'The metric id')).toThrow(/but it is "42"\.$/);
  });
});

describe('dates', () => {
  it('reads a Date cell in the spreadsheet time zone, not UTC', () => {
    // Midnight of 1 March in New York is 05:00 UTC; in Tokyo it is 15:00 UTC the day before.
    expect(toIsoDate(new Date('2024-03-01T05:00:00Z'), 'The date', 'America/New_York', intlDateFormatter)).toBe('2024-03-01');
    expect(toIsoDate(new Date('2024-02-29T15:00:00Z'), 'The date', 'Asia/Tokyo', intlDateFormatter)).toBe('2024-03-01');
  });
  it('accepts YYYY-MM-DD text and refuses impossible or other forms', () => {
    expect(toIsoDate('2024-02-29', 'The date', 'UTC', intlDateFormatter)).toBe('2024-02-29');
    expect(isIsoDate('2023-02-29')).toBe(false);
    expect(() => toIsoDate('01/02/2024', 'The start date', 'UTC', intlDateFormatter)).toThrow(
      'The start date must be a date cell or text like 2024-01-31, but it is "01/02/2024".',
    );
    expect(() => toIsoDate(45000, 'The start date', 'UTC', intlDateFormatter)).toThrow(/the number 45000/);
    expect(() => toIsoDate(new Date(NaN), 'The date', 'UTC', intlDateFormatter)).toThrow('The date is not a valid date.');
  });
});

describe('decimals', () => {
  it.each([
    [0.1, '0.1'],
    [-0, '0'],
    [1e21, '1000000000000000000000'],
    [1.5e-7, '0.00000015'],
    [123456789.125, '123456789.125'],
    [-42, '-42'],
  ])('writes the number %p as %p', (input, expected) => {
    expect(numberToDecimal(input)).toBe(expected);
  });

  it.each([
    ['+1.50', '1.50'],
    ['.5', '0.5'],
    ['5.', '5'],
    ['1e3', '1000'],
    ['-0.0', '0.0'],
    ['00012', '12'],
  ])('normalises the text %p to %p', (input, expected) => {
    expect(normaliseDecimal(input)).toBe(expected);
  });

  it.each(['1,234', '12%', 'abc', '', '.', 'NaN', '1e999'])('refuses the text %p', (input) => {
    expect(() => toDecimal(input, 'The value')).toThrow(/^The value must be a number or decimal text/);
  });

  it('refuses NaN, infinities, booleans and blanks with a reason', () => {
    expect(() => toDecimal(NaN, 'The value')).toThrow('The value is not a finite number.');
    expect(() => toDecimal(true, 'The value')).toThrow('The value must be a number, but it is the boolean true.');
    expect(() => toDecimal('', 'The value')).toThrow(/decimal text/);
  });

  it(`round-trips every finite double exactly (seed ${PROPERTY_SEED})`, () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (value) => {
        const text = numberToDecimal(value);
        expect(text).toMatch(/^-?\d+(\.\d+)?$/);
        expect(Number(text)).toBe(Object.is(value, -0) ? 0 : value);
      }),
      seeded(100),
    );
  });

  it('knows which decimals a double holds exactly', () => {
    expect(isExactAsDouble('0.1')).toBe(true);
    expect(isExactAsDouble('1.50')).toBe(true);
    expect(isExactAsDouble('12345678901234567890.5')).toBe(false);
    expect(isExactAsDouble('0.12345678901234567890')).toBe(false);
  });
});
