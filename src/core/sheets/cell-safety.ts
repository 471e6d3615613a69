// Text from the API written into cells stays text: Sheets reads a leading =, +, - or @ as a formula.
// Every write of values into cells goes through src/gas/sheet-io.ts, which applies this (a build test,
// test/build/safe-cell-writes.test.ts, fails on a setValue(s) or setFormula(s) anywhere else).

/** The number format of a plain-text cell: Sheets keeps what is written there as the text it is. */
export const PLAIN_TEXT_FORMAT = '@';

/** A leading apostrophe makes Sheets keep the rest as text; it is not part of the cell's value. */
export function asSafeCell<T>(value: T): T | string {
  return typeof value === 'string' && /^[=+\-@]/.test(value) ? `'${value}` : value;
}

export function asSafeRows<T>(rows: readonly (readonly T[])[]): Array<Array<T | string>> {
  return rows.map((row) => row.map(asSafeCell));
}

/**
 * As asSafeRows, for cells whose number formats are `formats` (Range.getNumberFormats()): a plain-text cell
 * keeps its text as written, so an apostrophe there would become part of the value.
 */
export function asSafeRowsIn<T>(rows: readonly (readonly T[])[], formats: readonly (readonly string[])[]): Array<Array<T | string>> {
  return rows.map((row, r) => row.map((value, c) => (formats[r]?.[c] === PLAIN_TEXT_FORMAT ? value : asSafeCell(value))));
}
