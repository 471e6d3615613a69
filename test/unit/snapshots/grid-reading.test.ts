// A PORTFOLIO_METRIC snapshot's refresh compares its period columns only: the Unit column after them is no value.

import { readGrid, tableChanges } from '../../../src/core/snapshots/snapshot';

const refreshOf = { names: [], sourceOf: () => '', time: '2026-01-01T00:00:00.000Z', refresh: 'Refresh snapshots (sidebar)', range: 'Sheet1!B2:E5' };

describe('a portfolio grid read for its changes', () => {
  it('reads the periods and leaves the Unit column out, so a grid written before it gains one with no change listed', () => {
    const before = [
      ['Company', '2024-01', '2024-02'],
      ['Alpha', 10, 11],
      ['Beta', 20, 21],
      ['Companies with a value', '2 of 2', '2 of 2'],
    ];
    const after = [
      ['Company', '2024-01', '2024-02', 'Unit'],
      ['Alpha', 10, 11, 'USD'],
      ['Beta', 20, 27, 'EUR'],
      ['Companies with a value', '2 of 2', '2 of 2', 'rows in USD and EUR: a total over them adds different currencies'],
    ];
    const reading = readGrid(after, 'ARR', 2);
    expect([...reading.values()].map((cell) => cell.period)).not.toContain('Unit');
    expect(tableChanges(readGrid(before, 'ARR', 2), reading, refreshOf).map((row) => [row.metric, row.period, row.oldValue, row.newValue])).toEqual([
      ['ARR · Beta', '2024-02', 21, 27],
    ]);
    // Without the count of periods every column after the names is one (a record from before the Unit column).
    expect([...readGrid(before, 'ARR').values()]).toHaveLength(6);
  });
});
