// A sheet: a sparse grid of cells with Sheets' dimensions, frozen panes, hidden rows and columns, and widths.

import { types } from 'node:util';
import { GasError } from '../errors';
import { DEFAULT_SHEET_COLUMNS, DEFAULT_SHEET_ROWS, MAX_CELL_CHARACTERS } from '../limits';
import { signatureError } from '../signature';
import { parseA1 } from './a1';
import { clearContent, emptyCell, hasContent, isBlankCell, type Cell } from './cell';
import type { ConditionalFormatRule } from './conditional-format';
import { DeveloperMetadata, requireKey } from './developer-metadata';
import { parseEntry } from './entry';
import type { Filter } from './filter';
import { Protection, ProtectionType } from './protection';
import { enumName } from '../enums';
import { DEFAULT_DATE_FORMAT, DEFAULT_DATE_TIME_FORMAT, PLAIN_TEXT_FORMAT, displayValue, isAutomaticFormat, isDateFormat } from './number-format';
import { Range } from './range';
import { dateToSerial, serialToDate } from './serial-date';
import type { Spreadsheet } from './spreadsheet';

/** A value as getValue() returns it: text, number, boolean, Date, or '' for an empty cell. */
export type CellValue = string | number | boolean | Date;

const DEFAULT_COLUMN_WIDTH = 100;

export class Sheet {
  static readonly gasName = 'Sheet';
  readonly #rows = new Map<number, Map<number, Cell>>();
  #name: string;
  #maxRows = DEFAULT_SHEET_ROWS;
  #maxColumns = DEFAULT_SHEET_COLUMNS;
  #frozenRows = 0;
  #frozenColumns = 0;
  readonly #hiddenRows = new Set<number>();
  readonly #hiddenColumns = new Set<number>();
  readonly #columnWidths = new Map<number, number>();
  #filter: Filter | null = null;
  #hidden = false;
  #conditionalFormatRules: ConditionalFormatRule[] = [];
  #protection: Protection | null = null;
  #developerMetadata: DeveloperMetadata[] = [];

  constructor(
    readonly _spreadsheet: Spreadsheet,
    name: string,
    readonly _id: number,
  ) {
    this.#name = name;
  }

  getName(): string {
    return this.#name;
  }

  setName(name: string): Sheet {
    this._spreadsheet._checkNewSheetName(String(name), this);
    this.#name = String(name);
    return this;
  }

  getSheetId(): number {
    return this._id;
  }

  getSheetName(): string {
    return this.#name;
  }

  /** 1-based position among the spreadsheet's sheets. */
  getIndex(): number {
    return this._spreadsheet.getSheets().indexOf(this) + 1;
  }

  getParent(): Spreadsheet {
    return this._spreadsheet;
  }

  activate(): Sheet {
    this._spreadsheet._activate(this, null);
    return this;
  }

  /** getRange(a1Notation) or getRange(row, column, numRows?, numColumns?). */
  getRange(rowOrA1: number | string, column?: number, numRows?: number, numColumns?: number): Range {
    if (typeof rowOrA1 === 'string') return this._rangeFromA1(rowOrA1);
    if (typeof rowOrA1 !== 'number' || typeof column !== 'number')
      throw signatureError('SpreadsheetApp.Sheet.getRange', [rowOrA1, column, numRows, numColumns]);
    return this._range(rowOrA1, column, numRows ?? 1, numColumns ?? 1);
  }

  getDataRange(): Range {
    return this._range(1, 1, Math.max(1, this.getLastRow()), Math.max(1, this.getLastColumn()));
  }

  /** The last row with content (values or formulas; formatting does not count); 0 for an empty sheet. */
  getLastRow(): number {
    let last = 0;
    for (const [row, cells] of this.#rows) {
      if (row > last && [...cells.values()].some(hasContent)) last = row;
    }
    return last;
  }

  getLastColumn(): number {
    let last = 0;
    for (const cells of this.#rows.values()) {
      for (const [column, cell] of cells) if (column > last && hasContent(cell)) last = column;
    }
    return last;
  }

  getMaxRows(): number {
    return this.#maxRows;
  }

  getMaxColumns(): number {
    return this.#maxColumns;
  }

  /** Clears content and formatting of the whole sheet (notes and validation rules stay, as documented). */
  clear(): Sheet {
    for (const cells of this.#rows.values()) {
      for (const cell of cells.values()) {
        clearContent(cell);
        delete cell.format;
        delete cell.background;
        delete cell.fontWeight;
      }
    }
    this.#compact();
    return this;
  }

  clearContents(): Sheet {
    for (const cells of this.#rows.values()) for (const cell of cells.values()) clearContent(cell);
    this.#compact();
    return this;
  }

  clearFormats(): Sheet {
    for (const cells of this.#rows.values()) {
      for (const cell of cells.values()) {
        delete cell.format;
        delete cell.background;
        delete cell.fontWeight;
      }
    }
    this.#compact();
    return this;
  }

  clearNotes(): Sheet {
    for (const cells of this.#rows.values()) for (const cell of cells.values()) delete cell.note;
    this.#compact();
    return this;
  }

  getFrozenRows(): number {
    return this.#frozenRows;
  }

  setFrozenRows(rows: number): Sheet {
    if (!Number.isInteger(rows) || rows < 0 || rows > this.#maxRows) throw new GasError('Invalid argument: rows');
    this.#frozenRows = rows;
    return this;
  }

  getFrozenColumns(): number {
    return this.#frozenColumns;
  }

  setFrozenColumns(columns: number): Sheet {
    if (!Number.isInteger(columns) || columns < 0 || columns > this.#maxColumns) throw new GasError('Invalid argument: columns');
    this.#frozenColumns = columns;
    return this;
  }

  hideColumns(columnIndex: number, numColumns = 1): void {
    this._checkBounds(1, columnIndex, 1, numColumns);
    for (let column = columnIndex; column < columnIndex + numColumns; column++) this.#hiddenColumns.add(column);
  }

  showColumns(columnIndex: number, numColumns = 1): void {
    this._checkBounds(1, columnIndex, 1, numColumns);
    for (let column = columnIndex; column < columnIndex + numColumns; column++) this.#hiddenColumns.delete(column);
  }

  isColumnHiddenByUser(columnPosition: number): boolean {
    return this.#hiddenColumns.has(columnPosition);
  }

  hideRows(rowIndex: number, numRows = 1): void {
    this._checkBounds(rowIndex, 1, numRows, 1);
    for (let row = rowIndex; row < rowIndex + numRows; row++) this.#hiddenRows.add(row);
  }

  showRows(rowIndex: number, numRows = 1): void {
    this._checkBounds(rowIndex, 1, numRows, 1);
    for (let row = rowIndex; row < rowIndex + numRows; row++) this.#hiddenRows.delete(row);
  }

  isRowHiddenByUser(rowPosition: number): boolean {
    return this.#hiddenRows.has(rowPosition);
  }

  /**
   * "Hides this sheet. Has no effect if the sheet is already hidden. If this method is called on the only
   * visible sheet, it throws an exception." (Sheet.hideSheet reference; the message is ours, *unverified*).
   * Sheets shows another sheet when the active one is hidden.
   */
  hideSheet(): Sheet {
    if (this.#hidden) return this;
    if (!this._spreadsheet.getSheets().some((sheet) => sheet !== this && !sheet.isSheetHidden())) {
      throw new GasError('Sorry, it is not possible to hide all sheets. At least one sheet must remain visible.');
    }
    this.#hidden = true;
    this._spreadsheet._sheetHidden(this);
    return this;
  }

  showSheet(): Sheet {
    this.#hidden = false;
    return this;
  }

  isSheetHidden(): boolean {
    return this.#hidden;
  }

  /** "If the sheet is already protected, this method returns an object representing the existing protection settings." */
  protect(): Protection {
    this.#protection ??= new Protection(this);
    return this.#protection;
  }

  /** Only sheet protections exist here (Range.protect is not modelled), so RANGE finds none. */
  getProtections(type: unknown): Protection[] {
    const name = enumName(ProtectionType, type);
    if (!name) throw signatureError('SpreadsheetApp.Sheet.getProtections', [type]);
    return name === 'SHEET' && this.#protection ? [this.#protection] : [];
  }

  /** "Adds developer metadata with the specified key and value to the sheet." (see developer-metadata.ts) */
  addDeveloperMetadata(key: string, value?: string): Sheet {
    const entry = new DeveloperMetadata(this, this._spreadsheet._nextDeveloperMetadataId(), requireKey(key), value === undefined ? null : String(value));
    this.#developerMetadata.push(entry);
    return this;
  }

  /** "Get all developer metadata associated with this sheet." */
  getDeveloperMetadata(): DeveloperMetadata[] {
    return [...this.#developerMetadata];
  }

  _removeDeveloperMetadata(entry: DeveloperMetadata): void {
    this.#developerMetadata = this.#developerMetadata.filter((other) => other !== entry);
  }

  _removeProtection(protection: Protection): void {
    if (this.#protection === protection) this.#protection = null;
  }

  getFilter(): Filter | null {
    return this.#filter;
  }

  getColumnWidth(columnPosition: number): number {
    return this.#columnWidths.get(columnPosition) ?? DEFAULT_COLUMN_WIDTH;
  }

  setColumnWidth(columnPosition: number, width: number): Sheet {
    this._checkBounds(1, columnPosition, 1, 1);
    this.#columnWidths.set(columnPosition, Number(width));
    return this;
  }

  setColumnWidths(startColumn: number, numColumns: number, width: number): Sheet {
    this._checkBounds(1, startColumn, 1, numColumns);
    for (let column = startColumn; column < startColumn + numColumns; column++) this.#columnWidths.set(column, Number(width));
    return this;
  }

  /** Fits columns to their longest displayed text; the pixel width is an estimate (about 7 px per character). */
  autoResizeColumns(startColumn: number, numColumns: number): Sheet {
    this._checkBounds(1, startColumn, 1, numColumns);
    for (let column = startColumn; column < startColumn + numColumns; column++) {
      let longest = 0;
      for (const [row, cells] of this.#rows) if (cells.has(column)) longest = Math.max(longest, this._display(row, column).length);
      this.#columnWidths.set(column, Math.max(21, longest * 7 + 10));
    }
    return this;
  }

  autoResizeColumn(columnPosition: number): Sheet {
    return this.autoResizeColumns(columnPosition, 1);
  }

  /** Writes a row after the last row with content, adding a row to the grid when it is full. */
  appendRow(rowContents: unknown[]): Sheet {
    if (!Array.isArray(rowContents)) throw signatureError('SpreadsheetApp.Sheet.appendRow', [rowContents]);
    const row = this.getLastRow() + 1;
    if (row > this.#maxRows) this.#maxRows = row;
    if (rowContents.length > this.#maxColumns) this.#maxColumns = rowContents.length;
    rowContents.forEach((value, index) => this._write(row, index + 1, value));
    return this;
  }

  insertRowsAfter(afterPosition: number, howMany: number): Sheet {
    this._checkBounds(afterPosition, 1, 1, 1);
    this._insertRows(afterPosition, howMany);
    return this;
  }

  insertRowAfter(afterPosition: number): Sheet {
    return this.insertRowsAfter(afterPosition, 1);
  }

  insertRowsBefore(beforePosition: number, howMany: number): Sheet {
    this._checkBounds(beforePosition, 1, 1, 1);
    this._insertRows(beforePosition - 1, howMany);
    return this;
  }

  insertRowBefore(beforePosition: number): Sheet {
    return this.insertRowsBefore(beforePosition, 1);
  }

  insertColumnsAfter(afterPosition: number, howMany: number): Sheet {
    this._checkBounds(1, afterPosition, 1, 1);
    this._insertColumns(afterPosition, howMany);
    return this;
  }

  getConditionalFormatRules(): ConditionalFormatRule[] {
    return [...this.#conditionalFormatRules];
  }

  setConditionalFormatRules(rules: ConditionalFormatRule[]): void {
    if (!Array.isArray(rules)) throw signatureError('SpreadsheetApp.Sheet.setConditionalFormatRules', [rules]);
    this.#conditionalFormatRules = [...rules];
  }

  // Internal: used by Range, Spreadsheet and the runtime; hidden from scripts by the membrane.

  _range(row: number, column: number, numRows: number, numColumns: number, open?: { rows: boolean; columns: boolean }): Range {
    this._checkBounds(row, column, numRows, numColumns);
    return new Range(this, row, column, numRows, numColumns, open);
  }

  _rangeFromA1(notation: string): Range {
    const reference = parseA1(notation);
    if (reference.sheetName !== null && reference.sheetName !== this.#name) {
      return this._spreadsheet._sheetNamedOrThrow(reference.sheetName)._rangeFromA1(notation);
    }
    const openRows = reference.endRow === null;
    const openColumns = reference.endColumn === null;
    const row = reference.startRow ?? 1;
    const column = reference.startColumn ?? 1;
    const endRow = reference.endRow ?? this.#maxRows;
    const endColumn = reference.endColumn ?? this.#maxColumns;
    if (row > this.#maxRows || column > this.#maxColumns || endRow > this.#maxRows || endColumn > this.#maxColumns) throw new GasError('Range not found');
    return new Range(this, row, column, endRow - row + 1, endColumn - column + 1, { rows: openRows, columns: openColumns });
  }

  /** Apps Script's errors for a block of cells that does not fit the grid. */
  _checkBounds(row: number, column: number, numRows: number, numColumns: number): void {
    if (![row, column, numRows, numColumns].every(Number.isFinite)) throw signatureError('SpreadsheetApp.Sheet.getRange', [row, column, numRows, numColumns]);
    if (row < 1) throw new GasError('The starting row of the range is too small.');
    if (column < 1) throw new GasError('The starting column of the range is too small.');
    if (numRows < 1) throw new GasError('The number of rows in the range must be at least 1.');
    if (numColumns < 1) throw new GasError('The number of columns in the range must be at least 1.');
    if (row + numRows - 1 > this.#maxRows || column + numColumns - 1 > this.#maxColumns) {
      throw new GasError('The coordinates of the range are outside the dimensions of the sheet.');
    }
  }

  _cell(row: number, column: number): Cell | undefined {
    return this.#rows.get(row)?.get(column);
  }

  _cellForWrite(row: number, column: number): Cell {
    let cells = this.#rows.get(row);
    if (!cells) {
      cells = new Map();
      this.#rows.set(row, cells);
    }
    let cell = cells.get(column);
    if (!cell) {
      cell = emptyCell();
      cells.set(column, cell);
    }
    return cell;
  }

  /** Forgets a cell that holds nothing, so the grid stays sparse. */
  _forgetIfBlank(row: number, column: number): void {
    const cells = this.#rows.get(row);
    const cell = cells?.get(column);
    if (cells && cell && isBlankCell(cell)) {
      cells.delete(column);
      if (cells.size === 0) this.#rows.delete(row);
    }
  }

  /** The cell's value as getValue() returns it. */
  _value(row: number, column: number): CellValue {
    const cell = this._cell(row, column);
    if (!cell) return '';
    if (cell.error) return cell.error.code;
    if (cell.value === null) return '';
    if (typeof cell.value === 'number' && isDateFormat(cell.format)) return serialToDate(cell.value, this._spreadsheet.getSpreadsheetTimeZone());
    return cell.value;
  }

  /** The cell's text as getDisplayValue() returns it. */
  _display(row: number, column: number): string {
    const cell = this._cell(row, column);
    if (!cell) return '';
    if (cell.error) return cell.error.code;
    if (cell.value === null) return '';
    return displayValue(cell.value, cell.format);
  }

  /** Writes a value as setValue does: strings are read like a user's entry unless the cell is plain text. */
  _write(row: number, column: number, input: unknown): void {
    const cell = this._cellForWrite(row, column);
    this._clearContent(row, column);
    if (input === null || input === undefined || input === '') {
      this._forgetIfBlank(row, column);
      return;
    }
    if (types.isDate(input)) {
      const ms = (input as Date).getTime();
      if (Number.isNaN(ms)) throw new GasError('Invalid argument: value');
      cell.value = dateToSerial(ms, this._spreadsheet.getSpreadsheetTimeZone());
      // Unstated by the reference (docs/platform.md, §11): with the switch off the cell shows the serial number.
      if (isAutomaticFormat(cell.format) && this._spreadsheet._init.writtenDatesGetDateFormat !== false) {
        cell.format = cell.value % 1 === 0 ? DEFAULT_DATE_FORMAT : DEFAULT_DATE_TIME_FORMAT;
      }
      return;
    }
    if (typeof input === 'number' || typeof input === 'boolean') {
      cell.value = input;
      return;
    }
    const text = String(input);
    checkCellLength(text);
    if (cell.format === PLAIN_TEXT_FORMAT) {
      cell.value = text;
      return;
    }
    const entry = parseEntry(text);
    if (entry.kind === 'empty') this._forgetIfBlank(row, column);
    else if (entry.kind === 'formula') this._writeFormula(row, column, entry.formula);
    else {
      cell.value = entry.value;
      if (entry.format !== undefined && isAutomaticFormat(cell.format)) cell.format = entry.format;
    }
  }

  /** Stores a formula and the value the spreadsheet's formula evaluator gives it. */
  _writeFormula(row: number, column: number, formula: string): void {
    checkCellLength(formula);
    const cell = this._cellForWrite(row, column);
    this._clearContent(row, column);
    cell.formula = formula;
    this._spreadsheet._formulaWritten(this, row, column);
    const result = this._spreadsheet._evaluate(formula, this, row, column);
    if (result.kind === 'error') {
      cell.error = { code: result.code, message: result.message };
      return;
    }
    const value = result.value;
    if (types.isDate(value)) {
      cell.value = dateToSerial((value as Date).getTime(), this._spreadsheet.getSpreadsheetTimeZone());
      if (isAutomaticFormat(cell.format)) cell.format = cell.value % 1 === 0 ? DEFAULT_DATE_FORMAT : DEFAULT_DATE_TIME_FORMAT;
    } else {
      cell.value = value === null || value === '' ? null : (value as string | number | boolean);
    }
  }

  /**
   * Clears a cell's content; a formula's array result goes with it, as in Sheets, where deleting or
   * overwriting the formula that spilled empties the cells its result filled.
   */
  _clearContent(row: number, column: number): void {
    const cell = this._cell(row, column);
    if (!cell) return;
    const anchor = cell.formula !== null ? `${row}:${column}` : null;
    clearContent(cell);
    if (anchor === null) return;
    for (const [r, c, other] of this._entries()) {
      if (other.spilledFrom !== anchor) continue;
      clearContent(other);
      this._forgetIfBlank(r, c);
    }
  }

  /** Every cell that has an entry, for spill bookkeeping. */
  _entries(): Array<[number, number, Cell]> {
    const entries: Array<[number, number, Cell]> = [];
    for (const [row, cells] of this.#rows) for (const [column, cell] of cells) entries.push([row, column, cell]);
    return entries;
  }

  _setFilter(filter: Filter | null): void {
    this.#filter = filter;
  }

  _insertRows(after: number, count: number): void {
    if (!Number.isInteger(count) || count < 1) throw new GasError('Invalid argument: howMany');
    const moved = [...this.#rows].sort(([a], [b]) => b - a);
    for (const [row, cells] of moved) {
      if (row <= after) continue;
      this.#rows.delete(row);
      this.#rows.set(row + count, cells);
    }
    const hidden = [...this.#hiddenRows];
    this.#hiddenRows.clear();
    for (const row of hidden) this.#hiddenRows.add(row > after ? row + count : row);
    this.#maxRows += count;
  }

  _insertColumns(after: number, count: number): void {
    if (!Number.isInteger(count) || count < 1) throw new GasError('Invalid argument: howMany');
    for (const cells of this.#rows.values()) {
      const moved = [...cells].sort(([a], [b]) => b - a);
      for (const [column, cell] of moved) {
        if (column <= after) continue;
        cells.delete(column);
        cells.set(column + count, cell);
      }
    }
    const widths = [...this.#columnWidths];
    this.#columnWidths.clear();
    for (const [column, width] of widths) this.#columnWidths.set(column > after ? column + count : column, width);
    const hidden = [...this.#hiddenColumns];
    this.#hiddenColumns.clear();
    for (const column of hidden) this.#hiddenColumns.add(column > after ? column + count : column);
    this.#maxColumns += count;
  }

  #compact(): void {
    for (const [row, cells] of [...this.#rows]) for (const column of [...cells.keys()]) this._forgetIfBlank(row, column);
  }
}

/** "Your input contains more than the maximum of 50000 characters in a single cell." A formula's text counts as the cell's input. */
function checkCellLength(text: string): void {
  if (text.length > MAX_CELL_CHARACTERS) throw new GasError(`Your input contains more than the maximum of ${MAX_CELL_CHARACTERS} characters in a single cell.`);
}
