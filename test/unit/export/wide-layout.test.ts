// The wide layout: a date column, one column per metric named in the header by id or exact name.

import { buildReport } from '../../../src/core/export/report';
import { previewExport } from '../../../src/core/export/preview';
import { BURN, CHURN_A, CHURN_B, harness, prepare, put, REVENUE, sentBatches, wideSpec } from './export-fixtures';

describe('wide layout', () => {
  it('resolves headers by exact name or by id, with stray spaces, and sends one batch per metric', () => {
    const state = prepare(
      [
        ['Date', '  Revenue ', ` ${BURN.toUpperCase()}`],
        ['2024-01-01', 10, -5],
        ['2024-02-01', 11, ''],
      ],
      wideSpec(),
    );
    expect(state.metrics.map((m) => [m.id, m.name])).toEqual([
      [REVENUE, 'Revenue'],
      [BURN, 'Net Burn'],
    ]);
    // Items go row by row: (row 2, B), (row 2, C), (row 3, B), (row 3, C).
    expect(state.items.map((item) => [item.row, item.column, item.outcome, item.value ?? item.reason])).toEqual([
      [2, 2, 'pending', '10'],
      [2, 3, 'pending', '-5'],
      [3, 2, 'pending', '11'],
      [3, 3, 'skipped', 'blank value'],
    ]);

    const { step, transport } = harness([put(REVENUE), put(BURN)]);
    const { state: done } = step(state);
    // Each metric's batch goes in its own PUT, one at a time: none shares a fetchAll.
    expect(transport.waves).toEqual([]);
    expect(sentBatches(transport)).toEqual([
      {
        path: `/metrics/${REVENUE}/data_points`,
        dataPoints: [
          { date: '2024-01-01', value: '10' },
          { date: '2024-02-01', value: '11' },
        ],
      },
      { path: `/metrics/${BURN}/data_points`, dataPoints: [{ date: '2024-01-01', value: '-5' }] },
    ]);
    const report = buildReport(done);
    expect(report.summary).toBe('4 values read (2 rows × 2 metric columns): 3 created, 1 skipped.');
    expect(report.statusColumn).toEqual(['Export status', 'created', 'B: created; C: skipped: blank value']);
  });

  it('fails every item of a column whose header names no metric, one that names two, or a broken id', () => {
    const state = prepare(
      [
        ['Date', 'Revnue', 'Churn', '0b000000-0000-4000-8000', 'Revenue'],
        ['2024-01-01', 1, 2, 3, 4],
        ['2024-02-01', '', 5, '', 6],
      ],
      wideSpec(),
    );
    const unknown = 'no metric is named "Revnue": use the metric\'s exact name or its id';
    const ambiguous = `the header "Churn" names 2 metrics (${CHURN_A}, ${CHURN_B}): put the id of the one you mean instead`;
    const brokenId = 'the header "0b000000-0000-4000-8000" is not a valid metric id (ids look like 123e4567-e89b-12d3-a456-426614174000)';
    expect(state.items.map((item) => [item.column, item.outcome, item.reason])).toEqual([
      [2, 'failed', unknown],
      [3, 'failed', ambiguous],
      [4, 'failed', brokenId],
      [5, 'pending', undefined],
      // Column errors come before blanks: every item of the column carries it.
      [2, 'failed', unknown],
      [3, 'failed', ambiguous],
      [4, 'failed', brokenId],
      [5, 'pending', undefined],
    ]);
    expect(state.batches).toEqual([{ metric: 0, items: [3, 7], status: 'pending' }]);

    const preview = previewExport(state);
    expect(preview.columns.map((c) => [c.letter, c.metricName, c.error])).toEqual([
      ['B', null, unknown],
      ['C', null, ambiguous],
      ['D', null, brokenId],
      ['E', 'Revenue', null],
    ]);
    expect(preview.summary).toBe('8 values read: 2 to send, 0 skipped, 6 failed.');
  });

  it('fails a column of values with no header, and ignores an empty one at the edge', () => {
    const state = prepare(
      [
        ['Date', 'Revenue', '', ''],
        ['2024-01-01', 1, 9, ''],
      ],
      wideSpec(),
    );
    expect(state.columns.map((c) => [c.column, c.error ?? null])).toEqual([
      [2, null],
      [3, 'the column has no header naming its metric'],
    ]);
    expect(state.items.map((item) => item.outcome)).toEqual(['pending', 'failed']);
  });

  it("names an id that is not among the company's metrics", () => {
    const stranger = '0b000000-0000-4000-8000-0000000000aa';
    const state = prepare(
      [
        ['Date', stranger],
        ['2024-01-01', 1],
      ],
      wideSpec(),
    );
    expect(state.items[0]).toMatchObject({
      outcome: 'failed',
      reason: `the header names the metric id ${stranger}, which is not one of this company's metrics`,
    });
  });

  it('treats two columns of one metric as duplicates, naming the cells', () => {
    const state = prepare(
      [
        ['Date', 'Revenue', REVENUE],
        ['2024-01-01', 1, 2],
      ],
      wideSpec(),
      { origin: { row: 3, column: 2 } },
    );
    // The range starts at B3, so its value cells are C4 and D4.
    expect(state.items.map((item) => item.reason)).toEqual(['duplicate date 2024-01-01, also in cell D4', 'duplicate date 2024-01-01, also in cell C4']);
  });

  it('needs a header row', () => {
    expect(() => prepare([['2024-01-01', 1]], wideSpec({ hasHeaderRow: false }))).toThrow(
      'The wide layout needs a header row naming the metric of each column.',
    );
  });
});
