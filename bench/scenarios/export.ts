// Scenario: export 10,000 rows of a long layout (a date column and a value column, one daily metric)
// through startExport/continueExport as the sidebar drives it, then re-export them unchanged with
// "only what changed".

import type { GasRuntime } from '../../gas-runtime';
import type { ExportSpec } from '../../src/core/export';
import type { ExportHandle, ExportRequest } from '../../src/shared/rpc';
import { rpcValue, type Bench, type Measured } from '../harness';
import { benchClientsSource, bundleWithRateBudget } from '../clients';
import { floorRow, measuredRow, paginatedRoundTrips, pendingRow, rateFloorMs, withRatios, type Row, type ScenarioResult } from '../figures';
import { createEmptyMetrics, isoDay } from '../fixtures';

const ROWS = 10_000;
const BATCH = 50;
const READ_PAGE = 100;
const SPEC: ExportSpec = { layout: 'long', hasHeaderRow: true, skipBlanks: true, duplicates: 'reject', offPeriod: 'reject', onlyChanged: false };
const FIVE_MINUTES_MS = 300_000;

/** Writes the rows into Sheet1 from A1 as a user would type them, and returns the range. */
function fillSheet(rt: GasRuntime): string {
  const rows: unknown[][] = [['Date', 'Value'], ...Array.from({ length: ROWS }, (_, i) => [isoDay('1990-01-01', i), String(100 + i * 0.25)])];
  const sheet = rt.spreadsheet.getActiveSheet();
  if (rows.length > sheet.getMaxRows()) sheet.insertRowsAfter(sheet.getMaxRows(), rows.length - sheet.getMaxRows());
  sheet.getRange(1, 1, rows.length, 2).setValues(rows);
  return `Sheet1!A1:B${rows.length}`;
}

interface Driven {
  handle: ExportHandle;
  steps: number;
  waitedMs: number;
}

/** Drives an export as the sidebar does: steps until it ends, waiting on both clocks when it asks to. */
async function drive(bench: Bench, rt: GasRuntime, request: ExportRequest): Promise<Driven> {
  let handle = rpcValue<ExportHandle>(rt.callServer('startExport', [request]));
  let steps = 0;
  let waitedMs = 0;
  while (!handle.report && steps < 500) {
    const wait = handle.progress.waitingForRateLimitMs;
    if (wait) {
      await bench.wait(rt, wait);
      waitedMs += wait;
    }
    handle = rpcValue<ExportHandle>(rt.callServer('continueExport', [handle.exportId]));
    steps++;
  }
  return { handle, steps, waitedMs };
}

function exportNote(driven: Measured<Driven>, expect: 'written' | 'unchanged'): string {
  const report = driven.value.handle.report;
  const done = report?.totals[expect] ?? 0;
  const problem = done === ROWS ? '' : `only ${done} of ${ROWS} ${expect}: ${report?.problem ?? driven.value.handle.progress.status}. `;
  return `${problem}${driven.value.steps} steps`;
}

function throughput(simMs: number): number {
  return Math.round((ROWS / simMs) * FIVE_MINUTES_MS);
}

interface AddinRuns {
  label: string;
  first: Measured<Driven>;
  again: Measured<Driven>;
}

async function exportTwice(bench: Bench, label: string, rt: GasRuntime, metricId: string): Promise<AddinRuns> {
  const range = fillSheet(rt);
  const request = (onlyChanged: boolean): ExportRequest => ({ companyId: bench.fundId, range, spec: { ...SPEC, metricId, onlyChanged }, writeStatus: false });
  const first = await bench.measure(rt, () => drive(bench, rt, request(false)));
  const again = await bench.measure(rt, () => drive(bench, rt, request(true)));
  return { label, first, again };
}

export async function exportScenarios(bench: Bench): Promise<ScenarioResult[]> {
  const { latencyMs, rateLimit, rateWindowSeconds } = bench.config;
  const [asBuiltMetric, scaledMetric, naiveMetric] = await createEmptyMetrics(bench.emulator, bench.fundId, ['Export as built', 'Export scaled budget', 'Export naive']);

  const runs: AddinRuns[] = [await exportTwice(bench, 'add-in', await bench.addinRuntime(), asBuiltMetric!)];
  const scaledBundle = bundleWithRateBudget(bench.bundleSource, rateLimit, rateWindowSeconds);
  if (scaledBundle) runs.push(await exportTwice(bench, 'add-in, budget = scaled limit', await bench.scriptRuntime(scaledBundle), scaledMetric!));

  const naive = await bench.scriptRuntime(benchClientsSource());
  const range = fillSheet(naive);
  const baseline = await bench.measure(naive, () => naive.run('naiveExport', [naiveMetric, range]) as number);

  const stored = new Map<string, number>();
  for (const point of (await bench.emulator.control.state()).data_points) stored.set(point.metric_id, (stored.get(point.metric_id) ?? 0) + 1);
  const storedNote = (metricId: string): string => (stored.get(metricId) === ROWS ? '' : `the API holds ${stored.get(metricId) ?? 0} points, not ${ROWS}. `);
  const metricOf = [asBuiltMetric!, scaledMetric!];

  const boundPer5Min = Math.round((BATCH * rateLimit * FIVE_MINUTES_MS) / (rateWindowSeconds * 1000));
  const writes = Math.ceil(ROWS / BATCH);
  const writeFloorMs = rateFloorMs(writes, rateLimit, rateWindowSeconds, latencyMs);
  const reads = Math.ceil(ROWS / READ_PAGE);
  const readFloorMs = rateFloorMs(reads, rateLimit, rateWindowSeconds, paginatedRoundTrips(reads) * latencyMs);

  const exportRows: Row[] = runs.map((run, i) => measuredRow(run.label, run.first, `${storedNote(metricOf[i]!)}${exportNote(run.first, 'written')}, ${throughput(run.first.simMs).toLocaleString('en-US')} rows/5 min`, {
    throughputRowsPer5Min: throughput(run.first.simMs),
    steps: run.first.value.steps,
    waitedBetweenStepsMs: run.first.value.waitedMs,
  }));
  if (!scaledBundle) exportRows.push(pendingRow('add-in, budget = scaled limit', 'DEFAULT_RATE_LIMIT not found in dist/Code.js'));
  const baselineExport = measuredRow('baseline', baseline, `${storedNote(naiveMetric!)}${baseline.value === ROWS ? '' : `${baseline.value} confirmed. `}${throughput(baseline.simMs).toLocaleString('en-US')} rows/5 min`, { throughputRowsPer5Min: throughput(baseline.simMs) });
  const exportFloor = floorRow(writes, writeFloorMs, `ceil(N/50) PUTs from a fresh window; bound ${boundPer5Min.toLocaleString('en-US')} rows/5 min`, {
    boundRowsPer5Min: boundPer5Min,
    jobBoundRowsPer5Min: throughput(writeFloorMs),
  });

  const againRows: Row[] = runs.map((run) => measuredRow(run.label, run.again, `${exportNote(run.again, 'unchanged')}, ${run.again.byMethod['GET'] ?? 0} GET, ${run.again.byMethod['PUT'] ?? 0} PUT`, {
    gets: run.again.byMethod['GET'] ?? 0,
    puts: run.again.byMethod['PUT'] ?? 0,
  }));
  const baselineAgain: Row = { ...baselineExport, note: 'cannot tell unchanged rows: sends all again (the export\'s figures)' };
  const againFloor = floorRow(reads, readFloorMs, 'ceil(N/100) reads, no writes');

  return [
    {
      id: 'export',
      title: `Export ${ROWS.toLocaleString('en-US')} rows, long layout`,
      rows: withRatios(exportRows.concat(baselineExport, exportFloor)),
    },
    {
      id: 'export-unchanged',
      title: `Re-export ${ROWS.toLocaleString('en-US')} unchanged rows, only what changed`,
      rows: withRatios(againRows.concat(baselineAgain, againFloor)),
    },
  ];
}
