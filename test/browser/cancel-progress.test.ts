// A large export in the workbench, as issue 14 found it: the bar must move while the first step is still
// running (the page reads getJobProgress beside it), and Cancel must stop the export within one wave.

import { useWorkbenchPage } from '../support/browser';
import type { LoggedRequest } from '../../emulator/request-log';

jest.setTimeout(40_000);

const session = useWorkbenchPage(['--preset-token'], { width: 1280, height: 1000 });

// The size issue 14 found the cancel ignored at: 12,000 rows, past the sheet's first 1,000 (the grid grows).
const ROWS = 12_000;
const METRICS = 1;
const VALUES = ROWS * METRICS;

/** Values a logged PUT carried. */
const pointsIn = (request: LoggedRequest): number => ((request.body as { data_points?: unknown[] } | undefined)?.data_points ?? []).length;

it('moves the bar while the first step runs, and Cancel stops a 12,000-row export within one wave', async () => {
  const { control, companyId } = session.workbench;
  const created = await control.fixtures({ metrics: Array.from({ length: METRICS }, (_, i) => ({ company_id: companyId, name: `Large export ${i}`, frequency: 'daily', unit: 'number' })) });
  const ids = created.metrics.map((metric) => metric.id);
  // 12,000 days of one metric, wide (the header names the metric by id).
  const start = Date.UTC(2015, 0, 1);
  const lines = [['Day', ...ids].join('\t'), ...Array.from({ length: ROWS }, (_, i) => [new Date(start + i * 86_400_000).toISOString().slice(0, 10), ...ids.map((_, m) => String(i * 10 + m))].join('\t'))];
  await session.page.evaluate(async ({ text, a1 }) => {
    const post = (route: string, body: unknown) => fetch(route, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    await post('/api/paste', { sheet: 'Sheet1', a1: 'A1', text });
    await post('/api/select', { sheet: 'Sheet1', a1 });
  }, { text: lines.join('\n'), a1: `A1:B${ROWS + 1}` });
  // Loaded until the network is quiet, as exporter.test.ts does: Use selection clicked before the sidebar's
  // settings arrive reads the selection without the default company, whose metrics name the wide header.
  await session.page.reload({ waitUntil: 'networkidle' });

  const frame = await session.sidebar();
  await frame.click('#tab-export');
  await frame.click('#export-use-selection');
  await frame.waitForFunction(() => /(success|error|warning|partial)/.test(document.querySelector('#export-status')?.className ?? ''));
  expect(await frame.isChecked('#layout-wide')).toBe(true);
  await frame.uncheck('#export-status-column');

  // Which continueExport calls the page has had answered: the bar may move before the first answer only
  // if the page read the step's progress while it ran.
  let continuesAnswered = 0;
  session.page.on('requestfinished', (request) => {
    if (request.url().endsWith('/rpc/continueExport')) continuesAnswered++;
  });
  // Every request held 700 ms: the first step's waves (one PUT per metric, then 10 at a time) take seconds.
  await control.faults({ latencyMs: 700 });
  await control.clearRequests();
  await frame.click('#export-form button[type="submit"]');

  const readBar = () => frame.$eval('.progress progress', (element) => ({ value: (element as HTMLProgressElement).value, max: (element as HTMLProgressElement).max }));
  await frame.waitForSelector('.progress progress');
  const seenDuringFirstStep: number[] = [];
  for (let i = 0; i < 400 && seenDuringFirstStep.length < 2; i++) {
    const bar = await readBar();
    // Read first, then checked: a value read while no answer had arrived was put there by a progress read.
    if (continuesAnswered > 0) break;
    if (bar.value > 0 && bar.value > (seenDuringFirstStep.at(-1) ?? 0)) seenDuringFirstStep.push(bar.value);
    await frame.waitForTimeout(50);
  }
  expect(continuesAnswered).toBe(0);
  expect(seenDuringFirstStep).toHaveLength(2);
  expect((await readBar()).max).toBe(VALUES);

  const cancelAnswered = session.page.waitForResponse((response) => response.url().endsWith('/rpc/cancelExport'));
  await frame.click('.progress button.cancel');
  await cancelAnswered;
  const putsAtCancel = (await control.requests()).filter((request) => request.method === 'PUT');
  await frame.waitForFunction(() => document.querySelector('.progress-text')?.textContent === 'Cancelled: what was not sent can be resumed.', undefined, { timeout: 30_000 });
  await control.faults({ reset: true });

  const puts = (await control.requests()).filter((request) => request.method === 'PUT');
  // Once the cancel is set no wave starts: at most the one under way (10 PUTs) is answered after it.
  expect(puts.length - putsAtCancel.length).toBeLessThanOrEqual(10);
  const confirmed = puts.filter((request) => request.status < 300).reduce((sum, request) => sum + pointsIn(request), 0);
  expect(confirmed).toBeLessThan(VALUES);
  const left = VALUES - confirmed;
  expect(await frame.textContent('#export-results > .status')).toBe(
    `12,000 values read (12,000 rows × 1 metric column): ${confirmed.toLocaleString('en-US')} written (stored; the API does not say which were new and which updated), ${left.toLocaleString('en-US')} not sent (export cancelled).`,
  );
  expect(await frame.textContent('#export-resume .hint')).toBe(`The export of Sheet1!A1:B${ROWS + 1} stopped with ${confirmed} of ${VALUES} done. Resuming sends only what was not confirmed.`);
  // The emulator holds exactly what the report calls written.
  expect((await control.state()).data_points.filter((point) => ids.includes(point.metric_id))).toHaveLength(confirmed);
});
