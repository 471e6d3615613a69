// The workbench as a person uses it. It lives in real time: its runtime's clock catches up between executions.
// Sidebar calls and formulas run as concurrent executions, whose sleeps take real time, so the emulator's
// clock needs no moving and a rate-limit wait shown in the sidebar ends as in Sheets.

import { setTimeout as delay } from 'node:timers/promises';
import { startEmulatorProcess, type RunningEmulator } from '../../emulator/testing';
import { Workbench } from '../../workbench/workbench';
import { DIST, CODE_PATH, ensureBuilt } from '../support/built-bundle';
import { buildDemoState, DEMO_IDS } from '../../emulator/demo-data';

let emulator: RunningEmulator;
let workbench: Workbench;

beforeAll(async () => {
  ensureBuilt();
  emulator = await startEmulatorProcess();
  workbench = new Workbench({ codePath: CODE_PATH, distDir: DIST, apiBaseUrl: emulator.url, companyId: emulator.companyId, token: emulator.token });
});
afterAll(async () => {
  await workbench?.runtime.close();
  await emulator?.stop();
});

async function emulatorOffset(): Promise<number> {
  const response = await fetch(`${emulator.url}/__emulator/clock`);
  return ((await response.json()) as { offsetMs: number }).offsetMs;
}

it('moves the runtime clock by the real time that passed between two sidebar calls', async () => {
  await workbench.callServer('getSettings', []);
  const before = workbench.runtime.clock.now();
  await delay(400);
  const answer = await workbench.callServer('getSettings', []);
  expect(answer.ok).toBe(true);
  expect(workbench.runtime.clock.now() - before).toBeGreaterThanOrEqual(400);
});

it("waits out a 429 for real in a formula's execution, keeping the runtime's clock and the emulator's together", async () => {
  const state = await emulator.control.state();
  const metric = state.metrics.find((m) => m.company_id === emulator.companyId);
  if (!metric) throw new Error('the demo data has no metric of the default company');
  await emulator.control.faults({ next429: 1 });
  expect(await emulatorOffset()).toBe(0);

  // Sheet1 by name: inserting the formula tests' sheet makes that one active, and tests run in any order.
  await workbench.enter('Sheet1', 'A1', `=METRIC_VALUES("${metric.id}")`);

  // The 429 carried no Retry-After, so the client backed off (a real sleep in a concurrent execution) and then succeeded.
  const offset = await emulatorOffset();
  expect(offset).toBe(0);
  const execution = workbench.runtime.executions.at(-1)!;
  expect(execution).toMatchObject({ functionName: 'METRIC_VALUES', outcome: 'completed' });
  expect(execution.urlFetchCount).toBeGreaterThanOrEqual(2);
  expect(execution.durationMs).toBeGreaterThan(500);
  const [date, value] = workbench.view('Sheet1').rows[0]!.map((cell) => cell.display);
  expect(date).toMatch(/^\d{1,2}\/\d{1,2}\/\d{4}$/);
  expect(value).toMatch(/^-?\d/);
  // Never ahead of real time (a sleep counted without being waited would put it ahead). Behind it is right
  // between executions, by however long the machine took since the last one ended: no bound on that.
  const skew = workbench.runtime.clock.now() - (Date.now() + offset);
  expect(skew).toBeLessThan(2_000);
});

it('shows a sheet filled to its last row, where a paste past row 1,000 grew it only to fit', async () => {
  const sheet = 'Sheet1';
  const rows = Array.from({ length: 1_005 }, (_, i) => `r${i + 1}\t${i + 1}`).join('\n');
  await workbench.paste(sheet, 'D1', rows);
  const view = workbench.view(sheet);
  expect(view.rows).toHaveLength(1_005);
  expect(view.rows[1_004]![4]!.display).toBe('1005');
});

describe('formulas as a spreadsheet computes them (the formula engine, with the add-in nested)', () => {
  const sheetName = 'Engine';
  const display = (a1: string): string => workbench.runtime.spreadsheet.getSheetByName(sheetName)!.getRange(a1).getDisplayValue();
  const runsOf = (name: string): number => workbench.runtime.executions.filter((e) => e.functionName === name).length;

  beforeAll(() => {
    if (!workbench.runtime.spreadsheet.getSheetByName(sheetName)) workbench.runtime.spreadsheet.insertSheet(sheetName);
    // insertSheet activates the new sheet; the person's sheet stays the one in front.
    workbench.select('Sheet1', 'A1');
  });

  it('computes arithmetic, references and ranges, and recomputes them when a referenced cell changes', async () => {
    await workbench.enter(sheetName, 'A2', '5');
    await workbench.enter(sheetName, 'A3', '10');
    await workbench.enter(sheetName, 'B1', '=2*3');
    await workbench.enter(sheetName, 'B2', '=A2*2');
    await workbench.enter(sheetName, 'B3', '=SUM(A2:A3)');
    await workbench.enter(sheetName, 'B4', '=B3+B2');
    expect([display('B1'), display('B2'), display('B3'), display('B4')]).toEqual(['6', '10', '15', '25']);

    await workbench.enter(sheetName, 'A2', '7');
    expect([display('B2'), display('B3'), display('B4')]).toEqual(['14', '17', '31']);
    await workbench.clear(sheetName, 'A3');
    expect([display('B3'), display('B4')]).toEqual(['7', '21']);
  });

  it('knows the common built-ins, and says #NAME? for an unknown function and #DIV/0! for a division by zero', async () => {
    await workbench.enter(sheetName, 'C1', '=ROUND(AVERAGE(2, 3, 4.5), 1)');
    await workbench.enter(sheetName, 'C7', '7');
    await workbench.enter(sheetName, 'C2', '=IF(C7>5, "big", "small")');
    await workbench.enter(sheetName, 'C3', '=INDEX({10, 20, 30}, 1, 2)');
    await workbench.enter(sheetName, 'C4', '=NOPE(1)');
    await workbench.enter(sheetName, 'C5', '=1/0');
    await workbench.enter(sheetName, 'C6', '=TODAY()');
    expect([display('C1'), display('C2'), display('C3')]).toEqual(['3.2', 'big', '20']);
    const sheet = workbench.runtime.spreadsheet.getSheetByName(sheetName)!;
    expect(sheet._cell(4, 3)?.error).toEqual({ code: '#NAME?', message: "Unknown function: 'nope'." });
    expect(sheet._cell(5, 3)?.error?.code).toBe('#DIV/0!');
    // TODAY is the runtime's day in the spreadsheet's zone, shown as a date as Sheets formats it.
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: workbench.runtime.spreadsheet.getSpreadsheetTimeZone() }).format(
      new Date(workbench.runtime.clock.now()),
    );
    const [year, month, day] = today.split('-').map(Number);
    expect(display('C6')).toBe(`${month}/${day}/${year}`);
  });

  it("runs the add-in's function nested in arithmetic as a custom function, again only when its arguments change", async () => {
    const state = buildDemoState();
    const metricId = DEMO_IDS.metrics.monthlyRecurringRevenue;
    const june = state.data_points.find((p) => p.metric_id === metricId && p.date === '2024-06-01')!;
    await workbench.enter(sheetName, 'D1', '2024-06');
    const before = runsOf('METRIC_VALUE');
    await workbench.enter(sheetName, 'D2', `=METRIC_VALUE("${metricId}", D1)/100`);
    expect(Number(workbench.runtime.spreadsheet.getSheetByName(sheetName)!.getRange('D2').getValue())).toBeCloseTo(Number(june.value) / 100, 6);
    expect(runsOf('METRIC_VALUE')).toBe(before + 1);

    // A change elsewhere recalculates the formula's arithmetic, not its custom function.
    await workbench.enter(sheetName, 'A2', '8');
    expect(runsOf('METRIC_VALUE')).toBe(before + 1);
    // A change of its argument runs it again.
    await workbench.enter(sheetName, 'D1', '2024-05');
    const may = state.data_points.find((p) => p.metric_id === metricId && p.date === '2024-05-01')!;
    expect(runsOf('METRIC_VALUE')).toBe(before + 2);
    expect(Number(workbench.runtime.spreadsheet.getSheetByName(sheetName)!.getRange('D2').getValue())).toBeCloseTo(Number(may.value) / 100, 6);
  });

  it("lets IFERROR catch the add-in's error, and shows it in the cell otherwise", async () => {
    await workbench.enter(sheetName, 'E1', '=IFERROR(METRIC_VALUE("not an id", "2024-06"), "none")');
    await workbench.enter(sheetName, 'E2', '=METRIC_VALUE("not an id", "2024-06")*2');
    expect(display('E1')).toBe('none');
    const error = workbench.runtime.spreadsheet.getSheetByName(sheetName)!._cell(2, 5)?.error;
    expect(error?.code).toBe('#ERROR!');
    expect(error?.message).toMatch(/id/i);
  });

  it('runs a single add-in call again when a cell it reads changes, as Sheets does', async () => {
    const metricId = DEMO_IDS.metrics.monthlyRecurringRevenue;
    await workbench.enter(sheetName, 'F1', '2024-06');
    await workbench.enter(sheetName, 'F2', `=METRIC_VALUE("${metricId}", F1)`);
    const first = workbench.runtime.spreadsheet.getSheetByName(sheetName)!.getRange('F2').getValue();
    const before = runsOf('METRIC_VALUE');
    await workbench.enter(sheetName, 'F1', '2024-05');
    expect(runsOf('METRIC_VALUE')).toBe(before + 1);
    expect(workbench.runtime.spreadsheet.getSheetByName(sheetName)!.getRange('F2').getValue()).not.toEqual(first);
  });
});
