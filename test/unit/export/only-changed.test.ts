// "Only what changed": existing points are read in pages of 100, and only differing rows are sent.

import { FakeClock } from '../../support/scripted-transport';
import { DIFF_CHUNK_ITEMS as CHUNK, sameDecimal } from '../../../src/core/export/diff';
import { keepApprovals, restoreApprovals } from '../../../src/core/export/compare';
import type { ExportState } from '../../../src/core/export/types';
import { previewExport } from '../../../src/core/export/preview';
import { readStoredPoints } from '../../../src/core/export/run-step';
import { buildReport } from '../../../src/core/export/report';
import { errorReply, harness, longSpec, outcomes, periodDates, pointsPage, prepare, put, puts, REVENUE, sentBatches, USERS } from './export-fixtures';
import type { Step } from '../../support/scripted-transport';

/** GET /data_points for one metric over a range, page by page, 100 points a page. */
function existingPages(metricId: string, startDate: string, endDate: string, points: Array<[string, string | null]>): Step[] {
  const pages = Math.max(1, Math.ceil(points.length / 100));
  return Array.from({ length: pages }, (_, i) => ({
    match: `GET /data_points?metric_id=${metricId}&page_size=100&start_date=${startDate}&end_date=${endDate}&page=${i + 1}`,
    reply: pointsPage(metricId, points.slice(i * 100, i * 100 + 100), i + 1, pages, points.length),
  }));
}

describe('only what changed', () => {
  it('sends no PUT when every value is already stored, comparing decimals by value', () => {
    const dates = periodDates('2010-01-01', 2 * CHUNK, 'daily');
    const state = prepare(
      dates.map((date, i) => [date, i % 3 === 0 ? i + 0.5 : i === 1 ? -0 : i]),
      longSpec({ metricId: USERS, onlyChanged: true }),
    );
    // The API writes the same numbers its own way, and answers newest first.
    const existing = dates.map((date, i): [string, string | null] => [date, i % 3 === 0 ? `${i}.50` : i === 1 ? '-0.0' : `${i}`]).reverse();
    // Compared a chunk of dates at a time, so a budget that runs out midway loses some pages, not the whole read.
    const inRange = (start: string, end: string) => existing.filter(([date]) => date >= start && date <= end);
    const { step, transport } = harness([
      ...existingPages(USERS, dates[0]!, dates[CHUNK - 1]!, inRange(dates[0]!, dates[CHUNK - 1]!)),
      ...existingPages(USERS, dates[CHUNK]!, dates[2 * CHUNK - 1]!, inRange(dates[CHUNK]!, dates[2 * CHUNK - 1]!)),
    ]);
    const { state: done, progress } = step(state);

    transport.assertDone();
    expect(transport.sent.filter((request) => request.method === 'PUT')).toHaveLength(0);
    // Per chunk, page 1 alone reveals the page count; the other pages go together.
    const pages = CHUNK / 100;
    expect(transport.waves).toEqual([pages - 1, pages - 1]);
    expect(done.counters).toMatchObject({ reads: 2, upserts: 0 });
    expect(progress).toMatchObject({ status: 'done', itemsDone: 2 * CHUNK, itemsTotal: 2 * CHUNK });
    expect(buildReport(done).summary).toBe(`${(2 * CHUNK).toLocaleString('en-US')} rows read: ${(2 * CHUNK).toLocaleString('en-US')} unchanged.`);
  });

  it('keeps the dates already compared when the rate limit stops a read midway, and goes on from there', () => {
    const dates = periodDates('2010-01-01', 2 * CHUNK, 'daily');
    const state = prepare(
      dates.map((date, i) => [date, i]),
      longSpec({ metricId: USERS, onlyChanged: true }),
    );
    const existing = dates.map((date, i): [string, string | null] => [date, String(i)]);
    const inRange = (start: string, end: string) => existing.filter(([date]) => date >= start && date <= end);
    const refused = {
      match: `GET /data_points?metric_id=${USERS}&page_size=100&start_date=${dates[CHUNK]}&`,
      prefix: true,
      reply: { status: 429, body: { errors: [{ type: 'rate_limit_exceeded' }] }, headers: { 'retry-after': '300' } },
    };
    const first = harness([...existingPages(USERS, dates[0]!, dates[CHUNK - 1]!, inRange(dates[0]!, dates[CHUNK - 1]!)), refused]);
    const { state: partial, progress } = first.step(state);
    first.transport.assertDone();
    expect(progress).toMatchObject({ status: 'running', itemsDone: CHUNK });

    const second = harness(existingPages(USERS, dates[CHUNK]!, dates[2 * CHUNK - 1]!, inRange(dates[CHUNK]!, dates[2 * CHUNK - 1]!)), {
      clock: new FakeClock(partial.notBefore! + 1),
    });
    const { state: done } = second.step(partial);
    second.transport.assertDone(); // the first chunk's dates were not read again
    expect(buildReport(done).summary).toBe(`${(2 * CHUNK).toLocaleString('en-US')} rows read: ${(2 * CHUNK).toLocaleString('en-US')} unchanged.`);
  });

  it("ends with every row's outcome and a true sentence when a later chunk's read is refused by the URL Fetch quota", () => {
    const dates = periodDates('2010-01-01', CHUNK + 10, 'daily');
    const state = prepare(
      dates.map((date, i) => [date, i]),
      longSpec({ metricId: USERS, onlyChanged: true }),
    );
    const quota = { refused: 'daily_quota' as const, message: 'Service invoked too many times for one day: urlfetch.' };
    // The first chunk is read (nothing stored: every row of it is planned), the second is refused by Apps Script.
    const { step, transport } = harness([
      ...existingPages(USERS, dates[0]!, dates[CHUNK - 1]!, []),
      { match: `GET /data_points?metric_id=${USERS}&page_size=100&start_date=${dates[CHUNK]}&`, prefix: true, reply: quota },
    ]);
    const { state: done, progress } = step(state);
    transport.assertDone();
    expect(transport.sent.filter((request) => request.method === 'PUT')).toHaveLength(0);
    expect(progress.status).toBe('done');
    expect(done.problem).toBeUndefined();
    const report = buildReport(done);
    expect(report.totals).toMatchObject({ failed: CHUNK + 10, pending: 0 });
    expect(new Set(done.items.map((item) => item.reason))).toEqual(
      new Set([expect.stringMatching(/daily quota of URL fetches.* \(while reading the metric's existing data points\)$/)]),
    );
    expect(report.summary).not.toMatch(/cannot send/);
  });

  it('sends only the differing rows, in sheet order, each reported created or updated', () => {
    const rows = [
      ['2024-01-01', 1.5], // stored as 1.50: unchanged
      ['2024-02-01', 2], // stored as 3: updated
      ['2024-03-01', 3], // not stored: created
      ['2024-04-01', 4], // stored blank: updated, a blank differs from any number
      ['2024-05-01', ''], // blank in the sheet: skipped, never sent
    ];
    const state = prepare(rows, longSpec({ onlyChanged: true }));
    const { step, transport } = harness([
      ...existingPages(REVENUE, '2024-01-01', '2024-04-01', [
        ['2024-04-01', null],
        ['2024-02-01', '3'],
        ['2024-01-01', '1.50'],
      ]),
      // Right before the write, the wave's compare read of the dates it sends finds the server as planned.
      ...existingPages(REVENUE, '2024-02-01', '2024-04-01', [
        ['2024-04-01', null],
        ['2024-02-01', '3'],
      ]),
      put(REVENUE),
    ]);
    const { state: done } = step(state);

    transport.assertDone();
    expect(sentBatches(transport)).toEqual([
      {
        path: `/metrics/${REVENUE}/data_points`,
        dataPoints: [
          { date: '2024-02-01', value: '2' },
          { date: '2024-03-01', value: '3' },
          { date: '2024-04-01', value: '4' },
        ],
      },
    ]);
    expect(outcomes(done)).toEqual([
      ['unchanged', undefined],
      ['updated', undefined],
      ['created', undefined],
      ['updated', undefined],
      ['skipped', 'blank value'],
    ]);
    expect(buildReport(done).statusColumn).toEqual(['unchanged', 'updated', 'created', 'updated', 'skipped: blank value']);
  });

  it('reads the summary the issue promises: 940 created, 50 updated, 10 skipped', () => {
    const dates = periodDates('2022-01-01', 1000, 'daily');
    const rows = dates.map((date, i) => [date, i >= 990 ? '' : i]);
    const state = prepare(rows, longSpec({ metricId: USERS, onlyChanged: true }));
    const existing = dates.slice(0, 50).map((date): [string, string] => [date, '-1']);
    // The 990 dates with a value fit one chunk: one read.
    expect(CHUNK).toBeGreaterThanOrEqual(990);
    const { step, transport } = harness([
      ...existingPages(USERS, '2022-01-01', dates[989]!, existing),
      // The first wave's compare read (its ten batches' dates) finds the 50 values; the second's, nothing.
      ...existingPages(USERS, '2022-01-01', dates[499]!, existing),
      ...puts(USERS, 20),
    ]);
    const { state: done } = step(state);

    transport.assertDone();
    const batches = sentBatches(transport);
    expect(batches.map((batch) => batch.dataPoints.length)).toEqual([...Array<number>(19).fill(50), 40]);
    expect(buildReport(done).summary).toBe('1,000 rows read: 940 created, 50 updated, 10 skipped.');
  });

  it("fails the metric's rows when its existing points cannot be read, naming the API's answer", () => {
    const state = prepare(
      [
        ['2024-01-01', 1],
        ['2024-02-01', 2],
      ],
      longSpec({ onlyChanged: true }),
    );
    const { step } = harness([
      {
        match: `GET /data_points?metric_id=${REVENUE}&page_size=100&`,
        prefix: true,
        reply: errorReply(400, 'parameter_invalid', 'metric_id', `names no metric this token can see: ${REVENUE}`),
      },
    ]);
    const { state: done } = step(state);
    const reason = `not sent: the metric's existing data points could not be read: the API refused the request (HTTP 400, "metric_id": names no metric this token can see: ${REVENUE})`;
    expect(outcomes(done)).toEqual([
      ['failed', reason],
      ['failed', reason],
    ]);
    expect(done.status).toBe('done');
  });

  it('compares decimals as numbers written differently, never through a double', () => {
    expect(sameDecimal('1.50', '1.5')).toBe(true);
    expect(sameDecimal('-0', '0')).toBe(true);
    expect(sameDecimal('1000', '1e3')).toBe(true);
    expect(sameDecimal('007', '7')).toBe(true);
    expect(sameDecimal('0.1', '0.10000000000000001')).toBe(false);
    expect(sameDecimal('12345678901234567890', '12345678901234567891')).toBe(false);
    expect(sameDecimal('', '0')).toBe(false);
  });
});

describe('overwrites and conflicts', () => {
  const rows = [
    ['2024-01-01', 1],
    ['2024-02-01', 2],
    ['2024-03-01', 3],
    ['2024-04-01', 4],
  ];
  const read = (stored: Array<[string, string | null]>, spec = longSpec({ onlyChanged: true }), seen?: ExportState) => {
    const { client, transport } = harness(existingPages(REVENUE, '2024-01-01', '2024-04-01', stored));
    const { state } = readStoredPoints(approvedBy(prepare(rows, spec), seen), client, Number.MAX_SAFE_INTEGER);
    transport.assertDone();
    return state;
  };
  /** A start after the preview `seen`: what it showed of the server, kept compactly as the server keeps it, on the items. */
  const approvedBy = (state: ExportState, seen?: ExportState): ExportState => {
    if (seen)
      restoreApprovals(
        state.items,
        keepApprovals(seen.items.map((item) => (item.approved ? { ...item, approved: { ...item.approved, by: 'preview' as const } } : item))),
      );
    return state;
  };

  it('lists each overwrite old → new in the preview, a blank stored value as (blank)', () => {
    const preview = previewExport(
      read([
        ['2024-01-01', '1'],
        ['2024-02-01', '20'],
        ['2024-03-01', null],
      ]),
    );
    expect(preview.summary).toBe('4 rows read: 1 unchanged, 1 to create, 2 to overwrite a different value, 0 skipped, 0 failed.');
    expect(preview.overwrites).toEqual({
      total: 2,
      shown: [
        { cell: 'B2', old: '20', new: '2' },
        { cell: 'B3', old: '(blank)', new: '3' },
      ],
    });
  });

  it('skips a value that differs on the server with "Do not overwrite values that differ", but fills a blank one', () => {
    const state = read(
      [
        ['2024-02-01', '20'],
        ['2024-03-01', null],
      ],
      longSpec({ onlyChanged: true, keepDifferent: true }),
    );
    expect(outcomes(state)).toEqual([
      ['pending', undefined],
      ['skipped', 'not overwritten: the server holds 20 ("Do not overwrite values that differ" is on)'],
      ['pending', undefined],
      ['pending', undefined],
    ]);
    expect(state.batches.flatMap((batch) => batch.items)).toEqual([0, 2, 3]);
  });

  it('marks as conflicts, out of their batches, the writes whose server value changed since the preview', () => {
    const seen = read([
      ['2024-01-01', '1'],
      ['2024-02-01', '20'],
    ]);
    // Since the preview: 2024-01-01 changed (was unchanged), 2024-02-01 still 20, 2024-03-01 created elsewhere.
    const now = read(
      [
        ['2024-01-01', '10'],
        ['2024-02-01', '20.0'],
        ['2024-03-01', '30'],
      ],
      longSpec({ onlyChanged: true }),
      seen,
    );
    expect(outcomes(now)).toEqual([
      ['skipped', "conflict: the server's value changed since the preview (1 then, 10 now), so it was not written: preview again to see it, then export"],
      ['pending', undefined],
      [
        'skipped',
        "conflict: the server's value changed since the preview (no value then, 30 now), so it was not written: preview again to see it, then export",
      ],
      ['pending', undefined],
    ]);
    expect(now.batches.flatMap((batch) => batch.items)).toEqual([1, 3]);
  });

  describe('typed data ("only what changed" off), compared first', () => {
    const typed = (stored: Array<[string, string | null]>, seen?: ExportState) => {
      const { client, transport } = harness(existingPages(REVENUE, '2024-01-01', '2024-04-01', stored));
      const { state } = readStoredPoints(approvedBy(prepare(rows, longSpec({ onlyChanged: false }), {}, true), seen), client, Number.MAX_SAFE_INTEGER);
      transport.assertDone();
      return state;
    };

    it('counts what it creates, overwrites and sends again unchanged, and lists the overwrites, sending every value', () => {
      const state = typed([
        ['2024-01-01', '1'],
        ['2024-02-01', '20'],
        ['2024-03-01', null],
      ]);
      const preview = previewExport(state);
      expect(preview.compared).toEqual({ unchanged: 1, toCreate: 1, toUpdate: 2, notCompared: 0 });
      expect(preview.summary).toBe('4 rows read: 4 to send (1 to create, 2 to overwrite a different value, 1 unchanged, sent again), 0 skipped, 0 failed.');
      expect(preview.overwrites).toEqual({
        total: 2,
        shown: [
          { cell: 'B2', old: '20', new: '2' },
          { cell: 'B3', old: '(blank)', new: '3' },
        ],
      });
      expect(state.batches.flatMap((batch) => batch.items)).toEqual([0, 1, 2, 3]);
    });

    it('marks as a conflict an unchanged value the server changed since the preview, and sends the rest', () => {
      const seen = typed([
        ['2024-01-01', '1'],
        ['2024-02-01', '20'],
      ]);
      const now = typed(
        [
          ['2024-01-01', '10'],
          ['2024-02-01', '20'],
        ],
        seen,
      );
      expect(outcomes(now)[0]).toEqual([
        'skipped',
        "conflict: the server's value changed since the preview (1 then, 10 now), so it was not written: preview again to see it, then export",
      ]);
      expect(now.batches.flatMap((batch) => batch.items)).toEqual([1, 2, 3]);
    });

    it('says "N to send" alone when prepared without reads (a start with no preview)', () => {
      expect(previewExport(prepare(rows, longSpec({ onlyChanged: false }))).summary).toBe('4 rows read: 4 to send, 0 skipped, 0 failed.');
    });
  });
});
