// Scenario: the fund's grid of 50 companies × 5 metrics × 8 quarters by name, in one
// PORTFOLIO_COVERAGE formula and as 5 PORTFOLIO_METRIC tables, cold and warm, beside the naive form of the
// same figures: one =METRIC_VALUE(id, quarter) cell per value (2,000 cells, one execution each, 250 ids
// looked up by hand). Requests are the emulator's log.

import type { GasRuntime } from '../../gas-runtime';
import type { Bench, Side } from '../harness';
import { floorRow, measuredRow, pagesOf, paginatedRoundTrips, pendingRow, rateFloorMs, type Row, type ScenarioResult } from '../figures';
import { createGridFund, GRID_QUARTERS, type GridFund } from '../fixtures';
import { CUSTOM_FUNCTION_LIMIT_MS } from './model-sheet';

const IDS_PER_SERIES_REQUEST = 20;
const LISTING_PAGE = 25;
const POINTS_PAGE = 100;

/** The 8 quarter labels the grid shows, 2023-Q1 .. 2024-Q4. */
const LABELS = GRID_QUARTERS.slice(0, 8).map((date) => `${date.slice(0, 4)}-Q${(Number(date.slice(5, 7)) + 2) / 3}`);

/** Series requests of one batched read of `metrics` ids whose series hold `points` points each. */
function batchedRequests(metrics: number, points: number): number {
  let requests = 0;
  for (let first = 0; first < metrics; first += IDS_PER_SERIES_REQUEST) {
    requests += pagesOf(Math.min(IDS_PER_SERIES_REQUEST, metrics - first) * points, POINTS_PAGE);
  }
  return requests;
}

/** How many cells of a PORTFOLIO_COVERAGE table's per-company block are not what the fixture holds. */
function wrongCoverage(fund: GridFund, table: unknown[][]): number {
  let wrong = 0;
  fund.companies.forEach((company, c) => {
    fund.names.forEach((name, n) => {
      const row = table[1 + c * fund.names.length + n];
      if (!row || row[0] !== company || row[1] !== name) return void (wrong += LABELS.length);
      LABELS.forEach((_, q) => {
        const expected = fund.value(c, n, q) === null ? 'blank' : 'reported';
        if (row[2 + q] !== expected) wrong += 1;
      });
    });
  });
  return wrong;
}

function wrongTables(fund: GridFund, tables: unknown[][][]): number {
  let wrong = 0;
  tables.forEach((table, n) => {
    fund.companies.forEach((company, c) => {
      const row = table[1 + c];
      LABELS.forEach((_, q) => {
        const value = fund.value(c, n, q);
        if (!row || row[0] !== company || row[1 + q] !== (value === null ? '' : Number(value))) wrong += 1;
      });
    });
  });
  return wrong;
}

/** One execution per cell, as Sheets runs =METRIC_VALUE cells; returns the wrong ones and the longest cell. */
function metricValueCells(rt: GasRuntime, fund: GridFund): { wrong: number; longestCellMs: number; messages: Set<string> } {
  let wrong = 0;
  let longestCellMs = 0;
  const messages = new Set<string>();
  fund.companies.forEach((_, c) => {
    fund.names.forEach((__, n) => {
      LABELS.forEach((label, q) => {
        const start = rt.clock.now();
        let shown: unknown;
        try {
          shown = rt.runCustomFunction('METRIC_VALUE', [fund.metricId(c, n), label]);
        } catch (error) {
          shown = error instanceof Error ? error.message : String(error);
        }
        longestCellMs = Math.max(longestCellMs, rt.clock.now() - start);
        const value = fund.value(c, n, q);
        if (shown !== (value === null ? '' : Number(value))) {
          wrong += 1;
          messages.add(String(shown).slice(0, 120));
        }
      });
    });
  });
  return { wrong, longestCellMs, messages };
}

function wrongNote(wrong: number): string {
  return wrong === 0 ? '' : `${wrong} cells wrong. `;
}

function within(ms: number): string {
  return ms <= CUSTOM_FUNCTION_LIMIT_MS ? "within a custom function's 30 s" : "LONGER than a custom function's 30 s";
}

export async function gridScenarios(bench: Bench, sides: readonly Side[]): Promise<ScenarioResult[]> {
  const cold: Row[] = [];
  const warm: Row[] = [];
  const fund = await createGridFund(bench.emulator, 50, ['Revenue', 'Cash', 'Net Burn', 'Headcount', 'ARR']);
  const metrics = fund.companies.length * fund.names.length;
  const listingPages = pagesOf(metrics, LISTING_PAGE) + pagesOf(fund.companies.length, LISTING_PAGE);
  const seriesRequests = batchedRequests(metrics, GRID_QUARTERS.length);
  const target = listingPages + seriesRequests;

  if (sides.includes('addin')) {
    const coverageArgs = [[fund.names], LABELS[0], LABELS.at(-1)];
    const rt = await bench.addinRuntime({ defaultCompany: fund.fundId });
    const first = await bench.measure(rt, () => rt.runCustomFunction('PORTFOLIO_COVERAGE', coverageArgs) as unknown[][]);
    const again = await bench.measure(rt, () => rt.runCustomFunction('PORTFOLIO_COVERAGE', coverageArgs) as unknown[][]);
    cold.push(
      measuredRow(
        'add-in, one PORTFOLIO_COVERAGE',
        first,
        `${wrongNote(wrongCoverage(fund, first.value))}the whole grid in one execution, ${within(first.simMs)}; target ≤ ${target} requests`,
        { target },
      ),
    );
    warm.push(measuredRow('add-in, one PORTFOLIO_COVERAGE', again, `${wrongNote(wrongCoverage(fund, again.value))}${within(again.simMs)}; target 0 requests`));

    const tablesRt = await bench.addinRuntime({ defaultCompany: fund.fundId });
    const tables = () => fund.names.map((name) => tablesRt.runCustomFunction('PORTFOLIO_METRIC', [name, [LABELS]]) as unknown[][]);
    const tablesCold = await bench.measure(tablesRt, tables);
    const tablesWarm = await bench.measure(tablesRt, tables);
    const perTable = batchedRequests(fund.companies.length, GRID_QUARTERS.length);
    cold.push(
      measuredRow(
        'add-in, 5 PORTFOLIO_METRIC tables',
        tablesCold,
        `${wrongNote(wrongTables(fund, tablesCold.value))}one execution each (the listings once, then ${perTable} series requests a table), ${within(tablesCold.simMs)} in all`,
      ),
    );
    warm.push(
      measuredRow('add-in, 5 PORTFOLIO_METRIC tables', tablesWarm, `${wrongNote(wrongTables(fund, tablesWarm.value))}${within(tablesWarm.simMs)} in all`),
    );

    const cellsRt = await bench.addinRuntime({ defaultCompany: fund.fundId });
    const cellsCold = await bench.measure(cellsRt, () => metricValueCells(cellsRt, fund));
    const cellsWarm = await bench.measure(cellsRt, () => metricValueCells(cellsRt, fund));
    const cellNote = (run: typeof cellsCold): string =>
      `${wrongNote(run.value.wrong)}${metrics * LABELS.length} cells, one execution each; longest cell ${(run.value.longestCellMs / 1000).toFixed(1)} s` +
      (run.value.messages.size > 0 ? `; wrong cells said: ${[...run.value.messages].slice(0, 2).join(' | ')}` : '');
    cold.push(
      measuredRow('add-in, one METRIC_VALUE per value', cellsCold, cellNote(cellsCold), {
        wrongCells: cellsCold.value.wrong,
        longestCellMs: cellsCold.value.longestCellMs,
      }),
    );
    warm.push(
      measuredRow('add-in, one METRIC_VALUE per value', cellsWarm, cellNote(cellsWarm), {
        wrongCells: cellsWarm.value.wrong,
        longestCellMs: cellsWarm.value.longestCellMs,
      }),
    );
  }

  // Two rounds of listings (page 1, then the rest of both together), then one round of every series page 1
  // and one of the rest: the least a by-name grid can do.
  const roundTrips = paginatedRoundTrips(Math.max(pagesOf(metrics, LISTING_PAGE), pagesOf(fund.companies.length, LISTING_PAGE))) + 2;
  cold.push(
    floorRow(
      target,
      rateFloorMs(target, bench.config.rateLimit, bench.config.rateWindowSeconds, roundTrips * bench.config.latencyMs),
      `the listings' pages (${listingPages}: ${metrics} metrics and ${fund.companies.length} profiles at ${LISTING_PAGE} a page) plus ceil(${metrics}/${IDS_PER_SERIES_REQUEST}) batched series requests of their pages (${seriesRequests}); ${roundTrips} round trips`,
      { listingPages, seriesRequests },
    ),
  );
  warm.push(pendingRow('floor', '0 requests: nothing to fetch'));
  if (!sides.includes('addin')) return [];

  const title = `Fund grid by name: ${fund.companies.length} companies × ${fund.names.length} metrics × ${LABELS.length} quarters (${metrics * LABELS.length} values)`;
  return [
    { id: 'grid-cold', title: `${title}, cold cache`, rows: cold },
    { id: 'grid-warm', title: `${title}, warm cache`, rows: warm },
  ];
}
