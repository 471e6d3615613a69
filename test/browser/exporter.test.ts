// The exporter's sidebar flow in Chromium on the workbench: select, preview, export with progress, re-export,
// and the long-work flow: a wait for the rate limit, cancel, and resume from the reopened Export tab.

import type { Frame } from 'playwright-core';
import { pageSettled, useWorkbenchPage } from '../support/browser';
import path from 'node:path';
import { ROOT } from '../support/built-bundle';
import type { LoggedRequest } from '../../emulator/request-log';
import { DEMO_IDS } from '../../emulator/demo-data';

jest.setTimeout(90_000);

const session = useWorkbenchPage(['--preset-token'], { width: 1280, height: 1000 });
const sidebar = (): Promise<Frame> => session.sidebar();

/** The rate limit's window in the long-work test: longer than a step's 20 s budget, so its Retry-After outlasts a step. */
const WINDOW_SECONDS = 25;

/** Moves the workbench's time (the add-in's and its emulator's) forward by `ms` without waiting. */
async function moveClock(ms: number): Promise<void> {
  const response = await fetch(`${session.workbench.url}/api/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ advanceMs: ms }),
  });
  if (!response.ok) throw new Error(`the workbench did not move its clock: ${await response.text()}`);
}

async function settled(frame: Frame, selector: string): Promise<string> {
  await frame.waitForFunction((s) => /(success|error)/.test(document.querySelector(s)?.className ?? ''), selector);
  return (await frame.textContent(selector)) ?? '';
}

it('exports a pasted range with progress and a report, then re-exports it as unchanged', async () => {
  // A fresh page: this test does not depend on the tab another test left open. Loaded until the sidebar's first
  // loads are over: a Create clicked before the sidebar's settings arrive is sent without the default company.
  await session.page.reload();
  await pageSettled(session.page);
  const frame = await sidebar();
  // A new monthly metric to export into.
  await frame.click('#browse-form button[type="submit"]');
  await settled(frame, '#metrics-status');
  await frame.fill('#new-name', 'Exported from the sheet');
  await frame.selectOption('#new-frequency', 'monthly');
  await frame.click('#create-form button[type="submit"]');
  expect(await settled(frame, '#metrics-status')).toBe('Created "Exported from the sheet".');

  // 24 months pasted at A1, then selected with shift-click.
  const rows = [
    'Month\tValue',
    ...Array.from({ length: 24 }, (_, i) => `${2022 + Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}-01\t${(i + 1) * 10}`),
  ];
  await session.page.evaluate(async (text) => {
    await fetch('/api/paste', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ sheet: 'Sheet1', a1: 'A1', text }) });
  }, rows.join('\n'));
  await session.page.reload();
  await pageSettled(session.page); // the grid drawn: a click on a cell it is redrawing is lost
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
  const metricId = await side.$eval(
    '#export-metric',
    (select) => Array.from((select as HTMLSelectElement).options).find((o) => o.textContent?.startsWith('Exported from the sheet'))!.value,
  );
  await side.selectOption('#export-metric', metricId);
  await side.click('#export-preview');
  await side.waitForSelector('table.preview');
  // Typed data is compared too: the preview read the metric's points and found none.
  expect(await side.textContent('#export-results .status')).toBe(
    '24 rows read: 24 to send (24 to create, 0 to overwrite a different value, 0 unchanged, sent again), 0 skipped, 0 failed.',
  );

  await side.click('#export-form button[type="submit"]');
  await side.waitForFunction(() => document.querySelector('.progress-text')?.textContent === 'Finished.');
  // Compared at the start after the preview, so the report knows each value was new.
  expect(await side.textContent('#export-results > .status')).toMatch(/^24 rows read: 24 created/);
  // The grid draws what the server holds on its next poll, cell by cell: wait for both cells, not one then read the other.
  await session.page.waitForFunction(
    () => document.querySelector('td[data-a1="C1"]')?.textContent === 'Export status' && document.querySelector('td[data-a1="C2"]')?.textContent !== '',
  );
  expect(await session.page.textContent('td[data-a1="C2"]')).toBe('created');
  await (await session.page.$('aside'))!.screenshot({ path: path.join(ROOT, 'test-artifacts', 'sidebar-export.png') });

  // The export wrote: the report offers to refresh the formulas reading the metric.
  expect(await side.isVisible('#export-refresh-formulas')).toBe(true);
  await side.click('#export-refresh-formulas');
  await side.waitForFunction(
    () =>
      /formula/.test(document.querySelector('#export-refresh-result')?.textContent ?? '') &&
      !/next run/.test(document.querySelector('#export-refresh-result')?.textContent ?? ''),
  );
  expect(await side.textContent('#export-refresh-result')).toBe('No formula here reads those metrics.');

  // Again from the same open sidebar, without Use selection: the range was exported before, so the option is on.
  expect(await side.isChecked('#export-only-changed')).toBe(true);
  const { control } = session.workbench;
  await control.clearRequests();
  await side.click('#export-form button[type="submit"]');
  await side.waitForFunction(() => /unchanged/.test(document.querySelector('#export-results > .status')?.textContent ?? ''));
  expect(await side.textContent('#export-results > .status')).toMatch(/^24 rows read: 24 unchanged/);
  expect((await control.requests()).filter((request) => request.method === 'PUT')).toHaveLength(0);
  // Nothing written, so nothing to refresh.
  expect(await side.$('#export-refresh-formulas')).toBeNull();

  // And from Use selection, with a preview that counts as the export does.
  await side.click('#export-use-selection');
  await settled(side, '#export-status');
  expect(await side.isChecked('#export-only-changed')).toBe(true);
  await side.selectOption('#export-metric', metricId);
  await side.click('#export-preview');
  await side.waitForSelector('table.preview');
  expect(await side.textContent('#export-results .status')).toBe(
    '24 rows read: 24 unchanged, 0 to create, 0 to overwrite a different value, 0 skipped, 0 failed.',
  );

  // A value edited in the sheet: the preview lists the overwrite, old → new, before anything is sent.
  await session.page.evaluate(async () => {
    await fetch('/api/paste', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sheet: 'Sheet1', a1: 'B3', text: '25' }),
    });
  });
  await control.clearRequests();
  await side.click('#export-preview');
  await side.waitForFunction(() => /1 to overwrite/.test(document.querySelector('#export-results .status')?.textContent ?? ''));
  expect(await side.textContent('#export-results .status')).toBe(
    '24 rows read: 23 unchanged, 0 to create, 1 to overwrite a different value, 0 skipped, 0 failed.',
  );
  expect(await side.textContent('[aria-label="Values the export overwrites"]')).toBe('B3: 20 → 25');
  expect((await control.requests()).filter((request) => request.method === 'PUT')).toHaveLength(0);

  // Typed data ("only what changed" off) is previewed the same way: what it overwrites, old → new, before anything is sent.
  await session.page.evaluate(async () => {
    await fetch('/api/paste', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sheet: 'Sheet1', a1: 'B4', text: '35' }),
    });
  });
  await side.uncheck('#export-only-changed');
  await control.clearRequests();
  await side.click('#export-preview');
  await side.waitForFunction(() => /2 to overwrite/.test(document.querySelector('#export-results .status')?.textContent ?? ''));
  expect(await side.textContent('#export-results .status')).toBe(
    '24 rows read: 24 to send (0 to create, 2 to overwrite a different value, 22 unchanged, sent again), 0 skipped, 0 failed.',
  );
  expect(await side.$$eval('[aria-label="Values the export overwrites"] li', (items) => items.map((item) => item.textContent))).toEqual([
    'B3: 20 → 25',
    'B4: 30 → 35',
  ]);
  const typedPreview = await control.requests();
  expect(typedPreview.filter((request) => request.method === 'GET' && request.path === '/data_points')).toHaveLength(1);
  expect(typedPreview.filter((request) => request.method === 'PUT')).toHaveLength(0);
});

/** The dates a logged PUT of data points carried. */
function datesSent(request: LoggedRequest): string[] {
  const body = request.body as { data_points?: Array<{ date: string }> } | undefined;
  return (body?.data_points ?? []).map((point) => point.date);
}

it('waits out the rate limit with a moving progress bar, is cancelled, and resumes from the Export tab without writing a row twice', async () => {
  const { control, companyId } = session.workbench;
  // The daily metric to export into, made at the API (creating one in the sidebar is the first test's).
  const { metrics } = await control.fixtures({
    metrics: [{ company_id: companyId, name: `Daily, exported in steps ${Date.now()}`, frequency: 'daily', unit: 'number' }],
  });
  const id = metrics[0]!.id;
  // A fresh page: this test does not depend on the tab another test left open, and its metric list holds the new metric.
  await session.page.reload();
  await pageSettled(session.page);
  const frame = await sidebar();

  // 900 days (18 batches of 50) pasted at E1 beside the other test's range, and selected. Within the
  // sheet's 1,000 rows: the workbench's grid view fails on a sheet a paste had to lengthen.
  const start = Date.UTC(2020, 0, 1);
  const sheetRows = Array.from({ length: 900 }, (_, i) => ({ date: new Date(start + i * 86_400_000).toISOString().slice(0, 10), value: `${i * 3}.25` }));
  await session.page.evaluate(
    async (text) => {
      const post = (route: string, body: unknown) =>
        fetch(route, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      await post('/api/paste', { sheet: 'Sheet1', a1: 'E1', text });
      await post('/api/select', { sheet: 'Sheet1', a1: 'E1:F901' });
    },
    ['Day\tValue', ...sheetRows.map((row) => `${row.date}\t${row.value}`)].join('\n'),
  );

  await frame.click('#tab-export');
  await frame.click('#export-use-selection');
  expect(await settled(frame, '#export-status')).toBe('Sheet1!E1:F901: 901 rows, 2 columns.');
  await frame.waitForSelector(`#export-metric option[value="${id}"]`, { state: 'attached' });
  await frame.selectOption('#export-metric', id);
  await frame.click('#export-preview');
  await frame.waitForSelector('table.preview');
  expect(await frame.textContent('#export-results .status')).toBe(
    '900 rows read: 900 to send (900 to create, 0 to overwrite a different value, 0 unchanged, sent again), 0 skipped, 0 failed.',
  );

  // A tiny limit whose window outlasts a step (25 s against the step's 20 s budget): the first batch and one
  // wave go, the next wave is refused with a Retry-After the step cannot wait out, so the sidebar waits
  // between steps.
  await control.clearRequests();
  await control.rateLimit({ limit: 12, windowSeconds: WINDOW_SECONDS, retryAfter: true, freshWindow: true });
  await frame.click('#export-form button[type="submit"]');
  await frame.waitForFunction(() =>
    /^[\d,]+ of 900 · waiting for the API's rate limit · about .+ left$/.test(document.querySelector('.progress-text')?.textContent ?? ''),
  );
  const bar = await frame.$eval('.progress progress', (element) => ({
    value: (element as HTMLProgressElement).value,
    max: (element as HTMLProgressElement).max,
  }));
  expect(bar.max).toBe(900);
  expect(bar.value).toBeGreaterThan(0);
  expect(bar.value).toBeLessThan(900);
  const confirmedBeforeCancel = bar.value;
  const left = 900 - confirmedBeforeCancel;
  const beforeCancel = await control.requests();
  await (await session.page.$('aside'))!.screenshot({ path: path.join(ROOT, 'test-artifacts', 'sidebar-export-waiting.png') });

  await frame.click('.progress button.cancel');
  await frame.waitForFunction(() => document.querySelector('.progress-text')?.textContent === 'Cancelled: what was not sent can be resumed.');
  expect(await frame.textContent('#export-results > .status')).toBe(`900 rows read: ${confirmedBeforeCancel} created, ${left} not sent (export cancelled).`);

  // The API accepts requests again; the sidebar is closed and opened, and the Export tab offers the rest. The 429's
  // Retry-After still holds back the user's executions (docs/architecture.md, "The API client"), and the sidebar
  // would count the rest of it down in real time: the workbench's clock (the add-in's and the emulator's) moves
  // past the window instead, as if the person had waited. The wait itself is what this test saw begin above.
  await control.rateLimit({ limit: 500, windowSeconds: 300, retryAfter: false });
  await moveClock(WINDOW_SECONDS * 1000);
  await session.page.reload();
  const reopened = await sidebar();
  await reopened.click('#tab-export');
  await reopened.waitForSelector('#export-resume button');
  expect(await reopened.textContent('#export-resume .hint')).toBe(
    `The export of Sheet1!E1:F901 stopped with ${confirmedBeforeCancel} of 900 done. Resuming sends only what was not confirmed.`,
  );
  await reopened.click('#export-resume button');
  await reopened.waitForFunction(() => document.querySelector('.progress-text')?.textContent === 'Finished.');
  expect(await reopened.textContent('#export-results > .status')).toBe('900 rows read: 900 created.');

  // Every row stored once: 18 accepted PUTs in all, and none after the cancel repeats a row confirmed before it.
  const puts = (await control.requests()).filter((request) => request.method === 'PUT' && request.path.endsWith(`/metrics/${id}/data_points`));
  const stored = puts.filter((request) => request.status < 300);
  expect(stored).toHaveLength(18);
  const storedDates = stored.flatMap(datesSent);
  expect(new Set(storedDates).size).toBe(900);
  expect(storedDates).toHaveLength(900);
  const confirmedDates = new Set(beforeCancel.filter((request) => request.method === 'PUT' && request.status < 300).flatMap(datesSent));
  expect(confirmedDates.size).toBe(confirmedBeforeCancel);
  const resent = puts
    .slice(beforeCancel.filter((request) => request.method === 'PUT').length)
    .flatMap(datesSent)
    .filter((date) => confirmedDates.has(date));
  expect(resent).toEqual([]);

  // The emulator holds exactly the sheet.
  const points = (await control.state()).data_points.filter((point) => point.metric_id === id);
  expect(new Map(points.map((point) => [point.date, point.value]))).toEqual(new Map(sheetRows.map((row) => [row.date, row.value])));
  expect(points).toHaveLength(900);

  // And the status column beside the range says so, row by row.
  const statusColumn = await session.page.evaluate(async () => {
    const grid = (await (await fetch('/api/grid?sheet=Sheet1')).json()) as { rows?: Array<Array<{ display: string }>> };
    if (!grid.rows) throw new Error(`The workbench gave no grid: ${JSON.stringify(grid).slice(0, 500)}`);
    return grid.rows.slice(0, 901).map((row) => row[6]?.display);
  });
  expect(statusColumn[0]).toBe('Export status');
  expect(new Set(statusColumn.slice(1))).toEqual(new Set(['created']));
});

it('previews a 12% cell as the sheet shows it beside the 12 it sends, both whole in the 300 px sidebar, and stores 12', async () => {
  // Typed as a user types it: the sheet holds 0.12 under a percent format and shows 12%.
  // At H1, clear of the other tests' ranges (A:C, E:G).
  await session.page.evaluate(async (text) => {
    const post = (route: string, body: unknown) =>
      fetch(route, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    await post('/api/paste', { sheet: 'Sheet1', a1: 'H1', text });
    await post('/api/select', { sheet: 'Sheet1', a1: 'H1:I3' });
  }, 'Month\tMargin\n2031-03-01\t12%\n2031-04-01\t12.3%');
  await session.page.reload();

  const side = await sidebar();
  await side.click('#tab-export');
  await side.click('#export-use-selection');
  await settled(side, '#export-status');
  await side.selectOption('#export-metric', DEMO_IDS.metrics.grossMarginHtml); // the demo's percent metric
  await side.click('#export-preview');
  await side.waitForSelector('table.preview td.shown-value');
  const rows = await side.$$eval('table.preview tr', (trs) =>
    trs.slice(1).map((tr) => {
      const cell = (selector: string) => tr.querySelector<HTMLElement>(selector)!;
      // Cut text shows as an overflow: the cell's content is wider than the cell, or the cell runs past the page.
      const whole = (element: HTMLElement) =>
        element.scrollWidth <= element.clientWidth && element.getBoundingClientRect().right <= document.documentElement.clientWidth;
      const sends = cell('td.sends');
      return {
        shows: cell('td.shown-value').textContent,
        sends: sends.querySelector('.sent-value')?.textContent,
        date: sends.querySelector('.sent-date')?.textContent,
        title: sends.title,
        whole: [cell('td.shown-value'), sends, ...Array.from(sends.querySelectorAll<HTMLElement>('span'))].every(whole),
      };
    }),
  );
  expect(await side.evaluate(() => document.documentElement.clientWidth)).toBeLessThanOrEqual(300);
  expect(rows).toEqual([
    { shows: '12%', sends: '12', date: '→ 2031-03-01', title: '2031-03-01 12', whole: true },
    { shows: '12.30%', sends: '12.3', date: '→ 2031-04-01', title: '2031-04-01 12.3', whole: true },
  ]);

  await side.click('#export-form button[type="submit"]');
  await side.waitForFunction(() => document.querySelector('.progress-text')?.textContent === 'Finished.');
  const state = await session.workbench.control.state();
  const stored = state.data_points
    .filter((p) => p.metric_id === DEMO_IDS.metrics.grossMarginHtml && p.date >= '2031-01-01')
    .map((p) => [p.date, p.value])
    .sort();
  expect(stored).toEqual([
    ['2031-03-01', '12'],
    ['2031-04-01', '12.3'],
  ]);
});
