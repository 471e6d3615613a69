// Cancel and progress while a step runs, for every kind of job, as on Google: each google.script.run call
// is an execution of its own (rt.callServerAsync), so getJobProgress and the cancel run beside the step.
// What is asserted comes from the emulator's request log: no wave starts once the cancel is set, and the
// report's confirmed rows are exactly the requests the API answered with success. The API answers only
// when the test releases what it holds, so the step moves at most one wave between two reads of its
// progress, whatever the machine's load: it cannot end before the test has read and cancelled it.

import { DEMO_IDS } from '../../emulator/demo-data';
import type { LoggedRequest } from '../../emulator/request-log';
import type { GasRuntime } from '../../gas-runtime';
import type { AuditPushHandle, ExportHandle, ImportHandle, JobKind, JobProgress } from '../../src/shared/rpc';
import { ok, useStack, type Stack } from '../support/stack';

jest.setTimeout(40_000);

let stack: Stack;
useStack((started) => (stack = started));

/** Every API request held until the test releases it. */
const HELD_MS = 600_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function done(progress: JobProgress): number {
  return 'itemsDone' in progress
    ? progress.itemsDone
    : 'cellsDone' in progress
      ? progress.cellsDone
      : 'pagesRead' in progress
        ? progress.pagesRead
        : progress.rowsDone;
}

type MidStep<H> = {
  /** The progress read while the step had not answered yet. */
  live: JobProgress;
  /** What the cancel answered (the step was running: it leaves the state to the step). */
  cancelAnswer: H;
  /** The step's own answer. */
  answer: H;
  /** The writes the API had answered when the cancel returned, and all of them once the step answered. */
  writesAtCancel: LoggedRequest[];
  writes: LoggedRequest[];
};

/**
 * Runs one step of a job, reads its progress until a wave has been confirmed (releasing the API's answers
 * between reads), cancels it while the step still runs, lets the API answer at once again, then waits for
 * the step's answer: a step that ignored the cancel would send every wave left.
 */
async function cancelMidStep<H>(
  rt: GasRuntime,
  kind: JobKind,
  id: string,
  names: { next: string; cancel: string },
  isWrite: (request: LoggedRequest) => boolean,
): Promise<MidStep<H>> {
  await stack.emulator.control.faults({ latencyMs: HELD_MS });
  await stack.emulator.control.clearRequests();
  let answered = false;
  const step = rt.callServerAsync(names.next, [id]).finally(() => {
    answered = true;
  });
  let live: JobProgress | null = null;
  while (!answered) {
    const read = ok<JobProgress | null>(await rt.callServerAsync('getJobProgress', [kind, id]));
    if (read && done(read) > 0 && !answered) {
      live = read;
      break;
    }
    await stack.emulator.control.release();
    await sleep(20);
  }
  if (!live) throw new Error('The step answered before it published any progress: raise the job size.');
  const cancelAnswer = ok<H>(await rt.callServerAsync(names.cancel, [id]));
  const writesAtCancel = (await stack.emulator.control.requests()).filter(isWrite);
  await stack.emulator.control.faults({ reset: true });
  await stack.emulator.control.release();
  const answer = ok<H>(await step);
  const writes = (await stack.emulator.control.requests()).filter(isWrite);
  await stack.emulator.control.faults({ reset: true });
  return { live, cancelAnswer, answer, writesAtCancel, writes };
}

const succeeded = (request: LoggedRequest) => request.status >= 200 && request.status < 300;

it('an export: the bar reads progress mid-step, and a cancel stops it within one wave of PUTs', async () => {
  const created = await stack.emulator.control.fixtures({
    metrics: [{ company_id: DEMO_IDS.fund, name: 'Cancelled mid-step', frequency: 'daily', unit: 'number' }],
  });
  const metricId = created.metrics[0]!.id;
  const rt = stack.runtime();
  const sheet = rt.spreadsheet.getActiveSheet();
  const rows = 3000;
  sheet.insertRowsAfter(sheet.getMaxRows(), rows + 1 - sheet.getMaxRows());
  const start = Date.UTC(2010, 0, 1);
  sheet
    .getRange(1, 1, rows + 1, 2)
    .setValues([['Date', 'Value'], ...Array.from({ length: rows }, (_, i) => [new Date(start + i * 86_400_000).toISOString().slice(0, 10), String(i)])]);
  const spec = { layout: 'long', hasHeaderRow: true, skipBlanks: true, duplicates: 'reject', offPeriod: 'reject', onlyChanged: false, metricId };
  const started = ok<ExportHandle>(rt.callServer('startExport', [{ companyId: DEMO_IDS.fund, range: `Sheet1!A1:B${rows + 1}`, spec, writeStatus: false }]));

  const run = await cancelMidStep<ExportHandle>(rt, 'export', started.exportId, { next: 'continueExport', cancel: 'cancelExport' }, (r) => r.method === 'PUT');
  expect(run.live).toMatchObject({ status: 'running', itemsTotal: rows });
  expect(run.cancelAnswer.progress.status).toBe('running');
  // Waves go 10 PUTs at a time: once the cancel is set, at most the wave already under way is answered.
  expect(run.writes.length - run.writesAtCancel.length).toBeLessThanOrEqual(10);
  expect(run.writes.length).toBeLessThan(rows / 50);
  expect(run.answer.progress.status).toBe('cancelled');
  const totals = run.answer.report!.totals;
  const confirmed = run.writes.filter(succeeded).reduce((sum, put) => sum + (put.body as { data_points: unknown[] }).data_points.length, 0);
  expect(totals.created).toBe(confirmed);
  expect(totals.created + totals.pending).toBe(rows);
  expect(run.answer.report!.summary).toBe(
    `3,000 rows read: ${totals.created.toLocaleString('en-US')} created, ${totals.pending.toLocaleString('en-US')} not sent (export cancelled).`,
  );
  expect(done(run.live)).toBeLessThanOrEqual(totals.created);
});

it('an audit push: progress mid-step, and a cancel stops it within one wave of PUTs', async () => {
  await stack.emulator.control.fixtures({
    portfolio_company_profiles: Array.from({ length: 40 }, (_, i) => ({ company_id: DEMO_IDS.fund, name: `Cancel test ${i}` })),
  });
  const state = await stack.emulator.control.state();
  const property = (name: string) => state.portfolio_properties.find((p) => p.company_id === DEMO_IDS.fund && p.name === name)!;
  const rt = stack.runtime();
  ok(rt.callServer('buildAudit', [DEMO_IDS.fund]));
  const sheet = rt.spreadsheet.getSheetByName('Portfolio audit')!;
  const values = sheet.getDataRange().getValues();
  const profiles = state.portfolio_company_profiles.filter((p) => p.company_id === DEMO_IDS.fund);
  let cells = 0;
  for (const profile of profiles) {
    const row = values.findIndex((r) => r[0] === profile.id) + 1;
    for (const name of ['Headquarters', 'Investment memo']) {
      sheet.getRange(row, values[0]!.indexOf(property(name).id) + 1).setValue(`${name} of ${profile.name}, edited`);
      cells++;
    }
  }
  const started = ok<AuditPushHandle>(rt.callServer('startAuditPush', [null]));
  expect(started.progress.cellsTotal).toBe(cells);

  const run = await cancelMidStep<AuditPushHandle>(
    rt,
    'push',
    started.pushId,
    { next: 'continueAuditPush', cancel: 'cancelAuditPush' },
    (r) => r.method === 'PUT',
  );
  expect(run.live).toMatchObject({ status: 'running', cellsTotal: cells });
  expect(run.writes.length - run.writesAtCancel.length).toBeLessThanOrEqual(25);
  expect(run.writes.length).toBeLessThan(cells);
  expect(run.answer.progress.status).toBe('cancelled');
  const totals = run.answer.report!.totals;
  expect(totals.created + totals.updated).toBe(run.writes.filter(succeeded).length);
  expect(totals.created + totals.updated + totals.pending).toBe(cells);
  expect(run.answer.report!.summary).toMatch(new RegExp(`${totals.pending} not sent \\(push cancelled\\)`));
});

describe.each(['profiles', 'contacts'] as const)('a %s import', (kind) => {
  it('reads progress mid-step, and a cancel stops it before its next row', async () => {
    const rt = stack.runtime();
    const rows = 40;
    const table =
      kind === 'profiles'
        ? [['Name', 'Currency'], ...Array.from({ length: rows }, (_, i) => [`Imported ${i}`, 'EUR'])]
        : [['Email', 'First name'], ...Array.from({ length: rows }, (_, i) => [`person${i}@example.com`, `Person ${i}`])];
    rt.spreadsheet
      .getActiveSheet()
      .getRange(1, 1, rows + 1, 2)
      .setValues(table);
    const started = ok<ImportHandle>(rt.callServer('startImport', [{ kind, companyId: DEMO_IDS.fund, range: `Sheet1!A1:B${rows + 1}` }]));

    const run = await cancelMidStep<ImportHandle>(
      rt,
      'import',
      started.importId,
      { next: 'continueImport', cancel: 'cancelImport' },
      (r) => r.method === 'POST',
    );
    expect(run.live).toMatchObject({ status: 'running', rowsTotal: rows });
    // One row at a time: once the cancel is set, at most the row under way is answered.
    expect(run.writes.length - run.writesAtCancel.length).toBeLessThanOrEqual(1);
    expect(run.writes.length).toBeLessThan(rows);
    expect(run.answer.progress.status).toBe('cancelled');
    const totals = run.answer.report!.totals;
    expect(totals['created']).toBe(run.writes.filter(succeeded).length);
    expect((totals['created'] ?? 0) + (totals['pending'] ?? 0)).toBe(rows);
    expect(run.answer.report!.summary).toMatch(new RegExp(`${totals['pending']} not sent \\(import cancelled\\)`));
  });
});

it('getJobProgress checks its kind and id before reading anything', () => {
  const rt = stack.runtime();
  expect(rt.callServer('getJobProgress', ['export', 'x'.repeat(300)])).toEqual({ ok: false, error: expect.stringMatching(/^The job id must be an id like/) });
  expect(rt.callServer('getJobProgress', ['audit', '123e4567-e89b-12d3-a456-426614174000'])).toEqual({
    ok: false,
    error: 'The job kind must be "export", "push", "import", "build" or "undo".',
  });
  expect(rt.callServer('getJobProgress', ['import', '123e4567-e89b-12d3-a456-426614174000'])).toEqual({ ok: true, value: null });
});
