// Scenario: the model sheet's 500 =METRIC_VALUE(id, "YYYY-MM") cells recalculated as Sheets does it:
// one execution per cell, up to 30 at once, each paying a start-up cost before the bundle loads, all
// sharing the owner's cache, properties and lock (the runtime's rt.recalculate). Cold, warm, and after
// "Refresh data"; beside the naive baseline run the same way, the grid form (one formula filling
// ids × periods) and the floor.

import type { GasRuntime, RecalculatedCell } from '../../gas-runtime';
import type { Bench, Measured, Side } from '../harness';
import { benchClientsSource } from '../clients';
import { floorRow, measuredRow, type Row, type ScenarioResult } from '../figures';
import { createModelMetrics } from '../fixtures';
import { CELLS, CUSTOM_FUNCTION_LIMIT_MS, HISTORY_MONTHS, METRICS, MODEL_MONTHS, modelCells } from './model-sheet';

/** "Simultaneous executions 30 / user" (quotas page). */
export const MAX_CONCURRENT = 30;
/**
 * Real time each execution spends before the bundle loads. Google publishes no figure; a custom
 * function that returns a constant takes a few hundred ms from the edit to the value in Sheets (Sheets
 * asks the Apps Script server, which starts an isolate and loads the project), so 400 ms, the middle
 * of the 300-500 ms usually seen. The floor scales with it, so the targets' ratios hardly depend on it.
 */
export const STARTUP_MS = 400;
/** A series' pages at 100 points: each metric's whole history, as the add-in fetches it. */
const PAGES_PER_SERIES = Math.ceil(HISTORY_MONTHS / 100);

/** Column letters of a 1-based column index. */
function columnName(column: number): string {
  let name = '';
  for (let n = column; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

/** What one recalculation showed and how long each cell took, from its start to the cell's value. */
export interface Recalculation {
  wrong: number;
  /** Cells that showed an error (a sentence) rather than a value, and what the first said. */
  errorCells: number;
  cellMs: number[];
  lockWaitMs: number;
  maxLockWaitMs: number;
  /** Executions that made at least one request. */
  fetchingExecutions: number;
  /** The first error a cell showed, to say why cells were wrong. */
  firstError: string | null;
  /** Series pages (GET /data_points) and the rest (the formula-access check's metric listing). */
  seriesRequests: number;
  otherRequests: number;
  /** Where the time goes: each cell's wait for a slot, and each execution's run after its start-up. */
  queueP50Ms: number;
  runP50Ms: number;
  runP95Ms: number;
  runMaxMs: number;
  /** The longest run of an execution that made requests: the fetch its metric's waiting cells held slots for. */
  fetchRunMaxMs: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/**
 * Recalculates every cell at once and reads each cell's time from the recalculation's start (the
 * runtime's virtual clock, which runs at real speed while executions are queued or running).
 */
export async function recalculateAll(
  bench: Bench,
  rt: GasRuntime,
  formulas: Array<{ formula: string; cell: string; sheet?: string }>,
  expected: unknown[][],
): Promise<Recalculation> {
  const firstExecution = rt.executions.length;
  const started = rt.clock.now();
  const outcomes: RecalculatedCell[] = await rt.recalculate(formulas, { maxConcurrent: MAX_CONCURRENT, startupMs: STARTUP_MS });
  const executions = rt.executions.slice(firstExecution);
  let wrong = 0;
  let errorCells = 0;
  let firstError: string | null = null;
  outcomes.forEach((outcome, i) => {
    if (!outcome.ok) {
      errorCells += 1;
      firstError ??= outcome.error.message;
      wrong += expected[i]!.length;
      return;
    }
    const shown = outcome.values.flat();
    wrong += expected[i]!.filter((value, j) => shown[j] !== value).length;
  });
  const lockWaits = executions.map((e) => e.lockWaitMs);
  const runs = executions.map((e) => e.durationMs - STARTUP_MS).sort((a, b) => a - b);
  const queues = outcomes.map((o) => o.startedAt - o.queuedAt).sort((a, b) => a - b);
  // bench.measure cleared the emulator's log just before this run.
  const log = await bench.emulator.control.requests();
  const seriesRequests = log.filter((r) => r.path === '/data_points').length;
  return {
    seriesRequests,
    otherRequests: log.length - seriesRequests,
    wrong,
    errorCells,
    cellMs: outcomes.map((o) => o.finishedAt - started).sort((a, b) => a - b),
    lockWaitMs: lockWaits.reduce((a, b) => a + b, 0),
    maxLockWaitMs: Math.max(0, ...lockWaits),
    fetchingExecutions: executions.filter((e) => e.urlFetchCount > 0).length,
    firstError,
    queueP50Ms: percentile(queues, 50),
    runP50Ms: percentile(runs, 50),
    runP95Ms: percentile(runs, 95),
    runMaxMs: runs[runs.length - 1]!,
    fetchRunMaxMs: Math.max(0, ...executions.filter((e) => e.urlFetchCount > 0).map((e) => e.durationMs - STARTUP_MS)),
  };
}

function cellFigures(r: Recalculation): Row['extra'] {
  return {
    cellsOverCustomFunctionLimit: r.cellMs.filter((ms) => ms > CUSTOM_FUNCTION_LIMIT_MS).length,
    p50CellMs: percentile(r.cellMs, 50),
    p95CellMs: percentile(r.cellMs, 95),
    maxCellMs: r.cellMs[r.cellMs.length - 1]!,
    lockWaitMs: r.lockWaitMs,
    maxLockWaitMs: r.maxLockWaitMs,
    fetchingExecutions: r.fetchingExecutions,
    wrongCells: r.wrong,
    errorCells: r.errorCells,
    seriesRequests: r.seriesRequests,
    otherRequests: r.otherRequests,
    queueP50Ms: r.queueP50Ms,
    runP50Ms: r.runP50Ms,
    runP95Ms: r.runP95Ms,
    runMaxMs: r.runMaxMs,
    fetchRunMaxMs: r.fetchRunMaxMs,
  };
}

function note(r: Recalculation, floorMs: number): string {
  const s = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
  const over = r.cellMs.filter((ms) => ms > CUSTOM_FUNCTION_LIMIT_MS).length;
  const wrong = r.wrong === 0 ? '' : `${r.wrong} cells wrong (${r.firstError ?? 'a wrong value'}). `;
  return (
    `${wrong}cells p50 ${s(percentile(r.cellMs, 50))}, p95 ${s(percentile(r.cellMs, 95))}, max ${s(r.cellMs[r.cellMs.length - 1]!)} ` +
    `(${(r.cellMs[r.cellMs.length - 1]! / floorMs).toFixed(1)}× the floor); ${over} over 30 s; lock waits ${s(r.lockWaitMs)} in all, ` +
    `${s(r.maxLockWaitMs)} at most; ${r.fetchingExecutions} executions fetched: ${r.seriesRequests} series pages, ${r.otherRequests} other; ` +
    `runs after start-up p50 ${s(r.runP50Ms)}, p95 ${s(r.runP95Ms)}, max ${s(r.runMaxMs)} (fetching ${s(r.fetchRunMaxMs)})`
  );
}

export function row(variant: string, measured: Measured<Recalculation>, floorMs: number): Row {
  return measuredRow(variant, measured, note(measured.value, floorMs), cellFigures(measured.value));
}

/**
 * A runtime starts a worker thread per concurrent execution slot and compiles the bundle in it the
 * first time (a second or more on a busy machine), which Apps Script's start-up does not add to
 * `startupMs`. One recalculation of as many cells as run at once, of a formula that fails before any
 * request (an id that is not one), starts them before measuring; then the cache is emptied again.
 */
export async function warmWorkers(rt: GasRuntime, functionName: string, slots: number): Promise<void> {
  const cells = Array.from({ length: slots }, (_, i) => ({ formula: `=${functionName}("not-an-id", "2024-03")`, cell: `ZZ${i + 1}` }));
  const sheet = rt.spreadsheet.getActiveSheet();
  if (sheet.getMaxColumns() < 702) sheet.insertColumnsAfter(sheet.getMaxColumns(), 702 - sheet.getMaxColumns());
  await rt.recalculate(cells, { maxConcurrent: MAX_CONCURRENT });
  sheet.getRange(`ZZ1:ZZ${slots}`).clearContent();
  rt.cache.clear();
}

export async function concurrentScenarios(bench: Bench, sides: readonly Side[]): Promise<ScenarioResult[]> {
  const model = await createModelMetrics(bench.emulator, bench.fundId, METRICS, HISTORY_MONTHS);
  const cells = modelCells(model);
  const expected = cells.map((cell) => [cell.expected]);
  const cold: Row[] = [];
  const warm: Row[] = [];
  const refreshed: Row[] = [];

  // Sheets starts every cell's execution in waves of 30; the floor: each wave's start-up, plus two
  // round trips of the fetch (page 1, then the rest) that the first wave's cells wait for.
  const waves = Math.ceil(CELLS / MAX_CONCURRENT);
  const floorColdMs = waves * STARTUP_MS + 2 * bench.config.latencyMs;
  const floorWarmMs = waves * STARTUP_MS;

  if (sides.includes('addin')) {
    const addin = await bench.addinRuntime();
    await warmWorkers(addin, 'METRIC_VALUE', MAX_CONCURRENT);
    const formulas = cells.map((cell, i) => ({ formula: `=METRIC_VALUE("${cell.metricId}", "${cell.label}")`, cell: `A${i + 1}` }));
    const first = await bench.measure(addin, () => recalculateAll(bench, addin, formulas, expected));
    const again = await bench.measure(addin, () => recalculateAll(bench, addin, formulas, expected));
    // "Refresh data" (the menu item, as the owner) starts a new cache generation, reads again the series
    // the old one held (for the Changes sheet) and rewrites every formula; Sheets then runs them all again.
    // Its own requests count: they are part of what a refresh costs.
    const afterRefresh = await bench.measure(addin, () => {
      addin.run('refreshData');
      return recalculateAll(bench, addin, formulas, expected);
    });
    cold.push(row('add-in', first, floorColdMs));
    warm.push(row('add-in', again, floorWarmMs));
    refreshed.push(row('add-in', afterRefresh, floorColdMs));

    // The grid form: ids down a column, periods along a row, one formula filling 10 × 50 cells in one
    // execution, on a fresh runtime so that its cache starts cold.
    const grid = await bench.addinRuntime();
    await warmWorkers(grid, 'METRIC_VALUE', 1);
    const sheet = grid.spreadsheet.getActiveSheet();
    const labels = cells.slice(0, MODEL_MONTHS).map((cell) => cell.label);
    const lastColumn = columnName(2 + MODEL_MONTHS);
    if (sheet.getMaxColumns() < 2 + MODEL_MONTHS) sheet.insertColumnsAfter(sheet.getMaxColumns(), 2 + MODEL_MONTHS - sheet.getMaxColumns());
    sheet.getRange(1, 3, 1, MODEL_MONTHS).setValues([labels]);
    sheet.getRange(2, 2, METRICS, 1).setValues(model.metricIds.map((id) => [id]));
    const gridFormula = [{ formula: `=METRIC_VALUE(B2:B${METRICS + 1}, C1:${lastColumn}1)`, cell: 'C2' }];
    const gridExpected = [cells.map((cell) => cell.expected)];
    const gridCold = await bench.measure(grid, () => recalculateAll(bench, grid, gridFormula, gridExpected));
    const gridWarm = await bench.measure(grid, () => recalculateAll(bench, grid, gridFormula, gridExpected));
    cold.push(row('add-in, grid form', gridCold, floorColdMs));
    warm.push(row('add-in, grid form', gridWarm, floorWarmMs));
  }

  if (sides.includes('baseline')) {
    // One request per cell, 30 at once, a 1 s sleep on every 429 until the custom function's 30 s.
    const naive = await bench.scriptRuntime(benchClientsSource());
    await warmWorkers(naive, 'METRIC_VALUE', MAX_CONCURRENT);
    const formulas = cells.map((cell, i) => ({ formula: `=naiveMetricValue("${cell.metricId}", "${cell.label}-01")`, cell: `A${i + 1}` }));
    const baseline = await bench.measure(naive, () => recalculateAll(bench, naive, formulas, expected));
    const baselineRow = row('baseline', baseline, floorColdMs);
    cold.push(baselineRow);
    warm.push({ ...baselineRow, note: `no cache: the same as cold. ${baselineRow.note}` });
    refreshed.push({ ...baselineRow, note: `no cache: the same as cold. ${baselineRow.note}` });
  }

  const wholeSeriesRequests = METRICS * PAGES_PER_SERIES;
  const floorNote = (ms: number, what: string): string =>
    `${waves} waves of ${MAX_CONCURRENT} executions × ${STARTUP_MS} ms start-up${what}; target for the add-in: max cell ≤ ${((2 * ms) / 1000).toFixed(1)} s`;
  const floorExtra = { waves, startupMs: STARTUP_MS, targetMaxCellMs: 0, targetRequests: wholeSeriesRequests };
  cold.push(
    floorRow(5, floorColdMs, `${floorNote(floorColdMs, ' + 2 round trips; 5 requests: one multi-metric series request')}, requests ≤ ${wholeSeriesRequests}`, {
      ...floorExtra,
      targetMaxCellMs: 2 * floorColdMs,
    }),
  );
  warm.push(
    floorRow(0, floorWarmMs, `${floorNote(floorWarmMs, '; nothing to fetch')}, 0 requests`, {
      ...floorExtra,
      targetMaxCellMs: 2 * floorWarmMs,
      targetRequests: 0,
    }),
  );
  refreshed.push(
    floorRow(5, floorColdMs, `${floorNote(floorColdMs, ' + 2 round trips: a new cache generation is a cold cache')}, requests ≤ ${wholeSeriesRequests}`, {
      ...floorExtra,
      targetMaxCellMs: 2 * floorColdMs,
    }),
  );

  const title = `Model sheet recalculated concurrently: ${CELLS} METRIC_VALUE cells over ${METRICS} metrics, ≤ ${MAX_CONCURRENT} executions at once, ${STARTUP_MS} ms start-up each`;
  return [
    { id: 'model-concurrent-cold', title: `${title}, cold cache`, rows: cold },
    { id: 'model-concurrent-warm', title: `${title}, warm cache`, rows: warm },
    { id: 'model-concurrent-refresh', title: `${title}, after Refresh data`, rows: refreshed },
  ];
}
