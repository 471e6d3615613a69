// Scenario: one metric's daily points over 1, 5 and 10 years with =METRIC_VALUES(id, start, end).

import type { Bench } from '../harness';
import { benchClientsSource } from '../clients';
import { floorRow, measuredRow, pagesOf, paginatedRoundTrips, withRatios, type ScenarioResult } from '../figures';
import { createDailySeries } from '../fixtures';

/** A custom function's limit in Apps Script: a baseline that needs longer could not run as a formula. */
const CUSTOM_FUNCTION_LIMIT_MS = 30_000;

export async function pullScenarios(bench: Bench): Promise<ScenarioResult[]> {
  const series = await createDailySeries(bench.emulator, bench.fundId, [
    { name: 'Daily 1 year', start: '2024-01-01', end: '2024-12-31' },
    { name: 'Daily 5 years', start: '2020-01-01', end: '2024-12-31' },
    { name: 'Daily 10 years', start: '2015-01-01', end: '2024-12-31' },
  ]);
  const results: ScenarioResult[] = [];
  for (const [i, years] of [1, 5, 10].entries()) {
    const { metricId, start, end, points } = series[i]!;

    const addin = await bench.addinRuntime();
    const pulled = await bench.measure(addin, () => addin.runCustomFunction('METRIC_VALUES', [metricId, start, end]) as unknown[][]);
    const addinNote = pulled.value.length === points ? '' : `gave ${pulled.value.length} rows, not ${points}. `;

    const naive = await bench.scriptRuntime(benchClientsSource());
    const baseline = await bench.measure(naive, () => naive.run('naivePullSeries', [metricId, start, end]) as number);
    const baselineNote = (baseline.value === points ? '' : `gave ${baseline.value} rows, not ${points}. `)
      + (baseline.simMs > CUSTOM_FUNCTION_LIMIT_MS ? 'longer than a custom function may run (30 s)' : '');

    const pages = pagesOf(points, 100);
    results.push({
      id: `pull-${years}y`,
      title: `Pull ${years} year${years > 1 ? 's' : ''} daily (${points.toLocaleString('en-US')} points)`,
      rows: withRatios([
        measuredRow('add-in', pulled, addinNote),
        measuredRow('baseline', baseline, baselineNote),
        floorRow(pages, paginatedRoundTrips(pages) * bench.config.latencyMs, `ceil(N/100) requests, ${paginatedRoundTrips(pages)} round trips`),
      ]),
    });
  }
  return results;
}
