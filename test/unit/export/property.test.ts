// Property: over ranges of any mixed cells, nothing throws, every item is accounted for exactly once,
// and nothing invalid is ever planned or sent.

import fc from 'fast-check';
import { PROPERTY_SEED, seeded } from '../../support/property-seed';
import { MAX_UPSERT_ITEMS } from '../../../src/core/api/types';
import { buildReport } from '../../../src/core/export/report';
import type { ExportSpec, ExportState } from '../../../src/core/export/types';
import { periodStart } from '../../../src/core/sheets/periods';
import { isIsoDate } from '../../../src/core/validate/dates';
import type { Step } from '../../support/scripted-transport';
import { AUDITED, HEADCOUNT, harness, PARTNERS, pointsPage, prepare, REVENUE, SIGNUPS, stored, USERS } from './export-fixtures';

const blank = (cell: unknown) => cell === '' || cell === null || cell === undefined || (typeof cell === 'string' && cell.trim() === '');

const periodStartText = fc
  .record({ year: fc.integer({ min: 1990, max: 2040 }), month: fc.integer({ min: 1, max: 12 }), day: fc.constantFrom(1, 1, 1, 4, 15, 31) })
  .map(({ year, month, day }) => `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`);

const dateCellArb = fc.oneof(
  periodStartText,
  periodStartText.map((text) => new Date(`${text}T05:00:00Z`)),
  fc.date({ noInvalidDate: false }),
  fc.constantFrom('', '   ', null, '2024-02-30', '01/02/2024', '#N/A', '#REF!', '0024-01-01', ' 2024-01-01 ', 'yesterday'),
  fc.integer(),
  fc.boolean(),
);

const valueCellArb = fc.oneof(
  fc.double(),
  fc.integer(),
  fc.constantFrom(1e308, -1e308, 5e-324, 2 ** 53 + 2, -0, NaN, Infinity, -Infinity),
  fc.tuple(fc.integer(), fc.nat()).map(([whole, fraction]) => `${whole}.${fraction}`),
  fc.string({ maxLength: 12 }),
  fc.constantFrom('', '  ', null, '1,234', '12%', '#N/A', '#DIV/0!', '1e3', '1e999', '-0', '.5', '5.', '+7', 'TRUE'),
  fc.boolean(),
  fc.date({ noInvalidDate: false }),
);

const specArb = (layout: 'long' | 'wide') =>
  fc
    .record({
      metricId: fc.constantFrom(REVENUE, USERS, HEADCOUNT, SIGNUPS, AUDITED, PARTNERS, 'not-a-uuid'),
      hasHeaderRow: layout === 'wide' ? fc.constant(true) : fc.boolean(),
      skipBlanks: fc.boolean(),
      duplicates: fc.constantFrom<ExportSpec['duplicates']>('reject', 'last_wins'),
      offPeriod: fc.constantFrom<ExportSpec['offPeriod']>('reject', 'normalise'),
      onlyChanged: fc.boolean(),
    })
    .map((options): ExportSpec => ({ layout, ...options, ...(layout === 'wide' ? { metricId: undefined } : {}) }));

const headerArb = fc.constantFrom('Revenue', '  Revenue ', REVENUE.toUpperCase(), 'Churn', 'Unknown metric', '', USERS, 'Headcount', '0b00-12-34', 'Partners');

/** Checks the plan of a prepared state: nothing invalid, nothing twice, every item once. */
function checkPlan(state: ExportState, expectedItems: number): void {
  expect(state.items).toHaveLength(expectedItems);
  const report = buildReport(state);
  expect(Object.values(report.totals).reduce((a, b) => a + b, 0)).toBe(expectedItems);
  expect(report.statusColumn).toHaveLength(state.rowCount);

  const seen = new Set<string>();
  state.items.forEach((item) => {
    if (item.outcome === 'skipped' || item.outcome === 'failed') expect(item.reason).toEqual(expect.any(String));
    if (item.outcome !== 'pending') return;
    const metric = state.metrics[item.metric ?? -1];
    expect(metric).toBeDefined();
    expect(item.value).toMatch(/^-?\d+(\.\d+)?$/);
    expect(isIsoDate(item.date ?? '')).toBe(true);
    const start = periodStart(item.date!, metric!.frequency);
    if (start !== undefined) expect(start).toBe(item.date);
    const key = `${metric!.id} ${item.date}`;
    expect(seen.has(key)).toBe(false);
    seen.add(key);
  });

  const inBatches = state.batches.flatMap((batch) => batch.items);
  expect(new Set(inBatches).size).toBe(inBatches.length);
  for (const batch of state.batches) {
    expect(batch.items.length).toBeGreaterThan(0);
    expect(batch.items.length).toBeLessThanOrEqual(MAX_UPSERT_ITEMS);
    expect(batch.items.every((index) => state.items[index]!.metric === batch.metric)).toBe(true);
  }
  if (!state.spec.onlyChanged) {
    const pending = state.items.flatMap((item, index) => (item.outcome === 'pending' ? [index] : []));
    expect([...inBatches].sort((a, b) => a - b)).toEqual(pending);
  }
}

/** Runs the export to the end against an API that stores everything and holds nothing yet. */
function sendAll(state: ExportState): ExportState {
  const reads: Step[] = state.metrics
    .filter((m) => m.phase === 'diff')
    .map((m) => ({ match: `GET /data_points?metric_id=${m.id}&page_size=100&`, prefix: true, reply: pointsPage(m.id, []) }));
  const pendingItems = state.items.filter((item) => item.outcome === 'pending').length;
  // At most this many PUTs: every pending item's batch, whatever the diff decides.
  const writes: Step[] = Array.from({ length: Math.ceil(pendingItems / MAX_UPSERT_ITEMS) + state.metrics.length }, () => ({
    match: /^PUT \/metrics\/[^/]+\/data_points$/,
    reply: stored,
  }));
  const { step, transport } = harness([...reads, ...writes]);
  const { state: done } = step(state);
  expect(done.status).toBe('done');
  const sent = transport.sent.filter((request) => request.method === 'PUT');
  const sentPoints = sent.flatMap((request) => (JSON.parse(request.body ?? '{}') as { data_points: Array<{ date: string; value: string }> }).data_points);
  expect(sentPoints).toHaveLength(pendingItems);
  expect(sentPoints.every((point) => /^-?\d+(\.\d+)?$/.test(point.value) && isIsoDate(point.date))).toBe(true);
  expect(done.items.filter((item) => item.outcome === 'pending')).toHaveLength(0);
  const report = buildReport(done);
  expect(Object.values(report.totals).reduce((a, b) => a + b, 0)).toBe(state.items.length);
  expect(report.totals.created + report.totals.written).toBe(pendingItems);
  return done;
}

describe('exporting any range', () => {
  it(`long layout: never throws, accounts for every row once, and plans and sends only valid points (seed ${PROPERTY_SEED})`, () => {
    fc.assert(
      fc.property(specArb('long'), fc.array(fc.tuple(dateCellArb, valueCellArb), { maxLength: 120 }), (spec, rows) => {
        const values = spec.hasHeaderRow ? [['Date', 'Value'], ...rows] : rows;
        const state = prepare(values, spec);
        const dataRows = spec.hasHeaderRow ? rows : values;
        checkPlan(state, dataRows.filter((row) => !row.every(blank)).length);
        sendAll(state);
      }),
      seeded(150),
    );
  });

  it(`wide layout: never throws, accounts for every cell once, and plans and sends only valid points (seed ${PROPERTY_SEED})`, () => {
    fc.assert(
      fc.property(
        specArb('wide'),
        fc
          .integer({ min: 1, max: 4 })
          .chain((metricColumns) =>
            fc.tuple(
              fc.array(headerArb, { minLength: metricColumns, maxLength: metricColumns }),
              fc.array(fc.tuple(dateCellArb, fc.array(valueCellArb, { minLength: metricColumns, maxLength: metricColumns })), { maxLength: 40 }),
            ),
          ),
        (spec, [headers, rows]) => {
          const values: unknown[][] = [['Date', ...headers], ...rows.map(([date, cells]) => [date, ...cells])];
          const state = prepare(values, spec);
          const nonEmptyRows = values.slice(1).filter((row) => !row.every(blank)).length;
          checkPlan(state, nonEmptyRows * state.columns.length);
          // A column is left out only when it has neither a header nor a value.
          headers.forEach((header, i) => {
            const used = state.columns.some((column) => column.column === i + 2);
            expect(used).toBe(!(blank(header) && values.slice(1).every((row) => blank(row[i + 1]))));
          });
          sendAll(state);
        },
      ),
      seeded(150),
    );
  });
});
