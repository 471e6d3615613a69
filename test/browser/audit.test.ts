// The portfolio audit in Chromium on the workbench: build it, edit one cell in the grid, push it.

import path from 'node:path';
import type { Browser, Frame, Page } from 'playwright-core';
import { DEMO_IDS } from '../../emulator/demo-data';
import { launchBrowser, sidebarFrame } from '../support/browser';
import { ROOT } from '../support/built-bundle';
import { startWorkbench, type RunningWorkbench } from '../support/workbench-process';

jest.setTimeout(90_000);

let workbench: RunningWorkbench;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  [workbench, browser] = await Promise.all([startWorkbench(['--preset-token']), launchBrowser()]);
  page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  await page.goto(workbench.url);
});
afterAll(async () => {
  await browser?.close();
  await workbench?.stop();
});

const sidebar = (): Promise<Frame> => sidebarFrame(page);

it('builds the audit of the demo fund, and pushes one edited cell', async () => {
  const frame = await sidebar();
  await frame.click('#tab-portfolio');
  await frame.click('#audit-build');
  await frame.waitForFunction(() => /success/.test(document.querySelector('#portfolio-status')?.className ?? ''));
  expect(await frame.textContent('#portfolio-status')).toMatch(/^Built "Portfolio audit": 12 companies × 15 properties, \d+% complete \(\d+ blank cells highlighted\)\.$/);

  // The grid now shows the audit sheet; find Headquarters of the fourth company.
  await page.waitForFunction(() => document.querySelector('.tabs button[aria-selected="true"]')?.textContent === 'Portfolio audit');
  const target = await page.evaluate((profileId) => {
    const cells = Array.from(document.querySelectorAll<HTMLTableCellElement>('td'));
    const header = cells.find((td) => td.textContent === 'Headquarters')!;
    const column = header.dataset.a1!.replace(/\d+$/, '');
    const row = cells.find((td) => td.textContent === profileId && td.dataset.a1!.startsWith('A'))!.dataset.a1!.slice(1);
    return `${column}${row}`;
  }, DEMO_IDS.profile(4));
  await page.click(`td[data-a1="${target}"]`);
  await page.waitForSelector(`td.active[data-a1="${target}"]`);
  await page.fill('#formula', 'Lisbon');
  await page.press('#formula', 'Enter');
  await page.waitForFunction((a1) => document.querySelector(`td[data-a1="${a1}"]`)?.textContent === 'Lisbon', target);

  await frame.click('#audit-push');
  await frame.waitForFunction(() => document.querySelector('.progress-text')?.textContent === 'Finished.');
  expect(await frame.textContent('#portfolio-results > .status')).toMatch(/^\d+ cells compared: 1 (created|updated), \d+ unchanged\.$/);
  await (await page.$('aside'))!.screenshot({ path: path.join(ROOT, 'test-artifacts', 'sidebar-audit.png') });
  await page.screenshot({ path: path.join(ROOT, 'test-artifacts', 'workbench-audit.png') });
});
