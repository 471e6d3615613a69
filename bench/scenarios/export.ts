// Scenarios: export 10,000 rows of a long layout (a date column and a value column, one daily metric)
// through startExport/continueExport as the sidebar drives them, then again unchanged with "only what
// changed"; a smaller export that fits in one rate window, where latency alone sets the time; and the cost
// of compare-and-set where every date already holds a point, as the live API pre-creates them.

import type { GasRuntime } from '../../gas-runtime';
import type { ExportSpec } from '../../src/core/export';
import type { ExportHandle, ExportRequest } from '../../src/shared/rpc';
import { REAL_RATE_LIMIT, rpcValue, type Bench, type Measured, type Side } from '../harness';
import { benchClientsSource } from '../clients';
import { floorRow, measuredRow, paginatedRoundTrips, rateFloorMs, type Row, type ScenarioResult } from '../figures';
import { createEmptyMetrics, isoDay } from '../fixtures';

const ROWS = 10_000;
const BATCH = 50;
const READ_PAGE = 100;
const SPEC: ExportSpec = { layout: 'long', hasHeaderRow: true, skipBlanks: true, duplicates: 'reject', offPeriod: 'reject', onlyChanged: false };
const FIVE_MINUTES_MS = 300_000;
/**
 * The export's requests before compare-and-set, as the last run before it measured them (bench/README.md,
 * 2026-11): 200 PUTs and the metric listing, with the add-in's budget set to the scaled limit (no 429), and
 * no read before a write.
 */
const BEFORE_COMPARE_AND_SET = { requests: 201, simMs: 79_100 };
/** The sidebar would go on for ever; the benchmark calls an export stalled after this many steps without a row done. */
const STALL_STEPS = 6;

/** Writes `count` rows under a header into Sheet1 from A1, as a user would type them, and returns the range. */
function fillSheet(rt: GasRuntime, count: number): string {
  const rows: unknown[][] = [['Date', 'Value'], ...Array.from({ length: count }, (_, i) => [isoDay('1990-01-01', i), String(100 + i * 0.25)])];
  const sheet = rt.spreadsheet.getActiveSheet();
  if (rows.length > sheet.getMaxRows()) sheet.insertRowsAfter(sheet.getMaxRows(), rows.length - sheet.getMaxRows());
  sheet.getRange(1, 1, rows.length, 2).setValues(rows);
  return `Sheet1!A1:B${rows.length}`;
}

interface Driven {
  handle: ExportHandle;
  steps: number;
  waitedMs: number;
  stalled: boolean;
  /** The user cache's peak bytes and items since the runtime started (rt.cache.stats()), read after every step. */
  peakCacheBytes: number;
  peakCacheItems: number;
  /** PUTs and GET /data_points the emulator logged during the drive (429s included). */
  puts: number;
  dataPointReads: number;
}

/** The largest peak of any user's cache so far: the job state must not be what fills it. */
function cachePeaks(rt: GasRuntime): { bytes: number; items: number } {
  const users = Object.values(rt.cache.stats().user);
  return { bytes: Math.max(0, ...users.map((stats) => stats.peakBytes)), items: Math.max(0, ...users.map((stats) => stats.peakItems)) };
}

/** Drives an export as the sidebar does: steps until it ends, waiting on both clocks when it asks to. */
async function drive(bench: Bench, rt: GasRuntime, request: ExportRequest): Promise<Driven> {
  const driven = await driveSteps(bench, rt, request);
  const log = await bench.emulator.control.requests();
  return {
    ...driven,
    puts: log.filter((r) => r.method === 'PUT').length,
    dataPointReads: log.filter((r) => r.method === 'GET' && r.path === '/data_points').length,
  };
}

async function driveSteps(bench: Bench, rt: GasRuntime, request: ExportRequest): Promise<Omit<Driven, 'puts' | 'dataPointReads'>> {
  let handle = rpcValue<ExportHandle>(rt.callServer('startExport', [request]));
  let steps = 0;
  let waitedMs = 0;
  let withoutProgress = 0;
  const peaks = () => {
    const { bytes, items } = cachePeaks(rt);
    return { peakCacheBytes: bytes, peakCacheItems: items };
  };
  while (!handle.report) {
    if (withoutProgress >= STALL_STEPS) return { handle, steps, waitedMs, stalled: true, ...peaks() };
    const wait = handle.progress.waitingForRateLimitMs;
    if (wait) {
      await bench.wait(rt, wait);
      waitedMs += wait;
    }
    const before = handle.progress.itemsDone;
    handle = rpcValue<ExportHandle>(rt.callServer('continueExport', [handle.exportId]));
    steps++;
    withoutProgress = handle.progress.itemsDone > before ? 0 : withoutProgress + 1;
  }
  return { handle, steps, waitedMs, stalled: false, ...peaks() };
}

function request(bench: Bench, range: string, metricId: string, onlyChanged: boolean): ExportRequest {
  return { companyId: bench.fundId, range, spec: { ...SPEC, metricId, onlyChanged }, writeStatus: false };
}

/** "200 PUTs + 20 compare reads": the export's own requests of a run (the rest is the metric listing). */
function compareReads(run: Measured<Driven>): string {
  return `${run.value.puts} PUTs + ${run.value.dataPointReads} compare reads`;
}

/**
 * The same 10,000 typed rows over a metric holding a (null) point on every date, as the live API pre-creates
 * one for every period: every compare read pages through 100 points, so this is compare-and-set's real cost.
 * The add-in's budget is the server's limit, so no 429 is counted. At the real limit the export's 300 requests
 * fit one window; at the scaled one, a rate-limit pause that falls between a wave's read and its writes costs
 * that wave's read again (the writes must be compared after the pause).
 */
async function compareAndSetRow(bench: Bench, metricId: string, label: string, rateBudget?: string): Promise<Row> {
  await bench.emulator.control.fixtures({
    data_points: Array.from({ length: ROWS }, (_, i) => ({ metric_id: metricId, date: isoDay('1990-01-01', i), value: null })),
  });
  const rt = await bench.addinRuntime(rateBudget ? { rateBudget } : {});
  const range = fillSheet(rt, ROWS);
  const run = await bench.measure(rt, () => drive(bench, rt, request(bench, range, metricId, false)));
  const exportRequests = run.value.puts + run.value.dataPointReads;
  return measuredRow(
    label,
    run,
    `${outcomeNote(run, ROWS, 'updated')}; ${compareReads(run)} = ${(exportRequests / Math.ceil(ROWS / BATCH)).toFixed(2)}× the PUT floor (the listing aside)`,
    {
      puts: run.value.puts,
      compareReads: run.value.dataPointReads,
      exportRequestsPerPutFloor: exportRequests / Math.ceil(ROWS / BATCH),
    },
  );
}

function throughput(rows: number, simMs: number): number {
  return Math.round((rows / simMs) * FIVE_MINUTES_MS);
}

/** What the run did, in words: steps, and what is wrong if not every row got the expected outcome. */
function outcomeNote(run: Measured<Driven>, rows: number, expect: 'created' | 'updated' | 'written' | 'unchanged'): string {
  const { handle, steps, stalled } = run.value;
  const done = handle.report?.totals[expect] ?? 0;
  if (stalled) return `stalled: ${steps} steps in a row without a row done (${handle.progress.itemsDone} of ${rows}); ${handle.progress.problem ?? ''}`.trim();
  const problem = done === rows ? '' : `only ${done} of ${rows} ${expect}: ${handle.report?.problem ?? handle.progress.status}. `;
  return `${problem}${steps} step${steps === 1 ? '' : 's'}`;
}

/** Points the emulator holds per metric, to check that an export stored every row. */
async function storedCounts(bench: Bench): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const point of (await bench.emulator.control.state()).data_points) counts.set(point.metric_id, (counts.get(point.metric_id) ?? 0) + 1);
  return counts;
}

interface AddinExport {
  label: string;
  metricId: string;
  first: Measured<Driven>;
  again: Measured<Driven>;
}

async function exportTwice(bench: Bench, label: string, rt: GasRuntime, metricId: string): Promise<AddinExport> {
  const range = fillSheet(rt, ROWS);
  const first = await bench.measure(rt, () => drive(bench, rt, request(bench, range, metricId, false)));
  const again = await bench.measure(rt, () => drive(bench, rt, request(bench, range, metricId, true)));
  return { label, metricId, first, again };
}

export async function exportScenarios(bench: Bench, sides: readonly Side[]): Promise<ScenarioResult[]> {
  const { latencyMs, rateLimit, rateWindowSeconds } = bench.config;
  // The small export must fit in one window with the metric lookup: at most limit − 2 PUTs.
  const windowRows = BATCH * Math.max(1, Math.min(50, rateLimit - 2));
  const [asBuiltMetric, scaledMetric, smallMetric, naiveMetric, naiveSmallMetric, casMetric, casRealMetric] = await createEmptyMetrics(
    bench.emulator,
    bench.fundId,
    [
      'Export',
      'Export, scaled budget',
      'Export in one window',
      'Export naive',
      'Export naive in one window',
      'Export over pre-created points',
      'Export over pre-created points, real limit',
    ],
  );
  const exportRows: Row[] = [];
  const againRows: Row[] = [];
  const smallRows: Row[] = [];
  const casRows: Row[] = [];

  if (sides.includes('addin')) {
    const runs = [await exportTwice(bench, 'add-in', await bench.addinRuntime(), asBuiltMetric!)];
    runs.push(await exportTwice(bench, 'add-in, scaled budget', await bench.addinRuntime({ rateBudget: `${rateLimit}/${rateWindowSeconds}` }), scaledMetric!));
    const smallRt = await bench.addinRuntime();
    const smallRange = fillSheet(smallRt, windowRows);
    const small = await bench.measure(smallRt, () => drive(bench, smallRt, request(bench, smallRange, smallMetric!, false)));

    const stored = await storedCounts(bench);
    const storedNote = (metricId: string, rows: number): string =>
      stored.get(metricId) === rows ? '' : `the API holds ${stored.get(metricId) ?? 0} points, not ${rows}. `;
    for (const run of runs) {
      exportRows.push(
        measuredRow(
          run.label,
          run.first,
          `${storedNote(run.metricId, ROWS)}${outcomeNote(run.first, ROWS, 'created')}; ${compareReads(run.first)}; ${throughput(ROWS, run.first.simMs).toLocaleString('en-US')} rows/5 min; peak user cache ${Math.round(run.first.value.peakCacheBytes / 1024)} KB in ${run.first.value.peakCacheItems} items`,
          {
            throughputRowsPer5Min: throughput(ROWS, run.first.simMs),
            steps: run.first.value.steps,
            waitedBetweenStepsMs: run.first.value.waitedMs,
            peakUserCacheBytes: run.first.value.peakCacheBytes,
            peakUserCacheItems: run.first.value.peakCacheItems,
          },
        ),
      );
      againRows.push(
        measuredRow(
          run.label,
          run.again,
          `${outcomeNote(run.again, ROWS, 'unchanged')}; ${run.again.byMethod['GET'] ?? 0} GET, ${run.again.byMethod['PUT'] ?? 0} PUT`,
          {
            gets: run.again.byMethod['GET'] ?? 0,
            puts: run.again.byMethod['PUT'] ?? 0,
            steps: run.again.value.steps,
            stalled: run.again.value.stalled,
          },
        ),
      );
    }
    smallRows.push(
      measuredRow(
        'add-in',
        small,
        `${storedNote(smallMetric!, windowRows)}${outcomeNote(small, windowRows, 'created')}; ${small.byMethod['PUT'] ?? 0} PUTs: the first alone, then 10 at a time`,
      ),
    );
    casRows.push(await compareAndSetRow(bench, casMetric!, 'add-in, scaled budget', `${rateLimit}/${rateWindowSeconds}`));
    const real = bench.atRateLimit(REAL_RATE_LIMIT.limit, REAL_RATE_LIMIT.windowSeconds);
    casRows.push(await compareAndSetRow(real, casRealMetric!, `add-in, real limit ${REAL_RATE_LIMIT.limit}/${REAL_RATE_LIMIT.windowSeconds} s`));
  }

  if (sides.includes('baseline')) {
    const naive = await bench.scriptRuntime(benchClientsSource());
    const range = fillSheet(naive, ROWS);
    const baseline = await bench.measure(naive, () => naive.run('naiveExport', [naiveMetric, range]) as number);
    const naiveSmall = await bench.scriptRuntime(benchClientsSource());
    const smallRange = fillSheet(naiveSmall, windowRows);
    const small = await bench.measure(naiveSmall, () => naiveSmall.run('naiveExport', [naiveSmallMetric, smallRange]) as number);
    const stored = await storedCounts(bench);
    const note = (metricId: string, confirmed: number, rows: number): string =>
      stored.get(metricId) === rows && confirmed === rows ? '' : `${confirmed} confirmed, ${stored.get(metricId) ?? 0} stored, of ${rows}. `;
    const row = measuredRow(
      'baseline',
      baseline,
      `${note(naiveMetric!, baseline.value, ROWS)}${throughput(ROWS, baseline.simMs).toLocaleString('en-US')} rows/5 min`,
      { throughputRowsPer5Min: throughput(ROWS, baseline.simMs) },
    );
    exportRows.push(row);
    againRows.push({ ...row, note: "cannot tell unchanged rows: sends all again (the export's figures)" });
    smallRows.push(measuredRow('baseline', small, note(naiveSmallMetric!, small.value, windowRows)));
  }

  const boundPer5Min = Math.round((BATCH * rateLimit * FIVE_MINUTES_MS) / (rateWindowSeconds * 1000));
  const writes = Math.ceil(ROWS / BATCH);
  const writeFloorMs = rateFloorMs(writes, rateLimit, rateWindowSeconds, latencyMs);
  exportRows.push(
    floorRow(
      writes,
      writeFloorMs,
      `ceil(N/50) PUTs from a fresh window; the bound: ${boundPer5Min.toLocaleString('en-US')} rows/5 min, ${throughput(ROWS, writeFloorMs).toLocaleString('en-US')} for this job (its first window is free)`,
      {
        boundRowsPer5Min: boundPer5Min,
        jobBoundRowsPer5Min: throughput(ROWS, writeFloorMs),
      },
    ),
  );
  const reads = Math.ceil(ROWS / READ_PAGE);
  againRows.push(floorRow(reads, rateFloorMs(reads, rateLimit, rateWindowSeconds, paginatedRoundTrips(reads) * latencyMs), 'ceil(N/100) reads, no writes'));
  smallRows.push(floorRow(windowRows / BATCH, latencyMs, 'every PUT at once: one round trip'));

  casRows.push(
    {
      variant: 'before compare-and-set (recorded)',
      requests: BEFORE_COMPARE_AND_SET.requests,
      rateLimited: 0,
      simMs: BEFORE_COMPARE_AND_SET.simMs,
      realMs: null,
      vsBaseline: null,
      vsFloor: null,
      note: '200 PUTs + the metric listing, no read before a write (the last run before the change)',
      extra: {},
    },
    floorRow(writes, writeFloorMs, 'ceil(N/50) PUTs; the budget for compare-and-set: at most 1.5× this (100 compare reads of 100 points, two batches each)'),
  );
  const rows = ROWS.toLocaleString('en-US');
  return [
    { id: 'export', title: `Export ${rows} rows (long layout), rate-bound`, rows: exportRows },
    { id: 'export-unchanged', title: `Re-export the ${rows} rows unchanged, only what changed`, rows: againRows },
    { id: 'export-one-window', title: `Export ${windowRows.toLocaleString('en-US')} rows, inside one rate window`, rows: smallRows },
    ...(casRows.length > 3
      ? [
          {
            id: 'export-compare-and-set',
            title: `Export ${rows} typed rows over a point on every date (as the live API pre-creates them): compare-and-set's reads`,
            rows: casRows,
          },
        ]
      : []),
  ];
}
