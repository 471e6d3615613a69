// Undo in Chromium on the workbench: an undo left unfinished is named when the sidebar opens again and offered
// with Resume on the Portfolio tab; and Undo of a push picked from the person's last pushes, described, then
// confirmed, restores the values that push replaced.

import path from 'node:path';
import type { Frame } from 'playwright-core';
import { pasteAndSelect, useWorkbenchPage } from '../support/browser';
import { ROOT } from '../support/built-bundle';

jest.setTimeout(90_000);

const session = useWorkbenchPage(['--preset-token'], { width: 1280, height: 900 });

/**
 * Every test's metrics and points, made before any test runs: the sidebar lists a company's metrics once and
 * keeps the list, so a metric made after another test's export would not be one of the company's yet.
 */
const metrics = { resumed: '', picked: '', later: '' };
beforeAll(async () => {
  const { control, companyId } = session.workbench;
  const created = await control.fixtures({
    metrics: ['Undone in the sidebar', 'Picked for undo', 'Pushed after it'].map((name) => ({
      company_id: companyId,
      name,
      frequency: 'daily',
      unit: 'number',
    })),
  });
  [metrics.resumed, metrics.picked, metrics.later] = created.metrics.map((metric) => metric.id) as [string, string, string];
  await control.fixtures({
    data_points: [
      ...[
        ['2024-01-01', '10'],
        ['2024-01-02', '20'],
        ['2024-01-03', '30'],
      ].map(([date, value]) => ({ metric_id: metrics.resumed, date, value })),
      ...[
        ['2023-01-01', '1'],
        ['2023-01-02', '2'],
        ['2023-01-03', '3'],
      ].flatMap(([date, value]) => [metrics.picked, metrics.later].map((metricId) => ({ metric_id: metricId, date, value }))),
    ],
  });
});

/** Calls server functions in order through the page's own google.script.run, each with the previous answer's value. */
function callServer<T>(frame: Frame, calls: Array<{ name: string; arg: unknown }>): Promise<T> {
  return frame.evaluate(
    (list) =>
      new Promise<T>((resolve, reject) => {
        type Run = { withSuccessHandler(f: (v: unknown) => void): Run; withFailureHandler(f: (e: Error) => void): Run; [name: string]: unknown };
        const run = (window as unknown as { google: { script: { run: Run } } }).google.script.run;
        const call = (name: string, arg: unknown) =>
          new Promise<{ ok: boolean; value: unknown; error?: string }>((done, fail) => {
            (run.withSuccessHandler((v) => done(v as never)).withFailureHandler(fail)[name] as (a: unknown) => void)(arg);
          });
        void (async () => {
          let value: unknown;
          for (const { name, arg } of list) {
            const answer = await call(name, arg === '$previous' ? value : arg);
            if (!answer.ok) throw new Error(`${name}: ${answer.error}`);
            value = answer.value;
          }
          resolve(value as T);
        })().catch(reject);
      }),
    calls,
  );
}

it('offers an undo of an export left unfinished when the sidebar opens again, and Resume restores the values before', async () => {
  const { control, companyId } = session.workbench;
  const metricId = metrics.resumed;
  await pasteAndSelect(session.page, ['Day\tValue', '2024-01-01\t11', '2024-01-02\t21', '2024-01-03\t31'].join('\n'), 'A1:B4');

  // Exported ("only what changed", so each update's value before is read), then Undo started and cancelled.
  let frame = await session.sidebar();
  const request = {
    companyId,
    range: 'Sheet1!A1:B4',
    spec: { layout: 'long', metricId, hasHeaderRow: true, skipBlanks: true, duplicates: 'reject', offPeriod: 'reject', onlyChanged: true },
    writeStatus: false,
  };
  let exported = await callServer<{ exportId: string; report: unknown }>(frame, [{ name: 'startExport', arg: request }]);
  for (let step = 0; !exported.report && step < 10; step++) exported = await callServer(frame, [{ name: 'continueExport', arg: exported.exportId }]);
  const undo = await callServer<{ undoId: string; progress: { status: string } }>(frame, [{ name: 'undoLastPush', arg: null }]);
  const cancelled = await callServer<{ progress: { status: string } }>(frame, [{ name: 'cancelUndo', arg: undo.undoId }]);
  expect(cancelled.progress.status).toBe('cancelled');

  await session.page.reload({ waitUntil: 'networkidle' });
  frame = await session.sidebar();
  await frame.waitForSelector('#unfinished-jobs:not([hidden])');
  expect(await frame.textContent('#unfinished-jobs')).toBe('An undo of a push was left unfinished. Open Portfolio to resume');
  await frame.click('#unfinished-jobs button');
  await frame.waitForSelector('.resume-offer button');
  expect(await frame.textContent('.resume-offer .hint')).toBe(
    `The undo of Push ${exported.exportId} was cancelled with 0 of 3 values done. Resuming sends only what was not confirmed.`,
  );

  await control.clearRequests();
  await frame.click('.resume-offer button');
  await frame.waitForFunction(() => document.querySelector('.resume-offer .progress-text')?.textContent === 'Finished.');
  expect(await frame.textContent('.resume-offer > .status')).toBe(
    `Undo of the export (Push ${exported.exportId} in the Pushes sheet): 3 values restored. The exported range still shows the exported values.`,
  );
  const state = await control.state();
  expect(['2024-01-01', '2024-01-02', '2024-01-03'].map((date) => state.data_points.find((p) => p.metric_id === metricId && p.date === date)?.value)).toEqual([
    '10',
    '20',
    '30',
  ]);
  const puts = (await control.requests()).filter((r) => r.method === 'PUT');
  expect(puts.map((r) => r.body)).toEqual([
    {
      data_points: [
        { date: '2024-01-01', value: '10' },
        { date: '2024-01-02', value: '20' },
        { date: '2024-01-03', value: '30' },
      ],
    },
  ]);
});

it('takes Undo with its confirmation: the person picks one of their pushes, reads what it restores, confirms, and sees the outcome', async () => {
  const { control, companyId } = session.workbench;
  const { picked, later } = metrics;
  await pasteAndSelect(session.page, ['Day\tValue', '2023-01-01\t11', '2023-01-02\t12', '2023-01-03\t13'].join('\n'), 'A1:B4');

  // Two exports: the one to undo, then another, so the one to undo is not the last.
  let frame = await session.sidebar();
  const exportOf = async (metricId: string) => {
    const request = {
      companyId,
      range: 'Sheet1!A1:B4',
      spec: { layout: 'long', metricId, hasHeaderRow: true, skipBlanks: true, duplicates: 'reject', offPeriod: 'reject', onlyChanged: true },
      writeStatus: false,
    };
    let handle = await callServer<{ exportId: string; report: unknown }>(frame, [{ name: 'startExport', arg: request }]);
    for (let step = 0; !handle.report && step < 10; step++) handle = await callServer(frame, [{ name: 'continueExport', arg: handle.exportId }]);
    return handle.exportId;
  };
  const first = await exportOf(picked);
  const second = await exportOf(later);

  await session.page.reload({ waitUntil: 'networkidle' });
  frame = await session.sidebar();
  await frame.click('#tab-portfolio');
  await frame.click('#undo-a-push');
  await frame.waitForSelector('select[data-undo-choice]');
  // A labelled list, newest first; the newest is chosen and described until the person picks another.
  const label = await frame.$eval('select[data-undo-choice]', (select) => select.closest('label')?.textContent ?? '');
  expect(label).toMatch(/^Push to undo \(your last pushes in this spreadsheet, newest first\) /);
  const options = await frame.$$eval('select[data-undo-choice] option', (list) => list.map((option) => (option as HTMLOptionElement).value));
  expect(options.indexOf(second)).toBeLessThan(options.indexOf(first));
  expect(await frame.textContent('[data-undo-description]')).toContain(`(Push ${second} in the Pushes sheet)`);
  await frame.selectOption('select[data-undo-choice]', first);
  expect(await frame.textContent('[data-undo-description]')).toMatch(
    new RegExp(
      `^Export of \\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2} \\(Push ${first} in the Pushes sheet\\), 3 values stored: Undo restores 3 values it replaced\\.$`,
    ),
  );
  // Nothing is sent before the confirmation.
  await control.clearRequests();
  expect((await control.requests()).filter((r) => r.method === 'PUT')).toEqual([]);
  await (await session.page.$('aside'))!.screenshot({ path: path.join(ROOT, 'test-artifacts', 'sidebar-undo-confirm.png') });

  await frame.click('[data-undo-confirm]');
  await frame.waitForFunction(() => document.querySelector('#portfolio-results .progress-text')?.textContent === 'Finished.');
  expect(await frame.textContent('#portfolio-results > .status')).toBe(
    `Undo of the export (Push ${first} in the Pushes sheet): 3 values restored. The exported range still shows the exported values.`,
  );
  await (await session.page.$('aside'))!.screenshot({ path: path.join(ROOT, 'test-artifacts', 'sidebar-undo-done.png') });
  const state = await control.state();
  const values = (metricId: string) =>
    ['2023-01-01', '2023-01-02', '2023-01-03'].map((date) => state.data_points.find((p) => p.metric_id === metricId && p.date === date)?.value);
  expect(values(picked)).toEqual(['1', '2', '3']);
  // The later push is untouched, and still offered.
  expect(values(later)).toEqual(['11', '12', '13']);
  const puts = (await control.requests()).filter((r) => r.method === 'PUT');
  expect(puts.map((r) => r.path)).toEqual([`/metrics/${picked}/data_points`]);
});
