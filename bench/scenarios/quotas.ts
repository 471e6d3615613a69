// Scenario: the daily quotas that can stop a user for the day (quotas page, consumer accounts): property calls per
// warm formula cell of the model sheet and how many such cells "Properties read/write: 50,000 / day" holds, and the
// run time of one scheduled snapshot refresh of the same model against "Triggers total runtime: 90 min / day".

import type { GasRuntime } from '../../gas-runtime';
import type { Bench, Side } from '../harness';
import type { Row, ScenarioResult } from '../figures';
import { createModelMetrics } from '../fixtures';
import { OWNER } from '../../test/support/stack';
import { CELLS, HISTORY_MONTHS, METRICS, MODEL_MONTHS, modelCells, type Cell } from './model-sheet';

/** A fund model of 2,000 cells recalculated eight times used a consumer account's day at 3 calls a cell. */
const FUND_MODEL_CELLS = 2_000;
const HOUR = 3_600_000;

function row(variant: string, note: string, extra: Row['extra']): Row {
  return { variant, requests: null, rateLimited: null, simMs: null, realMs: null, vsBaseline: null, vsFloor: null, note, extra };
}

/** Every property call of every store so far (the quota counts the same calls). */
function propertyCalls(rt: GasRuntime): number {
  const report = rt.properties.calls();
  const sum = (calls: Record<string, number>) => Object.values(calls).reduce((a, b) => a + b, 0);
  return Object.values(report.user).reduce((total, calls) => total + sum(calls), sum(report.document) + sum(report.script));
}

export async function quotaScenarios(bench: Bench, sides: readonly Side[]): Promise<ScenarioResult[]> {
  if (!sides.includes('addin')) return [];
  const model = await createModelMetrics(bench.emulator, bench.fundId, METRICS, HISTORY_MONTHS);
  const cells = modelCells(model);
  const rt = await bench.addinRuntime();
  // The runtime's own limits (its default account is a consumer one), so the figures divide by what it enforces.
  const propertiesPerDay = rt.quotas.properties.limit;
  const triggerRuntimePerDayMs = rt.quotas.triggerRuntimeMs.limit;
  const recalculate = (): number => cells.filter((cell: Cell) => rt.runCustomFunction('METRIC_VALUE', [cell.metricId, cell.label]) !== cell.expected).length;

  const coldBefore = propertyCalls(rt);
  const coldWrong = recalculate();
  const coldCalls = propertyCalls(rt) - coldBefore;
  const warmBefore = propertyCalls(rt);
  const warmWrong = recalculate();
  const warmCalls = propertyCalls(rt) - warmBefore;
  const perWarmCell = warmCalls / CELLS;
  const cellsPerDay = Math.floor(propertiesPerDay / perWarmCell);
  const wrong = coldWrong + warmWrong === 0 ? '' : `${coldWrong + warmWrong} cells wrong. `;

  // The same model as a snapshot, refreshed by its owner's hourly trigger.
  rt.spreadsheet.setActiveRange(rt.spreadsheet.getSheetByName('Sheet1')!.getRange('B2'));
  const firstMonth = `${cells[0]!.label}-01`;
  const lastMonth = `${cells[MODEL_MONTHS - 1]!.label}-28`;
  rt.callServer('insertMetricValues', [
    { companyId: bench.fundId, metricIds: model.metricIds, startDate: firstMonth, endDate: lastMonth, mode: 'snapshot', headers: true },
  ]);
  rt.callServer('scheduleSnapshotRefresh', ['hourly']);
  const refreshBefore = propertyCalls(rt);
  const quotaBefore = rt.quotas.triggerRuntimeMs.used(OWNER);
  const [run] = rt.triggers.advance(HOUR);
  const refreshMs = rt.quotas.triggerRuntimeMs.used(OWNER) - quotaBefore;
  const refreshCalls = propertyCalls(rt) - refreshBefore;
  const refreshesPerDay = refreshMs > 0 ? Math.floor(triggerRuntimePerDayMs / refreshMs) : null;

  const modelTitle = `Daily quotas: the model sheet's ${CELLS} METRIC_VALUE cells (${METRICS} metrics × ${MODEL_MONTHS} months) on a consumer account`;
  return [
    {
      id: 'quota-properties',
      title: `${modelTitle}, Properties read/write (50,000 / day)`,
      rows: [
        row(
          'add-in, cold',
          `${wrong}${(coldCalls / CELLS).toFixed(2)} property calls per cell (the first also reads the document's state and fills its mirror)`,
          { propertyCalls: coldCalls, perCell: coldCalls / CELLS },
        ),
        row(
          'add-in, warm',
          `${perWarmCell.toFixed(2)} property calls per cell: a consumer day holds ${cellsPerDay.toLocaleString('en-US')} warm cells, ${Math.floor(cellsPerDay / CELLS)} recalculations of this model, ${Math.floor(cellsPerDay / FUND_MODEL_CELLS)} of a ${FUND_MODEL_CELLS.toLocaleString('en-US')}-cell fund model`,
          {
            propertyCalls: warmCalls,
            perCell: perWarmCell,
            warmCellsPerConsumerDay: cellsPerDay,
            fundModelRecalculationsPerDay: Math.floor(cellsPerDay / FUND_MODEL_CELLS),
          },
        ),
        row(
          'before (3 per cell)',
          `a consumer day held ${Math.floor(propertiesPerDay / 3).toLocaleString('en-US')} warm cells, ${Math.floor(propertiesPerDay / 3 / FUND_MODEL_CELLS)} recalculations of a ${FUND_MODEL_CELLS.toLocaleString('en-US')}-cell fund model`,
          { perCell: 3 },
        ),
      ],
    },
    {
      id: 'quota-trigger-runtime',
      title: `Daily quotas: a scheduled refresh of the same model as a snapshot, Triggers total runtime (90 min / day)`,
      rows: [
        row(
          'add-in',
          run?.ok
            ? `${(refreshMs / 1000).toFixed(1)} s of trigger runtime per refresh (${run.execution.urlFetchCount} requests, ${refreshCalls} property calls): a consumer day holds ${refreshesPerDay ?? '–'} refreshes, an hourly schedule uses ${(((24 * refreshMs) / triggerRuntimePerDayMs) * 100).toFixed(1)} % of it`
            : `the scheduled refresh failed: ${run?.error ?? 'it did not run'}`,
          {
            triggerRuntimeMs: refreshMs,
            requests: run?.execution.urlFetchCount ?? null,
            propertyCalls: refreshCalls,
            refreshesPerConsumerDay: refreshesPerDay,
          },
        ),
      ],
    },
  ];
}
