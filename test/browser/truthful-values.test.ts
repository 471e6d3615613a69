// Findings of a newcomer's first hour, reproduced in Chromium on the workbench: a quarter asked of a monthly
// metric, a formula read right after an export of its metric, and a note to contacts in a table below row 1.

import type { Frame } from 'playwright-core';
import { DEMO_IDS } from '../../emulator/demo-data';
import { gridWritten, useWorkbenchPage } from '../support/browser';

jest.setTimeout(120_000);

const session = useWorkbenchPage(['--preset-token'], { width: 1400, height: 1000 });
const MRR = DEMO_IDS.metrics.monthlyRecurringRevenue;

const text = (a1: string): Promise<string | null> => session.page.textContent(`td[data-a1="${a1}"]`);

async function typeInto(a1: string, input: string): Promise<void> {
  await session.page.click(`td[data-a1="${a1}"]`);
  await session.page.waitForSelector(`td.active[data-a1="${a1}"]`);
  await session.page.fill('#formula', input);
  await session.page.press('#formula', 'Enter');
  await gridWritten(session.page);
}

async function paste(a1: string, rows: string[][]): Promise<void> {
  await session.page.evaluate(
    async ([at, tsv]) => {
      await fetch('/api/grid/paste', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ sheet: 'Sheet1', a1: at, text: tsv }),
      });
    },
    [a1, rows.map((row) => row.join('\t')).join('\n')] as const,
  );
  await session.page.reload({ waitUntil: 'networkidle' }); // quiet: a click on a cell the grid is redrawing is lost
  await session.page.waitForSelector(`td[data-a1="${a1}"]`);
}

async function select(from: string, to: string): Promise<void> {
  await session.page.click(`td[data-a1="${from}"]`);
  await session.page.waitForSelector(`td.active[data-a1="${from}"]`);
  await session.page.click(`td[data-a1="${to}"]`, { modifiers: ['Shift'] });
  await session.page.waitForSelector(`td.selected[data-a1="${to}"]`);
}

async function settled(frame: Frame, selector: string): Promise<string> {
  await frame.waitForFunction((s) => /\b(success|warning|error|partial)\b/.test(document.querySelector(s)?.className ?? ''), selector);
  return (await frame.textContent(selector)) ?? '';
}

/** The exact sum of decimal texts, as a number: apart from the add-in's own arithmetic. */
function exactSum(texts: string[]): number {
  const scale = Math.max(...texts.map((t) => (t.split('.')[1] ?? '').length));
  const units = texts.reduce((sum, t) => {
    const [whole, fraction = ''] = t.replace('-', '').split('.');
    const value = BigInt(whole! + fraction.padEnd(scale, '0'));
    return sum + (t.startsWith('-') ? -value : value);
  }, 0n);
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  return Number(`${negative ? '-' : ''}${digits.slice(0, digits.length - scale)}.${digits.slice(digits.length - scale) || '0'}`);
}

it('refuses a quarter of a monthly metric with a message on the cell, and gives its exact sum with "sum"', async () => {
  const state = await session.workbench.control.state();
  const quarter = state.data_points.filter((p) => p.metric_id === MRR && p.date >= '2024-01-01' && p.date <= '2024-03-01');
  expect(quarter.map((p) => p.date).sort()).toEqual(['2024-01-01', '2024-02-01', '2024-03-01']);

  await typeInto('A1', `=METRIC_VALUE("${MRR}", "2024-Q1")`);
  await session.page.waitForFunction(() => document.querySelector('td[data-a1="A1"]')?.textContent === '#ERROR!');
  // Sheets shows the message on hover: the cell's title carries it.
  expect(await session.page.getAttribute('td[data-a1="A1"]', 'title')).toMatch(
    /^"2024-Q1" is calendar quarter 1 of 2024, longer than one period of "Monthly Recurring Revenue", a monthly metric\. .*"sum", "average", "first" or "last"/,
  );

  await typeInto('A2', `=METRIC_VALUE("${MRR}", "2024-Q1", "sum")`);
  await session.page.waitForFunction(() => /^\d/.test(document.querySelector('td[data-a1="A2"]')?.textContent ?? ''));
  expect(Number((await text('A2'))!.replace(/,/g, ''))).toBe(exactSum(quarter.map((p) => p.value!)));
});

it('shows the exported value in a formula typed right after the export, without Refresh data', async () => {
  const before = (await session.workbench.control.state()).data_points.find((p) => p.metric_id === MRR && p.date === '2025-06-01')!;
  expect(before.value).not.toBe('70000');
  await typeInto('C1', `=METRIC_VALUE("${MRR}", "2025-06")`);
  await session.page.waitForFunction(
    (shown) => document.querySelector('td[data-a1="C1"]')?.textContent === shown,
    Number(before.value).toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 10 }),
  );

  await paste('E1', [
    ['Month', 'Value'],
    ['2025-06-01', '70000'],
  ]);
  await select('E1', 'F2');
  const side = await session.sidebar();
  await side.click('#tab-export');
  await side.click('#export-use-selection');
  await settled(side, '#export-status');
  await side.selectOption('#export-metric', MRR);
  // The preview shows the value the export overwrites; without it, typed data overwrites no value the person was
  // never shown (the exporter's stricter reading), and this one would be kept as a conflict.
  await side.click('#export-preview');
  await side.waitForFunction(() => /1 to overwrite/.test(document.querySelector('#export-results .status')?.textContent ?? ''));
  await side.click('#export-form button[type="submit"]');
  await side.waitForFunction(() => document.querySelector('.progress-text')?.textContent === 'Finished.');
  expect((await session.workbench.control.state()).data_points.find((p) => p.metric_id === MRR && p.date === '2025-06-01')!.value).toBe('70000');

  // A new cell reads the new value: the export dropped the metric's cached series.
  await typeInto('C2', `=METRIC_VALUE("${MRR}", "2025-06")`);
  await session.page.waitForFunction(() => document.querySelector('td[data-a1="C2"]')?.textContent === '70000');
});

it('sends a note to the contacts selected in a table that starts at row 5', async () => {
  const [ann, bob] = [DEMO_IDS.contact(1), DEMO_IDS.contact(2)];
  await paste('H5', [
    ['Email', 'Contact id'],
    ['ann@example.com', ann],
    ['bob@example.com', bob],
  ]);
  await select('H6', 'I7');
  const notesBefore = (await session.workbench.control.state()).notes.length;
  const side = await session.sidebar();
  await side.click('#tab-portfolio');
  await side.fill('#note-content', 'Met at the board meeting.');
  await side.click('#note-form button[type="submit"]');
  expect(await settled(side, '#portfolio-status')).toMatch(/2 contacts/);
  const notes = (await session.workbench.control.state()).notes.slice(notesBefore);
  expect(notes.map((note) => [note.content, [...note.contact_ids].sort()])).toEqual([['Met at the board meeting.', [ann, bob].sort()]]);
});
