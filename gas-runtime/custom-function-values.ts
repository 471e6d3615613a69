// What a custom function's return value becomes in the grid: a value, or a block of values that spills.

import { types } from 'node:util';
import { CustomFunctionError } from './errors';
import { MAX_CELL_CHARACTERS } from './limits';

/** A value a cell can hold; '' is an empty cell. */
export type CellOutput = string | number | boolean | Date;

function toCell(value: unknown): CellOutput {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') {
    // Sheets' limit holds for results too; the cell's error code for it is *unverified* (#ERROR! with the entry message).
    if (value.length > MAX_CELL_CHARACTERS)
      throw new CustomFunctionError(`Your input contains more than the maximum of ${MAX_CELL_CHARACTERS} characters in a single cell.`);
    return value;
  }
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new CustomFunctionError('The result is not a finite number.', '#NUM!');
    return value;
  }
  if (types.isDate(value)) {
    const date = new Date((value as Date).getTime());
    if (Number.isNaN(date.getTime())) throw new CustomFunctionError('The result is an invalid date.', '#VALUE!');
    return date;
  }
  throw new CustomFunctionError(`The result contains ${Array.isArray(value) ? 'an array nested too deeply' : 'an object'}, which a cell cannot show.`);
}

/**
 * A custom function's result as Sheets shows it: undefined/null is an empty cell; a 1-D array fills a
 * column; a 2-D array fills a block. Objects and non-finite numbers are errors. The reference does not say
 * what Sheets makes of rows of different lengths or of an empty array: the stricter reading refuses both
 * (#ERROR!, messages ours), so the add-in cannot come to rely on padding that Google may not do.
 */
export function toCellResult(value: unknown): CellOutput | CellOutput[][] {
  if (!Array.isArray(value)) return toCell(value);
  if (value.length === 0) throw new CustomFunctionError('The result is an empty array, which a cell cannot show.');
  if (!value.some(Array.isArray)) return value.map((item) => [toCell(item)]);
  const rows = value.map((row) => (Array.isArray(row) ? row.map(toCell) : [toCell(row)]));
  const width = rows[0]!.length;
  if (width === 0 || rows.some((row) => row.length !== width))
    throw new CustomFunctionError("The result's rows are not all the same length, which a range of cells cannot show.");
  return rows;
}

/** Any result as a block of rows, for writing into the grid. */
export function asMatrix(result: CellOutput | CellOutput[][]): CellOutput[][] {
  return Array.isArray(result) ? result : [[result]];
}
