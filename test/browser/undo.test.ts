// Undo of an export left unfinished, in Chromium on the workbench: the sidebar opened again names it on whichever
// tab it opens, the Portfolio tab offers it with Resume, and Resume restores the values the export replaced.

import type { Frame } from 'playwright-core';
import { pasteAndSelect, useWorkbenchPage } from '../support/browser';

jest.setTimeout(90_000);

const session = useWorkbenchPage(['--preset-token'], { width: 1280, height: 900 });

/** Calls server functions in order through the page's own google.script.run, each with the previous answer's value. */
function callServer<T>(frame: Frame, calls: Array<{ name: string; arg: unknown }>): Promise<T> {
  return frame.evaluate((list) => new Promise<T>((resolve, reject) => {
    type Run = { withSuccessHandler(f: (v: unknown) => void): Run; withFailureHandler(f: (e: Error) => void): Run; [name: string]: unknown };
    const run = (window as unknown as { google: { script: { run: Run } } }).google.script.run;
    const call = (name: string, arg: unknown) => new Promise<{ ok: boolean; value: unknown; error?: string }>((done, fail) => {
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
  }), calls);
}

it('offers an undo of an export left unfinished when the sidebar opens again, and Resume restores the values before', async () => {
  const { control, companyId } = session.workbench;
  const created = await control.fixtures({ metrics: [{ company_id: companyId, name: 'Undone in the sidebar', frequency: 'daily', unit: 'number' }] });
  const metricId = created.metrics[0]!.id;
  await control.fixtures({ data_points: [['2024-01-01', '10'], ['2024-01-02', '20'], ['2024-01-03', '30']].map(([date, value]) => ({ metric_id: metricId, date, value })) });
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
  expect(await frame.textContent('.resume-offer .hint')).toBe(`The undo of Push ${exported.exportId} was cancelled with 0 of 3 values done. Resuming sends only what was not confirmed.`);

  await control.clearRequests();
  await frame.click('.resume-offer button');
  await frame.waitForFunction(() => document.querySelector('.resume-offer .progress-text')?.textContent === 'Finished.');
  expect(await frame.textContent('.resume-offer > .status')).toBe(`Undo of the export (Push ${exported.exportId} in the Pushes sheet): 3 values restored. The exported range still shows the exported values.`);
  const state = await control.state();
  expect(['2024-01-01', '2024-01-02', '2024-01-03'].map((date) => state.data_points.find((p) => p.metric_id === metricId && p.date === date)?.value)).toEqual(['10', '20', '30']);
  const puts = (await control.requests()).filter((r) => r.method === 'PUT');
  expect(puts.map((r) => r.body)).toEqual([{ data_points: [{ date: '2024-01-01', value: '10' }, { date: '2024-01-02', value: '20' }, { date: '2024-01-03', value: '30' }] }]);
});
