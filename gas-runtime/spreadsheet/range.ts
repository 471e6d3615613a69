// A block of cells on a sheet, with Apps Script's Range API (values, formulas, formats, notes, validation).

import { GasError } from '../errors';
import { signatureError } from '../signature';
import { formatA1 } from './a1';
import { clearFormat } from './cell';
import { DEFAULT_BACKGROUND, normalizeColor } from './colors';
import { DataValidation, checkRuleApplies } from './data-validation';
import { Filter } from './filter';
import { AUTOMATIC_FORMAT } from './number-format';
import type { CellValue, Sheet } from './sheet';

export class Range {
  static readonly gasName = 'Range';

  constructor(
    readonly _sheet: Sheet,
    readonly _row: number,
    readonly _column: number,
    readonly _numRows: number,
    readonly _numColumns: number,
    /** Whether the A1 notation left rows or columns open (A:B, 2:5). */
    readonly _open: { rows: boolean; columns: boolean } = { rows: false, columns: false },
  ) {}

  getSheet(): Sheet {
    return this._sheet;
  }

  getA1Notation(): string {
    return formatA1(this._row, this._column, this._numRows, this._numColumns, this._open);
  }

  getRow(): number {
    return this._row;
  }

  getRowIndex(): number {
    return this._row;
  }

  getColumn(): number {
    return this._column;
  }

  getNumRows(): number {
    return this._numRows;
  }

  getNumColumns(): number {
    return this._numColumns;
  }

  getHeight(): number {
    return this._numRows;
  }

  getWidth(): number {
    return this._numColumns;
  }

  /** The range's own last row (not the sheet's last row with content). */
  getLastRow(): number {
    return this._row + this._numRows - 1;
  }

  getLastColumn(): number {
    return this._column + this._numColumns - 1;
  }

  /** One cell of the range, 1-based relative to its top-left corner. */
  getCell(row: number, column: number): Range {
    if (row < 1 || column < 1 || row > this._numRows || column > this._numColumns) throw new GasError('Cell reference out of range');
    return this._sheet._range(this._row + row - 1, this._column + column - 1, 1, 1);
  }

  offset(rowOffset: number, columnOffset: number, numRows?: number, numColumns?: number): Range {
    return this._sheet._range(this._row + rowOffset, this._column + columnOffset, numRows ?? this._numRows, numColumns ?? this._numColumns);
  }

  isBlank(): boolean {
    return this.#cells((row, column) => this._sheet._cell(row, column)).every((cells) =>
      cells.every((cell) => !cell || (cell.value === null && cell.formula === null && cell.error === null)),
    );
  }

  getValue(): CellValue {
    return this._sheet._value(this._row, this._column);
  }

  getValues(): CellValue[][] {
    return this.#cells((row, column) => this._sheet._value(row, column));
  }

  getDisplayValue(): string {
    return this._sheet._display(this._row, this._column);
  }

  getDisplayValues(): string[][] {
    return this.#cells((row, column) => this._sheet._display(row, column));
  }

  /** Writes one value into every cell of the range. */
  setValue(value: unknown): Range {
    this.#each((row, column) => this._sheet._write(row, column, value));
    return this;
  }

  setValues(values: unknown[][]): Range {
    this.#checkMatrix(values, 'setValues');
    this.#each((row, column, i, j) => this._sheet._write(row, column, (values[i] as unknown[])[j]));
    return this;
  }

  getFormula(): string {
    return this._sheet._cell(this._row, this._column)?.formula ?? '';
  }

  getFormulas(): string[][] {
    return this.#cells((row, column) => this._sheet._cell(row, column)?.formula ?? '');
  }

  setFormula(formula: string): Range {
    this.#each((row, column) => this.#writeFormula(row, column, formula));
    return this;
  }

  setFormulas(formulas: string[][]): Range {
    this.#checkMatrix(formulas, 'setFormulas');
    this.#each((row, column, i, j) => this.#writeFormula(row, column, (formulas[i] as unknown[])[j]));
    return this;
  }

  getNumberFormat(): string {
    return this._sheet._cell(this._row, this._column)?.format ?? AUTOMATIC_FORMAT;
  }

  getNumberFormats(): string[][] {
    return this.#cells((row, column) => this._sheet._cell(row, column)?.format ?? AUTOMATIC_FORMAT);
  }

  setNumberFormat(numberFormat: string): Range {
    this.#each((row, column) => this.#setFormat(row, column, numberFormat));
    return this;
  }

  setNumberFormats(numberFormats: string[][]): Range {
    this.#checkMatrix(numberFormats, 'setNumberFormats');
    this.#each((row, column, i, j) => this.#setFormat(row, column, (numberFormats[i] as unknown[])[j]));
    return this;
  }

  getBackground(): string {
    return this._sheet._cell(this._row, this._column)?.background ?? DEFAULT_BACKGROUND;
  }

  getBackgrounds(): string[][] {
    return this.#cells((row, column) => this._sheet._cell(row, column)?.background ?? DEFAULT_BACKGROUND);
  }

  setBackground(color: string | null): Range {
    this.#each((row, column) => this.#setBackground(row, column, color));
    return this;
  }

  setBackgrounds(colors: Array<Array<string | null>>): Range {
    this.#checkMatrix(colors, 'setBackgrounds');
    this.#each((row, column, i, j) => this.#setBackground(row, column, (colors[i] as Array<string | null>)[j] ?? null));
    return this;
  }

  getNote(): string {
    return this._sheet._cell(this._row, this._column)?.note ?? '';
  }

  getNotes(): string[][] {
    return this.#cells((row, column) => this._sheet._cell(row, column)?.note ?? '');
  }

  setNote(note: string | null): Range {
    this.#each((row, column) => this.#setNote(row, column, note));
    return this;
  }

  setNotes(notes: Array<Array<string | null>>): Range {
    this.#checkMatrix(notes, 'setNotes');
    this.#each((row, column, i, j) => this.#setNote(row, column, (notes[i] as Array<string | null>)[j] ?? null));
    return this;
  }

  clearNote(): Range {
    return this.setNote(null);
  }

  getFontWeight(): string {
    return this._sheet._cell(this._row, this._column)?.fontWeight ?? 'normal';
  }

  getFontWeights(): string[][] {
    return this.#cells((row, column) => this._sheet._cell(row, column)?.fontWeight ?? 'normal');
  }

  setFontWeight(fontWeight: 'bold' | 'normal' | null): Range {
    this.#each((row, column) => this.#setFontWeight(row, column, fontWeight));
    return this;
  }

  setFontWeights(fontWeights: Array<Array<'bold' | 'normal' | null>>): Range {
    this.#checkMatrix(fontWeights, 'setFontWeights');
    this.#each((row, column, i, j) => this.#setFontWeight(row, column, (fontWeights[i] as Array<'bold' | 'normal' | null>)[j] ?? null));
    return this;
  }

  getDataValidation(): DataValidation | null {
    return this._sheet._cell(this._row, this._column)?.validation ?? null;
  }

  getDataValidations(): Array<Array<DataValidation | null>> {
    return this.#cells((row, column) => this._sheet._cell(row, column)?.validation ?? null);
  }

  setDataValidation(rule: DataValidation | null): Range {
    if (rule !== null && !(rule instanceof DataValidation)) throw signatureError('SpreadsheetApp.Range.setDataValidation', [rule]);
    checkRuleApplies(rule);
    this.#each((row, column) => this.#setValidation(row, column, rule));
    return this;
  }

  setDataValidations(rules: Array<Array<DataValidation | null>>): Range {
    this.#checkMatrix(rules, 'setDataValidations');
    // Every rule is checked before any cell changes: a refused call leaves the range as it was.
    for (const row of rules) for (const rule of row) checkRuleApplies(rule ?? null);
    this.#each((row, column, i, j) => this.#setValidation(row, column, (rules[i] as Array<DataValidation | null>)[j] ?? null));
    return this;
  }

  clearDataValidations(): Range {
    return this.setDataValidation(null);
  }

  /**
   * Clears contents and formats; with options, only what they name (contentsOnly, formatOnly,
   * commentsOnly for notes, validationsOnly).
   */
  clear(options?: { contentsOnly?: boolean; formatOnly?: boolean; commentsOnly?: boolean; validationsOnly?: boolean }): Range {
    const only = options ?? {};
    const selective = only.contentsOnly || only.formatOnly || only.commentsOnly || only.validationsOnly;
    this.#each((row, column) => {
      const cell = this._sheet._cell(row, column);
      if (!cell) return;
      if (!selective || only.contentsOnly) this._sheet._clearContent(row, column);
      if (!selective || only.formatOnly) clearFormat(cell);
      if (only.commentsOnly) delete cell.note;
      if (only.validationsOnly) delete cell.validation;
      this._sheet._forgetIfBlank(row, column);
    });
    return this;
  }

  clearContent(): Range {
    return this.clear({ contentsOnly: true });
  }

  clearFormat(): Range {
    return this.clear({ formatOnly: true });
  }

  activate(): Range {
    this._sheet._spreadsheet._activate(this._sheet, this);
    return this;
  }

  createFilter(): Filter {
    if (this._sheet.getFilter()) throw new GasError("You can't create a filter in a sheet that already has a filter.");
    const filter = new Filter(this, () => this._sheet._setFilter(null));
    this._sheet._setFilter(filter);
    return filter;
  }

  getFilter(): Filter | null {
    return this._sheet.getFilter();
  }

  /** Apps Script checks a 2-D argument's shape before writing anything. */
  #checkMatrix(data: unknown, method: string): void {
    if (!Array.isArray(data) || !data.every(Array.isArray)) throw signatureError(`SpreadsheetApp.Range.${method}`, [data]);
    if (data.length !== this._numRows) {
      throw new GasError(
        `The number of rows in the data does not match the number of rows in the range. The data has ${data.length} but the range has ${this._numRows}.`,
      );
    }
    for (const row of data as unknown[][]) {
      if (row.length !== this._numColumns) {
        throw new GasError(
          `The number of columns in the data does not match the number of columns in the range. The data has ${row.length} but the range has ${this._numColumns}.`,
        );
      }
    }
  }

  #cells<T>(read: (row: number, column: number) => T): T[][] {
    const rows: T[][] = [];
    for (let i = 0; i < this._numRows; i++) {
      const cells: T[] = [];
      for (let j = 0; j < this._numColumns; j++) cells.push(read(this._row + i, this._column + j));
      rows.push(cells);
    }
    return rows;
  }

  #each(visit: (row: number, column: number, i: number, j: number) => void): void {
    for (let i = 0; i < this._numRows; i++) {
      for (let j = 0; j < this._numColumns; j++) visit(this._row + i, this._column + j, i, j);
    }
  }

  #writeFormula(row: number, column: number, formula: unknown): void {
    const text = formula === null || formula === undefined ? '' : String(formula);
    if (text === '') {
      this._sheet._clearContent(row, column);
      this._sheet._forgetIfBlank(row, column);
    } else if (text.startsWith('=')) this._sheet._writeFormula(row, column, text);
    else this._sheet._write(row, column, text);
  }

  #setFormat(row: number, column: number, format: unknown): void {
    const cell = this._sheet._cellForWrite(row, column);
    if (format === null || format === undefined || format === '' || format === AUTOMATIC_FORMAT) delete cell.format;
    else cell.format = String(format);
    this._sheet._forgetIfBlank(row, column);
  }

  #setBackground(row: number, column: number, color: string | null): void {
    const cell = this._sheet._cellForWrite(row, column);
    if (color === null || color === '') delete cell.background;
    else cell.background = normalizeColor(color);
    this._sheet._forgetIfBlank(row, column);
  }

  #setNote(row: number, column: number, note: string | null): void {
    const cell = this._sheet._cellForWrite(row, column);
    if (note === null || note === '') delete cell.note;
    else cell.note = String(note);
    this._sheet._forgetIfBlank(row, column);
  }

  #setFontWeight(row: number, column: number, fontWeight: 'bold' | 'normal' | null): void {
    const cell = this._sheet._cellForWrite(row, column);
    if (fontWeight === 'bold') cell.fontWeight = 'bold';
    else delete cell.fontWeight;
    this._sheet._forgetIfBlank(row, column);
  }

  #setValidation(row: number, column: number, rule: DataValidation | null): void {
    const cell = this._sheet._cellForWrite(row, column);
    if (rule === null) delete cell.validation;
    else cell.validation = rule;
    this._sheet._forgetIfBlank(row, column);
  }
}
