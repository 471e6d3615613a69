// One cell of the in-memory grid: what it holds, how it is formatted, and what a formula left in it.

import type { CellErrorCode } from '../errors';
import type { DataValidation } from './data-validation';
import type { StoredValue } from './entry';

/** A formula that could not give a value: the cell shows the code, the message is its tooltip. */
export interface CellError {
  code: CellErrorCode;
  message: string;
}

export interface Cell {
  /** null when the cell has no content. Dates are serial numbers under a date format. */
  value: StoredValue | null;
  formula: string | null;
  error: CellError | null;
  /** Number format; undefined is "Automatic". */
  format?: string;
  background?: string;
  fontWeight?: 'bold' | 'normal';
  note?: string;
  validation?: DataValidation;
  /** "row:column" of the formula whose array result spilled into this cell. */
  spilledFrom?: string;
}

export function emptyCell(): Cell {
  return { value: null, formula: null, error: null };
}

/** True when the cell has content (Sheets' getLastRow counts these, not formatting). */
export function hasContent(cell: Cell | undefined): boolean {
  return cell !== undefined && (cell.value !== null || cell.formula !== null || cell.error !== null);
}

/** True when nothing at all is left in the cell, so the grid can forget it. */
export function isBlankCell(cell: Cell): boolean {
  return (
    !hasContent(cell) &&
    cell.format === undefined &&
    cell.background === undefined &&
    cell.fontWeight === undefined &&
    cell.note === undefined &&
    cell.validation === undefined &&
    cell.spilledFrom === undefined
  );
}

export function clearContent(cell: Cell): void {
  cell.value = null;
  cell.formula = null;
  cell.error = null;
  delete cell.spilledFrom;
}

export function clearFormat(cell: Cell): void {
  delete cell.format;
  delete cell.background;
  delete cell.fontWeight;
}
