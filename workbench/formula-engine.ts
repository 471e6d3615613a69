// The workbench's formulas as Sheets computes them: arithmetic, references, ranges and the common built-in
// functions (SUM, AVERAGE, ROUND, IF, IFERROR, INDEX, TODAY, …) come from fast-formula-parser (MIT), corrected
// where it differs from Sheets by sheets-corrections.ts and held to the conformance table of
// test/support/sheets-conformance.ts; the add-in's custom functions nested in them still run as executions of
// the runtime, each only when its arguments change, as Sheets runs a custom function. Chosen over HyperFormula
// (GPL-3.0-only or commercial, which this unlicensed project cannot take in; docs/architecture.md) and formula.js
// (functions without a parser or references).

import FormulaParser, { FormulaError, type FunctionArgument, type RangeRef } from 'fast-formula-parser';
import { types } from 'node:util';
import { CustomFunctionError, type CellOutput, type GasRuntime } from '../gas-runtime';
import type { CellErrorCode } from '../gas-runtime';
import { parseFormulaCall } from '../gas-runtime/formula-call';
import { formatA1 } from '../gas-runtime/spreadsheet/a1';
import { dateToSerial, serialToDate } from '../gas-runtime/spreadsheet/serial-date';
import type { Sheet } from '../gas-runtime/spreadsheet/sheet';
import { correctForSheets, showsAsDate } from './sheets-corrections';

/** What a formula gives its cell: values to spill from it, or the error it shows. */
export type EngineOutcome = { values: CellOutput[][] } | { error: { code: CellErrorCode; message: string } };

/** Passes over the sheets after a change: enough for chains of dependent formulas; a circle stops here. */
const MAX_PASSES = 10;

const cellKey = (sheet: string, a1: string): string => `${sheet}!${a1}`;

export class FormulaEngine {
  readonly #runtime: GasRuntime;
  readonly #customFunctions: Set<string>;
  /** Per formula cell, the custom-function calls its last evaluation made: a call with the same arguments is not run again. */
  readonly #calls = new Map<string, Map<string, Promise<unknown>>>();
  /** Per cell of a single custom-function call, the arguments it last ran with. */
  readonly #lastArguments = new Map<string, string>();
  /** Per engine formula cell, its last outcome: an unchanged one is not written again. */
  readonly #lastOutcome = new Map<string, string>();
  #queue: Promise<void> = Promise.resolve();

  /** Made before any concurrent execution starts: reading the bundle's functions is a synchronous execution. */
  constructor(runtime: GasRuntime) {
    this.#runtime = runtime;
    // The add-in's custom functions: its top-level functions named in capitals (METRIC_VALUE), as the bundle's
    // JSDoc marks them @customfunction; the sidebar's camelCase server functions are not cell functions.
    this.#customFunctions = new Set(runtime.functionNames().filter((name) => /^[A-Z][A-Z0-9_.]*$/.test(name) && !name.endsWith('_')));
  }

  /** `=NAME(literals and references)` calling the add-in: the runtime's own recalculation runs it (spill, Loading…, concurrency). */
  isSingleCustomCall(formula: string): boolean {
    try {
      return this.#customFunctions.has(parseFormulaCall(formula).functionName.toUpperCase());
    } catch {
      return false;
    }
  }

  /** The arguments a single custom-function call would get now, as text to compare with the last run's. */
  #argumentsOf(sheet: Sheet, formula: string): string {
    const call = parseFormulaCall(formula);
    return JSON.stringify(
      call.args.map((arg) => {
        if (arg.kind !== 'reference') return arg;
        const range = sheet._rangeFromA1(arg.a1);
        return range.getNumRows() === 1 && range.getNumColumns() === 1 ? range.getValue() : range.getValues();
      }),
    );
  }

  /** Records that a single custom-function call ran with the arguments its cell reads now. */
  ranSingleCall(sheetName: string, a1: string, formula: string): void {
    const sheet = this.#sheet(sheetName);
    this.#lastArguments.set(cellKey(sheetName, a1), this.#argumentsOf(sheet, formula));
  }

  /**
   * Formulas entered together (typed, or written by one server call): single custom-function calls run together in
   * the runtime's recalculation, as Sheets runs them; any other formula is evaluated here.
   */
  async enterAll(formulas: ReadonlyArray<{ sheet: string; a1: string; formula: string }>): Promise<void> {
    const single = formulas.filter((f) => this.isSingleCustomCall(f.formula));
    const others = formulas.filter((f) => !single.includes(f));
    await Promise.all([
      single.length ? this.#runtime.recalculate(single.map(({ sheet, a1, formula }) => ({ sheet, cell: a1, formula }))) : null,
      ...others.map((f) => this.enter(f.sheet, f.a1, f.formula)),
    ]);
    for (const f of single) this.ranSingleCall(f.sheet, f.a1, f.formula);
  }

  /** Evaluates a formula the runtime cannot (operators, nesting, built-ins) and writes its outcome in the cell. */
  async enter(sheetName: string, a1: string, formula: string): Promise<void> {
    this.#calls.delete(cellKey(sheetName, a1));
    this.#runtime.writeFormulaOutcome({ sheet: sheetName, cell: a1 }, formula, 'loading');
    const outcome = await this.evaluate(sheetName, a1, formula);
    this.#write(sheetName, a1, formula, outcome);
  }

  #write(sheetName: string, a1: string, formula: string, outcome: EngineOutcome): boolean {
    const text = JSON.stringify(outcome);
    const key = cellKey(sheetName, a1);
    const cell = this.#sheet(sheetName)._rangeFromA1(a1);
    if (this.#lastOutcome.get(key) === text && cell.getFormula() === formula) return false;
    this.#lastOutcome.set(key, text);
    this.#runtime.writeFormulaOutcome({ sheet: sheetName, cell: a1 }, formula, outcome);
    return true;
  }

  /** The formula's outcome, reading the grid as it is now. */
  async evaluate(sheetName: string, a1: string, formula: string): Promise<EngineOutcome> {
    const sheet = this.#sheet(sheetName);
    const anchor = sheet._rangeFromA1(a1);
    const timeZone = this.#runtime.spreadsheet.getSpreadsheetTimeZone();
    const key = cellKey(sheetName, a1);
    const previous = this.#calls.get(key) ?? new Map<string, Promise<unknown>>();
    const made = new Map<string, Promise<unknown>>();
    const functions: Record<string, (...args: FunctionArgument[]) => unknown> = {
      // Sheets' TODAY and NOW: the runtime's clock in the spreadsheet's zone, not this machine's.
      TODAY: () => Math.floor(dateToSerial(this.#runtime.clock.now(), timeZone)),
      NOW: () => dateToSerial(this.#runtime.clock.now(), timeZone),
    };
    for (const name of this.#customFunctions) {
      functions[name] = (...args: FunctionArgument[]) => {
        const callArgs = args.map((arg) => this.#customArgument(arg));
        const callKey = `${name}|${JSON.stringify(callArgs)}`;
        let result = made.get(callKey) ?? previous.get(callKey);
        if (!result) {
          result = this.#runtime.runCustomFunctionAsync(name, callArgs, { at: { sheet: sheetName, cell: a1 } }).then(
            (value) => toEngineValue(value, timeZone),
            // Returned, not thrown: the parser's IFERROR catches an error a function returns.
            (error: unknown) => {
              if (error instanceof CustomFunctionError) return new FormulaError(error.code, error.message);
              throw error;
            },
          );
        }
        made.set(callKey, result);
        return result;
      };
    }
    const parser = new FormulaParser({
      functions,
      onCell: ({ sheet: name, row, col }) => engineValueAt(this.#sheet(name || sheetName), row, col),
      onRange: (ref) => this.#rangeValues(ref, sheetName),
    });
    // The add-in's functions get what Sheets passes a custom function: a reference is read as a cell's value or a range's rows.
    parser.funsPreserveRef.push(...this.#customFunctions);
    correctForSheets(parser, formula);
    let result: unknown;
    try {
      result = await parser.parseAsync(formula.trim().replace(/^=/, ''), { sheet: sheetName, row: anchor.getRow(), col: anchor.getColumn() }, true);
    } catch (error) {
      result = error;
    } finally {
      this.#calls.set(key, made);
    }
    return toOutcome(
      result,
      showsAsDate(formula, (reference) => this.#holdsDate(sheet, reference)),
      timeZone,
    );
  }

  /** Whether a cell the formula names (A1, $B$2, 'Other sheet'!C3) holds a date. */
  #holdsDate(sheet: Sheet, reference: string): boolean {
    const bang = reference.lastIndexOf('!');
    const owner = bang < 0 ? sheet : this.#runtime.spreadsheet.getSheetByName(reference.slice(0, bang).replace(/^'|'$/g, '').replace(/''/g, "'"));
    if (!owner) return false;
    return types.isDate(owner._rangeFromA1(reference.slice(bang + 1).replace(/\$/g, '')).getValue());
  }

  #customArgument(arg: FunctionArgument): unknown {
    if (arg.omitted) return undefined;
    const ref = arg.ref;
    if (ref) {
      const sheet = this.#sheet(ref.sheet);
      if ('from' in ref) return sheet.getRange(ref.from.row, ref.from.col, ref.to.row - ref.from.row + 1, ref.to.col - ref.from.col + 1).getValues();
      return sheet.getRange(ref.row, ref.col).getValue();
    }
    return arg.value;
  }

  /** A range's values for the parser; whole columns and rows stop at the sheet's last row and column. */
  #rangeValues(ref: RangeRef, defaultSheet: string): unknown[][] {
    const sheet = this.#sheet(ref.sheet || defaultSheet);
    const lastRow = Math.min(ref.to.row, Math.max(sheet.getLastRow(), ref.from.row));
    const lastColumn = Math.min(ref.to.col, Math.max(sheet.getLastColumn(), ref.from.col));
    const rows: unknown[][] = [];
    for (let row = ref.from.row; row <= lastRow; row++) {
      const cells: unknown[] = [];
      for (let column = ref.from.col; column <= lastColumn; column++) cells.push(engineValueAt(sheet, row, column));
      rows.push(cells);
    }
    return rows;
  }

  /**
   * After any change to the grid, what depends on it is computed again, as Sheets recalculates: every formula
   * of the engine is evaluated (its custom-function calls run only if their arguments changed), and a single
   * custom-function call runs again only when the arguments it reads changed. Repeats while anything changed,
   * so a chain of formulas settles. One recalculation at a time.
   */
  recalculate(): Promise<void> {
    const next = this.#queue.then(() => this.#recalculateNow());
    this.#queue = next.catch(() => undefined);
    return next;
  }

  async #recalculateNow(): Promise<void> {
    for (let pass = 0; pass < MAX_PASSES; pass++) {
      let changed = false;
      const single: Array<{ sheet: string; cell: string; formula: string }> = [];
      for (const sheet of this.#runtime.spreadsheet.getSheets()) {
        const name = sheet.getName();
        const formulas: Array<[string, string]> = [];
        for (const [row, column, cell] of sheet._entries()) if (cell.formula) formulas.push([formatA1(row, column, 1, 1), cell.formula]);
        for (const [a1, formula] of formulas) {
          const key = cellKey(name, a1);
          if (this.isSingleCustomCall(formula)) {
            const now = this.#argumentsOf(sheet, formula);
            const last = this.#lastArguments.get(key);
            // A formula first seen here (written before it was tracked) counts as current: Sheets has its value.
            if (last === undefined) this.#lastArguments.set(key, now);
            else if (last !== now) single.push({ sheet: name, cell: a1, formula });
          } else if (this.#write(name, a1, formula, await this.evaluate(name, a1, formula))) changed = true;
        }
      }
      if (single.length) {
        await this.#runtime.recalculate(single);
        for (const cell of single) this.ranSingleCall(cell.sheet, cell.cell, cell.formula);
        changed = true;
      }
      if (!changed) return;
    }
  }

  /** Forgets what a cleared or retyped cell held, so its next formula starts afresh. */
  forget(sheetName: string, a1: string): void {
    const key = cellKey(sheetName, a1);
    this.#calls.delete(key);
    this.#lastArguments.delete(key);
    this.#lastOutcome.delete(key);
  }

  #sheet(name: string): Sheet {
    const sheet = this.#runtime.spreadsheet.getSheetByName(name);
    if (!sheet) throw new Error(`No sheet named ${name}.`);
    return sheet;
  }
}

/** A cell as the parser reads it: numbers (dates as serial numbers), text, booleans, null when empty, its error. */
function engineValueAt(sheet: Sheet, row: number, column: number): unknown {
  const cell = sheet._cell(row, column);
  if (!cell) return null;
  if (cell.error) return new FormulaError(cell.error.code, cell.error.message);
  return cell.value ?? null;
}

/** A custom function's result as a value inside a formula: a date is its serial number, as Sheets computes with it. */
function toEngineValue(value: CellOutput | CellOutput[][], timeZone: string): unknown {
  const one = (v: CellOutput): unknown => (types.isDate(v) ? dateToSerial((v as Date).getTime(), timeZone) : v);
  return Array.isArray(value) ? value.map((row) => row.map(one)) : one(value);
}

function toOutcome(result: unknown, asDate: boolean, timeZone: string): EngineOutcome {
  if (result instanceof FormulaError) return { error: errorOf(result) };
  if (result instanceof Error) return { error: { code: '#ERROR!', message: result.message.split('\n')[0] || 'Formula parse error.' } };
  const rows = Array.isArray(result) ? (result as unknown[][]) : [[result]];
  const values = rows.map((row) =>
    (Array.isArray(row) ? row : [row]).map((value): CellOutput => {
      if (value === null || value === undefined) return '';
      if (value instanceof FormulaError) return value.error;
      if (typeof value === 'number' && asDate) return serialToDate(value, timeZone);
      return value as CellOutput;
    }),
  );
  return { values };
}

function errorOf(error: FormulaError): { code: CellErrorCode; message: string } {
  const code = error.error;
  const message = error.message || (error.details instanceof Error ? error.details.message : '');
  // The parser reports an unknown function as not implemented; Sheets says #NAME? and names it.
  const unknown = /Function (\S+) is not implemented/.exec(message);
  if (unknown) return { code: '#NAME?', message: `Unknown function: '${unknown[1]!.toLowerCase()}'.` };
  if (code === '#ERROR!' && !message) return { code, message: 'Formula parse error.' };
  if (/^Redundant input|^Expecting|^NoViableAlt|Error at position/.test(message)) return { code: '#ERROR!', message: 'Formula parse error.' };
  const known: CellErrorCode[] = ['#ERROR!', '#NAME?', '#REF!', '#VALUE!', '#NUM!', '#DIV/0!', '#N/A', '#NULL!'];
  const sheetsMessages: Partial<Record<CellErrorCode, string>> = {
    '#DIV/0!': 'Function DIVIDE parameter 2 cannot be zero.',
    '#N/A': 'Value not available.',
  };
  return known.includes(code as CellErrorCode)
    ? { code: code as CellErrorCode, message: message || sheetsMessages[code as CellErrorCode] || code }
    : { code: '#ERROR!', message: message || code };
}
