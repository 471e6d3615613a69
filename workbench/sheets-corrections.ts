// Where fast-formula-parser computes differently from Google Sheets, corrected in our layer: each correction answers
// rows of the conformance table (test/support/sheets-conformance.ts), which says what Sheets does and where that
// is written down. The parser is kept (MIT; HyperFormula is GPL-3.0 or commercial, see docs/architecture.md);
// these corrections are applied to each parser the engine makes, never to the package's shared modules.

import FormulaParser, { FormulaError, type FunctionArgument } from 'fast-formula-parser';

type SheetsFunction = (...args: FunctionArgument[]) => unknown;

/** One operand of an operator as the parser hands it over: the value (rows for a range or array) and whether it is one. */
interface Operand {
  val: unknown;
  isArray: boolean;
}

/**
 * Functions over ranges that Sheets fails with the first error among their values, where the parser skips errors
 * as it skips text: "=SUM over a column holding #ERROR!" is #ERROR! in Sheets. COUNT, COUNTA and the IS… and
 * IFERROR family are left out: they read an error as a value.
 */
const ERRORS_PASS_THROUGH = [
  'SUM',
  'AVERAGE',
  'AVERAGEA',
  'MAX',
  'MIN',
  'PRODUCT',
  'MEDIAN',
  'SUMSQ',
  'STDEV.S',
  'STDEV.P',
  'VAR.S',
  'VAR.P',
  'LARGE',
  'SMALL',
];

/** ROUND(value, [places]): places is "OPTIONAL - 0 by default" in Sheets; the parser requires it. */
const PLACES_OPTIONAL = ['ROUND', 'ROUNDUP', 'ROUNDDOWN'];

const COMPARISONS = new Set(['=', '<>', '<', '>', '<=', '>=']);

/** Top-level calls whose number Sheets shows as a date (it gives such a cell a date format). */
const DATE_RESULTS = new Set(['TODAY', 'NOW', 'DATE', 'EDATE', 'EOMONTH', 'WORKDAY', 'DATEVALUE']);

/** The first error among a function's arguments, a range's or an array's values included. */
function firstError(args: FunctionArgument[]): FormulaError | undefined {
  for (const arg of args) {
    const values = Array.isArray(arg.value) ? (arg.value as unknown[]).flat(Infinity) : [arg.value];
    const error = values.find((value) => value instanceof FormulaError);
    if (error) return error as FormulaError;
  }
  return undefined;
}

/**
 * The numbers MAX and MIN consider: in a range, an array or a referenced cell only numbers (as SUM reads them);
 * given directly, text that reads as a number and booleans too.
 */
function numbersOf(args: FunctionArgument[]): number[] | FormulaError {
  const numbers: number[] = [];
  for (const arg of args) {
    if (arg.omitted) continue;
    if (arg.isCellRef) {
      if (typeof arg.value === 'number') numbers.push(arg.value);
      continue;
    }
    if (Array.isArray(arg.value)) {
      for (const value of (arg.value as unknown[]).flat(Infinity)) if (typeof value === 'number') numbers.push(value);
      continue;
    }
    const value = arg.value;
    if (typeof value === 'number') numbers.push(value);
    else if (typeof value === 'boolean') numbers.push(value ? 1 : 0);
    else if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) numbers.push(Number(value));
    else if (typeof value === 'string') return FormulaError.VALUE;
  }
  return numbers;
}

/** A whole number argument, or the #VALUE! Sheets gives for one that is not a number. */
function wholeNumber(arg: FunctionArgument | undefined, fallback: number): number | FormulaError {
  if (!arg || arg.omitted || arg.value === null || arg.value === undefined) return fallback;
  const value = typeof arg.value === 'string' && arg.value.trim() !== '' ? Number(arg.value) : arg.value;
  return typeof value === 'number' && Number.isFinite(value) ? value : FormulaError.VALUE;
}

/** Functions Sheets has that the parser lacks or leaves unimplemented (MAX, MIN and COUNTA are empty stubs there). */
const MISSING: Record<string, SheetsFunction> = {
  MAX: (...args) => {
    const numbers = numbersOf(args);
    return numbers instanceof FormulaError ? numbers : numbers.length ? Math.max(...numbers) : 0;
  },
  MIN: (...args) => {
    const numbers = numbersOf(args);
    return numbers instanceof FormulaError ? numbers : numbers.length ? Math.min(...numbers) : 0;
  },
  // "COUNTA counts all values in a dataset, including … text values (including zero-length strings …)"; a blank is no value.
  COUNTA: (...args) =>
    args.reduce((count, arg) => {
      if (arg.omitted) return count;
      if (!Array.isArray(arg.value)) return count + 1;
      return count + (arg.value as unknown[]).flat(Infinity).filter((value) => value !== null && value !== undefined).length;
    }, 0),
  // SEQUENCE(rows, [columns], [start], [step]): columns, start and step default to 1.
  SEQUENCE: (rowsArg, columnsArg, startArg, stepArg) => {
    const [rows, columns, start, step] = [wholeNumber(rowsArg, NaN), wholeNumber(columnsArg, 1), wholeNumber(startArg, 1), wholeNumber(stepArg, 1)];
    for (const part of [rows, columns, start, step]) if (part instanceof FormulaError) return part;
    const [r, c] = [Math.trunc(rows as number), Math.trunc(columns as number)];
    if (!(r >= 1 && c >= 1)) return new FormulaError('#VALUE!', 'SEQUENCE needs at least one row and one column.');
    return Array.from({ length: r }, (_, i) => Array.from({ length: c }, (_, j) => (start as number) + (i * c + j) * (step as number)));
  },
  // The operators inside it work value by value (see broadcast below); the function itself gives its argument back.
  ARRAYFORMULA: (arg) => arg?.value ?? '',
};

/** A value as Sheets compares it: text without case; a blank as empty text beside text, FALSE beside a boolean, else 0. */
function comparable(value: unknown, other: unknown): unknown {
  if (value === null || value === undefined) return typeof other === 'string' ? '' : typeof other === 'boolean' ? false : 0;
  return typeof value === 'string' ? value.toLowerCase() : value;
}

/** Whether an operand holds rows: an array, or a range (which the parser hands over with isArray false). */
const holdsRows = (operand: Operand): boolean => operand.isArray || Array.isArray(operand.val);

/** The rows of an operand: an array or range as it is, a single value as one cell. */
function rowsOf(operand: Operand): unknown[][] {
  return holdsRows(operand) ? (operand.val as unknown[][]) : [[operand.val]];
}

/**
 * Applies the corrections to one parser: the functions above replace or wrap the parser's own, and its operators
 * compare as Sheets compares and, inside ARRAYFORMULA, work value by value over ranges.
 */
export function correctForSheets(parser: FormulaParser, formula: string): void {
  const functions = parser.functions;
  for (const name of ERRORS_PASS_THROUGH) {
    const own = MISSING[name] ?? functions[name];
    if (!own) continue;
    functions[name] = (...args: FunctionArgument[]) => firstError(args) ?? own(...args);
  }
  for (const [name, fn] of Object.entries(MISSING)) if (!ERRORS_PASS_THROUGH.includes(name)) functions[name] = fn;
  for (const name of PLACES_OPTIONAL) {
    const own = functions[name]!;
    functions[name] = (...args: FunctionArgument[]) => own(...(args.length === 1 ? [...args, { value: 0, isArray: false }] : args));
  }
  const average = functions.AVERAGE!;
  // The mean of no values divides by zero: Sheets says #DIV/0!, the parser's 0/0 became #VALUE!.
  functions.AVERAGE = (...args: FunctionArgument[]) => {
    const mean = average(...args);
    return typeof mean === 'number' && Number.isNaN(mean) ? FormulaError.DIV0 : mean;
  };
  const iferror = functions.IFERROR!;
  // IFERROR(value, [value_if_error]): "blank by default".
  functions.IFERROR = (...args: FunctionArgument[]) => {
    if (args.length !== 1) return iferror(...args);
    const value = args[0]!;
    return value.value instanceof FormulaError ? '' : iferror(value, value);
  };

  const utils = parser.utils;
  const own = utils._applyInfix.bind(utils);
  const scalar = (left: Operand, infix: string, right: Operand): unknown =>
    COMPARISONS.has(infix) && !holdsRows(left) && !holdsRows(right)
      ? own({ val: comparable(left.val, right.val), isArray: false }, infix, { val: comparable(right.val, left.val), isArray: false })
      : own(left, infix, right);
  const broadcast = /\bARRAYFORMULA\s*\(/i.test(formula);
  utils._applyInfix = (left: Operand, infix: string, right: Operand): unknown => {
    if (!broadcast || (!holdsRows(left) && !holdsRows(right))) return scalar(left, infix, right);
    const [a, b] = [rowsOf(left), rowsOf(right)];
    const rows = Math.max(a.length, b.length);
    const columns = Math.max(a[0]?.length ?? 0, b[0]?.length ?? 0);
    const at = (grid: unknown[][], row: number, column: number): unknown => {
      const line = grid.length === 1 ? grid[0]! : grid[row];
      if (!line) return FormulaError.NA;
      const value = line.length === 1 ? line[0] : line[column];
      return value === undefined ? FormulaError.NA : value;
    };
    return Array.from({ length: rows }, (_, row) =>
      Array.from({ length: columns }, (_, column) => scalar({ val: at(a, row, column), isArray: false }, infix, { val: at(b, row, column), isArray: false })),
    );
  };
}

/**
 * Whether Sheets shows the formula's number as a date. Sheets gives the result the format of its date operand: a
 * date call or a date cell, plus or minus days, is a date; a date minus a date is a number of days. Anything other
 * than a sum of terms (a product, a comparison, a function of dates) shows as a number.
 */
export function showsAsDate(formula: string, isDateCell: (reference: string) => boolean): boolean {
  const terms = additiveTerms(formula.trim().replace(/^=/, ''));
  if (!terms) return false;
  let dates = 0;
  for (const { sign, text } of terms) {
    const call = /^([A-Z][A-Z0-9.]*)\s*\(/i.exec(text);
    if (call && DATE_RESULTS.has(call[1]!.toUpperCase()) && closesAtEnd(text, call[0].length - 1)) dates += sign;
    else if (/^(?:'[^']+'!|[^'!():]+!)?\$?[A-Z]{1,3}\$?\d+$/i.test(text) && isDateCell(text)) dates += sign;
    else if (text.startsWith('(') && closesAtEnd(text, 0) && showsAsDate(text.slice(1, -1), isDateCell)) dates += sign;
  }
  return dates === 1;
}

/** Whether the bracket opened at `open` closes at the text's last character. */
function closesAtEnd(text: string, open: number): boolean {
  let depth = 0;
  let quoted = false;
  for (let i = open; i < text.length; i++) {
    const char = text[i]!;
    if (char === '"') quoted = !quoted;
    if (quoted) continue;
    if (char === '(') depth++;
    if (char === ')' && --depth === 0) return i === text.length - 1;
  }
  return false;
}

/** A formula's terms joined by + and - outside brackets and text, with their signs; null when anything else joins them. */
function additiveTerms(body: string): Array<{ sign: number; text: string }> | null {
  const terms: Array<{ sign: number; text: string }> = [];
  let depth = 0;
  let quoted = false;
  let sign = 1;
  let current = '';
  for (const char of body) {
    if (char === '"') quoted = !quoted;
    if (quoted || char === '"') {
      current += char;
      continue;
    }
    if (char === '(' || char === '{') depth++;
    if (char === ')' || char === '}') depth--;
    if (depth === 0 && (char === '+' || char === '-')) {
      if (current.trim() === '') {
        if (char === '-') sign = -sign;
        continue;
      }
      terms.push({ sign, text: current.trim() });
      sign = char === '-' ? -1 : 1;
      current = '';
      continue;
    }
    if (depth === 0 && '*/^&<>=%,'.includes(char)) return null;
    current += char;
  }
  if (current.trim() === '') return null;
  terms.push({ sign, text: current.trim() });
  return terms;
}
