// The workbench's formulas against what Google Sheets computes (test/support/sheets-conformance.ts): each row's
// cells are entered as the workbench enters them (a single add-in call runs in the runtime, any other formula in the
// formula engine), then the formula, then the sheet recalculates; the cell must hold what Sheets shows.

import { createGasRuntime, type GasRuntime, type Sheet } from '../../gas-runtime';
import { FormulaEngine } from '../../workbench/formula-engine';
import { SHEETS_CONFORMANCE, type CellInput, type ConformanceCase, type SheetsResult } from '../support/sheets-conformance';

const TIME_ZONE = 'America/New_York';

/** The rows' custom functions, as an add-in bundle declares them. */
const BUNDLE = ["function BOOM() { throw new Error('Boom.'); }", 'function DOUBLE(x) { return x * 2; }'].join('\n');

let runtime: GasRuntime;
let engine: FormulaEngine;
let sheets = 0;

beforeAll(() => {
  runtime = createGasRuntime({ code: BUNDLE, timeZone: TIME_ZONE });
  engine = new FormulaEngine(runtime);
});

/** What the workbench does when a person types into a cell (workbench.ts `enter`). */
async function enter(sheetName: string, a1: string, input: CellInput): Promise<void> {
  const sheet = runtime.spreadsheet.getSheetByName(sheetName)!;
  engine.forget(sheetName, a1);
  if (typeof input === 'string' && input.startsWith('=')) {
    await engine.enterAll([{ sheet: sheetName, a1, formula: input }]);
  } else {
    sheet.getRange(a1).setValue(input);
  }
  await engine.recalculate();
}

/** The day a date holds in the spreadsheet's zone, as 2024-01-31. */
function dayOf(date: Date): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' }).format(date);
}

/** What the formula's cell shows, in the shape of the expected result. */
async function sheetsResultOf(row: ConformanceCase): Promise<SheetsResult> {
  const name = `Case ${++sheets}`;
  const sheet = runtime.spreadsheet.insertSheet(name);
  try {
    return await resultOn(sheet, name, row);
  } finally {
    // One case's sheet at a time: the engine recalculates every sheet after each entry.
    runtime.spreadsheet.deleteSheet(sheet);
  }
}

async function resultOn(sheet: Sheet, name: string, row: ConformanceCase): Promise<SheetsResult> {
  for (const [a1, input] of Object.entries(row.cells)) await enter(name, a1, input);
  const at = row.at ?? 'E1';
  await enter(name, at, row.formula);
  const anchor = sheet.getRange(at);
  const cell = sheet._cell(anchor.getRow(), anchor.getColumn());
  if (cell?.error) return { error: cell.error.code };
  if ('spill' in row.expected) {
    const rows = row.expected.spill.length;
    const columns = row.expected.spill[0]!.length;
    return { spill: sheet.getRange(anchor.getRow(), anchor.getColumn(), rows, columns).getValues() as Array<Array<number | string | boolean>> };
  }
  const value = anchor.getValue();
  if (value instanceof Date) return { date: dayOf(value) };
  return { value: value as number | string | boolean };
}

describe('the workbench computes formulas as Google Sheets does', () => {
  it.each(SHEETS_CONFORMANCE.map((row) => [row.topic, row.formula, row] as const))('%s: %s', async (_topic, _formula, row) => {
    const shown = await sheetsResultOf(row);
    if ('value' in row.expected && typeof row.expected.value === 'number' && 'value' in shown && typeof shown.value === 'number') {
      expect(shown.value).toBeCloseTo(row.expected.value, 10);
    } else {
      expect(shown).toEqual(row.expected);
    }
  });

  it('holds at least 40 formulas, each with its source', () => {
    expect(SHEETS_CONFORMANCE.length).toBeGreaterThanOrEqual(40);
    for (const row of SHEETS_CONFORMANCE) expect(row.source).toMatch(/^(support\.google\.com|developers\.google\.com|sheets\.wiki)\//);
  });
});
