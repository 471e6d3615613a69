// Which cached series "Refresh data" can find from the formulas' text (and the cells they reference).

import { cachedSeriesReads } from '../../../src/core/formulas/cached-series';
import { readTable, tableChanges } from '../../../src/core/snapshots/snapshot';

const A = '123e4567-e89b-12d3-a456-426614174000';
const B = '223e4567-e89b-12d3-a456-426614174000';

describe('cachedSeriesReads', () => {
  it('finds the whole series of named and referenced ids, and the range of an all-text METRIC_VALUES', () => {
    const formulas = [
      [`=METRIC_VALUE("${A.toUpperCase()}", "2024-Q1", "sum")`, '', `=METRIC_VALUES("${A}", "2024-01-01", "", "exclude_blank, source")`],
      ['=METRIC_LATEST(B3)', '=SUM(1, 2)', `=METRIC_VALUES(A1:A3, "2024-01-01")`],
      [`=METRIC_VALUES("${A}", "2024-01-01", "2024-12-31", "nonsense")`, '', ''],
    ];
    const values: unknown[][] = [[], [], ['', B]];
    const reads = cachedSeriesReads(formulas, (row, column) => values[row - 1]?.[column - 1]);
    expect(reads.map((r) => [r.key, r.cells.map((c) => `${c.row},${c.column}`)])).toEqual([
      [`${A}|||`, ['1,1', '1,3', '3,1']],
      [`${A}||||s`, ['1,1', '1,3', '3,1']],
      [`${A}|2024-01-01||x|s`, ['1,3']],
      [`${B}|||`, ['2,1']],
      [`${B}||||s`, ['2,1']],
    ]);
  });
});

describe('tableChanges', () => {
  it('matches values by period, not row, and counts a value that appeared or went blank', () => {
    const definition = { metricIds: [A, B], options: { headers: true } };
    const period = (cell: unknown) => (typeof cell === 'string' && /^\d{4}-/.test(cell) ? cell : null);
    const before = readTable(
      [
        ['Date', 'a', 'b'],
        ['2024-01-01', 1, 2],
        ['2024-02-01', 3, ''],
      ],
      definition,
      period,
    );
    const after = readTable(
      [
        ['Date', 'a', 'b'],
        ['2023-12-01', 0, ''],
        ['2024-01-01', 1, 2],
        ['2024-02-01', 4, 5],
      ],
      definition,
      period,
    );
    const rows = tableChanges(before, after, { names: ['Alpha', 'Beta'], sourceOf: () => 'user_provided: x', time: 't', refresh: 'r', range: 'S!A1' });
    expect(rows.map((r) => [r.metric, r.period, r.oldValue, r.newValue, r.source])).toEqual([
      ['Alpha', '2023-12-01', null, 0, 'user_provided: x'],
      ['Alpha', '2024-02-01', 3, 4, 'user_provided: x'],
      ['Beta', '2024-02-01', null, 5, 'user_provided: x'],
    ]);
  });
});
