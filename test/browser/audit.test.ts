// The portfolio audit in Chromium on the workbench: build it, edit one cell in the grid, push it.

import path from 'node:path';
import type { Frame } from 'playwright-core';
import { DEMO_IDS } from '../../emulator/demo-data';
import { useWorkbenchPage } from '../support/browser';
import { ROOT } from '../support/built-bundle';

jest.setTimeout(90_000);

const session = useWorkbenchPage(['--preset-token'], { width: 1400, height: 1000 });
const sidebar = (): Promise<Frame> => session.sidebar();

it('builds the audit of the demo fund, and pushes one edited cell', async () => {
  const frame = await sidebar();
  await frame.click('#tab-portfolio');
  await frame.click('#audit-build');
  await frame.waitForFunction(() => /success/.test(document.querySelector('#portfolio-status')?.className ?? ''));
  expect(await frame.textContent('#portfolio-status')).toMatch(/^Built "Portfolio audit": 12 companies × 15 properties, \d+% complete \(\d+ blank cells highlighted\)\.$/);

  // The grid now shows the audit sheet; find Headquarters of the fourth company.
  await session.page.waitForFunction(() => document.querySelector('.tabs button[aria-selected="true"]')?.textContent === 'Portfolio audit');
  const target = await session.page.evaluate((profileId) => {
    const cells = Array.from(document.querySelectorAll<HTMLTableCellElement>('td'));
    const header = cells.find((td) => td.textContent === 'Headquarters')!;
    const column = header.dataset.a1!.replace(/\d+$/, '');
    const row = cells.find((td) => td.textContent === profileId && td.dataset.a1!.startsWith('A'))!.dataset.a1!.slice(1);
    return `${column}${row}`;
  }, DEMO_IDS.profile(4));
  await session.page.click(`td[data-a1="${target}"]`);
  await session.page.waitForSelector(`td.active[data-a1="${target}"]`);
  await session.page.fill('#formula', 'Lisbon');
  await session.page.press('#formula', 'Enter');
  await session.page.waitForFunction((a1) => document.querySelector(`td[data-a1="${a1}"]`)?.textContent === 'Lisbon', target);

  await frame.click('#audit-push');
  await frame.waitForFunction(() => document.querySelector('.progress-text')?.textContent === 'Finished.');
  expect(await frame.textContent('#portfolio-results > .status')).toMatch(/^\d+ cells compared: 1 (created|updated), \d+ unchanged\.$/);
  await (await session.page.$('aside'))!.screenshot({ path: path.join(ROOT, 'test-artifacts', 'sidebar-audit.png') });
  await session.page.screenshot({ path: path.join(ROOT, 'test-artifacts', 'workbench-audit.png') });
});
