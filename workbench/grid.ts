// What the page's grid draws, read from the runtime's sheets: the sheet's shape (size, hidden rows and
// columns, selection) once, and its cells in pages of rows, so a 20,000-row sheet is never sent whole.
// Everything here reads what the runtime stores; nothing is decided by the page.

import type { Range } from '../gas-runtime/spreadsheet/range';
import type { Sheet } from '../gas-runtime/spreadsheet/sheet';
import type { Cell } from '../gas-runtime/spreadsheet/cell';
import type { Workbench } from './workbench';

/** How many rows one request for cells may ask for: the page asks for what is on screen and a margin. */
export const MAX_PAGE_ROWS = 500;

/**
 * The largest paste request the grid takes, in bytes of JSON: 10,000 rows of a dozen 40-character columns are
 * about 5 MB. Fastify's default body limit (1 MiB) refused 2,500 such rows; the page checks a paste against
 * this (sent in the shape) and says the limit instead of sending what would be refused.
 */
export const MAX_PASTE_BYTES = 64 * 1024 * 1024;

export interface SheetShape {
  sheets: string[];
  sheet: string;
  active: string;
  selection: string;
  maxRows: number;
  maxColumns: number;
  lastRow: number;
  lastColumn: number;
  /** 1-based rows and columns hidden by the script (hideRows, hideColumns): Sheets does not draw them. */
  hiddenRows: number[];
  hiddenColumns: number[];
  /** Each column's width in px, as the script set it (setColumnWidth, autoResizeColumns) or the default. */
  columnWidths: number[];
  /** Rows whose text holds line breaks, with the number of lines Sheets makes room for. */
  tallRows: Record<number, number>;
  toasts: string[];
  menu: Array<{ caption: string; functionName: string }>;
  /** The largest paste the grid takes (MAX_PASTE_BYTES). */
  pasteLimitBytes: number;
}

/** A data validation rule drawn in its cell: a checkbox or a dropdown chip. */
export type CellControl = { kind: 'checkbox'; checked: boolean; checkedValue: string; uncheckedValue: string } | { kind: 'list'; values: string[] };

/** One cell as drawn; fields left out are empty. */
export interface GridCell {
  /** The display value (getDisplayValue: number formats applied). */
  d: string;
  /** The formula, when there is one. */
  f?: string;
  note?: string;
  /** The formula's error message (Sheets shows it on hover). */
  error?: string;
  /** The background drawn: a conditional format's when one applies, else the cell's own. */
  bg?: string;
  bold?: true;
  /** Numbers are right-aligned, booleans centred, as Sheets aligns by value type. */
  align?: 'right' | 'center';
  control?: CellControl;
}

export interface CellPage {
  sheet: string;
  row: number;
  /** null for a cell with nothing to draw: most of a sheet, and most of a page's bytes otherwise. */
  rows: Array<Array<GridCell | null>>;
}

export function sheetShape(workbench: Workbench, sheetName?: string): SheetShape {
  const spreadsheet = workbench.runtime.spreadsheet;
  const sheet = sheetOf(workbench, sheetName);
  const onThisSheet = spreadsheet.getActiveSheet().getName() === sheet.getName();
  const activeRange = spreadsheet.getActiveRange();
  const hiddenRows: number[] = [];
  for (let row = 1; row <= sheet.getMaxRows(); row++) if (sheet.isRowHiddenByUser(row)) hiddenRows.push(row);
  const hiddenColumns: number[] = [];
  for (let column = 1; column <= sheet.getMaxColumns(); column++) if (sheet.isColumnHiddenByUser(column)) hiddenColumns.push(column);
  const columnWidths: number[] = [];
  for (let column = 1; column <= sheet.getMaxColumns(); column++) columnWidths.push(sheet.getColumnWidth(column));
  const tallRows: Record<number, number> = {};
  for (const [row, column, cell] of sheet._entries()) {
    if (typeof cell.value !== 'string' || !cell.value.includes('\n')) continue;
    const lines = sheet._display(row, column).split('\n').length;
    tallRows[row] = Math.max(tallRows[row] ?? 1, lines);
  }
  return {
    // Sheets draws no tab for a hidden sheet (the audit keeps its snapshot in one).
    sheets: spreadsheet
      .getSheets()
      .filter((s) => !s.isSheetHidden())
      .map((s) => s.getName()),
    sheet: sheet.getName(),
    active: onThisSheet ? activeRange.getCell(1, 1).getA1Notation() : 'A1',
    selection: onThisSheet ? activeRange.getA1Notation() : 'A1',
    maxRows: sheet.getMaxRows(),
    maxColumns: sheet.getMaxColumns(),
    lastRow: sheet.getLastRow(),
    lastColumn: sheet.getLastColumn(),
    hiddenRows,
    hiddenColumns,
    columnWidths,
    tallRows,
    toasts: workbench.runtime.ui.toasts.map((t) => t.message),
    menu: workbench.menu(),
    pasteLimitBytes: MAX_PASTE_BYTES,
  };
}

/** The top-left cell a person can see: a sheet opens there, not on a hidden A1 (the audit hides its id row and column). */
export function firstShownCell(workbench: Workbench, sheetName: string): string {
  const sheet = sheetOf(workbench, sheetName);
  let row = 1;
  while (row < sheet.getMaxRows() && sheet.isRowHiddenByUser(row)) row++;
  let column = 1;
  while (column < sheet.getMaxColumns() && sheet.isColumnHiddenByUser(column)) column++;
  return sheet.getRange(row, column).getA1Notation();
}

/** Rows `row`…`row + count - 1` (cut to the sheet), every column. */
export function cellPage(workbench: Workbench, sheetName: string, row: number, count: number): CellPage {
  const sheet = sheetOf(workbench, sheetName);
  if (!Number.isInteger(row) || row < 1) throw new Error(`Rows start at 1, not ${String(row)}.`);
  if (!Number.isInteger(count) || count < 1 || count > MAX_PAGE_ROWS) throw new Error(`Ask for 1 to ${MAX_PAGE_ROWS} rows at a time, not ${String(count)}.`);
  const last = Math.min(sheet.getMaxRows(), row + count - 1);
  const rules = conditionalBackgrounds(sheet);
  const rows: Array<Array<GridCell | null>> = [];
  for (let r = row; r <= last; r++) {
    const cells: Array<GridCell | null> = [];
    for (let c = 1; c <= sheet.getMaxColumns(); c++) cells.push(gridCell(sheet, r, c, rules));
    rows.push(cells);
  }
  return { sheet: sheet.getName(), row, rows };
}

/** Sheets' "Add [N] more rows at the bottom" (and columns at the right, as Insert › Columns does). */
export function growSheet(workbench: Workbench, sheetName: string, rows: number, columns: number): void {
  const sheet = sheetOf(workbench, sheetName);
  for (const [n, what] of [
    [rows, 'rows'],
    [columns, 'columns'],
  ] as const) {
    if (!Number.isInteger(n) || n < 0 || n > 100_000) throw new Error(`Add 0 to 100,000 ${what}, not ${String(n)}.`);
  }
  if (rows > 0) sheet.insertRowsAfter(sheet.getMaxRows(), rows);
  if (columns > 0) sheet.insertColumnsAfter(sheet.getMaxColumns(), columns);
}

function gridCell(sheet: Sheet, row: number, column: number, rules: ConditionalBackground[]): GridCell | null {
  const cell = sheet._cell(row, column);
  const out: GridCell = { d: sheet._display(row, column) };
  const conditional = rules.find((rule) => rule.applies(row, column, cell));
  const background = conditional?.background ?? cell?.background;
  if (background && background !== '#ffffff') out.bg = background;
  if (!cell) return out.bg ? out : null;
  if (cell.formula) out.f = cell.formula;
  if (cell.note) out.note = cell.note;
  if (cell.error) out.error = cell.error.message;
  if (cell.fontWeight === 'bold') out.bold = true;
  if (!cell.error && typeof cell.value === 'number') out.align = 'right';
  if (!cell.error && typeof cell.value === 'boolean') out.align = 'center';
  const control = controlOf(cell);
  if (control) out.control = control;
  return out;
}

/** A checkbox (requireCheckbox) or a dropdown (requireValueInList with its dropdown shown). */
function controlOf(cell: Cell): CellControl | undefined {
  const state = cell.validation?._state;
  if (!state) return undefined;
  if (state.criteria === 'CHECKBOX') {
    // Without values a checkbox holds TRUE / FALSE; with them, the checked (and unchecked) value.
    const [on, off] = state.values;
    const checkedValue = on === undefined ? 'TRUE' : String(on);
    const uncheckedValue = off === undefined ? (on === undefined ? 'FALSE' : '') : String(off);
    const checked = on === undefined ? cell.value === true : String(cell.value ?? '') === checkedValue;
    return { kind: 'checkbox', checked, checkedValue, uncheckedValue };
  }
  if (state.criteria === 'VALUE_IN_LIST' && state.values[1] !== false) {
    return { kind: 'list', values: (state.values[0] as unknown[]).map(String) };
  }
  return undefined;
}

interface ConditionalBackground {
  background: string;
  applies(row: number, column: number, cell: Cell | undefined): boolean;
}

/**
 * The sheet's conditional format rules that set a background, in order: the first whose range holds the
 * cell and whose condition is met colours it, as in Sheets. Conditions the runtime has no evaluator for
 * (custom formulas) never apply: the grid draws less rather than guess.
 */
function conditionalBackgrounds(sheet: Sheet): ConditionalBackground[] {
  return sheet.getConditionalFormatRules().flatMap((rule) => {
    const state = rule._state;
    if (!state.background || state.criteria === null) return [];
    const ranges = (state.ranges as Range[]).filter((range) => range.getSheet() === sheet);
    const test = conditionTest(state.criteria, state.values);
    if (!test) return [];
    const background = state.background;
    return [
      {
        background,
        applies: (row: number, column: number, cell: Cell | undefined) =>
          ranges.some((r) => row >= r.getRow() && row < r.getRow() + r.getNumRows() && column >= r.getColumn() && column < r.getColumn() + r.getNumColumns()) &&
          test(cell),
      },
    ];
  });
}

function conditionTest(criteria: string, values: unknown[]): ((cell: Cell | undefined) => boolean) | null {
  const blank = (cell: Cell | undefined): boolean => !cell || (cell.error === null && (cell.value === null || cell.value === ''));
  const number = (cell: Cell | undefined): number | null => (cell && !cell.error && typeof cell.value === 'number' ? cell.value : null);
  const text = (cell: Cell | undefined): string => (cell && !cell.error && cell.value !== null ? String(cell.value) : '');
  const [a, b] = values.map((v) => (typeof v === 'number' ? v : Number(v)));
  const compare =
    (ok: (n: number) => boolean) =>
    (cell: Cell | undefined): boolean => {
      const n = number(cell);
      return n !== null && ok(n);
    };
  const needle = String(values[0] ?? '').toLowerCase();
  switch (criteria) {
    case 'CELL_EMPTY':
      return blank;
    case 'CELL_NOT_EMPTY':
      return (cell) => !blank(cell);
    case 'NUMBER_BETWEEN':
      return compare((n) => n >= Math.min(a!, b!) && n <= Math.max(a!, b!));
    case 'NUMBER_NOT_BETWEEN':
      return compare((n) => n < Math.min(a!, b!) || n > Math.max(a!, b!));
    case 'NUMBER_EQUAL_TO':
      return compare((n) => n === a);
    case 'NUMBER_NOT_EQUAL_TO':
      return compare((n) => n !== a);
    case 'NUMBER_GREATER_THAN':
      return compare((n) => n > a!);
    case 'NUMBER_GREATER_THAN_OR_EQUAL_TO':
      return compare((n) => n >= a!);
    case 'NUMBER_LESS_THAN':
      return compare((n) => n < a!);
    case 'NUMBER_LESS_THAN_OR_EQUAL_TO':
      return compare((n) => n <= a!);
    // Sheets' text conditions ignore case.
    case 'TEXT_CONTAINS':
      return (cell) => text(cell).toLowerCase().includes(needle);
    case 'TEXT_DOES_NOT_CONTAIN':
      return (cell) => !text(cell).toLowerCase().includes(needle);
    case 'TEXT_EQUAL_TO':
      return (cell) => text(cell).toLowerCase() === needle;
    case 'TEXT_STARTS_WITH':
      return (cell) => text(cell).toLowerCase().startsWith(needle);
    case 'TEXT_ENDS_WITH':
      return (cell) => text(cell).toLowerCase().endsWith(needle);
    default:
      return null;
  }
}

function sheetOf(workbench: Workbench, name?: string): Sheet {
  if (name === undefined) return workbench.runtime.spreadsheet.getActiveSheet();
  const sheet = workbench.runtime.spreadsheet.getSheetByName(name);
  if (!sheet) throw new Error(`No sheet named ${name}.`);
  return sheet;
}
