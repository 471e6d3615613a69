// Compare-and-set across every seam, on the built bundle against the emulator: each wave reads the values it
// is about to replace right before writing them, and writes only where the server still holds what the plan
// expects. A colleague's change in any gap (Cancel and Resume, a 429 pause, a dropped cache, an undo's
// pause) survives as a conflict with both values; Cancel stops before the next PUT (one is in flight at a time); and the reads
// cost at most half the PUT floor again.

import { DEMO_IDS } from '../../emulator/demo-data';
import type { GasRuntime } from '../../gas-runtime';
import type { ExportSpec } from '../../src/core/export';
import type { ExportHandle, ExportRequest, JobProgress, UndoHandle } from '../../src/shared/rpc';
import { driveExport, driveJob, ok, useStack, waitOnBothClocks, type Stack } from '../support/stack';

jest.setTimeout(120_000);

let stack: Stack;
useStack((started) => (stack = started));

const SPEC: ExportSpec = { layout: 'long', hasHeaderRow: true, skipBlanks: true, duplicates: 'reject', offPeriod: 'reject', onlyChanged: false };

async function newMetric(name: string, points: Array<[string, string | null]> = []): Promise<string> {
  const created = await stack.emulator.control.fixtures({ metrics: [{ company_id: DEMO_IDS.fund, name, frequency: 'daily', unit: 'number' }] });
  const metricId = created.metrics[0]!.id;
  if (points.length) await stack.emulator.control.fixtures({ data_points: points.map(([date, value]) => ({ metric_id: metricId, date, value })) });
  return metricId;
}

/** A colleague's write, straight into the emulator (another spreadsheet, or the web application). */
async function colleagueStores(metricId: string, date: string, value: string): Promise<void> {
  const point = (await stack.emulator.control.state()).data_points.find((p) => p.metric_id === metricId && p.date === date);
  await stack.emulator.control.fixtures({ data_points: [point ? { ...point, value } : { metric_id: metricId, date, value }] });
}

async function stored(metricId: string): Promise<Record<string, string | null>> {
  const points = (await stack.emulator.control.state()).data_points.filter((p) => p.metric_id === metricId);
  return Object.fromEntries(points.map((p) => [p.date, p.value]));
}

function fill(rt: GasRuntime, rows: unknown[][]): string {
  const sheet = rt.spreadsheet.getActiveSheet();
  if (rows.length > sheet.getMaxRows()) sheet.insertRowsAfter(sheet.getMaxRows(), rows.length - sheet.getMaxRows());
  sheet.getRange(1, 1, rows.length, 2).setValues(rows);
  return `Sheet1!A1:B${rows.length}`;
}

function request(range: string, metricId: string, spec: Partial<ExportSpec> = {}): ExportRequest {
  return { companyId: DEMO_IDS.fund, range, spec: { ...SPEC, metricId, ...spec }, writeStatus: false };
}

/** The Pushes sheet's rows of one push: [period, old value, new value, outcome]. */
function pushRows(rt: GasRuntime, pushId: string): unknown[][] {
  const sheet = rt.spreadsheet.getSheetByName('Pushes');
  if (!sheet) return [];
  return sheet
    .getDataRange()
    .getValues()
    .slice(1)
    .filter((row) => row[9] === pushId)
    .map((row) => [row[4], row[5], row[6], row[7]]);
}

const isoDay = (offset: number): string => new Date(Date.UTC(2024, 0, 1 + offset)).toISOString().slice(0, 10);
const dataPointReads = <T extends { method: string; path: string }>(requests: T[]): T[] =>
  requests.filter((r) => r.method === 'GET' && r.path === '/data_points');

it('Preview, Start, Cancel, a colleague stores 99, Resume: the 99 survives as a conflict with both values, not "created" over it', async () => {
  const metricId = await newMetric('CAS resume');
  const rt = stack.runtime();
  const range = fill(rt, [
    ['Date', 'Value'],
    ['2024-01-01', '11'],
    ['2024-01-02', '22'],
    ['2024-01-03', '33'],
  ]);
  const preview = ok<{ compared: unknown }>(rt.callServer('previewExport', [request(range, metricId)]));
  expect(preview.compared).toEqual({ unchanged: 0, toCreate: 3, toUpdate: 0, notCompared: 0 });
  const started = ok<ExportHandle>(rt.callServer('startExport', [request(range, metricId)]));
  expect(ok<ExportHandle>(rt.callServer('cancelExport', [started.exportId])).progress.status).toBe('cancelled');

  await colleagueStores(metricId, '2024-01-02', '99');
  const done = await driveExport(stack, rt, ok<ExportHandle>(rt.callServer('resumeExport', [started.exportId])));
  expect(done.report!.totals).toMatchObject({ created: 2, skipped: 1, pending: 0 });
  expect(done.report!.problems).toEqual([
    expect.objectContaining({
      cell: 'B3',
      outcome: 'skipped',
      reason: "conflict: the server's value changed since the preview (no value then, 99 now), so it was not written: preview again to see it, then export",
    }),
  ]);
  expect(await stored(metricId)).toEqual({ '2024-01-01': '11', '2024-01-02': '99', '2024-01-03': '33' });
  const puts = (await stack.emulator.control.requests()).filter((r) => r.method === 'PUT');
  expect(puts.map((r) => r.body)).toEqual([
    {
      data_points: [
        { date: '2024-01-01', value: '11' },
        { date: '2024-01-03', value: '33' },
      ],
    },
  ]);
  expect(pushRows(rt, started.exportId)).toEqual([
    ['2024-01-01', '', '11', 'created'],
    ['2024-01-02', '', '22', expect.stringMatching(/^skipped: conflict: the server's value changed since the preview \(no value then, 99 now\)/)],
    ['2024-01-03', '', '33', 'created'],
  ]);
});

describe('"only what changed": a colleague\'s 10 → 15 between the comparison and the write', () => {
  /** Starts the export and runs a first step whose comparison read passes and whose compare read meets the rate limit. */
  async function comparedThenLimited(rt: GasRuntime, metricId: string): Promise<ExportHandle> {
    const range = fill(rt, [
      ['Date', 'Value'],
      ['2024-01-01', '11'],
      ['2024-01-02', '20'],
    ]);
    const started = ok<ExportHandle>(rt.callServer('startExport', [request(range, metricId, { onlyChanged: true })]));
    await stack.emulator.control.rateLimit({ limit: 1, windowSeconds: 120, retryAfter: true, freshWindow: true });
    await stack.emulator.control.clearRequests();
    const first = ok<ExportHandle>(rt.callServer('continueExport', [started.exportId]));
    expect(first.report).toBeNull();
    expect(first.progress.waitingForRateLimitMs).toBeGreaterThan(0);
    // The comparison read (10 on the first day) went through; nothing was written.
    expect((await stack.emulator.control.requests()).map((r) => [r.method, r.status])).toEqual([
      ['GET', 200],
      ['GET', 429],
    ]);
    await stack.emulator.control.rateLimit({ limit: 500, windowSeconds: 300, retryAfter: true, freshWindow: true });
    return first;
  }

  async function expectConflict(rt: GasRuntime, metricId: string, done: ExportHandle): Promise<void> {
    expect(done.report!.totals).toMatchObject({ unchanged: 1, skipped: 1, updated: 0, pending: 0 });
    expect(done.report!.problems.map((p) => [p.cell, p.reason])).toEqual([
      [
        'B2',
        "conflict: the server's value changed since the export compared it (10 then, 15 now), so it was not written: preview again to see it, then export",
      ],
    ]);
    expect((await stack.emulator.control.requests()).filter((r) => r.method === 'PUT')).toEqual([]);
    expect((await stored(metricId))['2024-01-01']).toBe('15');
    // The unchanged day settled in the first step; the conflict when the write came, never "updated" over 15.
    expect(pushRows(rt, done.exportId)).toEqual([
      ['2024-01-02', '', '20', 'unchanged'],
      ['2024-01-01', '', '11', expect.stringMatching(/^skipped: conflict: .*\(10 then, 15 now\)/)],
    ]);
  }

  it('across Cancel and Resume', async () => {
    const metricId = await newMetric('CAS only changed', [
      ['2024-01-01', '10'],
      ['2024-01-02', '20'],
    ]);
    const rt = stack.runtime();
    const first = await comparedThenLimited(rt, metricId);
    rt.callServer('cancelExport', [first.exportId]);
    await colleagueStores(metricId, '2024-01-01', '15');
    await stack.emulator.control.clearRequests();
    await waitOnBothClocks(stack, rt, first.progress.waitingForRateLimitMs);
    const done = await driveExport(stack, rt, ok<ExportHandle>(rt.callServer('resumeExport', [first.exportId])));
    await expectConflict(rt, metricId, done);
  });

  it('across a 429 pause between steps', async () => {
    const metricId = await newMetric('CAS after 429', [
      ['2024-01-01', '10'],
      ['2024-01-02', '20'],
    ]);
    const rt = stack.runtime();
    const first = await comparedThenLimited(rt, metricId);
    await colleagueStores(metricId, '2024-01-01', '15');
    await stack.emulator.control.clearRequests();
    const done = await driveExport(stack, rt, first);
    await expectConflict(rt, metricId, done);
  });
});

it("a resumed Undo of an export keeps a colleague's later change: its write met a 429, Cancel, 15 stored, Resume", async () => {
  const metricId = await newMetric('CAS undo', [
    ['2024-01-01', '10'],
    ['2024-01-02', '20'],
  ]);
  const rt = stack.runtime();
  const range = fill(rt, [
    ['Date', 'Value'],
    ['2024-01-01', '11'],
    ['2024-01-02', '21'],
  ]);
  ok(rt.callServer('previewExport', [request(range, metricId)]));
  const exported = await driveExport(stack, rt, ok<ExportHandle>(rt.callServer('startExport', [request(range, metricId)])));
  expect(exported.report!.totals).toMatchObject({ updated: 2 });

  const started = ok<UndoHandle>(rt.callServer('undoLastPush', []));
  // The undo's first step: its compare read passes, its write meets the rate limit.
  await stack.emulator.control.rateLimit({ limit: 1, windowSeconds: 120, retryAfter: true, freshWindow: true });
  await stack.emulator.control.clearRequests();
  const first = ok<UndoHandle>(rt.callServer('continueUndo', [started.undoId]));
  expect(first.report).toBeNull();
  expect((await stack.emulator.control.requests()).map((r) => [r.method, r.status])).toEqual([
    ['GET', 200],
    ['PUT', 429],
  ]);
  expect(ok<UndoHandle>(rt.callServer('cancelUndo', [started.undoId])).progress.status).toBe('cancelled');
  await stack.emulator.control.rateLimit({ limit: 500, windowSeconds: 300, retryAfter: true, freshWindow: true });

  await colleagueStores(metricId, '2024-01-01', '15');
  await stack.emulator.control.clearRequests();
  const undone = await driveJob(stack, rt, ok<UndoHandle>(rt.callServer('resumeUndo', [started.undoId])), 'continueUndo', (h) => h.undoId);
  expect(undone.report!.totals).toMatchObject({ updated: 1, conflict: 1, pending: 0 });
  expect(undone.report!.summary).toMatch(/: 1 value restored, 1 conflict \(changed on the server since the push, so not restored\)/);
  expect(undone.report!.problems).toEqual([
    expect.objectContaining({ propertyName: '2024-01-01', outcome: 'conflict', conflict: { atBuild: '11', server: '15' } }),
  ]);
  const puts = (await stack.emulator.control.requests()).filter((r) => r.method === 'PUT');
  expect(puts.map((r) => r.body)).toEqual([{ data_points: [{ date: '2024-01-02', value: '20' }] }]);
  expect(await stored(metricId)).toEqual({ '2024-01-01': '15', '2024-01-02': '20' });
});

describe('a preview the cache dropped', () => {
  it.each([
    ['kept', false],
    ['dropped', true],
  ])('holds back a value the server changed since the preview, with the cache %s', async (_, dropCache) => {
    const metricId = await newMetric(`CAS cache ${String(dropCache)}`, [
      ['2024-01-01', '10'],
      ['2024-01-02', '20'],
    ]);
    const rt = stack.runtime();
    const range = fill(rt, [
      ['Date', 'Value'],
      ['2024-01-01', '11'],
      ['2024-01-02', '21'],
    ]);
    const preview = ok<{ overwrites: unknown }>(rt.callServer('previewExport', [request(range, metricId)]));
    expect(preview.overwrites).toEqual({
      total: 2,
      shown: [
        { cell: 'B2', old: '10', new: '11' },
        { cell: 'B3', old: '20', new: '21' },
      ],
    });
    await colleagueStores(metricId, '2024-01-01', '15');
    // CacheService may drop anything at any time: what the person approved is in their properties.
    if (dropCache) rt.cache.clear();
    await stack.emulator.control.clearRequests();
    const done = await driveExport(stack, rt, ok<ExportHandle>(rt.callServer('startExport', [request(range, metricId)])));
    expect(done.report!.totals).toMatchObject({ updated: 1, skipped: 1, pending: 0 });
    expect(done.report!.problems.map((p) => [p.cell, p.reason])).toEqual([
      ['B2', "conflict: the server's value changed since the preview (10 then, 15 now), so it was not written: preview again to see it, then export"],
    ]);
    expect(await stored(metricId)).toEqual({ '2024-01-01': '15', '2024-01-02': '21' });
    expect(pushRows(rt, done.exportId)).toEqual([
      ['2024-01-01', '', '11', expect.stringMatching(/^skipped: conflict: /)],
      ['2024-01-02', '20', '21', 'updated'],
    ]);
    // The approval was taken by the start: a second start of the same range has none left, and reads as typed data with no preview.
    expect(
      rt.properties
        .user('owner@example.com')
        .getKeys()
        .filter((key) => key.includes('export-preview')),
    ).toEqual([]);
  });
});

it("Cancel pressed during a wave's compare read sends no PUT after the mark: 0 rows more, where a whole wave of 500 went before", async () => {
  const metricId = await newMetric('CAS cancel');
  const rt = stack.runtime();
  const rows = 2000;
  const range = fill(rt, [['Date', 'Value'], ...Array.from({ length: rows }, (_, i) => [isoDay(i), String(i)])]);
  const started = ok<ExportHandle>(rt.callServer('startExport', [request(range, metricId)]));
  // Every answer held until released: the step cannot move past a request the test has not let go.
  await stack.emulator.control.faults({ latencyMs: 600_000 });
  await stack.emulator.control.clearRequests();
  let answered = false;
  const step = rt.callServerAsync('continueExport', [started.exportId]).finally(() => {
    answered = true;
  });
  // Released until the first wave (its read, the first batch alone, the nine others) is saved: the step then
  // starts its second wave with its compare read, held.
  for (let live: JobProgress | null = null; !answered && !(live && 'itemsDone' in live && live.itemsDone >= 500); ) {
    await stack.emulator.control.release();
    await new Promise((resolve) => setTimeout(resolve, 20));
    live = ok<JobProgress | null>(await rt.callServerAsync('getJobProgress', ['export', started.exportId]));
  }
  expect(answered).toBe(false);
  ok(await rt.callServerAsync('cancelExport', [started.exportId]));
  const atCancel = (await stack.emulator.control.requests()).filter((r) => r.method === 'PUT').length;
  expect(atCancel).toBe(10);
  await stack.emulator.control.faults({ reset: true });
  await stack.emulator.control.release();
  const answer = ok<ExportHandle>(await step);

  const requests = await stack.emulator.control.requests();
  // After the mark: the held compare read was answered, and no PUT left.
  expect(requests.filter((r) => r.method === 'PUT')).toHaveLength(atCancel);
  expect(dataPointReads(requests)).toHaveLength(2);
  expect(answer.progress.status).toBe('cancelled');
  expect(answer.report!.totals).toMatchObject({ created: 500, pending: 1500 });
  expect(Object.keys(await stored(metricId))).toHaveLength(500);
});

it('Cancel pressed while a PUT is held sends no PUT after the mark: the held batch lands, 50 rows more, where up to 10 PUTs went before', async () => {
  const metricId = await newMetric('CAS cancel in flight');
  const rt = stack.runtime();
  const rows = 1000;
  const range = fill(rt, [['Date', 'Value'], ...Array.from({ length: rows }, (_, i) => [isoDay(i), String(i)])]);
  const started = ok<ExportHandle>(rt.callServer('startExport', [request(range, metricId)]));
  // Every answer held until released. slowNext adds nothing to the hold: its count, taken down by one at each
  // arrival, tells how many requests have reached the emulator, answered or held.
  const ARRIVALS = 1_000_000;
  await stack.emulator.control.faults({ latencyMs: 600_000, slowNext: { count: ARRIVALS, delayMs: 0 } });
  await stack.emulator.control.clearRequests();
  const arrived = async (): Promise<number> => ARRIVALS - (await stack.emulator.control.faults({})).slowNext.count;
  let answered = false;
  const step = rt.callServerAsync('continueExport', [started.exportId]).finally(() => {
    answered = true;
  });
  const tick = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 20));
  // The step sends one request at a time: released one by one, each answered (logged) before the next is let
  // go, so the one held is always the one after those logged. Stop once two PUTs are answered.
  let released = 0;
  for (;;) {
    expect(answered).toBe(false);
    const log = await stack.emulator.control.requests();
    if (log.length < released) {
      await tick();
      continue;
    }
    if (log.filter((r) => r.method === 'PUT').length >= 2) break;
    released += await stack.emulator.control.release();
    await tick();
  }
  // The third PUT has arrived and is held: the Cancel comes while it is in flight.
  while ((await arrived()) <= released) await tick();
  ok(await rt.callServerAsync('cancelExport', [started.exportId]));
  const atCancel = await stack.emulator.control.requests();
  expect(atCancel.filter((r) => r.method === 'PUT')).toHaveLength(2);
  expect(Object.keys(await stored(metricId))).toHaveLength(100);
  await stack.emulator.control.faults({ reset: true });
  await stack.emulator.control.release();
  const answer = ok<ExportHandle>(await step);

  const requests = await stack.emulator.control.requests();
  // After the mark: the held PUT was answered, and it was the last request; no PUT left after it.
  const puts = requests.filter((r) => r.method === 'PUT');
  expect(puts).toHaveLength(3);
  expect(requests.slice(requests.indexOf(puts[2]!) + 1)).toEqual([]);
  const third = (puts[2]!.body as { data_points: Array<{ date: string }> }).data_points.map((p) => p.date);
  expect(third).toEqual(Array.from({ length: 50 }, (_, i) => isoDay(100 + i)));
  expect(dataPointReads(requests)).toHaveLength(1);
  expect(answer.progress.status).toBe('cancelled');
  expect(answer.report!.totals).toMatchObject({ created: 150, pending: 850 });
  const after = await stored(metricId);
  expect(Object.keys(after)).toHaveLength(150);
  expect(after[isoDay(149)]).toBe('149');
  expect(after[isoDay(150)]).toBeUndefined();
});

it('costs at most 1.5× the PUT floor: 1,000 rows over the null points the API pre-creates are 20 PUTs and 10 compare reads of 100', async () => {
  // The real API holds a null point for every period, so every compare read pages through points.
  const metricId = await newMetric(
    'CAS budget',
    Array.from({ length: 1000 }, (_, i): [string, null] => [isoDay(i), null]),
  );
  const rt = stack.runtime();
  const range = fill(rt, [['Date', 'Value'], ...Array.from({ length: 1000 }, (_, i) => [isoDay(i), String(i)])]);
  await stack.emulator.control.clearRequests();
  const done = await driveExport(stack, rt, ok<ExportHandle>(rt.callServer('startExport', [request(range, metricId)])));
  // A blank is no value to lose: typed data fills it without a preview, and says what it replaced.
  expect(done.report!.totals).toMatchObject({ updated: 1000, pending: 0 });
  const requests = await stack.emulator.control.requests();
  const puts = requests.filter((r) => r.method === 'PUT');
  const reads = dataPointReads(requests);
  expect(puts).toHaveLength(20);
  expect(reads).toHaveLength(10);
  expect((puts.length + reads.length) / puts.length).toBeLessThanOrEqual(1.5);
  expect(reads.every((r) => (r.query ?? '').includes('page_size=100'))).toBe(true);
  // Every PUT comes after a read of its dates in the same wave.
  expect(requests[requests.findIndex((r) => r.method === 'PUT') - 1]).toMatchObject({ method: 'GET', path: '/data_points' });
});
