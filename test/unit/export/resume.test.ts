// Steps, deadlines, cancel and resume: no time limit loses work, and no batch is sent twice.

import { ChunkedCache } from '../../../src/core/cache/chunked-cache';
import { compactExport, expandExport } from '../../../src/core/export/compact';
import { prepareExport, resumeExport } from '../../../src/core/export/export-state';
import { cancelJob } from '../../../src/core/jobs/job-state';
import { buildReport } from '../../../src/core/export/report';
import type { ExportState } from '../../../src/core/export/types';
import { intlDateFormatter } from '../../../src/core/validate/dates';
import { MemoryCache } from '../../support/memory-cache';
import { FakeClock } from '../../support/scripted-transport';
import {
  emptyCompareReads,
  errorReply,
  harness,
  longSpec,
  METRICS,
  periodDates,
  prepare,
  put,
  puts,
  sentBatches,
  SlowTransport,
  TZ,
  USERS,
} from './export-fixtures';

const rows = periodDates('2022-01-01', 1000, 'daily').map((date, i) => [date, i]);

/** Stores and reloads the state the way the server does between steps: JSON in chunked CacheService. */
function throughCache(state: ExportState): ExportState {
  const cache = new ChunkedCache(new MemoryCache(), () => 'g1');
  cache.put('export:1', JSON.stringify(state), 21600);
  return JSON.parse(cache.get('export:1') ?? 'null') as ExportState;
}

function firstDates(batches: ReturnType<typeof sentBatches>): string[] {
  return batches.map((batch) => batch.dataPoints[0]!.date);
}

describe('steps and resume', () => {
  it('stops a step before the deadline and resumes with only the unconfirmed batches', () => {
    const state = prepare(rows, longSpec({ metricId: USERS }));
    const clock = new FakeClock(Date.UTC(2025, 0, 6, 9));
    // Each round trip takes 5 s; the step has 80 s and keeps a 30 s margin, so it makes one wave (its
    // compare read, then the ten batches it read, one PUT at a time, the last starting with 30 s left) and stops.
    const first = harness([], { clock, stepMs: 80_000, transport: new SlowTransport(puts(USERS, 10), clock, 5_000, emptyCompareReads) });
    const { state: partial, progress } = first.step(state);
    first.transport.assertDone();
    expect(progress).toEqual({ status: 'running', itemsDone: 500, itemsTotal: 1000, batchesDone: 10, batchesTotal: 20 });
    expect(buildReport(partial).items[550]!.reason).toBe('not sent yet');

    const second = harness(puts(USERS, 10), { clock });
    const { state: done } = second.step(throughCache(partial));
    second.transport.assertDone();
    expect(done.status).toBe('done');

    const all = [...firstDates(sentBatches(first.transport)), ...firstDates(sentBatches(second.transport))];
    expect(all).toHaveLength(20);
    expect(new Set(all).size).toBe(20);
    expect(buildReport(done).totals).toMatchObject({ created: 1000, pending: 0 });
  });

  it('ends the step when the rate limit asks for a longer wait than is left, and sends that batch next time', () => {
    const state = prepare(rows.slice(0, 100), longSpec({ metricId: USERS }));
    const clock = new FakeClock(Date.UTC(2025, 0, 6, 9));
    const first = harness([put(USERS), put(USERS, { ...errorReply(429, 'rate_limit_exceeded'), headers: { 'retry-after': '120' } })], {
      clock,
      stepMs: 60_000,
    });
    const { state: waiting, progress } = first.step(state, { marginMs: 10_000 });
    expect(progress).toMatchObject({ status: 'running', itemsDone: 50, waitingForRateLimitMs: 120_000 });
    expect(progress.problem).toBe("The API's rate limit was reached. Try again in 120 seconds.");
    expect(waiting.items[50]!.outcome).toBe('pending');

    // Called again too early, the step sends nothing and says how long is left.
    clock.advance(20_000);
    const early = harness([], { clock });
    expect(early.step(waiting).progress.waitingForRateLimitMs).toBe(100_000);
    expect(early.transport.sent).toHaveLength(0);

    clock.advance(100_000);
    const later = harness([put(USERS)], { clock });
    const { state: done } = later.step(waiting);
    expect(firstDates(sentBatches(later.transport))).toEqual([rows[50]![0]]);
    expect(done.status).toBe('done');
  });

  it('cancels: nothing more is sent, pending rows say so, and a resume sends only the rest', () => {
    const state = prepare(rows.slice(0, 150), longSpec({ metricId: USERS }));
    const clock = new FakeClock(Date.UTC(2025, 0, 6, 9));
    // The compare read and the first batch take 40 s: too little is left for the other two.
    const first = harness([], { clock, stepMs: 45_000, transport: new SlowTransport(puts(USERS, 1), clock, 20_000, emptyCompareReads) });
    const cancelled = cancelJob(first.step(state).state);

    const report = buildReport(cancelled);
    expect(report.status).toBe('cancelled');
    expect(report.totals).toMatchObject({ created: 50, pending: 100 });
    expect(report.items[50]!.reason).toBe('not sent: export cancelled');
    expect(report.statusColumn[50]).toBe('not sent: export cancelled');
    expect(report.summary).toBe('150 rows read: 50 created, 100 not sent (export cancelled).');

    const idle = harness([], { clock });
    expect(idle.step(cancelled).state.status).toBe('cancelled');
    expect(idle.transport.sent).toHaveLength(0);

    const resumed = harness(puts(USERS, 2), { clock });
    const { state: done } = resumed.step(resumeExport(cancelled));
    expect(firstDates(sentBatches(resumed.transport))).toEqual([rows[50]![0], rows[100]![0]]);
    expect(buildReport(done).totals).toMatchObject({ created: 150, pending: 0 });
  });

  it('cancels between waves when the sidebar asks during a step', () => {
    const state = prepare(rows.slice(0, 150), longSpec({ metricId: USERS }));
    const { step, transport } = harness(puts(USERS, 1));
    let waves = 0;
    // Asked before the wave, then again after its compare read, right before each PUT: the third ask
    // (before the second PUT) is the cancel.
    const { state: stopped } = step(state, { shouldStop: () => waves++ >= 2 });
    expect(sentBatches(transport)).toHaveLength(1);
    expect(transport.sent.map((request) => request.method)).toEqual(['GET', 'PUT']);
    expect(stopped.status).toBe('cancelled');
  });

  it('checkpoints after every wave, so a step killed midway resumes without sending a batch twice', () => {
    const state = prepare(rows.slice(0, 200), longSpec({ metricId: USERS }));
    const checkpoints: string[] = [];
    const killed = harness(puts(USERS, 4));
    killed.step(state, { onCheckpoint: (s) => checkpoints.push(JSON.stringify(s)) });
    // One PUT at a time: a checkpoint before each PUT after the first, and one after the wave.
    expect(checkpoints).toHaveLength(4);
    expect(checkpoints.map((saved) => (JSON.parse(saved) as ExportState).batches.filter((batch) => batch.status === 'confirmed').length)).toEqual([1, 2, 3, 4]);
    // Apps Script killed the execution after the first wave had been saved.
    const saved = JSON.parse(checkpoints[0]!) as ExportState;
    const resumed = harness(puts(USERS, 3));
    const { state: done } = resumed.step(saved);
    expect(firstDates(sentBatches(resumed.transport))).toEqual([rows[50]![0], rows[100]![0], rows[150]![0]]);
    expect(done.status).toBe('done');
  });

  it('tells a resume whether the sheet changed since the export started', () => {
    // The server's check: a stored export expands only over a fresh read with its fingerprint.
    const sameExport = (stored: ExportState, fresh: ExportState): boolean => expandExport(fresh, compactExport(stored, stored)) !== null;
    const input = { range: { values: rows.slice(0, 10) }, spec: longSpec({ metricId: USERS }), metrics: METRICS, timeZone: TZ, formatDate: intlDateFormatter };
    const original = prepareExport(input);
    expect(sameExport(original, prepareExport(input))).toBe(true);
    const edited = rows.slice(0, 10).map((row, i) => (i === 4 ? [row[0], 999] : row));
    expect(sameExport(original, prepareExport({ ...input, range: { values: edited } }))).toBe(false);
    expect(sameExport(original, prepareExport({ ...input, spec: { ...input.spec, onlyChanged: true } }))).toBe(false);
  });

  it('keeps a 1,000-row export state small enough for chunked CacheService', () => {
    const state = prepare(rows, longSpec({ metricId: USERS }));
    const { state: done } = harness(puts(USERS, 20)).step(state);
    expect(JSON.stringify(done).length).toBeLessThan(100_000);
    expect(throughCache(done)).toEqual(done);
  });

  it('resumes an export paused by a rejected token without resending the confirmed batch', () => {
    const state = prepare(rows.slice(0, 100), longSpec({ metricId: USERS }));
    const first = harness([put(USERS), put(USERS, errorReply(401, 'unauthorized'))]);
    const { state: paused } = first.step(state);
    expect(paused.status).toBe('paused');
    const resumed = harness([put(USERS)]);
    const { state: done } = resumed.step(resumeExport(paused));
    expect(firstDates(sentBatches(resumed.transport))).toEqual([rows[50]![0]]);
    expect(done.status).toBe('done');
  });
});
