// Undo of an export, on the built bundle against the emulator: the data points an export
// updated get the value it replaced back, each read before written; one a colleague changed after the export
// is kept and reported as a conflict; points the export created, and one that was blank before, are listed.

import { DEMO_IDS } from '../../emulator/demo-data';
import type { EmulatorState } from '../../emulator/records';
import type { GasRuntime } from '../../gas-runtime';
import type { ExportHandle, UnfinishedPortfolioJobs, UndoHandle } from '../../src/shared/rpc';
import { driveExport, driveJob, ok, OWNER, useStack, type Stack } from '../support/stack';

jest.setTimeout(120_000);

let stack: Stack;
useStack((started) => (stack = started));

function driveUndo(rt: GasRuntime, first: UndoHandle): Promise<UndoHandle> {
  return driveJob(stack, rt, first, 'continueUndo', (handle) => handle.undoId);
}

function pointValue(state: EmulatorState, metricId: string, date: string): string | null | undefined {
  return state.data_points.find((point) => point.metric_id === metricId && point.date === date)?.value;
}

/** A metric with points on Jan 1–3 (10, 20, 30) and a blank one on Jan 4; the sheet exports Jan 1–6. */
async function exportOverExistingValues(rt: GasRuntime): Promise<{ metricId: string; exported: ExportHandle }> {
  const created = await stack.emulator.control.fixtures({
    metrics: [{ company_id: DEMO_IDS.fund, name: 'Undo export metric', frequency: 'daily', unit: 'number' }],
  });
  const metricId = created.metrics[0]!.id;
  await stack.emulator.control.fixtures({
    data_points: [
      { metric_id: metricId, date: '2024-01-01', value: '10' },
      { metric_id: metricId, date: '2024-01-02', value: '20' },
      { metric_id: metricId, date: '2024-01-03', value: '30' },
      { metric_id: metricId, date: '2024-01-04', value: null },
    ],
  });
  rt.spreadsheet
    .getSheetByName('Sheet1')!
    .getRange(1, 1, 7, 2)
    .setValues([
      ['Date', 'Value'],
      ['2024-01-01', 11],
      ['2024-01-02', 21],
      ['2024-01-03', 31],
      ['2024-01-04', 40],
      ['2024-01-05', 50],
      ['2024-01-06', 60],
    ]);
  const request = {
    companyId: DEMO_IDS.fund,
    range: 'Sheet1!A1:B7',
    spec: { layout: 'long', metricId, hasHeaderRow: true, skipBlanks: true, duplicates: 'reject', offPeriod: 'reject', onlyChanged: false },
    writeStatus: false,
  };
  // Previewed first, as the sidebar does: the start compares, and the comparison's values before are kept
  // between the start and the step that sends them (the job's stored state), not only within one step.
  ok(rt.callServer('previewExport', [request]));
  const exported = await driveExport(stack, rt, ok<ExportHandle>(rt.callServer('startExport', [request])));
  expect(exported.report!.totals).toMatchObject({ updated: 4, created: 2, failed: 0, pending: 0 });
  return { metricId, exported };
}

it("undo of an export restores the values it replaced, keeps a colleague's later change as a conflict, and lists the values it created", async () => {
  const rt = stack.runtime();
  const { metricId, exported } = await exportOverExistingValues(rt);

  // A colleague changes one exported value on the server after the export.
  const colleague = await fetch(`${stack.emulator.url}/metrics/${metricId}/data_points`, {
    method: 'PUT',
    headers: { Authorization: `Bearer ${stack.emulator.token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ data_points: [{ date: '2024-01-02', value: '25' }] }),
  });
  expect(colleague.status).toBe(200);

  await stack.emulator.control.clearRequests();
  const undone = await driveUndo(rt, ok<UndoHandle>(rt.callServer('undoLastPush', [])));
  expect(undone.progress).toMatchObject({ status: 'done', cellsDone: 3, cellsTotal: 3 });
  expect(undone.pushId).toBe(exported.exportId);
  const report = undone.report!;
  expect(report.totals).toMatchObject({ updated: 2, conflict: 1, failed: 0, pending: 0 });
  expect(report.summary).toBe(
    `Undo of the export (Push ${exported.exportId} in the Pushes sheet): 2 values restored, 1 conflict (changed on the server since the push, so not restored), 3 values the API cannot undo (listed). The exported range still shows the exported values.`,
  );
  expect(report.problems).toEqual([
    expect.objectContaining({
      cell: 'Sheet1!B3',
      profileId: metricId,
      profileName: 'Undo export metric',
      propertyName: '2024-01-02',
      value: '20',
      outcome: 'conflict',
      conflict: { atBuild: '21', server: '25' },
    }),
  ]);
  // In the export's order, each with its reason.
  expect(report.notUndone).toEqual([
    {
      what: 'Undo export metric',
      period: '2024-01-04',
      cell: 'Sheet1!B5',
      value: '40',
      reason: expect.stringMatching(/^it was blank before the push: the API has no delete/),
    },
    {
      what: 'Undo export metric',
      period: '2024-01-05',
      cell: 'Sheet1!B6',
      value: '50',
      reason: expect.stringMatching(/^the push created it .*no delete.*clear it in the web application$/),
    },
    { what: 'Undo export metric', period: '2024-01-06', cell: 'Sheet1!B7', value: '60', reason: expect.stringMatching(/^the push created it /) },
  ]);

  // Read before written: one read of the metric's points, then one PUT of exactly the two values before.
  const requests = await stack.emulator.control.requests();
  const firstPut = requests.findIndex((r) => r.method === 'PUT');
  expect(requests.slice(0, firstPut).filter((r) => r.method === 'GET' && r.path === '/data_points')).toHaveLength(1);
  const puts = requests.filter((r) => r.method === 'PUT');
  expect(puts.map((r) => [r.path, r.body])).toEqual([
    [
      `/metrics/${metricId}/data_points`,
      {
        data_points: [
          { date: '2024-01-01', value: '10' },
          { date: '2024-01-03', value: '30' },
        ],
      },
    ],
  ]);
  const after = await stack.emulator.control.state();
  expect(['2024-01-01', '2024-01-02', '2024-01-03', '2024-01-04', '2024-01-05', '2024-01-06'].map((date) => pointValue(after, metricId, date))).toEqual([
    '10',
    '25',
    '30',
    '40',
    '50',
    '60',
  ]);

  // The Pushes sheet: the export's rows with the values it replaced, then the undo's under its own id.
  const log = rt.spreadsheet
    .getSheetByName('Pushes')!
    .getDataRange()
    .getValues()
    .slice(1)
    .map((row) => row.slice(1));
  expect(log.filter((row) => row[1] === 'Export')).toEqual([
    [OWNER, 'Export', 'Undo export metric', '2024-01-01', '10', '11', 'updated', 'Sheet1!B2', exported.exportId],
    [OWNER, 'Export', 'Undo export metric', '2024-01-02', '20', '21', 'updated', 'Sheet1!B3', exported.exportId],
    [OWNER, 'Export', 'Undo export metric', '2024-01-03', '30', '31', 'updated', 'Sheet1!B4', exported.exportId],
    // Blank before: the sheet shows an empty "Old value".
    [OWNER, 'Export', 'Undo export metric', '2024-01-04', '', '40', 'updated', 'Sheet1!B5', exported.exportId],
    [OWNER, 'Export', 'Undo export metric', '2024-01-05', '', '50', 'created', 'Sheet1!B6', exported.exportId],
    [OWNER, 'Export', 'Undo export metric', '2024-01-06', '', '60', 'created', 'Sheet1!B7', exported.exportId],
  ]);
  expect(log.filter((row) => row[1] === 'Undo')).toEqual([
    [OWNER, 'Undo', 'Undo export metric', '2024-01-01', '11', '10', 'restored', 'Sheet1!B2', undone.undoId],
    [
      OWNER,
      'Undo',
      'Undo export metric',
      '2024-01-02',
      '25',
      '20',
      expect.stringMatching(/^conflict: changed on the server since the push/),
      'Sheet1!B3',
      undone.undoId,
    ],
    [OWNER, 'Undo', 'Undo export metric', '2024-01-03', '31', '30', 'restored', 'Sheet1!B4', undone.undoId],
  ]);

  // Undone once: a second Undo has nothing to restore.
  expect(rt.callServer('undoLastPush', [])).toEqual({ ok: false, error: expect.stringMatching(/^There is no push to undo/) });
});

it('offers an undo of an export left unfinished, and Resume restores what it had not', async () => {
  const rt = stack.runtime();
  const { metricId } = await exportOverExistingValues(rt);
  const started = ok<UndoHandle>(rt.callServer('undoLastPush', []));
  const cancelled = ok<UndoHandle>(rt.callServer('cancelUndo', [started.undoId]));
  expect(cancelled.progress).toMatchObject({ status: 'cancelled', cellsDone: 0, cellsTotal: 3 });
  expect(cancelled.report!.totals).toMatchObject({ updated: 0, pending: 3 });

  // The sidebar opened again: the undo is offered with the other unfinished jobs.
  const offered = ok<UnfinishedPortfolioJobs>(rt.callServer('findUnfinishedPortfolioJobs', [])).undos;
  expect(offered.map((h) => [h.undoId, h.pushId, h.progress.status])).toEqual([[started.undoId, started.pushId, 'cancelled']]);
  expect(ok(rt.callServer('getJobProgress', ['undo', started.undoId]))).toBeNull();

  const resumed = await driveUndo(rt, ok<UndoHandle>(rt.callServer('resumeUndo', [started.undoId])));
  expect(resumed.report!.totals).toMatchObject({ updated: 3, conflict: 0, pending: 0 });
  const after = await stack.emulator.control.state();
  expect(['2024-01-01', '2024-01-02', '2024-01-03'].map((date) => pointValue(after, metricId, date))).toEqual(['10', '20', '30']);
  expect(ok<UnfinishedPortfolioJobs>(rt.callServer('findUnfinishedPortfolioJobs', [])).undos).toEqual([]);
});
