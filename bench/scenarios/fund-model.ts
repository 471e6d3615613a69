// Scenarios: a fund model as analysts build it, one formula per cell. The grid fund's 50
// companies × 5 metrics × 8 quarters on 5 sheets (one per metric name: the name in A1, quarters across
// row 1, companies down column A), 2,000 cells recalculated as Sheets does (rt.recalculate, 30 at once,
// 400 ms start-up each): `fund-model-cells` as =PORTFOLIO_VALUE($A2, $A$1, B$1) with company names in
// column A, `fund-model-ids` as =METRIC_VALUE($A2, B$1) with each company's metric id there. Cold, warm
// and after Refresh data, at the bench's scaled rate limit and at the real one. Requests are the
// emulator's log; every cell's value is checked against the fixture.

import type { GasRuntime } from '../../gas-runtime';
import { REAL_RATE_LIMIT, type Bench, type Measured, type Side } from '../harness';
import { floorRow, pagesOf, paginatedRoundTrips, type Row, type ScenarioResult } from '../figures';
import { createGridFund, GRID_QUARTERS, type GridFund } from '../fixtures';
import { MAX_CONCURRENT, recalculateAll, row, STARTUP_MS, warmWorkers, type Recalculation } from './concurrent';

const NAMES = ['Revenue', 'Cash', 'Net Burn', 'Headcount', 'ARR'];
const COMPANIES = 50;
const QUARTERS = 8;
const IDS_PER_SERIES_REQUEST = 20;
const LISTING_PAGE = 25;
const POINTS_PAGE = 100;

/** The 8 quarter labels across row 1, 2023-Q1 .. 2024-Q4. */
const LABELS = GRID_QUARTERS.slice(0, QUARTERS).map((date) => `${date.slice(0, 4)}-Q${(Number(date.slice(5, 7)) + 2) / 3}`);

type Form = 'cells' | 'ids';

interface ModelCell {
  formula: string;
  cell: string;
  sheet: string;
}

/** Writes the 5 sheets' headers (the formulas are placed by the recalculation, as Sheets holds them). */
function layOut(rt: GasRuntime, fund: GridFund, form: Form): { cells: ModelCell[]; expected: unknown[][] } {
  const cells: ModelCell[] = [];
  const expected: unknown[][] = [];
  fund.names.forEach((name, n) => {
    const sheet = rt.spreadsheet.insertSheet(name);
    const last = String.fromCharCode(65 + QUARTERS);
    sheet.getRange(`A1:${last}1`).setValues([[name, ...LABELS]]);
    sheet.getRange(2, 1, fund.companies.length, 1).setValues(fund.companies.map((company, c) => [form === 'cells' ? company : fund.metricId(c, n)]));
    fund.companies.forEach((_, c) =>
      LABELS.forEach((__, q) => {
        const column = String.fromCharCode(66 + q);
        const formula = form === 'cells' ? `=PORTFOLIO_VALUE($A${c + 2}, $A$1, ${column}$1)` : `=METRIC_VALUE($A${c + 2}, ${column}$1)`;
        cells.push({ formula, cell: `${column}${c + 2}`, sheet: name });
        const value = fund.value(c, n, q);
        expected.push([value === null ? '' : Number(value)]);
      }),
    );
  });
  return { cells, expected };
}

/** Series requests of one batched read of `metrics` ids whose series hold `points` points each. */
function batchedRequests(metrics: number, points: number): number {
  let requests = 0;
  for (let first = 0; first < metrics; first += IDS_PER_SERIES_REQUEST)
    requests += pagesOf(Math.min(IDS_PER_SERIES_REQUEST, metrics - first) * points, POINTS_PAGE);
  return requests;
}

interface Runs {
  cold: Measured<Recalculation>;
  warm: Measured<Recalculation>;
  refreshed: Measured<Recalculation>;
}

/** Cold, warm, then Refresh data (the menu item, its own reads counted) and every cell again, on a fresh runtime. */
async function measureForm(bench: Bench, fund: GridFund, form: Form): Promise<Runs> {
  const rt = await bench.addinRuntime({ defaultCompany: fund.fundId });
  // Before the sheets are laid out: the warm-up writes in the active sheet's column ZZ.
  await warmWorkers(rt, 'METRIC_VALUE', MAX_CONCURRENT);
  const { cells, expected } = layOut(rt, fund, form);
  const cold = await bench.measure(rt, () => recalculateAll(bench, rt, cells, expected));
  const warm = await bench.measure(rt, () => recalculateAll(bench, rt, cells, expected));
  const refreshed = await bench.measure(rt, () => {
    rt.run('refreshData');
    return recalculateAll(bench, rt, cells, expected);
  });
  return { cold, warm, refreshed };
}

/** What the cells showed instead of values, for the note: how many had to wait past their 30 s and said so. */
function refusals(run: Measured<Recalculation>): string {
  return run.value.errorCells === 0 ? '0 cells refused' : `${run.value.errorCells} cells refused with a sentence (${run.value.firstError ?? ''})`;
}

async function fundModelScenarios(bench: Bench, sides: readonly Side[], form: Form): Promise<ScenarioResult[]> {
  if (!sides.includes('addin')) return [];
  const fund = await createGridFund(bench.emulator, COMPANIES, NAMES);
  const metrics = COMPANIES * NAMES.length;
  const cellCount = metrics * QUARTERS;
  // By name the fund's directory is its metric and profile listings; by id the access check reads the
  // metric listing alone. Then every metric's whole series (10 quarters), 20 ids a request.
  const listingPages = pagesOf(metrics, LISTING_PAGE) + (form === 'cells' ? pagesOf(COMPANIES, LISTING_PAGE) : 0);
  const seriesRequests = batchedRequests(metrics, GRID_QUARTERS.length);
  const floorRequests = listingPages + seriesRequests;
  const targetRequests = Math.ceil(1.2 * floorRequests);
  // Sheets' waves of 30 executions, each starting up; the fetch's round trips (listing page 1, the rest;
  // series page 1, the rest) that the first wave's cells wait for.
  const waves = Math.ceil(cellCount / MAX_CONCURRENT);
  const roundTrips = paginatedRoundTrips(pagesOf(metrics, LISTING_PAGE)) + 2;
  const floorColdMs = waves * STARTUP_MS + roundTrips * bench.config.latencyMs;
  const floorWarmMs = waves * STARTUP_MS;

  const limits: Array<[string, Bench]> = [
    [`add-in, scaled limit ${bench.config.rateLimit}/${bench.config.rateWindowSeconds} s`, bench],
    [`add-in, real limit ${REAL_RATE_LIMIT.limit}/${REAL_RATE_LIMIT.windowSeconds} s`, bench.atRateLimit(REAL_RATE_LIMIT.limit, REAL_RATE_LIMIT.windowSeconds)],
  ];
  const cold: Row[] = [];
  const warm: Row[] = [];
  const refreshed: Row[] = [];
  for (const [variant, atLimit] of limits) {
    const runs = await measureForm(atLimit, fund, form);
    const withRefusals = (r: Row, run: Measured<Recalculation>): Row => ({ ...r, note: `${refusals(run)}; ${r.note}` });
    cold.push(withRefusals(row(variant, runs.cold, floorColdMs), runs.cold));
    warm.push(withRefusals(row(variant, runs.warm, floorWarmMs), runs.warm));
    refreshed.push(withRefusals(row(variant, runs.refreshed, floorColdMs), runs.refreshed));
  }
  const extra = { waves, startupMs: STARTUP_MS, listingPages, seriesRequests, targetRequests };
  const coldNote = `${listingPages} listing pages + ${seriesRequests} series requests (ceil(${metrics}/${IDS_PER_SERIES_REQUEST}) of 2 and 1 pages); ${waves} waves × ${STARTUP_MS} ms + ${roundTrips} round trips; target: requests ≤ ${targetRequests}, 0 wrong cells, last cell ≤ ${((1.3 * floorColdMs) / 1000).toFixed(1)} s`;
  cold.push(floorRow(floorRequests, floorColdMs, coldNote, { ...extra, targetMaxCellMs: 1.3 * floorColdMs }));
  warm.push(
    floorRow(
      0,
      floorWarmMs,
      `${waves} waves × ${STARTUP_MS} ms; nothing to fetch; target: 0 requests, last cell ≤ ${((1.3 * floorWarmMs) / 1000).toFixed(1)} s`,
      { ...extra, targetRequests: 0, targetMaxCellMs: 1.3 * floorWarmMs },
    ),
  );
  refreshed.push(floorRow(floorRequests, floorColdMs, `a new cache generation is a cold cache: ${coldNote}`, { ...extra, targetMaxCellMs: 1.3 * floorColdMs }));

  const what = form === 'cells' ? 'PORTFOLIO_VALUE($A2, $A$1, B$1) by company name' : 'METRIC_VALUE($A2, B$1) by metric id';
  const title = `Fund model: ${cellCount} ${what} cells (${COMPANIES} companies × ${NAMES.length} metrics × ${QUARTERS} quarters on ${NAMES.length} sheets), ≤ ${MAX_CONCURRENT} executions at once, ${STARTUP_MS} ms start-up each`;
  const id = `fund-model-${form}`;
  return [
    { id: `${id}-cold`, title: `${title}, cold cache`, rows: cold },
    { id: `${id}-warm`, title: `${title}, warm cache`, rows: warm },
    { id: `${id}-refresh`, title: `${title}, after Refresh data`, rows: refreshed },
  ];
}

export function fundModelCellsScenarios(bench: Bench, sides: readonly Side[]): Promise<ScenarioResult[]> {
  return fundModelScenarios(bench, sides, 'cells');
}

export function fundModelIdsScenarios(bench: Bench, sides: readonly Side[]): Promise<ScenarioResult[]> {
  return fundModelScenarios(bench, sides, 'ids');
}
