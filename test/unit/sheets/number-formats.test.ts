// What a value the add-in writes shows: the format from its metric's unit, read through the runtime's Sheets
// display (gas-runtime/spreadsheet/number-format.ts), and read back by the exporter as the number it holds.

import { displayValue } from '../../../gas-runtime/spreadsheet/number-format';
import {
  ISO_DATE_FORMAT,
  isDateFormatCode,
  NUMBER_FORMAT,
  SHEETS_DATE_FORMAT,
  PERCENT_POINTS_FORMAT,
  metricTableFormats,
  numberFormatForUnit,
  portfolioGridFormats,
  timeFormatIn,
} from '../../../src/core/sheets/number-formats';
import { isPercentFormat } from '../../../src/core/export/percent';
import { MARGIN, longSpec, prepare } from '../export/export-fixtures';

describe('numberFormatForUnit', () => {
  it.each([
    ['USD', '"$"#,##0.00', 61372.9266666667, '$61,372.93'],
    ['usd', '"$"#,##0.00', 1365834, '$1,365,834.00'],
    ['EUR', '"€"#,##0.00', 1234.5, '€1,234.50'],
    ['GBP', '"£"#,##0.00', 99, '£99.00'],
    ['JPY', '"¥"#,##0', 1234567.4, '¥1,234,567'],
    ['CHF', '#,##0.00 "CHF"', 1234.5, '1,234.50 CHF'],
    [' sek ', '#,##0.00 "SEK"', -2500, '-2,500.00 SEK'],
    ['percent', '#,##0.00"%"', 62.3, '62.30%'],
    ['Percent', '#,##0.00"%"', 1250, '1,250.00%'],
    ['number', '#,##0.00', 61372.9266666667, '61,372.93'],
    ['', '#,##0.00', 1365834, '1,365,834.00'],
    [undefined, '#,##0.00', 0, '0.00'],
    [null, '#,##0.00', 12, '12.00'],
    ['units', '#,##0.00', 1000, '1,000.00'],
  ])('%p → %p, so %p shows %p', (unit, format, value, shown) => {
    expect(numberFormatForUnit(unit)).toBe(format);
    expect(displayValue(value, format)).toBe(shown);
  });

  it('shows percentage points as they are: the % is a literal, not a scaling by 100', () => {
    expect(isPercentFormat(PERCENT_POINTS_FORMAT, 62.3)).toBe(false);
    // The exporter sends what the cell holds and shows: 62.3, not 0.623 or 6230.
    const state = prepare([['2024-03-01', 62.3]], longSpec({ metricId: MARGIN }), { numberFormats: [['M/d/yyyy', PERCENT_POINTS_FORMAT]] });
    expect(state.items[0]).toMatchObject({ outcome: 'pending', value: '62.3' });
  });
});

describe('metricTableFormats', () => {
  it("gives each data row the date format Sheets gives a date (as a formula's), then each metric by its unit", () => {
    expect(metricTableFormats(['USD', 'percent', 'number'], 2)).toEqual([
      [SHEETS_DATE_FORMAT, '"$"#,##0.00', PERCENT_POINTS_FORMAT, NUMBER_FORMAT],
      [SHEETS_DATE_FORMAT, '"$"#,##0.00', PERCENT_POINTS_FORMAT, NUMBER_FORMAT],
    ]);
    expect(metricTableFormats(['USD'], 0)).toEqual([]);
  });
});

describe('portfolioGridFormats', () => {
  it("gives each company row its own metric's unit across the periods; a row without one a plain number", () => {
    expect(portfolioGridFormats(['USD', 'EUR', undefined], 2)).toEqual([
      ['"$"#,##0.00', '"$"#,##0.00'],
      ['"€"#,##0.00', '"€"#,##0.00'],
      [NUMBER_FORMAT, NUMBER_FORMAT],
    ]);
  });
});

describe('timeFormatIn', () => {
  it('names the zone after the time', () => {
    expect(timeFormatIn('Europe/Paris')).toBe('yyyy-mm-dd hh:mm:ss "Europe/Paris"');
    // 2024-01-01 00:00 is serial 45292; noon is half a day.
    expect(displayValue(45292.5, timeFormatIn('Europe/Paris'))).toBe('2024-01-01 12:00:00 Europe/Paris');
    expect(displayValue(45292, ISO_DATE_FORMAT)).toBe('2024-01-01');
  });
});

describe('isDateFormatCode', () => {
  it.each([
    ['M/d/yyyy', true],
    ['dd.MM.yyyy', true],
    ['yyyy-mm-dd', true],
    ['mmm yyyy', true],
    ['d"th of" mmmm', true],
    ['0.###############', false],
    ['@', false],
    ['#,##0.00', false],
    ['"$"#,##0.00', false],
    ['#,##0.00 "days"', false],
    ['[Red]0.00', false],
    ['hh:mm', false],
    ['', false],
  ])('%p shows a date: %p', (format, isDate) => {
    expect(isDateFormatCode(format)).toBe(isDate);
  });
});
