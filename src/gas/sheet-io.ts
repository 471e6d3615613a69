// Reading and writing the active spreadsheet for the sidebar, and the one place any code writes values or
// formulas into cells (writeValues, writePlainText, writeOwnFormula): test/build/safe-cell-writes.test.ts fails
// on a setValue(s), setFormula(s) or setRichTextValue(s) anywhere else.

import { InputError } from '../core/errors';
import { countOf } from '../shared/words';
import { changedCells, type FrozenRecord } from '../core/formulas/freeze';
import { asSafeCell, asSafeRows, asSafeRowsIn, PLAIN_TEXT_FORMAT } from '../core/sheets/cell-safety';
import { ISO_DATE_FORMAT, isDateFormatCode, SHEETS_DATE_FORMAT } from '../core/sheets/number-formats';

export interface CellAnchor {
  sheetName: string;
  row: number;
  column: number;
  a1: string;
}

function activeRange(selectFirst: string): GoogleAppsScript.Spreadsheet.Range {
  const range = SpreadsheetApp.getActiveSpreadsheet().getActiveRange();
  if (!range) throw new InputError(selectFirst);
  return range;
}

function sheetNamed(name: string, missing = `There is no sheet named "${name}".`): GoogleAppsScript.Spreadsheet.Sheet {
  const sheet = SpreadsheetApp.getActiveSpreadsheet().getSheetByName(name);
  if (!sheet) throw new InputError(missing);
  return sheet;
}

export function activeAnchor(): CellAnchor {
  const range = activeRange('Select a cell in the spreadsheet first.');
  const cell = range.getSheet().getRange(range.getRow(), range.getColumn());
  return { sheetName: range.getSheet().getName(), row: range.getRow(), column: range.getColumn(), a1: cell.getA1Notation() };
}

function sheetOf(anchor: CellAnchor): GoogleAppsScript.Spreadsheet.Sheet {
  return sheetNamed(anchor.sheetName, `The sheet "${anchor.sheetName}" no longer exists.`);
}

/** Refuses to overwrite: a table lands only where every cell it needs is empty. */
function requireEmpty(range: GoogleAppsScript.Spreadsheet.Range): void {
  const values = range.getValues();
  const formulas = range.getFormulas();
  if (!values.some((row, r) => row.some((value, c) => value !== '' || formulas[r]?.[c] !== ''))) return;
  const rows = range.getNumRows();
  const columns = range.getNumColumns();
  if (rows === 1 && columns === 1) throw new InputError(`The cell ${range.getA1Notation()} is not empty. Select an empty cell.`);
  throw new InputError(
    `The cells ${range.getA1Notation()} are not all empty. Select an empty cell with room for ${countOf(rows, 'row')} and ${countOf(columns, 'column')}.`,
  );
}

/** The number formats of a table's rows below its `headerRows` (core/sheets/number-formats.ts), one row each. */
export interface TableFormats {
  headerRows: number;
  /** Columns left of the formats, kept as they are (a grid's company names). */
  leftColumns?: number;
  rows: ReadonlyArray<ReadonlyArray<string>>;
}

/** Writes a table at the anchor, formula-like text kept as text, then its `formats` (see setTableFormats). */
/**
 * Adds rows and columns at the sheet's end until (lastRow, lastColumn) is inside it: a table inserted near the edge
 * fits, as a paste in Sheets does, where getRange would refuse with "The coordinates of the range are outside the
 * dimensions of the sheet." New cells are empty, so the emptiness check that follows is unchanged.
 */
function growToFit(sheet: GoogleAppsScript.Spreadsheet.Sheet, lastRow: number, lastColumn: number): void {
  if (lastRow > sheet.getMaxRows()) sheet.insertRowsAfter(sheet.getMaxRows(), lastRow - sheet.getMaxRows());
  if (lastColumn > sheet.getMaxColumns()) sheet.insertColumnsAfter(sheet.getMaxColumns(), lastColumn - sheet.getMaxColumns());
}

export function writeTable(anchor: CellAnchor, rows: ReadonlyArray<ReadonlyArray<string | number | boolean | Date | null>>, formats?: TableFormats): string {
  const width = Math.max(...rows.map((r) => r.length));
  const padded = rows.map((row) => Array.from({ length: width }, (_, i) => row[i] ?? ''));
  const sheet = sheetOf(anchor);
  growToFit(sheet, anchor.row + padded.length - 1, anchor.column + width - 1);
  const range = sheet.getRange(anchor.row, anchor.column, padded.length, width);
  requireEmpty(range);
  range.setValues(asSafeRows(padded));
  if (formats) setTableFormats(range, formats);
  return range.getA1Notation();
}

/**
 * Sets the formats of `table`'s rows below its header (as many columns as a format row has) in one
 * setNumberFormats, after its values are written: a SHEETS_DATE_FORMAT entry keeps the date format Sheets gave
 * the date written there (as a formula's dates show), or gets ISO where that format shows no date (dateFormatFor).
 */
export function setTableFormats(table: Range, formats: TableFormats): void {
  const left = formats.leftColumns ?? 0;
  const block = formats.rows.slice(0, Math.max(0, table.getNumRows() - formats.headerRows)).map((row) => row.slice(0, table.getNumColumns() - left));
  if (block.length === 0 || block[0]!.length === 0) return;
  const range = table.getSheet().getRange(table.getRow() + formats.headerRows, table.getColumn() + left, block.length, block[0]!.length);
  const keepsDates = block.some((row) => row.includes(SHEETS_DATE_FORMAT));
  const had = keepsDates ? range.getNumberFormats() : [];
  range.setNumberFormats(block.map((row, r) => row.map((format, c) => (format === SHEETS_DATE_FORMAT ? dateFormatFor(had[r]?.[c] ?? '') : format))));
}

/**
 * The format a cell holding a written date keeps: the one it has when it shows a date (Sheets gave it one, or the
 * person chose one), else ISO_DATE_FORMAT, so a date never reads as its serial number (45292) where Sheets gave
 * it none or the person had formatted the cell as numbers (docs/platform.md, "Still kinder than Google").
 */
function dateFormatFor(format: string): string {
  return isDateFormatCode(format) ? format : ISO_DATE_FORMAT;
}

type Range = GoogleAppsScript.Spreadsheet.Range;

/**
 * After `written` was written into `range` as values: a cell given a Date whose format shows no date (Sheets gave
 * it no date format, or the person had formatted it as numbers) gets ISO_DATE_FORMAT, so it never reads 45292.
 * Judged by what was written, not read back: getValues() returns a number, not a Date, for such a cell.
 */
export function settleDateFormats(range: Range, written: ReadonlyArray<ReadonlyArray<unknown>>): void {
  const formats = range.getNumberFormats();
  const settled = formats.map((row, r) => row.map((format, c) => (written[r]?.[c] instanceof Date ? dateFormatFor(format) : format)));
  if (settled.every((row, r) => row.every((format, c) => format === formats[r]![c]))) return;
  range.setNumberFormats(settled);
}

/**
 * Writes values into `range` (its size) so that no text becomes a formula: text starting with =, +, - or @
 * is kept as text (cell-safety.ts) except in plain-text cells, which keep any text as it is. Numbers,
 * booleans and Dates are written as they are. Returns the range.
 */
export function writeValues(range: Range, rows: ReadonlyArray<ReadonlyArray<unknown>>): Range {
  return range.setValues(asSafeRowsIn(rows, range.getNumberFormats()));
}

/** Makes `range` plain text and writes text into it, kept exactly (hidden stores: JSON, ids, labels). */
export function writePlainText(range: Range, rows: ReadonlyArray<ReadonlyArray<string>>): Range {
  return range.setNumberFormat(PLAIN_TEXT_FORMAT).setValues(rows.map((row) => [...row]));
}

/**
 * Writes a formula the add-in itself made or recorded: one it read from that cell (Refresh data, a Freeze that
 * was refused), one Freeze recorded (Make live), or its own probe (Check this installation). Never text from
 * the API or from another cell.
 */
export function writeOwnFormula(cell: Range, formula: string): void {
  cell.setFormula(formula);
}

export function writeFormula(anchor: CellAnchor, formula: string): string {
  const cell = sheetOf(anchor).getRange(anchor.row, anchor.column);
  requireEmpty(cell);
  cell.setFormula(formula);
  return cell.getA1Notation();
}

/** A cell of writeCells: text kept as text whatever it looks like, a live formula, or nothing. */
export type WrittenCell = { text: string } | { formula: string } | null;

/**
 * Writes texts and formulas at the anchor, only where every cell is empty. Texts get a leading apostrophe, so a period
 * like 2024-01 or a name like "=x" stays the text it is; formulas go in with setFormulas, one call per run of rows
 * whose formulas span the same columns (a block of a fund model is one call).
 */
export function writeCells(anchor: CellAnchor, cells: readonly (readonly WrittenCell[])[]): string {
  const width = Math.max(1, ...cells.map((row) => row.length));
  const sheet = sheetOf(anchor);
  growToFit(sheet, anchor.row + cells.length - 1, anchor.column + width - 1);
  const range = sheet.getRange(anchor.row, anchor.column, cells.length, width);
  requireEmpty(range);
  const texts = cells.map((row) =>
    Array.from({ length: width }, (_, c) => {
      const cell = row[c];
      return cell && 'text' in cell ? `'${cell.text}` : '';
    }),
  );
  range.setValues(texts);
  const spanOf = (row: readonly WrittenCell[]) => {
    const columns = row.flatMap((cell, c) => (cell && 'formula' in cell ? [c] : []));
    return columns.length === 0 ? null : { first: columns[0]!, last: columns[columns.length - 1]! };
  };
  for (let r = 0; r < cells.length; ) {
    const span = spanOf(cells[r]!);
    if (!span) {
      r++;
      continue;
    }
    let end = r + 1;
    while (end < cells.length && spanOf(cells[end]!)?.first === span.first && spanOf(cells[end]!)?.last === span.last) end++;
    const formulas = cells.slice(r, end).map((row) => row.slice(span.first, span.last + 1).map((cell) => (cell && 'formula' in cell ? cell.formula : '')));
    sheet.getRange(anchor.row + r, anchor.column + span.first, end - r, span.last - span.first + 1).setFormulas(formulas);
    r = end;
  }
  return range.getA1Notation();
}

/** A range's cells; its `a1` is like A1:C20. */
export interface RangeRead extends CellAnchor {
  values: unknown[][];
  displayValues: string[][];
  /** A cell showing "12%" holds 0.12: only its format says it is a percentage. */
  numberFormats: string[][];
}

/** The active selection's address, like Sheet1!A1:C20. */
export function activeSelection(): string {
  return addressOfRange(activeRange('Select the range to export first.'));
}

/** Reads a range given as Sheet1!A1:C20 (or 'My sheet'!A1:C20). */
export function readRange(address: string): RangeRead {
  const match = /^(?:'((?:[^']|'')+)'|([^!]+))!([A-Z]+\d+(?::[A-Z]+\d+)?)$/i.exec(address.trim());
  if (!match) throw new InputError(`"${address}" is not a range like Sheet1!A1:C20.`);
  const sheetName = match[1] !== undefined ? match[1].replace(/''/g, "'") : match[2]!;
  const range = sheetNamed(sheetName).getRange(match[3]!);
  return {
    sheetName,
    a1: range.getA1Notation(),
    row: range.getRow(),
    column: range.getColumn(),
    values: range.getValues(),
    displayValues: range.getDisplayValues(),
    numberFormats: range.getNumberFormats(),
  };
}

export function quoteSheetName(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? name : `'${name.replace(/'/g, "''")}'`;
}

/** A range's address with its sheet, like 'My sheet'!B2:D9. */
function addressOfRange(range: GoogleAppsScript.Spreadsheet.Range): string {
  return `${quoteSheetName(range.getSheet().getName())}!${range.getA1Notation()}`;
}

/** Texts the status column writes: what marks an existing column (without a header row) as an earlier one. */
const STATUS_TEXT = /^(created|updated|written|unchanged|skipped|failed|pending|not sent)\b/;

/** Where a status column goes: the column right of a range, over the range's rows. */
export type StatusColumnPlace = Omit<CellAnchor, 'a1'> & { rows: number };

function statusTarget(place: StatusColumnPlace): GoogleAppsScript.Spreadsheet.Range {
  return sheetNamed(place.sheetName).getRange(place.row, place.column, place.rows, 1);
}

/**
 * Refuses a status column that would overwrite the user's data: only an empty column or an earlier one (headed
 * `header`, or without a header row holding only outcome texts) may be written. `then` ends the sentence.
 */
export function requireStatusColumnFree(place: StatusColumnPlace, header: string, hasHeaderRow: boolean, then: string): void {
  const target = statusTarget(place);
  const current = target.getValues().map((cells) => cells[0]);
  const formulas = target.getFormulas().map((cells) => cells[0]);
  const refuse = (holds: string) =>
    new InputError(
      `The column ${target.getA1Notation()} beside the range ${holds}, so ${then}. Clear it, or turn off "Write each row's outcome beside the range".`,
    );
  if (formulas.some((formula) => formula !== '')) throw refuse('holds formulas');
  const ours = hasHeaderRow ? current[0] === header : current.every((text) => text === '' || (typeof text === 'string' && STATUS_TEXT.test(text)));
  if (!ours && current.some((text) => text !== '')) throw refuse('is not empty');
}

/** Writes a text per row beside a range, checked again (the user may have typed there since); returns the address. */
export function writeStatusColumn(place: StatusColumnPlace, texts: readonly string[], header: string, hasHeaderRow: boolean): string {
  requireStatusColumnFree(place, header, hasHeaderRow, 'the status column was not written');
  const target = statusTarget(place);
  target.setValues(asSafeRows(texts.map((text, i) => [hasHeaderRow && i === 0 ? header : text])));
  return addressOfRange(target);
}

/** Writes one text into a cell, kept as text (ids, statuses). */
export function writeText(sheetName: string, row: number, column: number, text: string): void {
  const cell = sheetNamed(sheetName).getRange(row, column);
  cell.setNumberFormat(PLAIN_TEXT_FORMAT);
  cell.setValue(asSafeCell(text));
}

export function columnIsEmpty(sheetName: string, row: number, column: number, rows: number): boolean {
  return sheetNamed(sheetName)
    .getRange(row, column, rows, 1)
    .getValues()
    .every((cells) => cells[0] === '');
}

/** The selection's rows, and the rows from 1 down to it: its header row may be anywhere above. */
export function selectedRowsOf(): {
  sheetName: string;
  firstRow: number;
  lastRow: number;
  rowsToSelection: unknown[][];
  cellsAt(column: number, fromRow: number): unknown[];
} {
  const range = activeRange('Select the rows of the contacts first.');
  const sheet = range.getSheet();
  const lastColumn = Math.max(sheet.getLastColumn(), 1);
  const firstRow = range.getRow();
  const lastRow = firstRow + range.getNumRows() - 1;
  return {
    sheetName: sheet.getName(),
    firstRow,
    lastRow,
    rowsToSelection: sheet.getRange(1, 1, firstRow, lastColumn).getValues(),
    cellsAt: (column, fromRow) =>
      fromRow <= lastRow
        ? sheet
            .getRange(fromRow, column, lastRow - fromRow + 1, 1)
            .getValues()
            .map((cells) => cells[0])
        : [],
  };
}

export function addressOf(sheetName: string, row: number, column: number, numRows: number, numColumns: number): string {
  return addressOfRange(sheetNamed(sheetName).getRange(row, column, numRows, numColumns));
}

/** The text of one cell, '' when empty or outside the sheet. */
export function cellText(sheetName: string, row: number, column: number): string {
  const sheet = SpreadsheetApp.getActiveSpreadsheet().getSheetByName(sheetName);
  if (!sheet || column > sheet.getMaxColumns() || row > sheet.getMaxRows()) return '';
  return String(sheet.getRange(row, column).getValue()).trim();
}

/** The cells of `range`, like B5, that a person typed into since `record` was written (see changedCells). */
export function typedCells(range: GoogleAppsScript.Spreadsheet.Range, record: Pick<FrozenRecord, 'cells'>, values: unknown[][] = range.getValues()): string[] {
  const sheet = range.getSheet();
  return changedCells(record, values).map(({ row, column }) => sheet.getRange(range.getRow() + row - 1, range.getColumn() + column - 1).getA1Notation());
}
