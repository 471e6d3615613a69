// Resume after a 429 storm opens with one probe, as every step after a 429 does: on the
// built bundle against the emulator, Resume's first step while the API still refuses sends exactly one request.

import { DEMO_IDS } from '../../emulator/demo-data';
import type { ExportHandle, ExportRequest } from '../../src/shared/rpc';
import { driveExport, ok, useStack, waitOnBothClocks, type Stack } from '../support/stack';

jest.setTimeout(240_000);

let stack: Stack;
useStack((started) => (stack = started));

const STORM_MS = 15 * 60_000;

it('sends one request, the probe, as the first of Resume after a storm pause, then the rest once the API accepts them', async () => {
  const created = await stack.emulator.control.fixtures({ metrics: [{ company_id: DEMO_IDS.fund, name: 'Resume probe', frequency: 'daily', unit: 'number' }] });
  const metricId = created.metrics[0]!.id;
  const rt = stack.runtime();
  const start = Date.UTC(1990, 0, 1);
  const rows = [['Date', 'Value'], ...Array.from({ length: 900 }, (_, i) => [new Date(start + i * 86_400_000).toISOString().slice(0, 10), String(i)])];
  const sheet = rt.spreadsheet.getActiveSheet();
  if (rows.length > sheet.getMaxRows()) sheet.insertRowsAfter(sheet.getMaxRows(), rows.length - sheet.getMaxRows());
  sheet.getRange(1, 1, rows.length, 2).setValues(rows);
  const request: ExportRequest = {
    companyId: DEMO_IDS.fund,
    range: `Sheet1!A1:B${rows.length}`,
    spec: { layout: 'long', metricId, hasHeaderRow: true, skipBlanks: true, duplicates: 'reject', offPeriod: 'reject', onlyChanged: false },
    writeStatus: false,
  };
  const started = ok<ExportHandle>(rt.callServer('startExport', [request]));
  // Twice the storm: the export pauses after 15 minutes of refusals, and the API still refuses when Resume comes.
  await stack.emulator.control.faults({ throttleForMs: 2 * STORM_MS });
  const paused = await driveExport(stack, rt, started, 200);
  expect(paused.progress.status).toBe('paused');
  expect(paused.progress.problem).toMatch(/refused every request for 15 minutes/);

  await waitOnBothClocks(stack, rt, 60_000);
  await stack.emulator.control.clearRequests();
  const resumed = ok<ExportHandle>(rt.callServer('resumeExport', [paused.exportId]));
  const probed = ok<ExportHandle>(rt.callServer('continueExport', [resumed.exportId]));
  expect(probed.progress.status).toBe('running');
  const probe = await stack.emulator.control.requests();
  // The probe is the first wave's first request: its compare read (compare-and-set reads before it writes).
  expect(probe.map((r) => [r.method, r.status])).toEqual([['GET', 429]]);

  // The storm ends: the next step's probe is accepted and the rest follow, each row stored once.
  await stack.emulator.control.faults({ throttleForMs: 0 });
  await stack.emulator.control.clearRequests();
  const done = await driveExport(stack, rt, probed, 50);
  expect(done.progress.status).toBe('done');
  expect(done.report!.totals).toMatchObject({ created: 900, pending: 0 });
  const puts = (await stack.emulator.control.requests()).filter((r) => r.method === 'PUT');
  expect(puts.every((r) => r.status === 200)).toBe(true);
  const dates = puts.flatMap((r) => (r.body as { data_points: Array<{ date: string }> }).data_points.map((p) => p.date));
  expect(new Set(dates).size).toBe(dates.length);
});
