// The exporter's sidebar flow in Chromium on the workbench: select, preview, export with progress, re-export.

import type { Frame } from 'playwright-core';
import { useWorkbenchPage } from '../support/browser';
import path from 'node:path';
import { ROOT } from '../support/built-bundle';

jest.setTimeout(90_000);

const session = useWorkbenchPage(['--preset-token'], { width: 1280, height: 1000 });
const sidebar = (): Promise<Frame> => session.sidebar();

async function settled(frame: Frame, selector: string): Promise<string> {
  await frame.waitForFunction((s) => /(success|error)/.test(document.querySelector(s)?.className ?? ''), selector);
  return (await frame.textContent(selector)) ?? '';
}

it('exports a pasted range with progress and a report, then re-exports it as unchanged', async () => {
  const frame = await sidebar();
  // A new monthly metric to export into.
  await frame.click('#browse-form button[type="submit"]');
  await settled(frame, '#metrics-status');
  await frame.fill('#new-name', 'Exported from the sheet');
  await frame.selectOption('#new-frequency', 'monthly');
  await frame.click('#create-form button[type="submit"]');
  expect(await settled(frame, '#metrics-status')).toBe('Created "Exported from the sheet".');

  // 24 months pasted at A1, then selected with shift-click.
  const rows = ['Month\tValue', ...Array.from({ length: 24 }, (_, i) => `${2022 + Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}-01\t${(i + 1) * 10}`)];
  await session.page.evaluate(async (text) => {
    await fetch('/api/paste', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ sheet: 'Sheet1', a1: 'A1', text }) });
  }, rows.join('\n'));
  await session.page.reload();
  await session.page.click('td[data-a1="A1"]');
  await session.page.waitForSelector('td.active[data-a1="A1"]');
  await session.page.click('td[data-a1="B25"]', { modifiers: ['Shift'] });
  await session.page.waitForSelector('td.selected[data-a1="B25"]');

  const side = await sidebar();
  await side.click('#tab-export');
  await side.click('#export-use-selection');
  expect(await settled(side, '#export-status')).toBe('Sheet1!A1:B25: 25 rows, 2 columns.');
  expect(await side.isChecked('#layout-long')).toBe(true);
  expect(await side.isChecked('#export-header')).toBe(true);
  const metricId = await side.$eval('#export-metric', (select) => Array.from((select as HTMLSelectElement).options).find((o) => o.textContent?.startsWith('Exported from the sheet'))!.value);
  await side.selectOption('#export-metric', metricId);
  await side.click('#export-preview');
  await side.waitForSelector('table.preview');
  expect(await side.textContent('#export-results .status')).toBe('24 rows read: 24 to send, 0 skipped, 0 failed.');

  await side.click('#export-form button[type="submit"]');
  await side.waitForFunction(() => document.querySelector('.progress-text')?.textContent === 'Finished.');
  expect(await side.textContent('#export-results > .status')).toMatch(/^24 rows read: 24 written/);
  await session.page.waitForFunction(() => document.querySelector('td[data-a1="C1"]')?.textContent === 'Export status');
  expect(await session.page.textContent('td[data-a1="C2"]')).toBe('written');
  await (await session.page.$('aside'))!.screenshot({ path: path.join(ROOT, 'test-artifacts', 'sidebar-export.png') });

  // Again: the range was exported before, so only what changed is sent: nothing.
  await side.click('#export-use-selection');
  await settled(side, '#export-status');
  expect(await side.isChecked('#export-only-changed')).toBe(true);
  await side.selectOption('#export-metric', metricId);
  await side.click('#export-form button[type="submit"]');
  await side.waitForFunction(() => /unchanged/.test(document.querySelector('#export-results > .status')?.textContent ?? ''));
  expect(await side.textContent('#export-results > .status')).toMatch(/^24 rows read: 24 unchanged/);
});
