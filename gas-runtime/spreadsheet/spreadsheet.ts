// The active spreadsheet: its sheets, time zone, selection, and the evaluator that gives formulas a value.

import { types } from 'node:util';
import type { CellErrorCode } from '../errors';
import { GasError } from '../errors';
import { User } from '../session';
import { isValidTimeZone } from '../time-zone';
import { formatA1 } from './a1';
import type { Range } from './range';
import { Sheet } from './sheet';
import type { UiRecorder } from './ui';

/** What a formula evaluator may return: a value, or an error code the cell shows. */
export type FormulaResult = string | number | boolean | Date | null | { error: CellErrorCode; message?: string };

/** Where a formula sits, for the evaluator. */
export interface FormulaLocation {
  sheetName: string;
  row: number;
  column: number;
  a1: string;
}

/** Gives a formula its value; the runtime has no spreadsheet engine of its own. */
export type FormulaEvaluator = (formula: string, at: FormulaLocation) => FormulaResult;

/** Without an evaluator every formula shows #NAME?, as an unknown function would. */
export const unknownFormula: FormulaEvaluator = () => ({
  error: '#NAME?',
  message: 'gas-runtime has no formula engine; pass a formulaEvaluator to give formulas values.',
});

export type EvaluatedFormula = { kind: 'value'; value: string | number | boolean | Date | null } | { kind: 'error'; code: CellErrorCode; message: string };

export interface SpreadsheetInit {
  id: string;
  name: string;
  timeZone: string;
  /** null for a file in a Shared Drive. */
  owner: string | null;
  ui: UiRecorder;
  evaluator: FormulaEvaluator;
  /** The `writtenDatesGetDateFormat` switch (assumptions.ts): whether a Date written into an automatic cell gets a date format. */
  writtenDatesGetDateFormat?: boolean;
}

/** A formula's last run: its text, its arguments (as text) and what the cell showed (the runtime's FormulaOutcome). */
export interface FormulaMemo {
  formula: string;
  args: string;
  outcome: unknown;
}

function cellKey(sheet: Sheet, row: number, column: number): string {
  return `${sheet.getSheetId()}:${row}:${column}`;
}

export class Spreadsheet {
  static readonly gasName = 'Spreadsheet';
  readonly #sheets: Sheet[] = [];
  #name: string;
  #timeZone: string;
  #activeSheet: Sheet;
  #activeRange: Range | null = null;
  #nextSheetId = 1;
  /** Formula cells a script wrote since they were last calculated, by "sheetId:row:column". */
  readonly #written = new Map<string, { sheet: Sheet; row: number; column: number }>();
  /** What each formula cell showed after its last run, for the `identicalFormulaRecalculates` switch. */
  readonly #memos = new Map<string, { sheet: Sheet; row: number; column: number; memo: FormulaMemo }>();

  constructor(readonly _init: SpreadsheetInit) {
    this.#name = _init.name;
    this.#timeZone = _init.timeZone;
    this.#activeSheet = new Sheet(this, 'Sheet1', 0);
    this.#sheets.push(this.#activeSheet);
  }

  #developerMetadataIds = 0;

  /** Developer metadata ids are unique in the spreadsheet ("The spreadsheet-scoped unique ID that identifies the metadata"). */
  _nextDeveloperMetadataId(): number {
    return ++this.#developerMetadataIds;
  }

  getId(): string {
    return this._init.id;
  }

  getName(): string {
    return this.#name;
  }

  rename(newName: string): void {
    this.#name = String(newName);
  }

  getUrl(): string {
    return `https://docs.google.com/spreadsheets/d/${this._init.id}/edit`;
  }

  /** "Returns the owner of the document, or null for a document in a shared drive." */
  getOwner(): User | null {
    return this._init.owner === null ? null : new User(this._init.owner);
  }

  getSpreadsheetTimeZone(): string {
    return this.#timeZone;
  }

  /** Date cells keep their wall-clock reading; the instants getValue() returns for them move with the zone. */
  setSpreadsheetTimeZone(timezone: string): void {
    if (typeof timezone !== 'string' || !isValidTimeZone(timezone)) throw new GasError('Invalid argument: timezone');
    this.#timeZone = timezone;
  }

  getSpreadsheetLocale(): string {
    return 'en_US';
  }

  getSheets(): Sheet[] {
    return [...this.#sheets];
  }

  getNumSheets(): number {
    return this.#sheets.length;
  }

  getSheetByName(name: string): Sheet | null {
    return this.#sheets.find((sheet) => sheet.getName() === name) ?? null;
  }

  getSheetById(id: number): Sheet | null {
    return this.#sheets.find((sheet) => sheet.getSheetId() === id) ?? null;
  }

  /** insertSheet(), insertSheet(name), insertSheet(name, index) or insertSheet(index); the new sheet becomes active. */
  insertSheet(nameOrIndex?: string | number, index?: number): Sheet {
    const name = typeof nameOrIndex === 'string' ? nameOrIndex : this.#freeSheetName();
    const position = typeof nameOrIndex === 'number' ? nameOrIndex : (index ?? this.#sheets.length);
    this._checkNewSheetName(name, null);
    const sheet = new Sheet(this, name, this.#newSheetId());
    this.#sheets.splice(Math.max(0, Math.min(position, this.#sheets.length)), 0, sheet);
    this._activate(sheet, null);
    return sheet;
  }

  deleteSheet(sheet: Sheet): void {
    const index = this.#sheets.indexOf(sheet);
    if (index < 0) throw new GasError('Sheet not found');
    if (!this.#sheets.some((other) => other !== sheet && !other.isSheetHidden())) {
      throw new GasError('Sorry, it is not possible to delete all non-hidden sheets. At least one sheet must remain visible.');
    }
    this.#sheets.splice(index, 1);
    if (this.#activeSheet === sheet) this._activate(this.#firstVisible(), null);
  }

  getActiveSheet(): Sheet {
    return this.#activeSheet;
  }

  setActiveSheet(sheet: Sheet): Sheet {
    if (!this.#sheets.includes(sheet)) throw new GasError('Sheet not found');
    this._activate(sheet, null);
    return sheet;
  }

  /** The selection; A1 of the active sheet when nothing was selected. In a custom function, the calling cell. */
  getActiveRange(): Range {
    return this.#activeRange ?? this.#activeSheet._range(1, 1, 1, 1);
  }

  getActiveCell(): Range {
    const range = this.getActiveRange();
    return range.getSheet()._range(range.getRow(), range.getColumn(), 1, 1);
  }

  setActiveRange(range: Range): Range {
    this._activate(range.getSheet(), range);
    return range;
  }

  /** A range by A1 notation, on the named sheet or the active one. */
  getRange(a1Notation: string): Range {
    return this.#activeSheet._rangeFromA1(String(a1Notation));
  }

  toast(msg: string, title?: string, timeoutSeconds?: number): void {
    this._init.ui.toasts.push({ message: String(msg), title: title === undefined ? '' : String(title), timeoutSeconds: timeoutSeconds ?? 5 });
  }

  // Internal: used by sheets, ranges and the runtime; hidden from scripts by the membrane.

  _activate(sheet: Sheet, range: Range | null): void {
    this.#activeSheet = sheet;
    this.#activeRange = range;
  }

  /** The current selection exactly (null when none), so the runtime can restore it after a custom function. */
  _selection(): { sheet: Sheet; range: Range | null } {
    return { sheet: this.#activeSheet, range: this.#activeRange };
  }

  /** A hidden sheet is not shown, so the first visible one becomes active in its place. */
  _sheetHidden(sheet: Sheet): void {
    if (this.#activeSheet === sheet) this._activate(this.#firstVisible(), null);
  }

  #firstVisible(): Sheet {
    return this.#sheets.find((sheet) => !sheet.isSheetHidden()) ?? (this.#sheets[0] as Sheet);
  }

  _sheetNamedOrThrow(name: string): Sheet {
    const sheet = this.getSheetByName(name);
    if (!sheet) throw new GasError('Range not found');
    return sheet;
  }

  _checkNewSheetName(name: string, renaming: Sheet | null): void {
    if (name.trim() === '') throw new GasError('Invalid argument: sheetName');
    const existing = this.#sheets.find((sheet) => sheet !== renaming && sheet.getName().toLowerCase() === name.toLowerCase());
    if (existing) throw new GasError(`A sheet with the name "${name}" already exists. Please enter another name.`);
  }

  _formulaWritten(sheet: Sheet, row: number, column: number): void {
    this.#written.set(cellKey(sheet, row, column), { sheet, row, column });
  }

  _formulaComputed(sheet: Sheet, row: number, column: number): void {
    this.#written.delete(cellKey(sheet, row, column));
  }

  /** The formula cells scripts wrote and nothing calculated since (still holding a formula, on a live sheet). */
  _writtenFormulas(): Array<{ sheet: Sheet; row: number; column: number; formula: string }> {
    return [...this.#written.values()].flatMap(({ sheet, row, column }) => {
      const formula = this.#sheets.includes(sheet) ? sheet._cell(row, column)?.formula : null;
      return formula ? [{ sheet, row, column, formula }] : [];
    });
  }

  _remember(sheet: Sheet, row: number, column: number, memo: FormulaMemo): void {
    this.#memos.set(cellKey(sheet, row, column), { sheet, row, column, memo });
  }

  _memo(sheet: Sheet, row: number, column: number): FormulaMemo | undefined {
    return this.#memos.get(cellKey(sheet, row, column))?.memo;
  }

  /** A flush (or an execution's end): a cell found without its remembered formula forgets its result. */
  _flush(): void {
    for (const [key, { sheet, row, column, memo }] of this.#memos) {
      if (!this.#sheets.includes(sheet) || sheet._cell(row, column)?.formula !== memo.formula) this.#memos.delete(key);
    }
  }

  _evaluate(formula: string, sheet: Sheet, row: number, column: number): EvaluatedFormula {
    const result = this._init.evaluator(formula, { sheetName: sheet.getName(), row, column, a1: formatA1(row, column, 1, 1) });
    if (result !== null && typeof result === 'object' && !types.isDate(result)) {
      return { kind: 'error', code: result.error, message: result.message ?? '' };
    }
    return { kind: 'value', value: result };
  }

  #freeSheetName(): string {
    for (let n = this.#sheets.length + 1; ; n++) if (!this.getSheetByName(`Sheet${n}`)) return `Sheet${n}`;
  }

  /** Sheet ids after the first are large and unordered in Sheets; these are deterministic stand-ins. */
  #newSheetId(): number {
    return (this.#nextSheetId++ * 1_234_567_891) % 2_000_000_000;
  }
}
