// The workbench's state: the built add-in in the Node runtime for Apps Script, its spreadsheet,
// and what a person does to it (type into cells, select, use the menu, call from the sidebar).

import { createGasRuntime, ServerCallError, type GasRuntime } from '../gas-runtime';
import type { FormulaLocation } from '../gas-runtime';
import { emulatorClockMover } from '../emulator/testing';
import { FormulaEngine } from './formula-engine';

export const OWNER = 'analyst@example.com';

export interface CellView {
  /** What the cell shows. */
  display: string;
  formula: string;
  note: string;
  background: string;
}

export interface GridView {
  sheets: string[];
  sheet: string;
  /** The active cell, like B3. */
  active: string;
  /** The selected range, like B3:D10. */
  selection: string;
  rows: CellView[][];
  toasts: string[];
  menu: Array<{ caption: string; functionName: string }>;
}

/** A sidebar the script showed, as the page loads it in place of the one beside the grid. */
export interface ShownSidebar {
  /** Its place among the sidebars shown so far: the page loads it from /sidebar?shown=INDEX. */
  index: number;
  title: string;
}

export interface WorkbenchOptions {
  codePath: string;
  distDir: string;
  apiBaseUrl: string;
  companyId: string;
  timeZone?: string;
  /** Preset token; the README's demo leaves it unset so the sidebar's settings are used as a person would. */
  token?: string;
}

/** Add-in formulas written by a server call wait here until the call ends; then they are evaluated. */
interface PendingFormula {
  sheet: string;
  a1: string;
  formula: string;
}

export class Workbench {
  readonly runtime: GasRuntime;
  readonly #formulas: FormulaEngine;
  readonly #pending: PendingFormula[] = [];
  /** Virtual time the add-in's sleeps added: the runtime and the emulator are both this far ahead of real time. */
  #slept = 0;
  readonly #emulatorClock: { advance(ms: number): void };

  constructor(options: WorkbenchOptions) {
    const emulatorClock = emulatorClockMover(options.apiBaseUrl);
    this.#emulatorClock = emulatorClock;
    this.runtime = createGasRuntime({
      // A sleep moves the runtime's clock without waiting; the emulator's clock moves with it, so its rate
      // window sees the time the add-in believes has passed (as in the tests' stack).
      onSleep: (ms: number) => {
        this.#slept += ms;
        emulatorClock.advance(ms);
      },
      code: { path: options.codePath },
      files: options.distDir,
      owner: OWNER,
      timeZone: options.timeZone ?? 'America/New_York',
      // A formula written by a script cannot run while that script's execution is under way.
      formulaEvaluator: (formula: string, at: FormulaLocation) => {
        this.#pending.push({ sheet: at.sheetName, a1: at.a1, formula });
        return 'Loading…';
      },
    });
    const props = this.runtime.properties.user(OWNER);
    props.setProperty('METRICS_API_BASE_URL', options.apiBaseUrl);
    props.setProperty('METRICS_DEFAULT_COMPANY_ID', options.companyId);
    if (options.token) props.setProperty('METRICS_API_TOKEN', options.token);
    this.runtime.run('onOpen', [{ authMode: 'LIMITED' }], { authMode: 'LIMITED' });
    this.#formulas = new FormulaEngine(this.runtime);
  }

  /**
   * The runtime's clock stands still between executions (right for tests); a person at the workbench
   * lives in real time, so before each execution the clock catches up with it. Without this a rate-limit
   * wait the sidebar shows would never end.
   */
  #catchUp(): void {
    const lag = Date.now() + this.#slept - this.runtime.clock.now();
    if (lag > 0) this.runtime.clock.advance(lag);
  }

  /**
   * Moves the add-in's time and the emulator's forward by `ms` at once, without waiting, as a sleep of the add-in
   * moves them (onSleep): a wait a person would sit out in real time (a rate limit's Retry-After, counted down
   * between a job's steps) is over at the next execution, which catches the runtime's clock up first (#catchUp).
   */
  advanceClock(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new Error(`The clock moves forward by a number of milliseconds ≥ 0, not ${String(ms)}.`);
    this.#slept += ms;
    this.#emulatorClock.advance(ms);
  }

  /**
   * A google.script.run call from the sidebar, in a worker thread beside any other call under way (as
   * Google runs them), so a cancel reaches a step while it runs. Failures come back as data, as the page expects.
   */
  async callServer(name: string, args: unknown[]): Promise<{ ok: true; value: unknown } | { ok: false; error: string }> {
    this.#catchUp();
    try {
      const value = await this.runtime.callServerAsync(name, args);
      await this.#evaluatePending();
      return { ok: true, value };
    } catch (error) {
      await this.#evaluatePending();
      if (error instanceof ServerCallError) return { ok: false, error: error.message };
      throw error;
    }
  }

  /**
   * A menu item, as the add-on menu runs it. Sheets shows one sidebar at a time, so a sidebar the
   * function shows is returned for the page to put in place of the current one.
   */
  async runMenuItem(functionName: string): Promise<ShownSidebar | null> {
    const known = this.menu().some((item) => item.functionName === functionName);
    if (!known) throw new Error(`No menu item runs ${functionName}. Use one of the buttons in the add-on menu.`);
    // Menu items still run on the host thread (a sidebar they show is an HtmlOutput, which does not cross threads): after the calls under way.
    await this.runtime.idle();
    const shownBefore = this.runtime.ui.sidebars.length;
    this.#catchUp();
    this.runtime.run(functionName);
    await this.#evaluatePending();
    const index = this.runtime.ui.sidebars.length - 1;
    if (index < shownBefore) return null;
    return { index, title: this.runtime.ui.sidebars[index]!.title };
  }

  /** The page of a sidebar the script showed (see runMenuItem), or undefined for an index never shown. */
  shownSidebarHtml(index: number): string | undefined {
    return this.runtime.ui.sidebars[index]?.html;
  }

  /**
   * Typing into a cell: a single call of an add-in function runs as a custom function (the runtime's own
   * recalculation); any other formula is computed by the formula engine, with the add-in's functions nested in
   * it run as custom functions; anything else is an entry. Then whatever depends on the cell is recalculated.
   */
  async enter(sheetName: string, a1: string, input: string): Promise<void> {
    await this.enterEach([{ sheet: sheetName, a1, input }]);
  }

  /**
   * Entries made one after another (the page sends together those typed while an earlier write was on its way),
   * each entered as `enter` enters one, in the order made, so the last entry in a cell is the one it keeps; then
   * one recalculation. A recalculation evaluates every formula, so one per entry made 200 typed formulas cost
   * 20,000 evaluations and minutes.
   */
  async enterEach(entries: ReadonlyArray<{ sheet: string; a1: string; input: string }>): Promise<void> {
    const last = new Map<string, { sheet: string; a1: string; input: string }>();
    for (const entry of entries) {
      const sheet = this.#sheet(entry.sheet).getName();
      const a1 = this.#sheet(sheet).getRange(entry.a1).getA1Notation();
      const key = `${sheet}!${a1}`;
      last.delete(key); // kept in the order of the entry that counts
      last.set(key, { sheet, a1, input: entry.input });
    }
    const formulas: Array<{ sheet: string; a1: string; formula: string }> = [];
    for (const { sheet, a1, input } of last.values()) {
      const formula = input.trim();
      this.#formulas.forget(sheet, a1);
      if (formula.startsWith('=') && formula.length > 1) formulas.push({ sheet, a1, formula });
      else this.#sheet(sheet).getRange(a1).setValue(input);
    }
    if (formulas.length) {
      this.#catchUp();
      await this.#formulas.enterAll(formulas);
    }
    await this.#formulas.recalculate();
  }

  /**
   * Delete on a selection: the values and formulas of its cells in shown rows and columns go (a formula's spill
   * with it), then dependents recalculate. Cells in hidden rows and columns are kept: a person cannot see what
   * Delete would take there, and the audit keeps its ids and its marker in them (a cleared marker broke Push
   * changes). Which rows and columns are hidden is read now, as the sheet is, not as the page drew it.
   */
  async clear(sheetName: string, a1: string): Promise<void> {
    const sheet = this.#sheet(sheetName);
    const range = sheet.getRange(a1);
    const top = range.getRow(),
      left = range.getColumn();
    const rows = Array.from({ length: range.getNumRows() }, (_, i) => top + i).filter((row) => !sheet.isRowHiddenByUser(row));
    const columns = Array.from({ length: range.getNumColumns() }, (_, i) => left + i).filter((column) => !sheet.isColumnHiddenByUser(column));
    // Runs of adjacent shown columns, each cleared as one range per run of shown rows.
    const runs = (items: number[]): Array<[number, number]> =>
      items.reduce<Array<[number, number]>>((out, n) => {
        const last = out[out.length - 1];
        if (last && last[0] + last[1] === n) last[1]++;
        else out.push([n, 1]);
        return out;
      }, []);
    for (const [row, numRows] of runs(rows)) {
      for (const [column, numColumns] of runs(columns)) {
        for (let r = row; r < row + numRows; r++) {
          for (let c = column; c < column + numColumns; c++) this.#formulas.forget(sheet.getName(), sheet.getRange(r, c).getA1Notation());
        }
        sheet.getRange(row, column, numRows, numColumns).clearContent();
      }
    }
    await this.#formulas.recalculate();
  }

  /** Pasting tab-separated text at a cell: each value is entered as if typed. */
  async paste(sheetName: string, a1: string, text: string): Promise<void> {
    const sheet = this.#sheet(sheetName);
    const anchor = sheet.getRange(a1);
    const rows = text
      .replace(/\r\n?/g, '\n')
      .replace(/\n$/, '')
      .split('\n')
      .map((line) => line.split('\t'));
    // A loop, not Math.max(...rows): spreading 100,000 rows into arguments overflows the stack.
    const width = rows.reduce((most, r) => Math.max(most, r.length), 0);
    const missing = anchor.getRow() + rows.length - 1 - sheet.getMaxRows();
    if (missing > 0) sheet.insertRowsAfter(sheet.getMaxRows(), missing);
    // Sheets adds columns for a paste wider than the sheet too.
    const missingColumns = anchor.getColumn() + width - 1 - sheet.getMaxColumns();
    if (missingColumns > 0) sheet.insertColumnsAfter(sheet.getMaxColumns(), missingColumns);
    sheet.getRange(anchor.getRow(), anchor.getColumn(), rows.length, width).setValues(rows.map((r) => Array.from({ length: width }, (_, i) => r[i] ?? '')));
    await this.#formulas.recalculate();
  }

  select(sheetName: string, a1: string): void {
    const sheet = this.#sheet(sheetName);
    this.runtime.spreadsheet.setActiveSheet(sheet);
    this.runtime.spreadsheet.setActiveRange(sheet.getRange(a1));
  }

  menu(): Array<{ caption: string; functionName: string }> {
    return this.runtime.ui.menus.flatMap((menu) =>
      menu.entries.flatMap((entry) => (entry.kind === 'item' ? [{ caption: entry.caption, functionName: entry.functionName }] : [])),
    );
  }

  view(sheetName?: string): GridView {
    const spreadsheet = this.runtime.spreadsheet;
    const sheet = sheetName ? this.#sheet(sheetName) : spreadsheet.getActiveSheet();
    // A few empty rows and columns past the data, but never past the sheet: a paste grows it only to fit.
    const rowsShown = Math.min(Math.max(sheet.getLastRow() + 5, 30), sheet.getMaxRows());
    const columnsShown = Math.min(Math.max(sheet.getLastColumn() + 2, 8), sheet.getMaxColumns());
    const range = sheet.getRange(1, 1, rowsShown, columnsShown);
    const display = range.getDisplayValues();
    const formulas = range.getFormulas();
    const notes = range.getNotes();
    const backgrounds = range.getBackgrounds();
    const rows = display.map((row, r) =>
      row.map((text, c) => ({
        display: text,
        formula: formulas[r]?.[c] ?? '',
        note: notes[r]?.[c] ?? '',
        background: backgrounds[r]?.[c] ?? '#ffffff',
      })),
    );
    const onThisSheet = spreadsheet.getActiveSheet().getName() === sheet.getName();
    const active = onThisSheet ? spreadsheet.getActiveRange().getCell(1, 1).getA1Notation() : 'A1';
    const selection = onThisSheet ? spreadsheet.getActiveRange().getA1Notation() : 'A1';
    return {
      sheets: spreadsheet
        .getSheets()
        .filter((s) => !s.isSheetHidden())
        .map((s) => s.getName()),
      sheet: sheet.getName(),
      active,
      selection,
      rows,
      toasts: this.runtime.ui.toasts.map((t) => t.message),
      menu: this.menu(),
    };
  }

  #sheet(name: string) {
    const sheet = this.runtime.spreadsheet.getSheetByName(name);
    if (!sheet) throw new Error(`No sheet named ${name}.`);
    return sheet;
  }

  /** The formulas a call wrote, recalculated together as Sheets recalculates them; then what depends on the cells they changed. */
  async #evaluatePending(): Promise<void> {
    while (this.#pending.length) {
      // A cell whose sheet the call deleted, or whose formula it replaced since, has nothing left to calculate.
      const cells = this.#pending
        .splice(0)
        .filter(({ sheet, a1, formula }) => this.runtime.spreadsheet.getSheetByName(sheet)?.getRange(a1).getFormula() === formula);
      if (cells.length) await this.#formulas.enterAll(cells);
    }
    await this.#formulas.recalculate();
  }
}
