// The number formats of what the add-in writes as values: one place says how a metric's unit, a date and a time
// show, so a snapshot, the audit and the logs read alike (docs/reference.md, "Number and date formats").

import { isPercentUnit } from '../export/percent';

/**
 * A date column's entry in a table's formats: "the format Sheets gives a date written into the cell", so a
 * date the add-in writes as a value shows exactly as the same date returned by a formula (=METRIC_VALUES) does.
 * A custom function cannot set a format, so its dates always take the spreadsheet's default date format (its
 * locale's, 1/1/2024 in en_US); a snapshot of the same values used to write 2024-01-01, two formats for one day.
 * The sheet writer keeps the date format Sheets chose (setTableFormats), and only where the cell holds a format
 * that is no date format (the person formatted the column as numbers or text before) sets ISO_DATE_FORMAT.
 */
export const SHEETS_DATE_FORMAT = '';

/** A date's format where Sheets' own cannot be kept: ISO 8601, the API's form, read alike in every locale. */
export const ISO_DATE_FORMAT = 'yyyy-mm-dd';

/**
 * Whether a Sheets number format shows a date: its codes (quoted text, escapes and [brackets] aside) hold a day,
 * month or year, as M/d/yyyy, dd.MM.yyyy or yyyy-mm-dd do; "Automatic" (0.###…) and plain text (@) do not.
 */
export function isDateFormatCode(format: string): boolean {
  const codes = format
    .replace(/"[^"]*"/g, '')
    .replace(/\\./g, '')
    .replace(/\[[^\]]*\]/g, '');
  return /[dy]/i.test(codes);
}

/** A plain number: thousands separators and two decimals (the cell keeps every digit; the formula bar shows it). */
export const NUMBER_FORMAT = '#,##0.00';

/**
 * Percentage points as the API holds them (62.3 means 62.3 %): the % is quoted, a literal, so Sheets does not
 * multiply by 100, and the exporter reads the cell back as the 62.3 it holds (core/export/percent.ts).
 */
export const PERCENT_POINTS_FORMAT = '#,##0.00"%"';

/** Currencies shown with their symbol before the amount; any other ISO 4217 code follows the amount. */
const CURRENCY_SYMBOLS: Readonly<Record<string, { symbol: string; decimals: number }>> = {
  USD: { symbol: '$', decimals: 2 },
  EUR: { symbol: '€', decimals: 2 },
  GBP: { symbol: '£', decimals: 2 },
  // The yen has no minor unit in use (ISO 4217 exponent 0).
  JPY: { symbol: '¥', decimals: 0 },
};

/** Quoted text in a format: a double quote cannot appear inside, so it is dropped. */
function literal(text: string): string {
  return `"${text.replace(/"/g, '')}"`;
}

/**
 * The number format for values of a metric's unit (contract: Metric.unit is `number`, `percent` or an ISO 4217
 * code), compared without case: a currency code gives its symbol or the code, `percent` percentage points, and
 * anything else (`number`, unknown, missing) a plain number with separators.
 */
export function numberFormatForUnit(unit: string | null | undefined): string {
  const text = (unit ?? '').trim();
  if (isPercentUnit(text)) return PERCENT_POINTS_FORMAT;
  if (!/^[A-Za-z]{3}$/.test(text)) return NUMBER_FORMAT;
  const code = text.toUpperCase();
  const known = CURRENCY_SYMBOLS[code];
  if (known) return `${literal(known.symbol)}#,##0${known.decimals > 0 ? `.${'0'.repeat(known.decimals)}` : ''}`;
  return `#,##0.00 ${literal(code)}`;
}

/**
 * The formats of a METRIC_VALUES table's data rows (the header row, if any, keeps its own): the date column as
 * Sheets shows a date (SHEETS_DATE_FORMAT), then each metric's column by its unit. One row per data row, for one
 * Range.setNumberFormats.
 */
export function metricTableFormats(units: ReadonlyArray<string | null | undefined>, dataRows: number): string[][] {
  const row = [SHEETS_DATE_FORMAT, ...units.map(numberFormatForUnit)];
  return Array.from({ length: dataRows }, () => [...row]);
}

/**
 * The formats of a PORTFOLIO_METRIC grid's company rows past its name column: each row its own metric's unit
 * (`units` from portfolioMetricUnits), as many columns as periods.
 */
export function portfolioGridFormats(units: ReadonlyArray<string | null | undefined>, periods: number): string[][] {
  return units.map((unit) => Array.from({ length: periods }, () => numberFormatForUnit(unit)));
}

/**
 * A time column's format in the zone its wall-clock values were written in: the zone's name follows the time,
 * as the sidebar's "10:00 UTC" does, so a reader never guesses the zone, even after the spreadsheet's changes.
 */
export function timeFormatIn(timeZone: string): string {
  return `yyyy-mm-dd hh:mm:ss ${literal(timeZone)}`;
}
