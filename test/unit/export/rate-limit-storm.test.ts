// A 429 storm: an API that accepts nothing for three rate windows pauses the export, and Resume sends only what is left.

import { OutOfTimeError, RateLimitedError } from '../../../src/core/errors';
import { classifyFailure } from '../../../src/core/jobs/classify-failure';
import { resumeExport } from '../../../src/core/export/export-state';
import { buildReport } from '../../../src/core/export/report';
import { RATE_LIMIT_STORM_MS } from '../../../src/core/jobs/rate-limit-state';
import type { ExportState } from '../../../src/core/export/types';
import { FakeClock } from '../../support/scripted-transport';
import { errorReply, harness, longSpec, periodDates, prepare, put, puts, sentBatches, USERS } from './export-fixtures';

const WINDOW_MS = 5 * 60_000;
const rows = periodDates('2024-01-01', 120, 'daily').map((date, i) => [date, i]);
const refusal = () => put(USERS, { ...errorReply(429, 'rate_limit_exceeded'), headers: { 'retry-after': String(WINDOW_MS / 1000) } });
/** A wave of `count` batches, every one refused for the rate limit. */
const refused = (count = 1) => Array.from({ length: count }, refusal);

/** Runs one step as the sidebar would after waiting out the rate limit, on a fresh client per execution. */
function stepAfterWait(state: ExportState, clock: FakeClock, replies: Parameters<typeof harness>[0]) {
  const wait = state.notBefore === undefined ? 0 : Math.max(0, state.notBefore - clock.now());
  clock.advance(wait);
  const run = harness(replies, { clock, stepMs: 60_000 });
  const result = run.step(state);
  run.transport.assertDone();
  return { ...result, sent: sentBatches(run.transport) };
}

describe('a 429 storm', () => {
  it('pauses once the API has accepted nothing for 15 minutes, saying how many rows are left', () => {
    expect(RATE_LIMIT_STORM_MS).toBe(3 * WINDOW_MS);
    const clock = new FakeClock(Date.UTC(2025, 0, 6, 9));
    // The first batch goes through, then every request is refused: the next PUT (one in flight at a
    // time) meets the refusal and ends the step, so the third batch is not sent.
    let { state, progress } = stepAfterWait(prepare(rows, longSpec({ metricId: USERS })), clock, [put(USERS), ...refused(1)]);
    expect(progress).toMatchObject({ status: 'running', itemsDone: 50, waitingForRateLimitMs: WINDOW_MS });
    const stormStart = clock.now();
    // Each later step opens with one request, the probe: a refused probe is the step's only request.
    for (let window = 1; window <= 2; window++) {
      ({ state, progress } = stepAfterWait(state, clock, refused(1)));
      expect(progress.status).toBe('running');
      expect(clock.now() - stormStart).toBe(window * WINDOW_MS);
    }
    ({ state, progress } = stepAfterWait(state, clock, refused(1)));
    expect(clock.now() - stormStart).toBe(RATE_LIMIT_STORM_MS);
    expect(progress).toEqual({
      status: 'paused',
      itemsDone: 50,
      itemsTotal: 120,
      batchesDone: 1,
      batchesTotal: 3,
      problem:
        'The API refused every request for 15 minutes because of its rate limit, so the export paused with 70 rows left. Resume sends only those once the API accepts requests again.',
    });
    expect(state.notBefore).toBeUndefined();
    const report = buildReport(state);
    expect(report.totals).toMatchObject({ created: 50, pending: 70 });
    expect(report.summary).toBe('120 rows read: 50 created, 70 not sent (export paused).');

    // Resume sends only the 70 rows left, and the storm clock starts over.
    const resumed = resumeExport(state);
    expect(resumed).toMatchObject({ status: 'running' });
    expect(resumed.rateLimitedSince).toBeUndefined();
    // The backoff survives the pause: Resume's first step opens with one probe, not a whole wave.
    expect(resumed.retry).toBeDefined();
    const probed = stepAfterWait(resumed, clock, refused(1));
    expect(probed.sent).toHaveLength(1);
    expect(probed.progress.status).toBe('running');
    const done = stepAfterWait(probed.state, clock, puts(USERS, 2));
    expect(done.progress.status).toBe('done');
    expect(done.sent.map((batch) => batch.dataPoints.length)).toEqual([50, 20]);
    expect(done.sent[0]!.dataPoints[0]!.date).toBe(rows[50]![0]);
    expect(buildReport(done.state).totals).toMatchObject({ created: 120, pending: 0 });
  });

  it('starts the 15 minutes over whenever the API accepts a request', () => {
    const clock = new FakeClock(Date.UTC(2025, 0, 6, 9));
    let { state, progress } = stepAfterWait(prepare(rows, longSpec({ metricId: USERS })), clock, refused());
    ({ state } = stepAfterWait(state, clock, refused()));
    expect(state.rateLimitedSince).toBeDefined();
    // Ten minutes in, the probe is accepted: the storm counts again from the refusal that followed it (the
    // next PUT; one is in flight at a time).
    ({ state } = stepAfterWait(state, clock, [put(USERS), ...refused(1)]));
    expect(state.rateLimitedSince).toBe(clock.now());
    for (let window = 1; window <= 2; window++) {
      ({ state, progress } = stepAfterWait(state, clock, refused(1)));
      expect(progress.status).toBe('running');
    }
    ({ state, progress } = stepAfterWait(state, clock, refused(1)));
    expect(progress.status).toBe('paused');
    expect(progress.problem).toMatch(/paused with 70 rows left\./);
  });

  it('carries the backoff across steps: each step after a 429 sends one probe, and the backoff doubles until a request is accepted', () => {
    const clock = new FakeClock(Date.UTC(2025, 0, 6, 9));
    // Refusals that name no wait: the backoff is the job's own.
    const bare = () => put(USERS, errorReply(429, 'rate_limit_exceeded'));
    const client = { retry: { retryStatuses: [408, 500, 502, 503, 504] } };
    let state = prepare(rows, longSpec({ metricId: USERS }));
    const intervals: number[] = [];
    let last: number | undefined;
    for (let step = 0; step < 6; step++) {
      const wait = state.notBefore === undefined ? 0 : Math.max(0, state.notBefore - clock.now());
      clock.advance(wait);
      if (last !== undefined) intervals.push(clock.now() - last);
      last = clock.now();
      // A client that leaves 429s to the job, as the server builds one for a step whose state carries a
      // backoff (the first step's would retry inside the step; its first request goes alone all the same).
      const run = harness([bare()], { clock, stepMs: 60_000, ...client });
      state = run.step(state).state;
      run.transport.assertDone();
    }
    expect(intervals).toEqual([4_000, 8_000, 16_000, 32_000, 64_000]);
    // One accepted request ends it: the step after the probe goes on with whole waves.
    clock.advance(state.notBefore! - clock.now());
    const run = harness([put(USERS), put(USERS), put(USERS)], { clock, stepMs: 60_000, ...client });
    const done = run.step(state);
    run.transport.assertDone();
    expect(done.state.retry).toBeUndefined();
    expect(done.progress.status).toBe('done');
  });

  it('counts the values left in the wide layout', () => {
    const clock = new FakeClock(Date.UTC(2025, 0, 6, 9));
    const wide = prepare(
      [
        ['Date', 'Daily Active Users'],
        ['2024-01-01', 1],
      ],
      { layout: 'wide', hasHeaderRow: true, skipBlanks: true, duplicates: 'reject', offPeriod: 'reject', onlyChanged: false },
    );
    let result = stepAfterWait(wide, clock, refused());
    for (let window = 0; window < 3; window++) result = stepAfterWait(result.state, clock, refused());
    expect(result.progress.problem).toMatch(/paused with 1 value left\./);
  });

  it('is not started by steps that end for want of time: those are not the rate limit', () => {
    const clock = new FakeClock(Date.UTC(2025, 0, 6, 9));
    let state = prepare(rows, longSpec({ metricId: USERS }));
    // Each step has less time than one round trip needs, so it sends nothing, for 20 minutes.
    for (let step = 0; step < 4; step++) {
      const run = harness([], { clock, stepMs: 1_000 });
      const result = run.step(state);
      state = result.state;
      expect(result.progress.status).toBe('running');
      expect(state.rateLimitedSince).toBeUndefined();
      clock.advance(WINDOW_MS);
    }
    expect(buildReport(state).totals).toMatchObject({ pending: 120 });
  });

  it('tells a step that ran out of time from the rate limit: only the latter counts towards the storm', () => {
    expect(classifyFailure(new OutOfTimeError("This run is close to Apps Script's time limit."), 'export')).toEqual({
      kind: 'wait',
      message: "This run is close to Apps Script's time limit.",
      outOfTime: true,
    });
    expect(classifyFailure(new RateLimitedError("The API's rate limit was reached. Try again in 15 seconds.", 15), 'export')).toEqual({
      kind: 'wait',
      message: "The API's rate limit was reached. Try again in 15 seconds.",
      retryAfterMs: 15_000,
    });
  });
});
