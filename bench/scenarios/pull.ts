// Scenario: one metric's daily points over 1, 5 and 10 years with =METRIC_VALUES(id, start, end).

import type { Bench, Side } from '../harness';
import { benchClientsSource } from '../clients';
import { floorRow, measuredRow, pagesOf, paginatedRoundTrips, type Row, type ScenarioResult } from '../figures';
import { createDailySeries } from '../fixtures';

/** A custom function's limit in Apps Script: a baseline that needs longer could not run as a formula. */
const CUSTOM_FUNCTION_LIMIT_MS = 30_000;

const RANGES = [
  { years: 1, name: 'Daily 1 year', start: '2024-01-01', end: '2024-12-31' },
  { years: 5, name: 'Daily 5 years', start: '2020-01-01', end: '2024-12-31' },
  { years: 10, name: 'Daily 10 years', start: '2015-01-01', end: '2024-12-31' },
];

export async function pullScenarios(bench: Bench, sides: readonly Side[]): Promise<ScenarioResult[]> {
  const series = await createDailySeries(bench.emulator, bench.fundId, RANGES);
  const results: ScenarioResult[] = [];
  for (const [i, range] of RANGES.entries()) {
    const { metricId, start, end, points } = series[i]!;
    const rows: Row[] = [];

    if (sides.includes('addin')) {
      const addin = await bench.addinRuntime();
      const pulled = await bench.measure(addin, () => addin.runCustomFunction('METRIC_VALUES', [metricId, start, end]) as unknown[][]);
      rows.push(measuredRow('add-in', pulled, pulled.value.length === points ? '' : `gave ${pulled.value.length} rows, not ${points}.`));
    }

    if (sides.includes('baseline')) {
      const naive = await bench.scriptRuntime(benchClientsSource());
      const baseline = await bench.measure(naive, () => naive.run('naivePullSeries', [metricId, start, end]) as number);
      const note =
        (baseline.value === points ? '' : `gave ${baseline.value} rows, not ${points}. `) +
        (baseline.simMs > CUSTOM_FUNCTION_LIMIT_MS ? 'longer than a custom function may run (30 s)' : '');
      rows.push(measuredRow('baseline', baseline, note));
    }

    const pages = pagesOf(points, 100);
    const roundTrips = paginatedRoundTrips(pages);
    rows.push(floorRow(pages, roundTrips * bench.config.latencyMs, `ceil(N/100) requests, ${roundTrips} round trips`));
    results.push({
      id: `pull-${range.years}y`,
      title: `Pull ${range.years} year${range.years > 1 ? 's' : ''} of daily points (${points.toLocaleString('en-US')})`,
      rows,
    });
  }
  return results;
}
