// The workbench's grid is a spreadsheet where a newcomer first tries it: typing straight into cells, the
// keys Sheets answers to, drag-select, and formulas with arithmetic, references, ranges and built-ins, with
// the add-in's functions nested in them.

import { buildDemoState, DEMO_IDS } from '../../emulator/demo-data';
import { showSheet, useWorkbenchPage } from '../support/browser';

jest.setTimeout(90_000);

const session = useWorkbenchPage(['--preset-token'], { width: 1400, height: 900 });

interface Shape {
  active: string;
  selection: string;
}

const text = (a1: string): Promise<string | null> => session.page.textContent(`td[data-a1="${a1}"]`);
const shape = (): Promise<Shape> => session.page.evaluate(() => (window as unknown as { workbenchGrid: { shape(): Shape } }).workbenchGrid.shape());
const showing = (a1: string, value: string) =>
  session.page.waitForFunction(([at, v]) => document.querySelector(`td[data-a1="${at}"]`)?.textContent === v, [a1, value] as const);
const activeIs = (a1: string) => session.page.waitForSelector(`td.active[data-a1="${a1}"]`);

/** Clicks a cell and types into it as a person does: no formula bar, Enter to finish. */
async function typeIn(a1: string, input: string): Promise<void> {
  await session.page.click(`td[data-a1="${a1}"]`);
  await activeIs(a1);
  await session.page.keyboard.type(input);
  await session.page.keyboard.press('Enter');
}

beforeAll(() => showSheet(session.page, 'Sheet1'));

it('computes =2*3, =A2*2, =SUM(A2:A3) and =METRIC_VALUE(…)/100 typed straight into cells, and recomputes on a change', async () => {
  await typeIn('A2', '5');
  await showing('A2', '5');
  // Enter moved down to A3: typing goes there.
  await activeIs('A3');
  await session.page.keyboard.type('10');
  await session.page.keyboard.press('Enter');
  await showing('A3', '10');

  await typeIn('B1', '=2*3');
  await typeIn('B2', '=A2*2');
  await typeIn('B3', '=SUM(A2:A3)');
  await showing('B1', '6');
  await showing('B2', '10');
  await showing('B3', '15');

  const june = buildDemoState().data_points.find((p) => p.metric_id === DEMO_IDS.metrics.monthlyRecurringRevenue && p.date === '2024-06-01')!;
  await typeIn('C1', `=METRIC_VALUE("${DEMO_IDS.metrics.monthlyRecurringRevenue}", "2024-06")/100`);
  await session.page.waitForFunction(() => /^\d/.test(document.querySelector('td[data-a1="C1"]')?.textContent ?? ''));
  expect(Number(await text('C1'))).toBeCloseTo(Number(june.value) / 100, 2);

  // A referenced cell changes: what reads it follows, as in Sheets.
  await typeIn('A2', '7');
  await showing('B2', '14');
  await showing('B3', '17');
  // Enter moved down once the entry was in: settled before the next test clicks elsewhere.
  await activeIs('A3');
});

it('moves with the arrows and Enter (Tab in the editor), extends with shift, clears with Delete, and opens the editor with F2', async () => {
  await session.page.click('td[data-a1="E5"]');
  await activeIs('E5');
  await session.page.keyboard.press('ArrowRight');
  await activeIs('F5');
  await session.page.keyboard.press('ArrowDown');
  await activeIs('F6');
  await session.page.keyboard.press('ArrowLeft');
  await session.page.keyboard.press('ArrowUp');
  await activeIs('E5');
  // Tab outside the editor leaves the grid (workbench-a11y.test.ts); the arrow moves right.
  await session.page.keyboard.press('ArrowRight');
  await activeIs('F5');

  // Tab in the editor enters and moves right.
  await session.page.keyboard.type('1');
  await session.page.keyboard.press('Tab');
  await showing('F5', '1');
  await activeIs('G5');
  await session.page.keyboard.type('2');
  await session.page.keyboard.press('Enter');
  await showing('G5', '2');

  // F2 edits what the cell holds; Escape leaves it as it was.
  await session.page.click('td[data-a1="G5"]');
  await activeIs('G5');
  await session.page.keyboard.press('F2');
  expect(await session.page.inputValue('.cell-editor')).toBe('2');
  await session.page.keyboard.type('5');
  await session.page.keyboard.press('Escape');
  expect(await session.page.$('.cell-editor')).toBeNull();
  await showing('G5', '2');

  await session.page.click('td[data-a1="F5"]');
  await activeIs('F5');
  await session.page.keyboard.press('Shift+ArrowRight');
  await session.page.waitForFunction(() => (window as unknown as { workbenchGrid: { shape(): Shape } }).workbenchGrid.shape().selection === 'F5:G5');
  await session.page.keyboard.press('Delete');
  await showing('F5', '');
  await showing('G5', '');
});

it('selects the cells a drag passes over', async () => {
  // Once the grid has drawn what it fetched (the last test's Delete redraws it); locators, not element handles, as a
  // handle taken before a redraw is detached.
  await session.page.waitForFunction(() => (window as unknown as { workbenchGrid: { settled(): boolean } }).workbenchGrid.settled());
  await session.page.locator('td[data-a1="B8"]').waitFor();
  const a = (await session.page.locator('td[data-a1="B8"]').boundingBox())!;
  const b = (await session.page.locator('td[data-a1="D10"]').boundingBox())!;
  await session.page.mouse.move(a.x + 10, a.y + 5);
  await session.page.mouse.down();
  await session.page.mouse.move(a.x + 40, a.y + 20, { steps: 3 });
  await session.page.mouse.move(b.x + 10, b.y + 5, { steps: 5 });
  await session.page.mouse.up();
  await session.page.waitForFunction(() => (window as unknown as { workbenchGrid: { shape(): Shape } }).workbenchGrid.shape().selection === 'B8:D10');
  expect(await session.page.$$eval('td.selected', (cells) => cells.length)).toBe(9);
  expect((await shape()).active).toBe('B8');
});

it("shows #ERROR! for a SUM over a column holding a failed custom function's #ERROR!, as Sheets does", async () => {
  await typeIn('H1', '5');
  await typeIn('H2', '=METRIC_VALUE("not an id", "2024-06")');
  await typeIn('H3', '7');
  await showing('H2', '#ERROR!');
  await typeIn('I1', '=SUM(H1:H3)');
  await typeIn('I2', '=IFERROR(SUM(H1:H3), "check inputs")');
  // What the grid draws is what the engine gave the cell: the error, never the 12 of the numbers around it.
  await showing('I1', '#ERROR!');
  await showing('I2', 'check inputs');
});
