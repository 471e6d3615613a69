// Undo of an export in the core, and what each write expects the server to hold surviving the compact state
// between steps: the undo, an export of the values before, writes only where the server still holds what the
// export wrote (a point changed since is a conflict with both values; one already restored is unchanged).

import { compactExport, expandExport } from '../../../src/core/export/compact';
import { applyDiff } from '../../../src/core/export/diff';
import { conflictReason, stillApproved } from '../../../src/core/export/compare';
import { exportUndoReport, prepareExportUndo, type ExportedPoint } from '../../../src/core/export/undo';
import { UNDO_CONFLICT_REASON } from '../../../src/core/jobs/push-log';
import { FakeClock } from '../../support/scripted-transport';
import { utf8Bytes } from '../../../src/core/cache/chunked-cache';
import { JOB_MAX_BYTES } from '../../../src/core/jobs/pieced-store';
import { harness, longSpec, periodDates, pointsPage, prepare, put, REVENUE, sentBatches, USERS } from './export-fixtures';

function point(metricId: string, date: string, written: string, before: string, column = 2): ExportedPoint & { before: string } {
  return {
    metricId,
    metricName: metricId === USERS ? 'Users' : 'Revenue',
    date,
    cell: `Sheet1!B${Number(date.slice(8))}`,
    row: Number(date.slice(8)),
    column,
    written,
    before,
  };
}

describe('what each write expects the server to hold', () => {
  it('is kept in the compact state for a pending write, one token an item, and expands back onto it from a fresh read', () => {
    const values = [
      ['2024-01-01', 11],
      ['2024-01-02', 21],
      ['2024-01-03', 31],
    ];
    const fresh = prepare(values, longSpec({ metricId: USERS, onlyChanged: true }));
    const state = prepare(values, longSpec({ metricId: USERS, onlyChanged: true }));
    applyDiff(
      state,
      0,
      [
        { id: 'a', metric_id: USERS, date: '2024-01-01', value: '10' },
        { id: 'b', metric_id: USERS, date: '2024-01-03', value: null },
      ],
      [0, 1, 2],
    );
    expect(state.items.map((item) => [item.planned, item.previous])).toEqual([
      ['updated', '10'],
      ['created', undefined],
      ['updated', null],
    ]);
    expect(state.items.map((item) => item.approved)).toEqual([
      { by: 'export', value: '10' },
      { by: 'export', absent: true },
      { by: 'export', value: null },
    ]);

    const compact = compactExport(state, fresh);
    expect(compact.approved).toEqual({ tokens: '+-_', values: ['10'] });
    const expanded = expandExport(fresh, compact)!;
    expect(expanded.items.map((item) => item.approved)).toEqual(state.items.map((item) => item.approved));
    // The value a write replaces is not kept between steps: the read right before the write gives it.
    expect(expanded.items.every((item) => item.previous === undefined)).toBe(true);
  });

  it('keeps values in full up to APPROVED_KEPT_BYTES, then their hashes, so 30,000 overwrites fit a job and still compare', () => {
    const dates = periodDates('2000-01-01', 30_000, 'daily');
    const values = dates.map((date, i) => [date, i + 0.5]);
    const fresh = prepare(values, longSpec({ metricId: USERS, onlyChanged: true }));
    const state = prepare(values, longSpec({ metricId: USERS, onlyChanged: true }));
    applyDiff(
      state,
      0,
      dates.map((date, i) => ({ id: date, metric_id: USERS, date, value: `${1_000_000 + i}.25` })),
      state.items.map((_, i) => i),
    );
    const compact = compactExport(state, fresh);
    // 148 KB measured: a job may keep 170 KB, so about 35,000 overwrites is the most one export carries.
    expect(utf8Bytes(JSON.stringify(compact))).toBeLessThan(JOB_MAX_BYTES);
    const kept = compact.approved!.values!.length;
    expect(kept).toBeGreaterThan(1000);
    expect(kept).toBeLessThan(30_000);
    const expanded = expandExport(fresh, compact)!;
    expect(expanded.items[kept - 1]!.approved).toEqual({ by: 'export', value: `${1_000_000 + kept - 1}.25` });
    const hashed = expanded.items[kept]!.approved!;
    expect(hashed).toHaveProperty('hash');
    // Known by its hash only: the same number still matches, another does not, and a conflict says "another value".
    expect(stillApproved(hashed, `${1_000_000 + kept}.250`)).toBe(true);
    expect(stillApproved(hashed, '7')).toBe(false);
    expect(conflictReason(hashed, '7')).toBe(
      "conflict: the server's value changed since the export compared it (another value then, 7 now), so it was not written: preview again to see it, then export",
    );
    // Compacted again, nothing is lost or guessed.
    expect(compactExport(expanded, fresh).approved).toEqual(compact.approved);
  });

  it('is not stored when no pending write expects anything', () => {
    const values = [['2024-01-01', 11]];
    const fresh = prepare(values, longSpec({ metricId: USERS }));
    expect(compactExport(fresh, fresh)).not.toHaveProperty('approved');
  });
});

describe('the undo of an export', () => {
  it("reads each wave's points right before writing them, restores the value before where the server holds what the export wrote, and keeps a later change as a conflict", () => {
    const state = prepareExportUndo([
      point(USERS, '2024-01-01', '11', '10'),
      point(USERS, '2024-01-02', '21', '20'),
      point(USERS, '2024-01-03', '31', '30'),
      point(REVENUE, '2024-01-04', '41', '40', 3),
    ]);
    // Planned at once: the compare read of each wave, not an earlier one, guards the writes.
    expect(state.metrics.map((metric) => metric.phase)).toEqual(['send', 'send']);
    const { step, transport } = harness([
      // Jan 2 was changed by a colleague since the export; Jan 3 already holds its value before again.
      {
        match: `GET /data_points?metric_id=${USERS}&page_size=100&start_date=2024-01-01&end_date=2024-01-03&page=1`,
        reply: pointsPage(USERS, [
          ['2024-01-01', '11'],
          ['2024-01-02', '25'],
          ['2024-01-03', '30.0'],
        ]),
      },
      {
        match: `GET /data_points?metric_id=${REVENUE}&page_size=100&start_date=2024-01-04&end_date=2024-01-04&page=1`,
        reply: pointsPage(REVENUE, [['2024-01-04', '41']]),
      },
      put(USERS),
      put(REVENUE),
    ]);
    const { state: done } = step(state, { noun: 'undo' });
    transport.assertDone();
    expect(sentBatches(transport)).toEqual([
      { path: `/metrics/${USERS}/data_points`, dataPoints: [{ date: '2024-01-01', value: '10' }] },
      { path: `/metrics/${REVENUE}/data_points`, dataPoints: [{ date: '2024-01-04', value: '40' }] },
    ]);
    expect(done.status).toBe('done');

    const cells = ['Sheet1!B1', 'Sheet1!B2', 'Sheet1!B3', 'Sheet1!C4'];
    const report = exportUndoReport(done, cells);
    expect(report.totals).toEqual({ created: 0, updated: 2, unchanged: 1, skipped: 0, failed: 0, conflict: 1, pending: 0 });
    expect(report.items.map((item) => [item.cell, item.outcome])).toEqual([
      ['Sheet1!B1', 'updated'],
      ['Sheet1!B2', 'conflict'],
      ['Sheet1!C4', 'updated'],
    ]);
    expect(report.items[1]).toMatchObject({
      profileId: USERS,
      profileName: 'Users',
      propertyName: '2024-01-02',
      value: '20',
      reason: UNDO_CONFLICT_REASON,
      conflict: { atBuild: '21', server: '25' },
    });
  });

  it('is a conflict where the point is blank on the server now, and sends nothing for it', () => {
    const state = prepareExportUndo([point(USERS, '2024-01-01', '11', '10')]);
    const { step, transport } = harness([
      {
        match: `GET /data_points?metric_id=${USERS}&page_size=100&start_date=2024-01-01&end_date=2024-01-01&page=1`,
        reply: pointsPage(USERS, [['2024-01-01', null]]),
      },
    ]);
    const { state: done } = step(state);
    transport.assertDone();
    expect(exportUndoReport(done, ['Sheet1!B1']).items).toEqual([expect.objectContaining({ outcome: 'conflict', conflict: { atBuild: '11', server: '' } })]);
  });

  it('says an undo paused by the rate limit is the undo, not an export', () => {
    const clock = new FakeClock(Date.UTC(2025, 0, 6, 9));
    const refused = {
      match: `GET /data_points?metric_id=${USERS}&`,
      prefix: true,
      reply: { status: 429, body: { errors: [{ type: 'rate_limit_exceeded' }] }, headers: { 'retry-after': '300' } },
    };
    let state = prepareExportUndo([point(USERS, '2024-01-01', '11', '10')]);
    // Each step after the wait the API asked for: refused for longer than a job waits before pausing.
    for (let i = 0; i < 10 && state.status === 'running'; i++) {
      clock.advance(Math.max(0, (state.notBefore ?? clock.now()) - clock.now()));
      state = harness([refused], { clock, stepMs: 60_000 }).step(state, { noun: 'undo' }).state;
    }
    expect(state.status).toBe('paused');
    expect(state.problem).toMatch(/so the undo paused with 1 value left\./);
  });

  it('with nothing to restore is done at once', () => {
    expect(prepareExportUndo([]).status).toBe('done');
  });
});
