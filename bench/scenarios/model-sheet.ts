// Scenario: a model sheet of 500 =METRIC_VALUE(id, "YYYY-MM") cells over 10 monthly metrics, each cell
// its own execution as in Sheets, with a cold cache and then warm (the same runtime again).

import type { Bench } from '../harness';
import { benchClientsSource } from '../clients';
import { floorRow, measuredRow, pagesOf, paginatedRoundTrips, pendingRow, withRatios, type ScenarioResult } from '../figures';
import { createModelMetrics, type ModelData } from '../fixtures';

const METRICS = 10;
/** Each metric's history: 10 years of months, of which the model shows the last 50. */
const HISTORY_MONTHS = 120;
const MODEL_MONTHS = 50;
const CELLS = METRICS * MODEL_MONTHS;

interface Cell {
  metricId: string;
  /** The cell's period label, 2024-03. */
  label: string;
  expected: number;
}

function modelCells(model: ModelData): Cell[] {
  return model.metricIds.flatMap((metricId, m) => {
    const dates = [...model.values[m]!.keys()].slice(-MODEL_MONTHS);
    return dates.map((date) => ({ metricId, label: date.slice(0, 7), expected: model.values[m]!.get(date)! }));
  });
}

/** Runs every cell once; returns how many showed the wrong value. */
function recalculate(cells: Cell[], run: (cell: Cell) => unknown): number {
  return cells.filter((cell) => run(cell) !== cell.expected).length;
}

function wrong(count: number): string {
  return count === 0 ? '' : `${count} cells wrong. `;
}

export async function modelSheetScenarios(bench: Bench): Promise<ScenarioResult[]> {
  const model = await createModelMetrics(bench.emulator, bench.fundId, METRICS, HISTORY_MONTHS);
  const cells = modelCells(model);

  const addin = await bench.addinRuntime();
  const viaAddin = (cell: Cell): unknown => addin.runCustomFunction('METRIC_VALUE', [cell.metricId, cell.label]);
  const cold = await bench.measure(addin, () => recalculate(cells, viaAddin));
  const warm = await bench.measure(addin, () => recalculate(cells, viaAddin));

  const naive = await bench.scriptRuntime(benchClientsSource());
  const firstExecution = naive.executions.length;
  const baseline = await bench.measure(naive, () => recalculate(cells, (cell) => naive.run('naiveMetricValue', [cell.metricId, `${cell.label}-01`])));
  const longestCellMs = Math.max(...naive.executions.slice(firstExecution).map((e) => e.durationMs));

  const perCell = (ms: number): string => `${(ms / CELLS).toFixed(1)} ms per cell`;
  const floorRequests = pagesOf(CELLS, 100);
  const designRequests = METRICS * pagesOf(HISTORY_MONTHS, 100);
  const coldFloor = floorRow(
    floorRequests,
    paginatedRoundTrips(floorRequests) * bench.config.latencyMs,
    `the ${CELLS} values in one series request over the model's months (metric_id[] × ${METRICS}), 100 per page; per metric over its whole history: ${designRequests}`,
    { perMetricWholeHistoryRequests: designRequests },
  );
  const baselineRow = measuredRow('baseline', baseline, `${wrong(baseline.value)}longest cell ${(longestCellMs / 1000).toFixed(1)} s${longestCellMs > 30_000 ? ' (over a custom function\'s 30 s)' : ''}`, { longestCellMs });
  return [
    {
      id: 'model-cold',
      title: `Model sheet, ${CELLS} METRIC_VALUE cells over ${METRICS} metrics, cold cache`,
      rows: withRatios([
        measuredRow('add-in', cold, `${wrong(cold.value)}${perCell(cold.simMs)}`, { msPerCell: cold.simMs / CELLS }),
        baselineRow,
        coldFloor,
      ]),
    },
    {
      id: 'model-warm',
      title: `Model sheet, ${CELLS} METRIC_VALUE cells over ${METRICS} metrics, warm cache`,
      rows: withRatios([
        measuredRow('add-in', warm, `${wrong(warm.value)}${perCell(warm.simMs)}: the bundle's load, the cache's read, the cell`, { msPerCell: warm.simMs / CELLS }),
        { ...baselineRow, note: 'no cache: the same as cold' },
        pendingRow('floor', '0 requests: nothing to fetch'),
      ]),
    },
  ];
}
