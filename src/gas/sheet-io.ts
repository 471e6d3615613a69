// Reading and writing the active spreadsheet for the sidebar: the only place it writes cells.

import { InputError } from '../core/api/errors';
import { asSafeRows } from '../core/sheets/cell-safety';

export interface CellAnchor {
  sheetName: string;
  row: number;
  column: number;
  a1: string;
}

export function activeAnchor(): CellAnchor {
  const range = SpreadsheetApp.getActiveSpreadsheet().getActiveRange();
  if (!range) throw new InputError('Select a cell in the spreadsheet first.');
  const sheet = range.getSheet();
  const cell = sheet.getRange(range.getRow(), range.getColumn());
  return { sheetName: sheet.getName(), row: range.getRow(), column: range.getColumn(), a1: cell.getA1Notation() };
}

function sheetOf(anchor: CellAnchor): GoogleAppsScript.Spreadsheet.Sheet {
  const sheet = SpreadsheetApp.getActiveSpreadsheet().getSheetByName(anchor.sheetName);
  if (!sheet) throw new InputError(`The sheet "${anchor.sheetName}" no longer exists.`);
  return sheet;
}

/** Refuses to overwrite: a table lands only where every cell it needs is empty. */
function requireEmpty(range: GoogleAppsScript.Spreadsheet.Range): void {
  const values = range.getValues();
  const formulas = range.getFormulas();
  const busy = values.some((row, r) => row.some((value, c) => value !== '' || formulas[r]?.[c] !== ''));
  if (busy) {
    throw new InputError(`The cells ${range.getA1Notation()} are not all empty. Select an empty cell with room for ${range.getNumRows()} rows and ${range.getNumColumns()} columns.`);
  }
}

/**
 * Writes a table at the anchor. Text that Sheets would read as a formula is kept as text; the
 * columns listed in `dateColumns` (0-based) get a date format.
 */
export function writeTable(anchor: CellAnchor, rows: ReadonlyArray<ReadonlyArray<string | number | boolean | Date | null>>, dateColumns: readonly number[] = []): string {
  const width = Math.max(...rows.map((r) => r.length));
  const padded = rows.map((row) => Array.from({ length: width }, (_, i) => row[i] ?? ''));
  const range = sheetOf(anchor).getRange(anchor.row, anchor.column, padded.length, width);
  requireEmpty(range);
  range.setValues(asSafeRows(padded));
  for (const column of dateColumns) {
    sheetOf(anchor).getRange(anchor.row, anchor.column + column, padded.length, 1).setNumberFormat('yyyy-mm-dd');
  }
  return range.getA1Notation();
}

export function writeFormula(anchor: CellAnchor, formula: string): string {
  const cell = sheetOf(anchor).getRange(anchor.row, anchor.column);
  requireEmpty(cell);
  cell.setFormula(formula);
  return cell.getA1Notation();
}
