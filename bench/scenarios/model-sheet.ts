// Scenario: a model sheet of 500 =METRIC_VALUE(id, "YYYY-MM") cells over 10 monthly metrics, each cell
// its own execution as in Sheets, with a cold cache and then warm (the same runtime again).

import type { Bench, Side } from '../harness';
import { benchClientsSource } from '../clients';
import { floorRow, measuredRow, pagesOf, paginatedRoundTrips, pendingRow, type Row, type ScenarioResult } from '../figures';
import { createModelMetrics, type ModelData } from '../fixtures';

export const METRICS = 10;
/** Each metric's history: 10 years of months, of which the model shows the last 50. */
export const HISTORY_MONTHS = 120;
export const MODEL_MONTHS = 50;
export const CELLS = METRICS * MODEL_MONTHS;
export const CUSTOM_FUNCTION_LIMIT_MS = 30_000;

export interface Cell {
  metricId: string;
  /** The cell's period label, 2024-03. */
  label: string;
  expected: number;
}

export function modelCells(model: ModelData): Cell[] {
  return model.metricIds.flatMap((metricId, m) => {
    const dates = [...model.values[m]!.keys()].slice(-MODEL_MONTHS);
    return dates.map((date) => ({ metricId, label: date.slice(0, 7), expected: model.values[m]!.get(date)! }));
  });
}

/** Runs every cell once, in sheet order; returns how many showed a wrong value. */
function recalculate(cells: Cell[], run: (cell: Cell) => unknown): number {
  return cells.filter((cell) => run(cell) !== cell.expected).length;
}

function wrong(count: number): string {
  return count === 0 ? '' : `${count} cells wrong. `;
}

function perCell(ms: number): string {
  return `${(ms / CELLS).toFixed(1)} ms per cell`;
}

export async function modelSheetScenarios(bench: Bench, sides: readonly Side[]): Promise<ScenarioResult[]> {
  const model = await createModelMetrics(bench.emulator, bench.fundId, METRICS, HISTORY_MONTHS);
  const cells = modelCells(model);
  const cold: Row[] = [];
  const warm: Row[] = [];

  if (sides.includes('addin')) {
    const addin = await bench.addinRuntime();
    const viaAddin = (cell: Cell): unknown => addin.runCustomFunction('METRIC_VALUE', [cell.metricId, cell.label]);
    const first = await bench.measure(addin, () => recalculate(cells, viaAddin));
    const again = await bench.measure(addin, () => recalculate(cells, viaAddin));
    cold.push(measuredRow('add-in', first, `${wrong(first.value)}${perCell(first.simMs)}`, { msPerCell: first.simMs / CELLS }));
    warm.push(
      measuredRow('add-in', again, `${wrong(again.value)}${perCell(again.simMs)}: each cell loads the bundle and reads the cache`, {
        msPerCell: again.simMs / CELLS,
      }),
    );
  }

  if (sides.includes('baseline')) {
    const naive = await bench.scriptRuntime(benchClientsSource());
    const firstExecution = naive.executions.length;
    const baseline = await bench.measure(naive, () => recalculate(cells, (cell) => naive.run('naiveMetricValue', [cell.metricId, `${cell.label}-01`])));
    const cellTimes = naive.executions.slice(firstExecution).map((e) => e.durationMs);
    const longestCellMs = Math.max(...cellTimes);
    const overLimit = cellTimes.filter((ms) => ms > CUSTOM_FUNCTION_LIMIT_MS).length;
    const note = `${wrong(baseline.value)}longest cell ${(longestCellMs / 1000).toFixed(1)} s; ${overLimit} cells over a custom function's 30 s`;
    const row = measuredRow('baseline', baseline, note, { longestCellMs, cellsOverCustomFunctionLimit: overLimit });
    cold.push(row);
    warm.push({ ...row, note: 'no cache: the same as cold' });
  }

  const floorRequests = pagesOf(CELLS, 100);
  const perMetricRequests = METRICS * pagesOf(HISTORY_MONTHS, 100);
  cold.push(
    floorRow(
      floorRequests,
      paginatedRoundTrips(floorRequests) * bench.config.latencyMs,
      `one series request for the ${METRICS} metrics over the model's ${MODEL_MONTHS} months, 100 per page (each metric's whole ${HISTORY_MONTHS} months: ${perMetricRequests})`,
      { perMetricWholeHistoryRequests: perMetricRequests },
    ),
  );
  warm.push(pendingRow('floor', '0 requests: nothing to fetch'));

  const title = `Model sheet: ${CELLS} METRIC_VALUE cells over ${METRICS} metrics`;
  return [
    { id: 'model-cold', title: `${title}, cold cache`, rows: cold },
    { id: 'model-warm', title: `${title}, warm cache`, rows: warm },
  ];
}
