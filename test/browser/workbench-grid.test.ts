// The workbench's grid in Chromium drawn as Sheets draws the same spreadsheet: error messages, hidden rows
// and columns, conditional backgrounds, checkboxes and dropdowns, number formats, spills, and 20,000 rows.

import type { GridCell, GridShape } from '../support/grid-types';
import { DEMO_IDS } from '../../emulator/demo-data';
import { gridSettled, outcomeOf, showSheet, sidebarLoaded, useWorkbenchPage } from '../support/browser';

jest.setTimeout(120_000);

const session = useWorkbenchPage(['--preset-token'], { width: 1400, height: 900 });

const text = (a1: string): Promise<string | null> => session.page.textContent(`td[data-a1="${a1}"]`);

/** The page's own view of the sheet, as the grid script holds it. */
function shape(): Promise<GridShape> {
  return session.page.evaluate(() => (window as unknown as { workbenchGrid: { shape(): GridShape } }).workbenchGrid.shape());
}

/** What the server stores for a cell (the runtime's sheet), read through the grid's own route. */
async function stored(sheet: string, row: number, column: number): Promise<GridCell> {
  return session.page.evaluate(
    async ([s, r, c]) => {
      const page = (await (await fetch(`/api/grid/cells?sheet=${encodeURIComponent(s)}&row=${r}&count=1`)).json()) as { rows: Array<Array<GridCell | null>> };
      return page.rows[0]![c - 1] ?? { d: '' };
    },
    [sheet, row, column] as const,
  );
}

async function typeInto(a1: string, input: string): Promise<void> {
  await session.page.click(`td[data-a1="${a1}"]`);
  await session.page.waitForSelector(`td.active[data-a1="${a1}"]`);
  await session.page.fill('#formula', input);
  await session.page.press('#formula', 'Enter');
  // The page draws what was typed at once (class "pending"), so the cell's text alone does not say the server has
  // it: wait for the server's answer, then for the cells it changed to be drawn from the server.
  await session.page.evaluate(() => (window as unknown as { workbenchGrid: { written(): Promise<void> } }).workbenchGrid.written());
  await gridSettled(session.page);
}

describe('Sheet1', () => {
  beforeEach(() => showSheet(session.page, 'Sheet1'));

  it('shows a formula error’s message on hover and in the bar when the cell is selected', async () => {
    await session.page.waitForSelector('td[data-a1="A1"]');
    await typeInto('A1', '=METRIC_VALUE("not-a-metric", "2024-Q1")');
    expect(await text('A1')).toBe('#ERROR!');
    const message = (await stored('Sheet1', 1, 1)).error;
    expect(message).toMatch(/\w+ \w+/);
    expect(await session.page.getAttribute('td[data-a1="A1"]', 'title')).toBe(message);
    // Another cell, then back: the bar names the error of the cell selected.
    await session.page.click('td[data-a1="B1"]');
    await session.page.waitForFunction(() => document.querySelector('#cell-error')?.textContent === '');
    await session.page.click('td[data-a1="A1"]');
    await session.page.waitForFunction((m) => document.querySelector('#cell-error')?.textContent === m, message);
  });

  it('shows numbers as Sheets formats them: 39919496.93, and the fund’s NAV with at most its two decimals', async () => {
    await typeInto('A2', '39919496.93');
    expect(await text('A2')).toBe('39919496.93');
    expect(await session.page.getAttribute('td[data-a1="A2"]', 'class')).toMatch(/\bnumber\b/);
    await typeInto('A3', `=METRIC_VALUE("${DEMO_IDS.metrics.fundNav}", "2024-Q1")`);
    expect(await text('A3')).toMatch(/^\d+(\.\d{1,2})?$/);
  });

  it('clears a formula’s spilled values when the formula is cleared', async () => {
    await typeInto('D1', `=METRIC_VALUES("${DEMO_IDS.metrics.headcount}", "2024-01-01", "2024-06-30", "headers")`);
    expect(await text('E1')).toBe('Headcount');
    expect(await text('D3')).toBe('4/1/2024');
    await typeInto('D1', '');
    for (const a1 of ['E1', 'D2', 'E2', 'D3', 'E3']) expect(await text(a1)).toBe('');
    expect((await stored('Sheet1', 3, 5)).d).toBe('');
  });
});

describe('the portfolio audit', () => {
  /**
   * Builds the audit through the sidebar and answers how many blank cells its status says it highlighted. It waits
   * for the build's outcome, not for a success within a set time: a fresh workbench's first build takes 5 s on a
   * quiet machine and 25 s at a load average of 20, and a build that failed fails here with its own sentence.
   */
  async function buildAudit(): Promise<number> {
    await session.page.reload();
    const frame = await session.sidebar();
    await sidebarLoaded(frame);
    await frame.click('#tab-portfolio');
    // Playwright's click waits until the button is enabled: no load of the tab's holds it (busy()).
    await frame.click('#audit-build');
    const outcome = await outcomeOf(frame, '#panel-portfolio', '#portfolio-status');
    expect(outcome).toEqual({ line: expect.stringMatching(/^Built "Portfolio audit"/), tone: 'success' });
    await session.page.waitForFunction(() => document.querySelector('.tabs button[aria-selected="true"]')?.textContent === 'Portfolio audit');
    await gridSettled(session.page);
    // The grid draws a sheet first and fills its cells as their page arrives.
    await session.page.waitForFunction((id) => document.querySelector('td[data-a1="A3"]')?.textContent === id, DEMO_IDS.profile(1));
    return Number(/\((\d+) blank cells highlighted\)/.exec(outcome.line)?.[1]);
  }

  beforeAll(async () => {
    await buildAudit();
  });
  // The audit's sheet for each test, whatever another describe showed since.
  beforeEach(async () => {
    await showSheet(session.page, 'Portfolio audit');
    await session.page.waitForFunction((id) => document.querySelector('td[data-a1="A3"]')?.textContent === id, DEMO_IDS.profile(1));
  });

  it('hides the id row and the id column', async () => {
    expect(await text('A3')).toBe(DEMO_IDS.profile(1));
    expect(await session.page.isVisible('td[data-a1="A3"]')).toBe(false);
    expect(await session.page.isVisible('td[data-a1="B1"]')).toBe(false);
    expect(await session.page.isVisible('td[data-a1="B2"]')).toBe(true);
    expect(await session.page.isVisible('thead th:text-is("A")')).toBe(false);
  });

  it('draws the blank-cell highlight on exactly the cells the status counted', async () => {
    // Built again: the checkbox and dropdown tests may have filled blank cells of the audit built before.
    const highlighted = await buildAudit();
    expect(highlighted).toBeGreaterThan(0);
    const drawn = await session.page.$$eval('td', (cells) =>
      cells.filter((td) => getComputedStyle(td).backgroundColor === 'rgb(255, 242, 204)').map((td) => (td.querySelector('.chip') ?? td).textContent),
    );
    expect(drawn).toHaveLength(highlighted);
    expect(new Set(drawn)).toEqual(new Set(['']));
  });

  it('draws text with line breaks on as many lines as it has, and other text as the cell holds it', async () => {
    // A freshly loaded grid sizes its tall rows just after it fills their cells: wait for that (or time out).
    await session.page.waitForFunction(() => {
      const tall = Array.from(document.querySelectorAll('td')).filter((td) => (td.textContent ?? '').includes('\n'));
      return tall.length > 0 && tall.every((td) => td.getBoundingClientRect().height >= td.textContent!.split('\n').length * 22);
    });
    const memo = await session.page.$$eval('td', (tds) =>
      tds
        .filter((td) => (td.textContent ?? '').includes('\n'))
        .map((td) => ({ a1: td.dataset.a1!, lines: td.textContent!.split('\n').length, height: td.getBoundingClientRect().height })),
    );
    expect(memo.length).toBeGreaterThan(0);
    for (const cell of memo) expect(cell.height).toBeGreaterThanOrEqual(cell.lines * 22);
    // A rich_text property's HTML reaches the audit as the text a person reads, never as tags.
    expect(await session.page.$$eval('td', (tds) => tds.filter((td) => /<\/?(p|em)>/.test(td.textContent ?? '')).length)).toBe(0);
    const thesis = (await session.page.getAttribute('td:text-matches("compounds data advantages\\.$")', 'data-a1'))!;
    const { row, column } = place(thesis);
    expect(await text(thesis)).toBe((await stored('Portfolio audit', row, column)).d);
  });

  it('toggles a checkbox, storing TRUE or FALSE, and back', async () => {
    const a1 = (await session.page.getAttribute('td.checkbox', 'data-a1'))!;
    const { row, column } = place(a1);
    const before = await session.page.isChecked(`td[data-a1="${a1}"] input`);
    for (const checked of [!before, before]) {
      await session.page.click(`td[data-a1="${a1}"] input`);
      await session.page.waitForFunction(([at, want]) => (document.querySelector(`td[data-a1="${at}"] input`) as HTMLInputElement | null)?.checked === want, [
        a1,
        checked,
      ] as const);
      expect((await stored('Portfolio audit', row, column)).d).toBe(checked ? 'TRUE' : 'FALSE');
    }
  });

  it('lists a dropdown’s values and enters the one chosen', async () => {
    const a1 = (await session.page.getAttribute('td.dropdown', 'data-a1'))!;
    const { row, column } = place(a1);
    const values = (await stored('Portfolio audit', row, column)).control?.values ?? [];
    expect(values.length).toBeGreaterThan(1);
    await session.page.click(`td[data-a1="${a1}"] button.arrow`);
    const listed = await session.page.$$eval('#dropdown-list [role="option"]', (options) => options.map((o) => o.textContent));
    expect(listed).toEqual(values);
    const choice = values[values.length - 1]!;
    await session.page.click(`#dropdown-list [role="option"]:text-is("${choice}")`);
    await session.page.waitForFunction(([at, v]) => document.querySelector(`td[data-a1="${at}"] .chip`)?.textContent === v, [a1, choice] as const);
    expect((await stored('Portfolio audit', row, column)).d).toBe(choice);
  });

  it('works its checkbox and dropdown cells from the keyboard: Space toggles, Alt+Down lists, arrows and Enter choose, focus back on the grid', async () => {
    const box = (await session.page.getAttribute('td.checkbox', 'data-a1'))!;
    // Pressed at the cell's corner, away from its box: a click on the box itself would toggle it.
    await session.page.click(`td[data-a1="${box}"]`, { position: { x: 2, y: 2 } });
    await session.page.waitForSelector(`td.active[data-a1="${box}"]`);
    const before = await session.page.isChecked(`td[data-a1="${box}"] input`);
    await session.page.keyboard.press(' ');
    await session.page.waitForFunction(([at, want]) => (document.querySelector(`td[data-a1="${at}"] input`) as HTMLInputElement | null)?.checked === want, [
      box,
      !before,
    ] as const);
    expect((await stored('Portfolio audit', place(box).row, place(box).column)).d).toBe(before ? 'FALSE' : 'TRUE');
    // Space toggled the value; it did not open the editor with a space in it.
    expect(await session.page.$('.cell-editor')).toBeNull();

    const list = (await session.page.getAttribute('td.dropdown', 'data-a1'))!;
    const { row, column } = place(list);
    const values = (await stored('Portfolio audit', row, column)).control?.values ?? [];
    const held = (await stored('Portfolio audit', row, column)).d;
    await session.page.click(`td[data-a1="${list}"]`, { position: { x: 2, y: 2 } });
    await session.page.waitForSelector(`td.active[data-a1="${list}"]`);
    await session.page.keyboard.press('Alt+ArrowDown');
    await session.page.waitForSelector('#dropdown-list');
    // The focus is on the value the cell holds (or the first), and the arrows move it.
    expect(await session.page.evaluate(() => document.activeElement?.textContent)).toBe(values.includes(held) ? held : values[0]);
    const start = Math.max(0, values.indexOf(held));
    const target = start === values.length - 1 ? start - 1 : start + 1;
    await session.page.keyboard.press(target > start ? 'ArrowDown' : 'ArrowUp');
    await session.page.keyboard.press('Enter');
    await session.page.waitForFunction(([at, v]) => document.querySelector(`td[data-a1="${at}"] .chip`)?.textContent === v, [list, values[target]!] as const);
    expect((await stored('Portfolio audit', row, column)).d).toBe(values[target]);
    expect(await session.page.evaluate(() => document.activeElement?.id)).toBe('grid');
    // Escape closes the list without entering anything.
    await session.page.keyboard.press('Alt+ArrowDown');
    await session.page.waitForSelector('#dropdown-list');
    await session.page.keyboard.press('Escape');
    expect(await session.page.$('#dropdown-list')).toBeNull();
    expect(await session.page.evaluate(() => document.activeElement?.id)).toBe('grid');
    expect((await stored('Portfolio audit', row, column)).d).toBe(values[target]);

    // Home and Ctrl+Home step over the hidden id column and row, as the arrows do.
    await session.page.keyboard.press('Home');
    expect(await session.page.evaluate(() => (window as unknown as { workbenchGrid: { shape(): { active: string } } }).workbenchGrid.shape().active)).toBe(
      `B${row}`,
    );
    await session.page.keyboard.press('Control+Home');
    const first = await session.page.evaluate(() => (window as unknown as { workbenchGrid: { shape(): { active: string } } }).workbenchGrid.shape().active);
    expect(first).toMatch(/^B\d+$/);
  });
});

describe('a 20,000-row sheet', () => {
  it('takes a 20,000-row paste, selects with a shift-click at its far end, and grows by 1000 rows and 26 columns', async () => {
    await showSheet(session.page, 'Sheet1');
    await session.page.evaluate(async () => {
      const lines = Array.from({ length: 20_000 }, (_, i) => `r${i + 1}\t${i + 1}`);
      const response = await fetch('/api/grid/paste', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ sheet: 'Sheet1', a1: 'J1', text: lines.join('\n') }),
      });
      if (!response.ok) throw new Error(await response.text());
      await (window as unknown as { workbenchGrid: { reload(): Promise<void> } }).workbenchGrid.reload();
    });
    expect((await shape()).maxRows).toBe(20_000);
    await session.page.click('td[data-a1="J1"]');
    await session.page.waitForSelector('td.active[data-a1="J1"]');
    await session.page.$eval('#sheet-scroll', (el) => {
      el.scrollTop = el.scrollHeight;
    });
    await session.page.waitForSelector('td[data-a1="K20000"]');
    await session.page.waitForFunction(() => document.querySelector('td[data-a1="K20000"]')?.textContent === '20000');
    await session.page.click('td[data-a1="K20000"]', { modifiers: ['Shift'] });
    await session.page.waitForSelector('td.selected[data-a1="K20000"]');
    expect((await shape()).selection).toBe('J1:K20000');
    // Rows far from the view are not in the page at all.
    expect(await session.page.$('td[data-a1="J1"]')).toBeNull();

    await session.page.click('#add-rows');
    await session.page.waitForFunction(() => (window as unknown as { workbenchGrid: { shape(): GridShape } }).workbenchGrid.shape().maxRows === 21_000);
    await session.page.$eval('#sheet-scroll', (el) => {
      el.scrollTop = el.scrollHeight;
    });
    await session.page.waitForSelector('td[data-a1="K21000"]');
    await session.page.click('#add-columns');
    await session.page.waitForFunction(() => (window as unknown as { workbenchGrid: { shape(): GridShape } }).workbenchGrid.shape().maxColumns === 52);
    // The last column is reachable: scroll right, click it, and it is the active cell.
    await session.page.$eval('#sheet-scroll', (el) => {
      el.scrollLeft = el.scrollWidth;
    });
    await session.page.click('td[data-a1="AZ21000"]');
    await session.page.waitForSelector('td.active[data-a1="AZ21000"]');
    expect((await shape()).active).toBe('AZ21000');
  });
});

function place(a1: string): { row: number; column: number } {
  const m = /^([A-Z]+)(\d+)$/.exec(a1)!;
  let column = 0;
  for (const ch of m[1]!) column = column * 26 + (ch.charCodeAt(0) - 64);
  return { row: Number(m[2]), column };
}
