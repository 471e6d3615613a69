// The workbench's grid with 20,000 rows in Chromium: paste, first draw, scroll, click and shift-click,
// timed inside the page (performance.now, from the event to the drawn result). Asserts nothing.
//
//   npm run build && npx tsx bench/workbench-grid.ts [--rows 20000] [--repeat 15]
//     [--library-dir DIR]   also time jspreadsheet-ce from DIR/node_modules (installed there, not here)
//
// The workbench starts as the browser tests start it (test/support), with the built add-in.

import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Page } from 'playwright-core';
import { launchBrowser } from '../test/support/browser';
import { startWorkbench } from '../test/support/workbench-process';

const { values: flags } = parseArgs({
  options: {
    rows: { type: 'string', default: '20000' },
    repeat: { type: 'string', default: '15' },
    'library-dir': { type: 'string' },
  },
});
const ROWS = Number(flags.rows);
const REPEAT = Number(flags.repeat);

function summary(times: number[]): string {
  const sorted = [...times].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  return `median ${median.toFixed(1)} ms, max ${sorted[sorted.length - 1]!.toFixed(1)} ms (n=${sorted.length})`;
}

/**
 * Clicks a drawn cell inside the page and resolves with the ms until the page's selection is `selection`
 * and `doneSelector` is drawn (checked every frame).
 */
function timedClick(page: Page, a1: string, shift: boolean, doneSelector: string, selection = a1): Promise<number> {
  return page.evaluate(
    ([at, withShift, selector, wanted]) =>
      new Promise<number>((resolve, reject) => {
        const td = document.querySelector(`td[data-a1="${at}"]`);
        if (!td) return reject(new Error(`${at} is not drawn`));
        const t0 = performance.now();
        td.dispatchEvent(new MouseEvent('click', { bubbles: true, shiftKey: withShift }));
        const check = (): void => {
          const grid = (window as unknown as { workbenchGrid: { shape(): { selection: string } } }).workbenchGrid;
          if (grid.shape().selection === wanted && document.querySelector(selector)) resolve(performance.now() - t0);
          else requestAnimationFrame(check);
        };
        check();
      }),
    [a1, shift, doneSelector, selection] as const,
  );
}

/** Scrolls to `top` and resolves with the ms until row `row`'s cell is drawn with its value. */
function timedScroll(page: Page, top: number, a1: string, text: string): Promise<number> {
  return page.evaluate(
    ([y, at, expected]) =>
      new Promise<number>((resolve) => {
        const scroller = document.getElementById('sheet-scroll')!;
        const t0 = performance.now();
        scroller.scrollTop = y;
        const check = (): void => {
          if (document.querySelector(`td[data-a1="${at}"]`)?.textContent === expected) resolve(performance.now() - t0);
          else requestAnimationFrame(check);
        };
        check();
      }),
    [top, a1, text] as const,
  );
}

async function handWritten(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.waitForSelector('td[data-a1="A1"]');
  const text = Array.from({ length: ROWS }, (_, i) => `r${i + 1}\t${i + 1}`).join('\n');
  const paste = await page.evaluate(
    async (body) => {
      const t0 = performance.now();
      const response = await fetch('/api/grid/paste', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      await response.text();
      return performance.now() - t0;
    },
    JSON.stringify({ sheet: 'Sheet1', a1: 'A1', text }),
  );
  console.log(`paste of ${ROWS} rows (server, one request): ${paste.toFixed(0)} ms`);

  const load = await page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        const t0 = performance.now();
        void (window as unknown as { workbenchGrid: { reload(): Promise<void> } }).workbenchGrid.reload();
        const check = (): void => {
          if (document.querySelector('td[data-a1="B1"]')?.textContent === '1') resolve(performance.now() - t0);
          else requestAnimationFrame(check);
        };
        check();
      }),
  );
  console.log(`first draw after the paste (shape + first page of cells): ${load.toFixed(1)} ms`);
  console.log(`cells in the page: ${await page.evaluate(() => document.querySelectorAll('td[data-a1]').length)}`);

  const clicks: number[] = [];
  for (let i = 0; i < REPEAT; i++) clicks.push(await timedClick(page, i % 2 ? 'A3' : 'A2', false, `td.active[data-a1="${i % 2 ? 'A3' : 'A2'}"]`));
  console.log(`click a cell: ${summary(clicks)}`);

  const total = await page.$eval('#sheet-scroll', (el) => el.scrollHeight);
  const scrolls: number[] = [];
  for (let i = 0; i < REPEAT; i++) {
    const row = 1 + Math.floor((i * 7919) % ROWS);
    const top = Math.max(0, Math.round(((row - 1) / ROWS) * total));
    scrolls.push(await timedScroll(page, top, `B${row}`, String(row)));
  }
  console.log(`scroll to a far row, until its values are drawn: ${summary(scrolls)}`);

  await page.$eval('#sheet-scroll', (el) => {
    el.scrollTop = 0;
  });
  await page.waitForFunction(() => document.querySelector('td[data-a1="B1"]')?.textContent === '1');
  await timedClick(page, 'A1', false, 'td.active[data-a1="A1"]');
  await page.$eval('#sheet-scroll', (el) => {
    el.scrollTop = el.scrollHeight;
  });
  await page.waitForFunction((n) => document.querySelector(`td[data-a1="B${n}"]`)?.textContent === String(n), ROWS);
  const shiftClicks: number[] = [];
  for (let i = 0; i < REPEAT; i++) {
    // Alternating ends, so every click changes the selection.
    const a1 = i % 2 ? `A${ROWS - 1}` : `B${ROWS}`;
    shiftClicks.push(await timedClick(page, a1, true, `td.selected[data-a1="${a1}"]`, `A1:${a1}`));
  }
  console.log(`shift-click from A1 to row ${ROWS} (selection answered and drawn): ${summary(shiftClicks)}`);

  // The route the page used before: the whole grid in one answer.
  const old = await page.evaluate(async () => {
    const t0 = performance.now();
    const body = await (
      await fetch('/api/select', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ sheet: 'Sheet1', a1: 'A1:B2' }) })
    ).text();
    return { ms: performance.now() - t0, bytes: body.length };
  });
  console.log(`for comparison, the old /api/select (whole grid per answer): ${old.ms.toFixed(0)} ms, ${(old.bytes / 1e6).toFixed(1)} MB, before drawing`);
}

/** jspreadsheet-ce from a directory it was installed in, on a blank page, same rows and the same kinds of timing. */
async function jspreadsheet(page: Page, dir: string): Promise<void> {
  const modules = path.join(dir, 'node_modules');
  const files = ['jsuites/dist/jsuites.js', '@jspreadsheet/formula/dist/index.js', 'jspreadsheet-ce/dist/index.js'].map((f) => path.join(modules, f));
  const css = ['jsuites/dist/jsuites.css', 'jspreadsheet-ce/dist/jspreadsheet.css'].map((f) => path.join(modules, f));
  if (!files.every(existsSync)) throw new Error(`jspreadsheet-ce is not installed in ${dir}`);
  const bytes = [...files, ...css].reduce((sum, f) => sum + readFileSync(f).length, 0);
  console.log(
    `\njspreadsheet-ce ${JSON.parse(readFileSync(path.join(modules, 'jspreadsheet-ce/package.json'), 'utf8')).version as string}: ${(bytes / 1024).toFixed(0)} KiB of scripts and styles (unminified dist, with jsuites and its formula package)`,
  );
  await page.setContent(
    `<!DOCTYPE html><html><head>${css.map((f) => `<style>${readFileSync(f, 'utf8')}</style>`).join('')}</head><body><div id="sheet"></div></body></html>`,
  );
  for (const f of files) await page.addScriptTag({ content: readFileSync(f, 'utf8') });
  const render = await page.evaluate((rows) => {
    const data = Array.from({ length: rows }, (_, i) => [`r${i + 1}`, i + 1]);
    const t0 = performance.now();
    const factory = (window as unknown as { jspreadsheet: (el: HTMLElement, options: unknown) => unknown }).jspreadsheet;
    const sheets = factory(document.getElementById('sheet')!, {
      worksheets: [{ data, minDimensions: [26, rows], lazyLoading: true, tableOverflow: true, tableHeight: '700px' }],
    }) as Array<{ updateSelectionFromCoords(x1: number, y1: number, x2: number, y2: number): void }>;
    (window as unknown as { sheet: unknown }).sheet = sheets[0];
    return performance.now() - t0;
  }, ROWS);
  console.log(
    `render ${ROWS} rows × 26 columns (lazy loading): ${render.toFixed(0)} ms; cells in the page: ${await page.evaluate(() => document.querySelectorAll('td').length)}`,
  );
  const selects: number[] = [];
  for (let i = 0; i < REPEAT; i++) {
    selects.push(
      await page.evaluate((rows) => {
        const t0 = performance.now();
        (window as unknown as { sheet: { updateSelectionFromCoords(x1: number, y1: number, x2: number, y2: number): void } }).sheet.updateSelectionFromCoords(
          0,
          0,
          1,
          rows - 1 - (Math.random() < 0.5 ? 1 : 0),
        );
        return performance.now() - t0;
      }, ROWS),
    );
  }
  console.log(`select A1 to row ${ROWS} (updateSelectionFromCoords, in memory): ${summary(selects)}`);
}

async function main(): Promise<void> {
  const [workbench, browser] = await Promise.all([startWorkbench([]), launchBrowser()]);
  const newPage = async (): Promise<Page> => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    // tsx keeps functions' names with a helper the page does not have; the evaluated functions call it.
    await page.addInitScript('window.__name = (f) => f;');
    return page;
  };
  try {
    const page = await newPage();
    console.log(`Hand-written grid, ${ROWS} rows (Chromium ${browser.version()}):`);
    await handWritten(page, workbench.url);
    if (flags['library-dir']) await jspreadsheet(await newPage(), flags['library-dir']);
  } finally {
    await browser.close();
    await workbench.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
