// The range exporter end to end: a sheet in the runtime, the built add-in's server functions as the
// sidebar calls them, and the emulator's final state compared with the sheet.

import { DEMO_IDS } from '../../emulator/demo-data';
import type { GasRuntime } from '../../gas-runtime';
import type { ExportHandle, ExportRequest } from '../../src/shared/rpc';
import type { ExportSpec } from '../../src/core/export';
import { driveExport, grantFormulaAccess, ok, OWNER, useStack, type Stack } from '../support/stack';
import { DEMO_FUND_LISTING, DEMO_FUND_LISTING_PAGES } from '../support/demo-fund';

const drive = (rt: GasRuntime, handle: ExportHandle) => driveExport(stack, rt, handle);

/**
 * Far from UTC on purpose (UTC+13 in January, +12 in July): a date cell read as a UTC instant there falls
 * on the previous day, so any shift in how dates are read shows as a wrong stored date.
 */
const FAR_TIME_ZONE = 'Pacific/Auckland';
const runtime = (): GasRuntime => stack.runtime({ timeZone: FAR_TIME_ZONE });

let stack: Stack;
useStack((started) => (stack = started));

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

/** A colleague's write, straight to the API (another spreadsheet or the web application). */
async function putPoints(metricId: string, dataPoints: Array<{ date: string; value: string }>): Promise<void> {
  const response = await fetch(`${stack.emulator.url}/metrics/${metricId}/data_points`, {
    method: 'PUT',
    headers: { Authorization: `Bearer ${stack.emulator.token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ data_points: dataPoints }),
  });
  expect(response.status).toBe(200);
}

async function storedPoints(metricId: string): Promise<Array<[string, string | null]>> {
  const state = await stack.emulator.control.state();
  return state.data_points
    .filter((p) => p.metric_id === metricId)
    .sort((a, b) => a.date.localeCompare(b.date))
    .map((p) => [p.date, p.value]);
}

function daily(count: number, start = '2022-01-01', value = (i: number) => String(i * 1.5)): unknown[][] {
  return [['Date', 'Value'], ...Array.from({ length: count }, (_, i) => [isoDay(start, i), value(i)])];
}

it("sends 1,000 rows in 20 PUTs, each wave after its compare read, stores exactly the sheet, and writes every row's outcome", async () => {
  const metricId = await newMetric('Signups', 'daily');
  const rt = runtime();
  const rows = daily(1000);
  const range = fill(rt, rows);
  await stack.takeRequests();
  const done = await drive(rt, ok(rt.callServer('startExport', [request(range, { metricId })])));
  expect(done.progress.status).toBe('done');
  // Each value's compare read found no point on its date: created.
  expect(done.report!.totals).toMatchObject({ created: 1000, failed: 0, skipped: 0, pending: 0 });
  expect(done.report!.summary).toMatch(/^1,000 rows read: 1,000 created/);
  const requests = await stack.takeRequests();
  expect(requests.filter((r) => r.method === 'PUT')).toHaveLength(20);
  expect(requests.filter((r) => r.method === 'GET' && r.path !== '/data_points').map((r) => r.path)).toEqual(DEMO_FUND_LISTING); // names and frequencies, once
  // One compare read a wave of 10 batches (the metric holds nothing yet: one page each).
  expect(requests.filter((r) => r.method === 'GET' && r.path === '/data_points')).toHaveLength(2);
  expect(await storedPoints(metricId)).toEqual(rows.slice(1).map(([date, value]) => [date, String(Number(value))]));
  expect(done.report!.statusRange).toBe('Sheet1!C1:C1001');
  const status = rt.spreadsheet.getActiveSheet().getRange('C1:C3').getValues().flat();
  expect(status).toEqual(['Export status', 'created', 'created']);
});

it('re-exports unchanged data with reads only, and sends just the rows that changed', async () => {
  const metricId = await newMetric('Bookings', 'daily');
  const rt = runtime();
  const rows = daily(250);
  const range = fill(rt, rows);
  await drive(rt, ok(rt.callServer('startExport', [request(range, { metricId }, false)])));
  const selection = (() => {
    rt.spreadsheet.setActiveRange(rt.spreadsheet.getActiveSheet().getRange('A1:B251'));
    return ok<{ previouslyExported: boolean }>(rt.callServer('readExportSelection', [DEMO_IDS.fund]));
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
  const rt = runtime();
  const rows = daily(600, '2023-01-01', (i) => `${i}.${i % 10}`);
  const range = fill(rt, rows);
  const started = ok<ExportHandle>(rt.callServer('startExport', [request(range, { metricId })]));
  await stack.takeRequests();
  await stack.emulator.control.faults({ next429: 4, next5xx: 3 });
  const done = await drive(rt, started);
  expect(done.progress.status).toBe('done');
  const totals = done.report!.totals;
  expect(Object.values(totals).reduce((a, b) => a + b, 0)).toBe(600);
  expect(totals.created).toBe(600);
  // "0.0" typed into a cell is the number 0, as in Sheets.
  expect(await storedPoints(metricId)).toEqual(rows.slice(1).map(([date, value]) => [date, String(Number(value))]));
  const requests = await stack.takeRequests();
  expect(requests.filter((r) => r.status === 429)).toHaveLength(4);
  expect(requests.filter((r) => r.status === 503)).toHaveLength(3);
  expect(requests.filter((r) => r.method === 'PUT' && r.status === 200)).toHaveLength(12);
  // Every PUT came after a compare read of its wave.
  expect(requests.findIndex((r) => r.method === 'GET' && r.path === '/data_points')).toBeLessThan(requests.findIndex((r) => r.method === 'PUT'));
});

it('resumes an export cut off by the rate limit and by a closed sidebar, writing nothing twice', async () => {
  const metricId = await newMetric('Orders', 'daily');
  const rt = runtime();
  const rows = daily(1000);
  const range = fill(rt, rows);
  // The listing's pages, the first wave's compare read, then 7 PUTs.
  await stack.emulator.control.rateLimit({ limit: DEMO_FUND_LISTING_PAGES + 8, windowSeconds: 120, retryAfter: true, freshWindow: true });
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
  expect(cancelled.report!.totals).toMatchObject({ created: 350, pending: 650 });
  const resumed = ok<ExportHandle>(rt.callServer('resumeExport', [started.exportId]));
  const done = await drive(rt, resumed);
  expect(done.report!.totals).toMatchObject({ created: 1000, pending: 0 });

  const puts = (await stack.takeRequests()).filter((r) => r.method === 'PUT' && r.status === 200);
  expect(puts).toHaveLength(20); // every batch stored once
  expect(await storedPoints(metricId)).toEqual(rows.slice(1).map(([date, value]) => [date, String(Number(value))]));
});

it('leaves the state to a step under way when cancel arrives meanwhile; that step stops and writes the status column', async () => {
  const metricId = await newMetric('Seats cancelled mid-step', 'daily');
  const rt = runtime();
  const range = fill(rt, daily(120));
  const started = ok<ExportHandle>(rt.callServer('startExport', [request(range, { metricId })]));
  // Another execution is running a step of this export (the mark its step sets, in the user's
  // properties: its end time), when the cancel comes.
  const userProperties = rt.properties.user(OWNER);
  userProperties.setProperty(`job-step:export:${started.exportId}`, String(rt.clock.now() + 360_000));
  const during = ok<ExportHandle>(rt.callServer('cancelExport', [started.exportId]));
  expect(during.progress.status).toBe('running');
  expect(
    rt.spreadsheet
      .getActiveSheet()
      .getRange('C2:C121')
      .getValues()
      .flat()
      .every((cell) => cell === ''),
  ).toBe(true);
  // A second sidebar cannot drive a step of it meanwhile.
  expect(rt.callServer('continueExport', [started.exportId])).toEqual({
    ok: false,
    error: 'This export is already running from another sidebar or window. Follow it there, or cancel it there and resume it here.',
  });
  // That step sees the cancel before its next wave and saves the final state, status column included.
  userProperties.deleteProperty(`job-step:export:${started.exportId}`);
  const stopped = ok<ExportHandle>(rt.callServer('continueExport', [started.exportId]));
  expect(stopped.progress.status).toBe('cancelled');
  expect(stopped.report!.totals).toMatchObject({ pending: 120 });
  expect(rt.spreadsheet.getActiveSheet().getRange('C2').getValue()).toMatch(/not sent/);
  expect((await stack.takeRequests()).filter((r) => r.method === 'PUT')).toEqual([]);
});

it('refuses to resume when the sheet changed since the export started', async () => {
  const metricId = await newMetric('Visits', 'daily');
  const rt = runtime();
  const range = fill(rt, daily(10));
  const started = ok<ExportHandle>(rt.callServer('startExport', [request(range, { metricId })]));
  rt.callServer('cancelExport', [started.exportId]);
  rt.spreadsheet.getActiveSheet().getRange('B2').setValue('999');
  // Told from the stored outcome codes alone: nothing was sent.
  expect(ok<ExportHandle>(rt.callServer('continueExport', [started.exportId])).report).toMatchObject({
    summary: expect.stringMatching(/^The range changed/),
    totals: { pending: 10, created: 0 },
    itemsRead: 10,
  });
  expect(rt.callServer('resumeExport', [started.exportId])).toEqual({
    ok: false,
    error: expect.stringMatching(/^The range changed since this export started/),
  });
});

it('exports a wide layout whose header names metrics by exact name or by id', async () => {
  const monthly = await newMetric('Net revenue', 'monthly');
  const quarterly = await newMetric('Head count', 'quarterly');
  const rt = runtime();
  const rows = [
    ['Date', 'Net revenue', quarterly, 'No such metric'],
    ['2024-01-01', '10', '5', '1'],
    ['2024-02-01', '20', '', '2'],
    ['2024-04-01', '30', '6', '3'],
  ];
  const range = fill(rt, rows);
  const done = await drive(rt, ok(rt.callServer('startExport', [request(range, { layout: 'wide' })])));
  expect(await storedPoints(monthly)).toEqual([
    ['2024-01-01', '10'],
    ['2024-02-01', '20'],
    ['2024-04-01', '30'],
  ]);
  expect(await storedPoints(quarterly)).toEqual([
    ['2024-01-01', '5'],
    ['2024-04-01', '6'],
  ]);
  const totals = done.report!.totals;
  expect(totals).toMatchObject({ created: 5, skipped: 1, failed: 3 });
  expect(done.report!.problems.filter((p) => p.outcome === 'failed').map((p) => p.cell)).toEqual(['D2', 'D3', 'D4']);
  expect(done.report!.problems.find((p) => p.cell === 'D2')!.reason).toMatch(/No such metric/);
});

it('gives every validation case its reason, before anything is sent', async () => {
  const metricId = await newMetric('Churn', 'monthly');
  const rt = runtime();
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
  const preview = ok<{ toSend: number; problems: Array<{ cell: string; outcome: string; reason: string }> }>(
    rt.callServer('previewExport', [request(range, { metricId })]),
  );
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
  expect(await storedPoints(metricId)).toEqual([
    ['2024-01-01', '1.5'],
    ['2024-06-01', '6'],
    ['2024-07-01', '8'],
  ]);
  expect(done.report!.problems.find((p) => p.cell === 'B8')!.reason).toMatch(/duplicate date 2024-07-01: row 9 wins/);
});

describe('percent cells', () => {
  const MARGIN = DEMO_IDS.metrics.grossMarginHtml; // unit percent: the demo holds 62.3 for 62.3 %
  const MRR = DEMO_IDS.metrics.monthlyRecurringRevenue; // unit USD

  it("sends 12% typed into a cell to the demo's percent metric as 12, and 12.3% as 12.3", async () => {
    const rt = runtime();
    // Typed as a user types them: the runtime stores 0.12 and 0.123 under a percent format, as Sheets does.
    const range = fill(rt, [
      ['Date', 'Margin'],
      ['2031-01-01', '12%'],
      ['2031-02-01', '12.3%'],
    ]);
    const sheet = rt.spreadsheet.getActiveSheet();
    expect(sheet.getRange('B2:B3').getValues().flat()).toEqual([0.12, 0.123]);
    expect(sheet.getRange('B2:B3').getDisplayValues().flat()).toEqual(['12%', '12.30%']);
    const done = await drive(rt, ok(rt.callServer('startExport', [request(range, { metricId: MARGIN })])));
    expect(done.report!.totals).toMatchObject({ created: 2, failed: 0 });
    const stored = (await storedPoints(MARGIN)).filter(([date]) => date >= '2031-01-01');
    expect(stored).toEqual([
      ['2031-01-01', '12'],
      ['2031-02-01', '12.3'],
    ]);
  });

  it('refuses a percent cell for a USD metric, naming the unit, and sends nothing', async () => {
    const rt = runtime();
    const range = fill(rt, [
      ['Date', 'MRR'],
      ['2031-01-01', '12%'],
    ]);
    const before = await storedPoints(MRR);
    await stack.takeRequests();
    const done = await drive(rt, ok(rt.callServer('startExport', [request(range, { metricId: MRR })])));
    expect(done.report!.totals).toMatchObject({ failed: 1, written: 0 });
    expect(done.report!.problems[0]).toMatchObject({
      cell: 'B2',
      reason: expect.stringMatching(/^the cell is formatted as a percentage but the metric's unit is "USD", not percent/),
    });
    expect((await stack.takeRequests()).filter((r) => r.method === 'PUT')).toHaveLength(0);
    expect(await storedPoints(MRR)).toEqual(before);
  });
});

it('never sends to an id that is not a UUID', async () => {
  const rt = runtime();
  const range = fill(rt, daily(3));
  const done = ok<ExportHandle>(rt.callServer('startExport', [request(range, { metricId: '../../metrics' })]));
  expect(done.report!.totals).toMatchObject({ failed: 3 });
  expect(done.report!.problems[0]!.reason).toMatch(/\.\.\/\.\.\/metrics/);
  expect((await stack.takeRequests()).filter((r) => r.method === 'PUT')).toHaveLength(0);
});

it('stores the day a date cell shows in a far time zone, and YYYY-MM-DD text cells as written', async () => {
  const metricId = await newMetric('Subscribers', 'monthly');
  const rt = runtime();
  // January is summer in Auckland (UTC+13), July winter (UTC+12): both sides of daylight saving.
  const rows = [
    ['Month', 'Value'],
    ['2024-01-01', '1'],
    ["'2024-02-01", '2'],
    ['2024-07-01', '3'],
    ["'2024-08-01", '4'],
  ];
  const range = fill(rt, rows);
  const cells = rt.spreadsheet.getActiveSheet().getRange('A2:A5').getValues().flat();
  // The zone is really far: the date cell's instant is the day before in UTC, the text cell is text.
  expect((cells[0] as Date).toISOString()).toBe('2023-12-31T11:00:00.000Z');
  expect((cells[2] as Date).toISOString()).toBe('2024-06-30T12:00:00.000Z');
  expect(cells[1]).toBe('2024-02-01');
  const done = await drive(rt, ok(rt.callServer('startExport', [request(range, { metricId })])));
  expect(done.report!.totals).toMatchObject({ created: 4, failed: 0 });
  expect(await storedPoints(metricId)).toEqual([
    ['2024-01-01', '1'],
    ['2024-02-01', '2'],
    ['2024-07-01', '3'],
    ['2024-08-01', '4'],
  ]);
});

it('skips blank values by default without blanking what is stored, and refuses them when told not to skip', async () => {
  const metricId = await newMetric('Pipeline', 'monthly');
  await stack.emulator.control.fixtures({ data_points: [{ metric_id: metricId, date: '2024-02-01', value: '42' }] });
  const rt = runtime();
  const range = fill(rt, [
    ['Month', 'Value'],
    ['2024-01-01', '1'],
    ['2024-02-01', ''],
    ['2024-03-01', '3'],
  ]);
  await stack.takeRequests();
  const skipped = await drive(rt, ok(rt.callServer('startExport', [request(range, { metricId })])));
  expect(skipped.report!.totals).toMatchObject({ created: 2, skipped: 1 });
  expect(skipped.report!.problems.map((p) => `${p.cell} ${p.outcome}: ${p.reason}`)).toEqual(['B3 skipped: blank value']);
  // The issue: the upsert cannot blank a data point, so a blank is never sent: the stored 42 stays.
  expect(await storedPoints(metricId)).toEqual([
    ['2024-01-01', '1'],
    ['2024-02-01', '42'],
    ['2024-03-01', '3'],
  ]);
  const sent = (await stack.takeRequests()).filter((r) => r.method === 'PUT');
  expect(sent).toHaveLength(1);

  const refused = ok<{ problems: Array<{ cell: string; outcome: string; reason: string }> }>(
    rt.callServer('previewExport', [request(range, { metricId, skipBlanks: false })]),
  );
  expect(refused.problems.map((p) => `${p.cell} ${p.outcome}: ${p.reason}`)).toEqual([
    'B3 failed: blank value: the API cannot store a blank, and this export does not skip blanks',
  ]);
});

it('moves weekly and quarterly dates to their period starts when allowed, and otherwise names the right date', async () => {
  const weekly = await newMetric('Weekly actives', 'weekly');
  const quarterly = await newMetric('Quarterly bookings', 'quarterly');
  const rt = runtime();
  const rows = [
    ['Date', 'Weekly actives', 'Quarterly bookings'],
    ['2024-01-03', '10', '100'], // a Wednesday in Q1
    ['2024-05-19', '20', '200'], // a Sunday in Q2
    ['2024-07-01', '30', '300'], // a Monday and a quarter start
  ];
  const range = fill(rt, rows);
  const refusals = ok<{ problems: Array<{ cell: string; reason: string }> }>(rt.callServer('previewExport', [request(range, { layout: 'wide' })]));
  expect(Object.fromEntries(refusals.problems.map((p) => [p.cell, p.reason]))).toEqual({
    B2: '2024-01-03 is not the start of a weekly period (weeks start on Monday): use 2024-01-01',
    C2: '2024-01-03 is not the start of a quarterly period (quarters start on 1 January, April, July and October): use 2024-01-01',
    B3: '2024-05-19 is not the start of a weekly period (weeks start on Monday): use 2024-05-13',
    C3: '2024-05-19 is not the start of a quarterly period (quarters start on 1 January, April, July and October): use 2024-04-01',
  });

  const done = await drive(rt, ok(rt.callServer('startExport', [request(range, { layout: 'wide', offPeriod: 'normalise' })])));
  expect(done.report!.totals).toMatchObject({ created: 6, failed: 0 });
  expect(await storedPoints(weekly)).toEqual([
    ['2024-01-01', '10'],
    ['2024-05-13', '20'],
    ['2024-07-01', '30'],
  ]);
  expect(await storedPoints(quarterly)).toEqual([
    ['2024-01-01', '100'],
    ['2024-04-01', '200'],
    ['2024-07-01', '300'],
  ]);
  // Moved, never silently: the status column says so on each row that moved.
  const status = rt.spreadsheet.getActiveSheet().getRange('D2:D4').getValues().flat();
  expect(status[0]).toBe(
    'B: created (2024-01-03 moved to 2024-01-01, the start of its weekly period); C: created (2024-01-03 moved to 2024-01-01, the start of its quarterly period)',
  );
  expect(status[2]).toBe('created');
});

it('fails every cell of a column whose header is not a UUID, with the reason on each row, and sends the others', async () => {
  const good = await newMetric('Gross margin', 'monthly');
  const rt = runtime();
  const rows = [
    ['Date', 'Gross margin', '1234abcd-12-34'],
    ['2024-01-01', '0.5', '1'],
    ['2024-02-01', '0.6', '2'],
  ];
  const range = fill(rt, rows);
  const done = await drive(rt, ok(rt.callServer('startExport', [request(range, { layout: 'wide' })])));
  expect(done.report!.totals).toMatchObject({ created: 2, failed: 2 });
  const reason = 'the header "1234abcd-12-34" is not a valid metric id (ids look like 123e4567-e89b-12d3-a456-426614174000)';
  expect(done.report!.problems.map((p) => `${p.cell}: ${p.reason}`)).toEqual([`C2: ${reason}`, `C3: ${reason}`]);
  expect(await storedPoints(good)).toEqual([
    ['2024-01-01', '0.5'],
    ['2024-02-01', '0.6'],
  ]);
  const status = rt.spreadsheet.getActiveSheet().getRange('D2:D3').getValues().flat();
  expect(status).toEqual([`B: created; C: failed: ${reason}`, `B: created; C: failed: ${reason}`]);
});

it('reports a deleted metric (refused by its compare read) and a 422 on exactly the rows of those metrics while the other metric goes through', async () => {
  const kept = await newMetric('Kept', 'monthly');
  const refused = await newMetric('Turned quarterly', 'monthly');
  const missing = await newMetric('Deleted', 'monthly');
  const rt = runtime();
  const months = Array.from({ length: 60 }, (_, i) => `${2020 + Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}-01`);
  const rows = [['Date', kept, refused, missing], ...months.map((month, i) => [month, String(i), String(i + 100), String(i + 200)])];
  const range = fill(rt, rows);
  const started = ok<ExportHandle>(rt.callServer('startExport', [request(range, { layout: 'wide' })]));
  // Between the listing and the sending: one metric is deleted (404), another becomes quarterly (422 on most dates).
  await stack.emulator.control.reset();
  await stack.emulator.control.fixtures({
    metrics: [
      { id: kept, company_id: DEMO_IDS.fund, name: 'Kept', frequency: 'monthly', unit: 'number' },
      { id: refused, company_id: DEMO_IDS.fund, name: 'Turned quarterly', frequency: 'quarterly', unit: 'number' },
    ],
  });
  await stack.takeRequests();
  const done = await drive(rt, started);
  expect(done.progress.status).toBe('done');
  expect(done.report!.totals).toMatchObject({ created: 60, failed: 120, pending: 0 });
  expect(await storedPoints(kept)).toEqual(months.map((month, i) => [month, String(i)]));
  expect(await storedPoints(refused)).toEqual([]);

  const status = rt.spreadsheet.getActiveSheet().getRange('E2:E61').getValues().flat() as string[];
  // The deleted metric's compare read is refused before any PUT of it: every one of its cells says so.
  const unread = `D: failed: not sent: the metric's existing data points could not be read: the API refused the request (HTTP 400, "metric_id": names no metric this token can see: ${missing})`;
  // 2020-02-01 is the first date the API refuses as a quarter start; the batch's other rows say because of which row.
  expect(status[1]).toBe(
    `B: created; C: failed: the API refused the date 2020-02-01: must be 1 January, April, July or October, the start of a quarterly period; ${unread}`,
  );
  expect(status[0]).toBe(`B: created; C: failed: not stored: the API refused the whole batch because of cell C3; ${unread}`);
  // Each metric's later batch is not sent at all once its first was refused.
  expect(status[55]).toBe(`B: created; C: failed: not sent: the metric was stopped after an error in cell C3; ${unread}`);
  const puts = (await stack.takeRequests()).filter((r) => r.method === 'PUT');
  expect(puts.map((r) => `${r.path.split('/')[2]} ${r.status}`).sort()).toEqual([`${kept} 200`, `${kept} 200`, `${refused} 422`].sort());
});

describe('the status column', () => {
  it('is checked before anything is sent: data beside the range stops the export untouched', async () => {
    const metricId = await newMetric('Beside data', 'daily');
    const rt = runtime();
    const range = fill(rt, daily(5));
    rt.spreadsheet.getActiveSheet().getRange('C4').setValue('my note');
    await stack.takeRequests();
    const result = rt.callServer('startExport', [request(range, { metricId })]);
    expect(result).toEqual({
      ok: false,
      error: 'The column C1:C6 beside the range is not empty, so nothing was sent. Clear it, or turn off "Write each row\'s outcome beside the range".',
    });
    expect((await stack.takeRequests()).filter((r) => r.method === 'PUT')).toHaveLength(0);
    expect(rt.spreadsheet.getActiveSheet().getRange('C1:C6').getValues().flat()).toEqual(['', '', '', 'my note', '', '']);
    // Without the option, the same range exports.
    const done = await drive(rt, ok(rt.callServer('startExport', [request(range, { metricId }, false)])));
    expect(done.report!.totals).toMatchObject({ created: 5 });
  });

  it('is rewritten when the export is cancelled, and again when the resumed export finishes', async () => {
    const metricId = await newMetric('Status rewrites', 'daily');
    const rt = runtime();
    const range = fill(rt, daily(120));
    // The listing's pages, the compare read, then 1 PUT.
    await stack.emulator.control.rateLimit({ limit: DEMO_FUND_LISTING_PAGES + 2, windowSeconds: 120, retryAfter: true, freshWindow: true });
    const started = ok<ExportHandle>(rt.callServer('startExport', [request(range, { metricId })]));
    const first = ok<ExportHandle>(rt.callServer('continueExport', [started.exportId]));
    expect(first.progress.itemsDone).toBe(50);
    const cancelled = ok<ExportHandle>(rt.callServer('cancelExport', [started.exportId]));
    expect(cancelled.report!.statusRange).toBe('Sheet1!C1:C121');
    const column = () => rt.spreadsheet.getActiveSheet().getRange('C1:C121').getValues().flat();
    expect(column().slice(0, 3)).toEqual(['Export status', 'created', 'created']);
    expect(column().slice(50, 53)).toEqual(['created', 'not sent: export cancelled', 'not sent: export cancelled']);
    expect(column().filter((text) => text === 'not sent: export cancelled')).toHaveLength(cancelled.report!.totals.pending);

    const done = await drive(rt, ok(rt.callServer('resumeExport', [started.exportId])));
    expect(done.report!.totals).toMatchObject({ created: 120, pending: 0 });
    expect(column()).toEqual(['Export status', ...Array.from({ length: 120 }, () => 'created')]);
  });

  it('is rewritten when the export pauses, saying why the rest was not sent', async () => {
    const metricId = await newMetric('Status on pause', 'daily');
    const rt = runtime();
    const range = fill(rt, daily(60));
    const started = ok<ExportHandle>(rt.callServer('startExport', [request(range, { metricId })]));
    // The token is revoked mid-export: nothing can go on until the user acts, so the export pauses.
    rt.properties.user('owner@example.com').setProperty('METRICS_API_TOKEN', 'revoked-token-0000');
    const paused = ok<ExportHandle>(rt.callServer('continueExport', [started.exportId]));
    expect(paused.progress.status).toBe('paused');
    const column = rt.spreadsheet.getActiveSheet().getRange('C1:C61').getValues().flat() as string[];
    expect(column[0]).toBe('Export status');
    expect(column.slice(1).every((text) => text.startsWith('not sent: export paused ('))).toBe(true);
    expect(column.join('\n')).not.toContain('revoked-token-0000');
    expect(paused.report!.totals.pending).toBe(60);
  });

  it('is left alone when the user typed into it during the export, and the report says so', async () => {
    const metricId = await newMetric('Typed beside', 'daily');
    const rt = runtime();
    const range = fill(rt, daily(3));
    const started = ok<ExportHandle>(rt.callServer('startExport', [request(range, { metricId })]));
    rt.spreadsheet.getActiveSheet().getRange('C1').setValue('Notes');
    const done = await drive(rt, started);
    expect(done.progress.status).toBe('done');
    expect(done.report!.statusRange).toBeNull();
    expect(done.report!.problem).toBe(
      'The column C1:C4 beside the range is not empty, so the status column was not written. Clear it, or turn off "Write each row\'s outcome beside the range".',
    );
    expect(rt.spreadsheet.getActiveSheet().getRange('C1:C4').getValues().flat()).toEqual(['Notes', '', '', '']);
  });
});

it("guesses two columns as wide when the second header names one of the company's metrics, else long", async () => {
  const metricId = await newMetric('Active seats', 'monthly');
  const rt = runtime();
  const select = (header: string): { layout: string; hasHeaderRow: boolean } => {
    fill(rt, [
      ['Month', header],
      ['2024-01-01', '1'],
      ['2024-02-01', '2'],
    ]);
    rt.spreadsheet.setActiveRange(rt.spreadsheet.getActiveSheet().getRange('A1:B3'));
    return ok(rt.callServer('readExportSelection', [DEMO_IDS.fund]));
  };
  expect(select('Active seats')).toMatchObject({ layout: 'wide', hasHeaderRow: true });
  expect(select(metricId)).toMatchObject({ layout: 'wide', hasHeaderRow: true });
  expect(select('Seats')).toMatchObject({ layout: 'long', hasHeaderRow: true });
  // The guess is what the export then does: the header resolves to the metric.
  select('Active seats');
  const done = await drive(rt, ok(rt.callServer('startExport', [request('Sheet1!A1:B3', { layout: 'wide' }, false)])));
  expect(done.report!.totals).toMatchObject({ created: 2 });
  expect(await storedPoints(metricId)).toEqual([
    ['2024-01-01', '1'],
    ['2024-02-01', '2'],
  ]);
  // Without a company the header cannot be checked against its metrics: the guess goes by the shape, and
  // still answers (the Export selection menu item must not fail for want of a company).
  expect(ok(rt.callServer('readExportSelection', ['']))).toMatchObject({ layout: 'long', hasHeaderRow: true });
});

it('pauses after 15 minutes in which the API accepted nothing, is offered again while the API still refuses, and resumes with only the rows left', async () => {
  const metricId = await newMetric('Storm', 'daily');
  const rt = runtime();
  const rows = daily(300);
  const range = fill(rt, rows);
  // The listing's pages, the compare read, then 2 PUTs.
  await stack.emulator.control.rateLimit({ limit: DEMO_FUND_LISTING_PAGES + 3, windowSeconds: 300, retryAfter: true, freshWindow: true });
  const started = ok<ExportHandle>(rt.callServer('startExport', [request(range, { metricId })]));
  // The listing and two PUTs fit the window; from then on every request is refused, window after window.
  const first = ok<ExportHandle>(rt.callServer('continueExport', [started.exportId]));
  expect(first.progress).toMatchObject({ status: 'running', itemsDone: 100 });
  await stack.emulator.control.faults({ next429: 1_000 });
  await stack.takeRequests();
  const paused = await drive(rt, first);
  expect(paused.progress.status).toBe('paused');
  expect(paused.report!.problem).toBe(
    'The API refused every request for 15 minutes because of its rate limit, so the export paused with 200 rows left. Resume sends only those once the API accepts requests again.',
  );
  expect(paused.report!.totals).toMatchObject({ created: 100, pending: 200 });
  const refused = await stack.takeRequests();
  expect(refused.length).toBeGreaterThan(0);
  expect(refused.every((r) => r.status === 429)).toBe(true);
  expect(rt.spreadsheet.getActiveSheet().getRange('C102').getValue()).toMatch(/^not sent: export paused \(The API refused every request for 15 minutes/);

  // The sidebar reopens while the API still refuses: the offer comes from the user's cache, with no request.
  const offered = ok<ExportHandle | null>(rt.callServer('findUnfinishedExport', []));
  expect(offered).toMatchObject({ exportId: started.exportId, progress: { status: 'paused', itemsDone: 100, itemsTotal: 300 } });
  expect(await stack.takeRequests()).toEqual([]);

  await stack.emulator.control.faults({ next429: 0 });
  await stack.emulator.control.rateLimit({ limit: 500, windowSeconds: 300, retryAfter: true, freshWindow: true });
  const done = await drive(rt, ok(rt.callServer('resumeExport', [started.exportId])));
  expect(done.report!.totals).toMatchObject({ created: 300, pending: 0 });
  const puts = (await stack.takeRequests()).filter((r) => r.method === 'PUT');
  expect(puts.map((r) => r.status)).toEqual([200, 200, 200, 200]);
  expect(await storedPoints(metricId)).toEqual(rows.slice(1).map(([date, value]) => [date, String(Number(value))]));
  expect(rt.spreadsheet.getActiveSheet().getRange('C102').getValue()).toBe('created');
});

/** The reads of data points in a request log: the comparison reads. */
const dataPointReads = <T extends { method: string; path: string }>(requests: T[]): T[] =>
  requests.filter((r) => r.method === 'GET' && r.path === '/data_points');

describe('only what changed, as the preview shows it', () => {
  it('previews what it will create, overwrite (old → new) and leave unchanged, and the export does exactly that', async () => {
    const metricId = await newMetric('Trials', 'daily');
    const rt = runtime();
    const range = fill(rt, daily(250));
    const first = await drive(rt, ok(rt.callServer('startExport', [request(range, { metricId }, false)])));
    // Exported once, the range is remembered: the sidebar that ran it ticks "only what changed" from this.
    expect(first.report!.rangeExportedBefore).toBe(true);
    rt.spreadsheet.getActiveSheet().getRange('B3').setValue('123.25');
    rt.spreadsheet
      .getActiveSheet()
      .getRange('A252:B252')
      .setValues([['2022-09-08', '5']]);
    const grown = range.replace(/\d+$/, '252');
    await stack.takeRequests();

    const preview = ok<{ compared: unknown; summary: string; overwrites: unknown }>(
      rt.callServer('previewExport', [request(grown, { metricId, onlyChanged: true }, false)]),
    );
    expect(preview.compared).toEqual({ unchanged: 249, toCreate: 1, toUpdate: 1, notCompared: 0 });
    expect(preview.summary).toBe('251 rows read: 249 unchanged, 1 to create, 1 to overwrite a different value, 0 skipped, 0 failed.');
    expect(preview.overwrites).toEqual({ total: 1, shown: [{ cell: 'B3', old: '1.5', new: '123.25' }] });
    const previewRequests = await stack.takeRequests();
    expect(dataPointReads(previewRequests).length).toBeGreaterThan(0);
    expect(previewRequests.filter((r) => r.method === 'PUT')).toHaveLength(0);

    const done = await drive(rt, ok(rt.callServer('startExport', [request(grown, { metricId, onlyChanged: true }, false)])));
    expect(done.report!.totals).toMatchObject({ unchanged: 249, created: 1, updated: 1, written: 0, skipped: 0, failed: 0 });
    const exportRequests = await stack.takeRequests();
    // The start reads the server again (a value may have changed elsewhere), then sends only the two.
    expect(dataPointReads(exportRequests).length).toBeGreaterThan(0);
    expect(exportRequests.filter((r) => r.method === 'PUT')).toHaveLength(1);
    const stored = new Map(await storedPoints(metricId));
    expect([stored.get('2022-01-02'), stored.get('2022-09-08')]).toEqual(['123.25', '5']);
  });

  it('sends a value changed on the server after the preview from another spreadsheet, rather than calling it unchanged', async () => {
    const metricId = await newMetric('Leads', 'daily');
    const rt = runtime();
    const range = fill(rt, daily(20));
    await drive(rt, ok(rt.callServer('startExport', [request(range, { metricId }, false)])));
    const preview = ok<{ compared: unknown }>(rt.callServer('previewExport', [request(range, { metricId, onlyChanged: true }, false)]));
    expect(preview.compared).toEqual({ unchanged: 20, toCreate: 0, toUpdate: 0, notCompared: 0 });

    // A colleague (another spreadsheet, or the web application) writes 777 on the second day meanwhile.
    await putPoints(metricId, [{ date: '2022-01-02', value: '777' }]);
    expect(new Map(await storedPoints(metricId)).get('2022-01-02')).toBe('777');
    await stack.takeRequests();

    const done = await drive(rt, ok(rt.callServer('startExport', [request(range, { metricId, onlyChanged: true }, false)])));
    // The preview said "unchanged"; the server no longer held that value, so the sheet's is a conflict, not a silent skip.
    expect(done.report!.totals).toMatchObject({ unchanged: 19, skipped: 1, updated: 0 });
    expect(done.report!.problems).toEqual([
      expect.objectContaining({
        cell: 'B3',
        outcome: 'skipped',
        reason: "conflict: the server's value changed since the preview (1.5 then, 777 now), so it was not written: preview again to see it, then export",
      }),
    ]);
    const requests = await stack.takeRequests();
    expect(dataPointReads(requests).length).toBeGreaterThan(0);
    expect(requests.filter((r) => r.method === 'PUT')).toHaveLength(0);
    expect(new Map(await storedPoints(metricId)).get('2022-01-02')).toBe('777');

    // Without a preview to compare with, the start reads the server and sends the sheet's value.
    const again = await drive(rt, ok(rt.callServer('startExport', [request(range, { metricId, onlyChanged: true }, false)])));
    expect(again.report!.totals).toMatchObject({ unchanged: 19, updated: 1 });
    expect(new Map(await storedPoints(metricId)).get('2022-01-02')).toBe('1.5');
  });

  it('reports as a conflict, and does not write, a value the server changed between the preview and the start', async () => {
    const metricId = await newMetric('Demos', 'daily');
    const rt = runtime();
    const range = fill(rt, daily(5));
    await drive(rt, ok(rt.callServer('startExport', [request(range, { metricId }, false)])));
    rt.spreadsheet
      .getActiveSheet()
      .getRange('B4:B5')
      .setValues([['40'], ['50']]);
    const preview = ok<{ overwrites: unknown }>(rt.callServer('previewExport', [request(range, { metricId, onlyChanged: true }, false)]));
    expect(preview.overwrites).toEqual({
      total: 2,
      shown: [
        { cell: 'B4', old: '3', new: '40' },
        { cell: 'B5', old: '4.5', new: '50' },
      ],
    });

    // The web application changes the first of the two between the preview and the start.
    const point = (await stack.emulator.control.state()).data_points.find((p) => p.metric_id === metricId && p.date === '2022-01-03')!;
    await stack.emulator.control.fixtures({ data_points: [{ ...point, value: '33' }] });
    await stack.takeRequests();

    const done = await drive(rt, ok(rt.callServer('startExport', [request(range, { metricId, onlyChanged: true }, false)])));
    expect(done.report!.totals).toMatchObject({ unchanged: 3, updated: 1, skipped: 1 });
    expect(done.report!.problems.map((p) => [p.cell, p.reason])).toEqual([
      ['B4', "conflict: the server's value changed since the preview (3 then, 33 now), so it was not written: preview again to see it, then export"],
    ]);
    const puts = (await stack.emulator.control.requests()).filter((r) => r.method === 'PUT');
    expect(puts.map((r) => r.body)).toEqual([{ data_points: [{ date: '2022-01-04', value: '50' }] }]);
    const stored = new Map(await storedPoints(metricId));
    expect([stored.get('2022-01-03'), stored.get('2022-01-04')]).toEqual(['33', '50']);
  });

  it('leaves values that differ on the server alone with "Do not overwrite values that differ", filling only new dates', async () => {
    const metricId = await newMetric('Calls', 'daily');
    const rt = runtime();
    const range = fill(rt, daily(3));
    await drive(rt, ok(rt.callServer('startExport', [request(range, { metricId }, false)])));
    rt.spreadsheet.getActiveSheet().getRange('B2').setValue('99');
    rt.spreadsheet
      .getActiveSheet()
      .getRange('A5:B5')
      .setValues([['2022-01-04', '7']]);
    const grown = range.replace(/\d+$/, '5');
    await stack.takeRequests();
    const done = await drive(rt, ok(rt.callServer('startExport', [request(grown, { metricId, onlyChanged: true, keepDifferent: true }, false)])));
    expect(done.report!.totals).toMatchObject({ unchanged: 2, created: 1, skipped: 1, updated: 0 });
    expect(done.report!.problems.map((p) => [p.cell, p.reason])).toEqual([
      ['B2', 'not overwritten: the server holds 0 ("Do not overwrite values that differ" is on)'],
    ]);
    const puts = (await stack.takeRequests()).filter((r) => r.method === 'PUT');
    expect(puts).toHaveLength(1);
    const stored = new Map(await storedPoints(metricId));
    expect([stored.get('2022-01-01'), stored.get('2022-01-04')]).toEqual(['0', '7']);
  });
});

describe('typed data ("only what changed" off), as the preview shows it', () => {
  it('previews what it will create, overwrite (old → new, the first 50) and send again unchanged, reading each page once, and the export sends it all', async () => {
    const metricId = await newMetric('Typed trials', 'daily');
    const rt = runtime();
    const range = fill(rt, daily(150));
    await drive(rt, ok(rt.callServer('startExport', [request(range, { metricId }, false)])));
    // 60 values retyped, and one new day.
    rt.spreadsheet
      .getActiveSheet()
      .getRange('B2:B61')
      .setValues(Array.from({ length: 60 }, (_, i) => [String(1000 + i)]));
    rt.spreadsheet
      .getActiveSheet()
      .getRange('A152:B152')
      .setValues([['2022-05-31', '5']]);
    const grown = range.replace(/\d+$/, '152');
    await stack.takeRequests();

    const preview = ok<{ compared: unknown; summary: string; overwrites: { total: number; shown: unknown[] } }>(
      rt.callServer('previewExport', [request(grown, { metricId }, false)]),
    );
    expect(preview.compared).toEqual({ unchanged: 90, toCreate: 1, toUpdate: 60, notCompared: 0 });
    expect(preview.summary).toBe('151 rows read: 151 to send (1 to create, 60 to overwrite a different value, 90 unchanged, sent again), 0 skipped, 0 failed.');
    expect(preview.overwrites.total).toBe(60);
    expect(preview.overwrites.shown).toHaveLength(50);
    expect(preview.overwrites.shown.slice(0, 2)).toEqual([
      { cell: 'B2', old: '0', new: '1000' },
      { cell: 'B3', old: '1.5', new: '1001' },
    ]);
    const previewRequests = await stack.takeRequests();
    // One read of the metric's dates, paged: 150 stored points are two pages of 100; nothing written.
    expect(dataPointReads(previewRequests)).toHaveLength(2);
    expect(dataPointReads(previewRequests).every((r) => (r as { query?: string }).query?.includes(metricId))).toBe(true);
    expect(previewRequests.filter((r) => r.method !== 'GET')).toHaveLength(0);

    const done = await drive(rt, ok(rt.callServer('startExport', [request(grown, { metricId }, false)])));
    // The sheet is the person's intent: every value is sent, the unchanged ones too, after one more comparison read.
    expect(done.report!.totals).toMatchObject({ created: 1, updated: 60, written: 90, unchanged: 0, skipped: 0, failed: 0 });
    expect(done.report!.summary).toBe('151 rows read: 1 created, 60 updated, 90 written (unchanged, sent again).');
    const exportRequests = await stack.emulator.control.requests();
    expect(dataPointReads(exportRequests)).toHaveLength(2);
    const puts = exportRequests.filter((r) => r.method === 'PUT');
    expect(puts).toHaveLength(4);
    expect(puts.reduce((sum, r) => sum + (r.body as { data_points: unknown[] }).data_points.length, 0)).toBe(151);
    const stored = new Map(await storedPoints(metricId));
    expect([stored.get('2022-01-01'), stored.get('2022-03-01'), stored.get('2022-03-02'), stored.get('2022-05-31')]).toEqual(['1000', '1059', '90', '5']);
  });

  it('reports as a conflict, with both values, and does not write, a value the server changed between the preview and the start', async () => {
    const metricId = await newMetric('Typed demos', 'daily');
    const rt = runtime();
    const range = fill(rt, daily(5));
    await drive(rt, ok(rt.callServer('startExport', [request(range, { metricId }, false)])));
    rt.spreadsheet
      .getActiveSheet()
      .getRange('B4:B5')
      .setValues([['40'], ['50']]);
    const preview = ok<{ overwrites: unknown; summary: string }>(rt.callServer('previewExport', [request(range, { metricId }, false)]));
    expect(preview.summary).toBe('5 rows read: 5 to send (0 to create, 2 to overwrite a different value, 3 unchanged, sent again), 0 skipped, 0 failed.');
    expect(preview.overwrites).toEqual({
      total: 2,
      shown: [
        { cell: 'B4', old: '3', new: '40' },
        { cell: 'B5', old: '4.5', new: '50' },
      ],
    });

    // The web application changes an overwritten value and an unchanged one between the preview and the start.
    const points = (await stack.emulator.control.state()).data_points.filter((p) => p.metric_id === metricId);
    const on = (date: string) => points.find((p) => p.date === date)!;
    await stack.emulator.control.fixtures({
      data_points: [
        { ...on('2022-01-01'), value: '11' },
        { ...on('2022-01-03'), value: '33' },
      ],
    });
    await stack.takeRequests();

    const done = await drive(rt, ok(rt.callServer('startExport', [request(range, { metricId }, false)])));
    expect(done.report!.totals).toMatchObject({ written: 2, updated: 1, skipped: 2, failed: 0 });
    expect(done.report!.problems.map((p) => [p.cell, p.reason])).toEqual([
      ['B2', "conflict: the server's value changed since the preview (0 then, 11 now), so it was not written: preview again to see it, then export"],
      ['B4', "conflict: the server's value changed since the preview (3 then, 33 now), so it was not written: preview again to see it, then export"],
    ]);
    const requests = await stack.emulator.control.requests();
    expect(dataPointReads(requests)).toHaveLength(1);
    const puts = requests.filter((r) => r.method === 'PUT');
    expect(puts.map((r) => r.body)).toEqual([
      {
        data_points: [
          { date: '2022-01-02', value: '1.5' },
          { date: '2022-01-04', value: '50' },
          { date: '2022-01-05', value: '6' },
        ],
      },
    ]);
    const stored = new Map(await storedPoints(metricId));
    expect([...stored.values()]).toEqual(['11', '1.5', '33', '50', '6']);
  });

  it('without a preview, creates what is absent and sends the same value again, but overwrites no value the person never saw (the stricter reading)', async () => {
    const metricId = await newMetric('Typed calls', 'daily');
    await stack.emulator.control.fixtures({
      data_points: [
        { metric_id: metricId, date: '2022-01-02', value: '1.5' },
        { metric_id: metricId, date: '2022-01-03', value: '99' },
      ],
    });
    const rt = runtime();
    const range = fill(rt, daily(4));
    await stack.takeRequests();
    const done = await drive(rt, ok(rt.callServer('startExport', [request(range, { metricId }, false)])));
    expect(done.report!.totals).toMatchObject({ created: 2, written: 1, skipped: 1 });
    expect(done.report!.summary).toBe('4 rows read: 2 created, 1 written (unchanged, sent again), 1 skipped.');
    expect(done.report!.problems.map((p) => [p.cell, p.reason])).toEqual([
      ['B4', 'conflict: the server holds 99, which no preview showed, so it was not written: preview to see it, then export'],
    ]);
    const requests = await stack.emulator.control.requests();
    // The wave's one compare read, then one PUT of what may be written.
    expect(requests.filter((r) => r.method !== 'GET' || r.path === '/data_points').map((r) => r.method)).toEqual(['GET', 'PUT']);
    expect(requests.find((r) => r.method === 'PUT')!.body).toEqual({
      data_points: [
        { date: '2022-01-01', value: '0' },
        { date: '2022-01-02', value: '1.5' },
        { date: '2022-01-04', value: '4.5' },
      ],
    });
    expect(new Map(await storedPoints(metricId)).get('2022-01-03')).toBe('99');
  });
});

describe('formulas after an export', () => {
  const mrr = DEMO_IDS.metrics.startupMrr;

  it('show the exported value in a new cell, and only the formulas reading the written metric are refreshed', async () => {
    const rt = stack.runtime({ timeZone: FAR_TIME_ZONE, formulaEvaluator: () => 'rewritten' });
    grantFormulaAccess(rt, [DEMO_IDS.startup]);
    const sheet = rt.spreadsheet.getSheetByName('Sheet1')!;
    sheet.getRange('H1').setValue(mrr);
    expect(rt.evaluateFormula(`=METRIC_VALUE("${mrr}", "2025-06")`, { cell: 'A1' })).toMatchObject({ ok: true });
    const before = sheet.getRange('A1').getValue();
    expect(before).not.toBe(70000);
    rt.evaluateFormula(`=METRIC_VALUE(H1, "2025-06")`, { cell: 'A2' });
    rt.evaluateFormula(`=METRIC_VALUE("${DEMO_IDS.metrics.headcount}", "2024-Q1")`, { cell: 'A3' });
    const headcount = sheet.getRange('A3').getValue();

    sheet.getRange('D1:E2').setValues([
      ['Month', 'MRR'],
      ['2025-06-01', 70000],
    ]);
    const exported = { companyId: DEMO_IDS.startup, range: 'Sheet1!D1:E2', spec: { ...SPEC, metricId: mrr }, writeStatus: false };
    // Previewed first, as the sidebar does: typed data overwrites only a value a preview showed.
    ok(rt.callServer('previewExport', [exported]));
    const done = await drive(rt, ok(rt.callServer('startExport', [exported])));
    expect(done.report!.totals).toMatchObject({ updated: 1 });
    expect(done.report!.writtenMetricIds).toEqual([mrr]);
    expect((await storedPoints(mrr)).find(([date]) => date === '2025-06-01')).toEqual(['2025-06-01', '70000']);

    await stack.takeRequests();
    rt.evaluateFormula(`=METRIC_VALUE("${mrr}", "2025-06")`, { cell: 'B1' });
    expect(sheet.getRange('B1').getValue()).toBe(70000);
    const reads = (await stack.takeRequests()).filter((r) => r.method === 'GET' && r.path === '/data_points');
    expect(reads.length).toBeGreaterThan(0);
    expect(reads.every((r) => r.query.includes(mrr))).toBe(true);

    const refreshed = ok<{ formulas: number; message: string }>(rt.callServer('refreshFormulasFor', [[mrr]]));
    expect(refreshed).toEqual({ formulas: 3, message: '3 formulas refreshed: they now show the values the API holds.' });
    // Rewritten: the two naming MRR and the one whose cell H1 holds it. Not the headcount formula.
    expect(['A1', 'A2', 'B1'].map((a1) => sheet.getRange(a1).getValue())).toEqual(['rewritten', 'rewritten', 'rewritten']);
    expect(sheet.getRange('A3').getValue()).toBe(headcount);
    expect(sheet.getRange('A3').getFormula()).toBe(`=METRIC_VALUE("${DEMO_IDS.metrics.headcount}", "2024-Q1")`);
  });

  it('refuses a list of metric ids that is not one', () => {
    const rt = runtime();
    expect(rt.callServer('refreshFormulasFor', [['not-an-id']])).toEqual({
      ok: false,
      error: 'A metric id must be an id like 123e4567-e89b-12d3-a456-426614174000, but it is "not-an-id".',
    });
  });
});

describe('a comparison read refused by the daily URL Fetch quota', () => {
  it('ends an "only what changed" export with every row\'s outcome and the quota\'s sentence, not paused on batches it cannot send', async () => {
    const metricId = await newMetric('Visits', 'daily');
    const rt = runtime();
    // More dates than one comparison read covers (2,500), so the export reads twice.
    const range = fill(rt, daily(2_510));
    await stack.takeRequests();
    const started = ok<ExportHandle>(rt.callServer('startExport', [request(range, { metricId, onlyChanged: true }, false)]));
    // One more URL fetch today: the first comparison read, not the second.
    rt.urlFetchQuota.add(OWNER, rt.urlFetchQuota.remaining(OWNER) - 1);
    const done = await drive(rt, started);

    expect(done.progress.status).toBe('done');
    expect(done.report!.problem).toBeNull();
    expect(done.report!.totals).toMatchObject({ failed: 2_510, pending: 0, created: 0 });
    expect(done.report!.summary).not.toMatch(/cannot send/);
    expect(done.report!.problems[0]!.reason).toMatch(
      /^not sent: Apps Script's daily quota of URL fetches for this account is used up.*\(while reading the metric's existing data points\)$/,
    );
    const requests = await stack.takeRequests();
    expect(requests.filter((r) => r.method === 'GET' && r.path === '/data_points')).toHaveLength(1);
    expect(requests.filter((r) => r.method === 'PUT')).toHaveLength(0);
    expect(await storedPoints(metricId)).toEqual([]);
  });
});

describe('a range inserted from the API', () => {
  it('defaults "Do not overwrite values that differ" (and only what changed) on for a selection over a snapshot table, off elsewhere', async () => {
    const metricId = await newMetric('Inserted', 'monthly');
    await stack.emulator.control.fixtures({
      data_points: [
        { metric_id: metricId, date: '2024-01-01', value: '1' },
        { metric_id: metricId, date: '2024-02-01', value: '2' },
      ],
    });
    const rt = runtime();
    const sheet = rt.spreadsheet.getSheetByName('Sheet1')!;
    rt.spreadsheet.setActiveRange(sheet.getRange('B2'));
    const inserted = ok<{ range: string }>(
      rt.callServer('insertMetricValues', [
        { companyId: DEMO_IDS.fund, metricIds: [metricId], startDate: '2024-01-01', endDate: '2024-02-29', mode: 'snapshot', headers: true },
      ]),
    );
    const selectionOf = (a1: string) => {
      rt.spreadsheet.setActiveRange(sheet.getRange(a1));
      return ok<{ insertedFromApi?: boolean }>(rt.callServer('readExportSelection', [DEMO_IDS.fund]));
    };
    expect(selectionOf(inserted.range.replace(/^.*!/, '')).insertedFromApi).toBe(true);
    expect(selectionOf('C3:C4').insertedFromApi).toBe(true);
    expect(selectionOf('H10:I12').insertedFromApi).toBe(false);
  });
});
