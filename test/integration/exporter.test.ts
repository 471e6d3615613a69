// The range exporter end to end: a sheet in the runtime, the built add-in's server functions as the
// sidebar calls them, and the emulator's final state compared with the sheet.

import { DEMO_IDS } from '../../emulator/demo-data';
import type { GasRuntime } from '../../gas-runtime';
import type { ExportHandle, ExportRequest } from '../../src/shared/rpc';
import type { ExportSpec } from '../../src/core/export';
import { driveExport, ok, startStack, type Stack } from '../support/stack';

const drive = (rt: GasRuntime, handle: ExportHandle) => driveExport(stack, rt, handle);

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.stop());
beforeEach(async () => {
  await stack.emulator.control.reset();
  await stack.emulator.control.clearRequests();
});


async function newMetric(name: string, frequency: string): Promise<string> {
  const created = await stack.emulator.control.fixtures({ metrics: [{ company_id: DEMO_IDS.fund, name, frequency, unit: 'number' }] });
  return created.metrics[0]!.id;
}

function isoDay(start: string, offset: number): string {
  return new Date(Date.parse(`${start}T00:00:00Z`) + offset * 86_400_000).toISOString().slice(0, 10);
}

/** Writes rows into Sheet1 from A1 (text dates become date cells, as typed) and returns the range. */
function fill(rt: GasRuntime, rows: unknown[][]): string {
  const sheet = rt.spreadsheet.getActiveSheet();
  if (rows.length > sheet.getMaxRows()) sheet.insertRowsAfter(sheet.getMaxRows(), rows.length - sheet.getMaxRows());
  sheet.getRange(1, 1, rows.length, rows[0]!.length).setValues(rows);
  return `Sheet1!A1:${String.fromCharCode(64 + rows[0]!.length)}${rows.length}`;
}

const SPEC: ExportSpec = { layout: 'long', hasHeaderRow: true, skipBlanks: true, duplicates: 'reject', offPeriod: 'reject', onlyChanged: false };

function request(range: string, spec: Partial<ExportSpec>, writeStatus = true): ExportRequest {
  return { companyId: DEMO_IDS.fund, range, spec: { ...SPEC, ...spec }, writeStatus };
}

async function storedPoints(metricId: string): Promise<Array<[string, string | null]>> {
  const state = await stack.emulator.control.state();
  return state.data_points.filter((p) => p.metric_id === metricId).sort((a, b) => a.date.localeCompare(b.date)).map((p) => [p.date, p.value]);
}

function daily(count: number, start = '2022-01-01', value = (i: number) => String(i * 1.5)): unknown[][] {
  return [['Date', 'Value'], ...Array.from({ length: count }, (_, i) => [isoDay(start, i), value(i)])];
}

it('sends 1,000 rows in 20 PUTs, stores exactly the sheet, and writes every row\'s outcome', async () => {
  const metricId = await newMetric('Signups', 'daily');
  const rt = stack.runtime();
  const rows = daily(1000);
  const range = fill(rt, rows);
  await stack.takeRequests();
  const done = await drive(rt, ok(rt.callServer('startExport', [request(range, { metricId })])));
  expect(done.progress.status).toBe('done');
  expect(done.report!.totals).toMatchObject({ written: 1000, failed: 0, skipped: 0, pending: 0 });
  expect(done.report!.summary).toMatch(/^1,000 rows read: 1,000 written/);
  const requests = await stack.takeRequests();
  expect(requests.filter((r) => r.method === 'PUT')).toHaveLength(20);
  expect(requests.filter((r) => r.method === 'GET').map((r) => r.path)).toEqual(['/metrics']); // names and frequencies, once
  expect(await storedPoints(metricId)).toEqual(rows.slice(1).map(([date, value]) => [date, String(Number(value))]));
  expect(done.report!.statusRange).toBe('Sheet1!C1:C1001');
  const status = rt.spreadsheet.getActiveSheet().getRange('C1:C3').getValues().flat();
  expect(status).toEqual(['Export status', 'written', 'written']);
});

it('re-exports unchanged data with reads only, and sends just the rows that changed', async () => {
  const metricId = await newMetric('Bookings', 'daily');
  const rt = stack.runtime();
  const rows = daily(250);
  const range = fill(rt, rows);
  await drive(rt, ok(rt.callServer('startExport', [request(range, { metricId }, false)])));
  const selection = (() => {
    rt.spreadsheet.setActiveRange(rt.spreadsheet.getActiveSheet().getRange('A1:B251'));
    return ok<{ previouslyExported: boolean }>(rt.callServer('readExportSelection', []));
  })();
  expect(selection.previouslyExported).toBe(true);
  await stack.takeRequests();

  const unchanged = await drive(rt, ok(rt.callServer('startExport', [request(range, { metricId, onlyChanged: true }, false)])));
  expect(unchanged.report!.totals).toMatchObject({ unchanged: 250, created: 0, updated: 0 });
  expect((await stack.takeRequests()).filter((r) => r.method === 'PUT')).toHaveLength(0);

  rt.spreadsheet.getActiveSheet().getRange('B3').setValue('123.25');
  const changed = await drive(rt, ok(rt.callServer('startExport', [request(range, { metricId, onlyChanged: true }, false)])));
  expect(changed.report!.totals).toMatchObject({ unchanged: 249, updated: 1 });
  const puts = (await stack.takeRequests()).filter((r) => r.method === 'PUT');
  expect(puts).toHaveLength(1);
  expect((await storedPoints(metricId))[1]).toEqual([rows[2]![0], '123.25']);
});

it('survives a run of 429s and 5xx answers with every row accounted for and the sheet stored', async () => {
  const metricId = await newMetric('Revenue', 'daily');
  const rt = stack.runtime();
  const rows = daily(600, '2023-01-01', (i) => `${i}.${i % 10}`);
  const range = fill(rt, rows);
  const started = ok<ExportHandle>(rt.callServer('startExport', [request(range, { metricId })]));
  await stack.takeRequests();
  await stack.emulator.control.faults({ next429: 4, next5xx: 3 });
  const done = await drive(rt, started);
  expect(done.progress.status).toBe('done');
  const totals = done.report!.totals;
  expect(Object.values(totals).reduce((a, b) => a + b, 0)).toBe(600);
  expect(totals.written).toBe(600);
  // "0.0" typed into a cell is the number 0, as in Sheets.
  expect(await storedPoints(metricId)).toEqual(rows.slice(1).map(([date, value]) => [date, String(Number(value))]));
  const requests = await stack.takeRequests();
  expect(requests.filter((r) => r.status === 429)).toHaveLength(4);
  expect(requests.filter((r) => r.status === 503)).toHaveLength(3);
  expect(requests.filter((r) => r.method === 'PUT' && r.status === 200)).toHaveLength(12);
});

it('resumes an export cut off by the rate limit and by a closed sidebar, writing nothing twice', async () => {
  const metricId = await newMetric('Orders', 'daily');
  const rt = stack.runtime();
  const rows = daily(1000);
  const range = fill(rt, rows);
  await stack.emulator.control.rateLimit({ limit: 8, windowSeconds: 120, retryAfter: true, freshWindow: true });
  await stack.takeRequests();

  const started = ok<ExportHandle>(rt.callServer('startExport', [request(range, { metricId })]));
  const first = ok<ExportHandle>(rt.callServer('continueExport', [started.exportId]));
  // The window let 7 PUTs through after the listing; the rest waits for the rate limit.
  expect(first.report).toBeNull();
  expect(first.progress.itemsDone).toBe(350);
  expect(first.progress.waitingForRateLimitMs).toBeGreaterThan(0);

  // The sidebar is closed here. Reopened, it finds the unfinished export and resumes it.
  const found = ok<ExportHandle | null>(rt.callServer('findUnfinishedExport', []));
  expect(found).toMatchObject({ exportId: started.exportId, progress: { itemsDone: 350, itemsTotal: 1000 } });
  const cancelled = ok<ExportHandle>(rt.callServer('cancelExport', [started.exportId]));
  expect(cancelled.report!.totals).toMatchObject({ written: 350, pending: 650 });
  const resumed = ok<ExportHandle>(rt.callServer('resumeExport', [started.exportId]));
  const done = await drive(rt, resumed);
  expect(done.report!.totals).toMatchObject({ written: 1000, pending: 0 });

  const puts = (await stack.takeRequests()).filter((r) => r.method === 'PUT' && r.status === 200);
  expect(puts).toHaveLength(20); // every batch stored once
  expect(await storedPoints(metricId)).toEqual(rows.slice(1).map(([date, value]) => [date, String(Number(value))]));
});

it('refuses to resume when the sheet changed since the export started', async () => {
  const metricId = await newMetric('Visits', 'daily');
  const rt = stack.runtime();
  const range = fill(rt, daily(10));
  const started = ok<ExportHandle>(rt.callServer('startExport', [request(range, { metricId })]));
  rt.callServer('cancelExport', [started.exportId]);
  rt.spreadsheet.getActiveSheet().getRange('B2').setValue('999');
  expect(rt.callServer('resumeExport', [started.exportId])).toEqual({ ok: false, error: expect.stringMatching(/^The range changed since this export started/) });
});

it('exports a wide layout whose header names metrics by exact name or by id', async () => {
  const monthly = await newMetric('Net revenue', 'monthly');
  const quarterly = await newMetric('Head count', 'quarterly');
  const rt = stack.runtime();
  const rows = [
    ['Date', 'Net revenue', quarterly, 'No such metric'],
    ['2024-01-01', '10', '5', '1'],
    ['2024-02-01', '20', '', '2'],
    ['2024-04-01', '30', '6', '3'],
  ];
  const range = fill(rt, rows);
  const done = await drive(rt, ok(rt.callServer('startExport', [request(range, { layout: 'wide' })])));
  expect(await storedPoints(monthly)).toEqual([['2024-01-01', '10'], ['2024-02-01', '20'], ['2024-04-01', '30']]);
  expect(await storedPoints(quarterly)).toEqual([['2024-01-01', '5'], ['2024-04-01', '6']]);
  const totals = done.report!.totals;
  expect(totals).toMatchObject({ written: 5, skipped: 1, failed: 3 });
  expect(done.report!.problems.filter((p) => p.outcome === 'failed').map((p) => p.cell)).toEqual(['D2', 'D3', 'D4']);
  expect(done.report!.problems.find((p) => p.cell === 'D2')!.reason).toMatch(/No such metric/);
});

it('gives every validation case its reason, before anything is sent', async () => {
  const metricId = await newMetric('Churn', 'monthly');
  const rt = stack.runtime();
  const rows = [
    ['Date', 'Value'],
    ['2024-01-01', '1.5'],
    ['01/02/2024x', '2'],
    ['2024-03-01', "'1,234"], // text: typed without the apostrophe, Sheets would read the number 1234
    ['2024-04-01', '#N/A'],
    ['2024-05-01', ''],
    ['2024-06-15', '6'],
    ['2024-07-01', '7'],
    ['2024-07-01', '8'],
    ['2024-08-01', true],
  ];
  const range = fill(rt, rows);
  const preview = ok<{ toSend: number; problems: Array<{ cell: string; outcome: string; reason: string }> }>(rt.callServer('previewExport', [request(range, { metricId })]));
  expect(preview.problems.map((p) => `${p.cell} ${p.outcome}: ${p.reason}`)).toHaveLength(8);
  expect(preview.toSend).toBe(1);
  const reasons = Object.fromEntries(preview.problems.map((p) => [p.cell, `${p.outcome}: ${p.reason}`]));
  expect(reasons).toEqual({
    B3: 'failed: the date must be a date cell or text like 2024-01-31, but it is "01/02/2024x"',
    B4: 'failed: the value must be a number or decimal text like 1234.5, but it is "1,234"',
    B5: 'failed: the cell shows the error #N/A',
    B6: 'skipped: blank value',
    B7: 'failed: 2024-06-15 is not the start of a monthly period: use 2024-06-01',
    B8: 'failed: duplicate date 2024-07-01, also in row 9',
    B9: 'failed: duplicate date 2024-07-01, also in row 8',
    B10: 'failed: the value must be a number, but it is the boolean true',
  });
  expect((await stack.takeRequests()).filter((r) => r.method === 'PUT')).toHaveLength(0);

  // Normalising dates and letting the last duplicate win are the user's choices, and say what they did.
  const done = await drive(rt, ok(rt.callServer('startExport', [request(range, { metricId, offPeriod: 'normalise', duplicates: 'last_wins' })])));
  expect(await storedPoints(metricId)).toEqual([['2024-01-01', '1.5'], ['2024-06-01', '6'], ['2024-07-01', '8']]);
  expect(done.report!.problems.find((p) => p.cell === 'B8')!.reason).toMatch(/duplicate date 2024-07-01: row 9 wins/);
});

it('never sends to an id that is not a UUID', async () => {
  const rt = stack.runtime();
  const range = fill(rt, daily(3));
  const done = ok<ExportHandle>(rt.callServer('startExport', [request(range, { metricId: '../../metrics' })]));
  expect(done.report!.totals).toMatchObject({ failed: 3 });
  expect(done.report!.problems[0]!.reason).toMatch(/\.\.\/\.\.\/metrics/);
  expect((await stack.takeRequests()).filter((r) => r.method === 'PUT')).toHaveLength(0);
});
