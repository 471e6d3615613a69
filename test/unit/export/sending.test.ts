// Sending: batches of 50, the rate limit and server failures survived, refusals mapped back to rows.

import { buildReport } from '../../../src/core/export/report';
import type { ExportState } from '../../../src/core/export/types';
import { errorReply, harness, longSpec, periodDates, prepare, put, puts, REVENUE, sentBatches, USERS, wideSpec, BURN, outcomes } from './export-fixtures';

function dailyRows(count: number): unknown[][] {
  return periodDates('2022-01-01', count, 'daily').map((date, i) => [date, i * 1.5]);
}

function monthlyRows(count: number): unknown[][] {
  return periodDates('2010-01-01', count, 'monthly').map((date, i) => [date, i]);
}

function expectAccountedFor(state: ExportState): void {
  const report = buildReport(state);
  expect(Object.values(report.totals).reduce((a, b) => a + b, 0)).toBe(report.itemsRead);
  expect(report.items).toHaveLength(state.items.length);
}

describe('sending', () => {
  it('sends 1,000 valid rows as exactly 20 PUTs of 50, in sheet order', () => {
    const rows = dailyRows(1000);
    const state = prepare(rows, longSpec({ metricId: USERS }));
    expect(state.batches).toHaveLength(20);
    const { step, transport } = harness(puts(USERS, 20));
    const { state: done, progress } = step(state);

    transport.assertDone();
    const batches = sentBatches(transport);
    expect(batches).toHaveLength(20);
    expect(batches.every((batch) => batch.path === `/metrics/${USERS}/data_points` && batch.dataPoints.length === 50)).toBe(true);
    expect(batches.flatMap((batch) => batch.dataPoints)).toEqual(rows.map(([date, value]) => ({ date, value: String(value) })));
    expect(progress).toEqual({ status: 'done', itemsDone: 1000, itemsTotal: 1000, batchesDone: 20, batchesTotal: 20 });
    expect(done.counters.upserts).toBe(20);
    // Each wave opens with one compare read of the ten batches it covers; then its PUTs go one at a time
    // (the first alone proves the metric, so a wrong one costs one request), none sharing a fetchAll.
    expect(transport.waves).toEqual([]);
    expect(transport.sent.map((request) => request.method)).toEqual(['GET', ...Array(10).fill('PUT'), 'GET', ...Array(10).fill('PUT')]);
    expect(buildReport(done).summary).toBe('1,000 rows read: 1,000 created.');
  });

  it('sleeps for Retry-After and resumes the same batch; backs off without it; retries a 503 and a lost connection', () => {
    const state = prepare(monthlyRows(150), longSpec());
    const { step, transport, clock } = harness([
      put(REVENUE),
      put(REVENUE, { ...errorReply(429, 'rate_limit_exceeded'), headers: { 'retry-after': '7' } }),
      put(REVENUE, { status: 503, body: 'Service Unavailable' }),
      put(REVENUE, errorReply(429, 'rate_limit_exceeded')),
      put(REVENUE, 'network-error'),
      put(REVENUE),
      put(REVENUE),
    ]);
    const { state: done, progress } = step(state);

    transport.assertDone();
    const sent = sentBatches(transport);
    expect(sent).toHaveLength(7);
    // One batch at a time: the first, then the second (refused for the rate limit) until it is stored,
    // then the third; the retried requests carry the very batch that was refused.
    expect(sent.map((batch) => batch.dataPoints[0]!.date)).toEqual(['2010-01-01', ...Array(5).fill('2014-03-01'), '2018-05-01']);
    expect(sent.slice(2, 6)).toEqual([sent[1], sent[1], sent[1], sent[1]]);
    // 7 s from Retry-After; then equal-jitter backoff for the second batch's later attempts, of 4 s and 8 s
    // ceilings (the 503 a retry, the 429 a rate-limit wait), and of 4 s for the lost connection, whose
    // backoff starts from 0.5 s rather than 2 s (8 × 0.5 s at its fourth attempt).
    expect(clock.sleeps).toEqual([7000, 3000, 6000, 3000]);
    expect(done.counters).toMatchObject({ rateLimitWaitMs: 13_000, retryWaitMs: 6_000, upserts: 3 });
    expect(progress).toMatchObject({ status: 'done', itemsDone: 150, itemsTotal: 150, waitedForRateLimitMs: 13_000 });
    expect(buildReport(done).totals).toMatchObject({ created: 150, failed: 0, pending: 0 });
    expectAccountedFor(done);
  });

  it('maps a 422 on data_points[3] to its row and stops only that metric', () => {
    const dates = periodDates('2010-01-01', 120, 'monthly');
    const state = prepare([['Date', 'Revenue', 'Net Burn'], ...dates.map((date, i) => [date, i, -i])], wideSpec());
    const { step, transport } = harness([
      put(REVENUE, errorReply(422, 'attribute_invalid', 'data_points[3].value', 'is too large')),
      put(BURN),
      put(BURN),
      put(BURN),
    ]);
    const { state: done } = step(state);

    transport.assertDone();
    // One PUT at a time: Revenue's first batch, Net Burn's first, then Net Burn's other two.
    expect(transport.waves).toEqual([]);
    expect(sentBatches(transport).map((batch) => batch.path)).toEqual([
      `/metrics/${REVENUE}/data_points`,
      `/metrics/${BURN}/data_points`,
      `/metrics/${BURN}/data_points`,
      `/metrics/${BURN}/data_points`,
    ]);
    const revenue = done.items.filter((item) => item.column === 2);
    // data_points[3] is the fourth data row: sheet row 5, column B.
    expect(revenue[3]).toMatchObject({ outcome: 'failed', reason: 'the API refused the value 3: is too large' });
    expect(revenue[0]).toMatchObject({ outcome: 'failed', reason: 'not stored: the API refused the whole batch because of cell B5' });
    expect(revenue[49]).toMatchObject({ outcome: 'failed', reason: 'not stored: the API refused the whole batch because of cell B5' });
    expect(revenue[50]).toMatchObject({ outcome: 'failed', reason: 'not sent: the metric was stopped after an error in cell B5' });
    expect(revenue[119]).toMatchObject({ outcome: 'failed', reason: 'not sent: the metric was stopped after an error in cell B5' });
    expect(done.items.filter((item) => item.column === 3).every((item) => item.outcome === 'created')).toBe(true);
    expect(done.batches.map((batch) => batch.status)).toEqual(['failed', 'not_sent', 'not_sent', 'confirmed', 'confirmed', 'confirmed']);
    expect(buildReport(done).totals).toMatchObject({ created: 120, failed: 120 });
    expect(done.status).toBe('done');
  });

  it('reports every batch of a wave that meets a refusal: stored, refused, or not sent; a lost answer is sent again, never called not sent', () => {
    const state = prepare(monthlyRows(250), longSpec());
    // One PUT in flight at a time, so a refusal never meets a batch whose answer is lost in the same group:
    // the 503 ends the step with its batch pending, and the next step sends that batch again first.
    const first = harness([put(REVENUE), put(REVENUE), put(REVENUE, { status: 503, body: 'Service Unavailable' })], { retry: { maxRetries: 0 } });
    const { state: lost } = first.step(state);
    first.transport.assertDone();
    expect(lost.batches.map((batch) => batch.status)).toEqual(['confirmed', 'confirmed', 'pending', 'pending', 'pending']);

    const second = harness([put(REVENUE, errorReply(422, 'attribute_invalid', 'data_points[0].value', 'is too large'))], { retry: { maxRetries: 0 } });
    const { state: done, progress } = second.step(lost);
    second.transport.assertDone();
    expect(sentBatches(first.transport).map((batch) => batch.dataPoints[0]!.date)).toEqual(['2010-01-01', '2014-03-01', '2018-05-01']);
    expect(sentBatches(second.transport).map((batch) => batch.dataPoints[0]!.date)).toEqual(['2018-05-01']);
    expect(done.batches.map((batch) => batch.status)).toEqual(['confirmed', 'confirmed', 'failed', 'not_sent', 'not_sent']);
    expect(done.items[100]).toMatchObject({ outcome: 'failed', reason: 'the API refused the value 100: is too large' });
    expect(done.items[150]).toMatchObject({ outcome: 'failed', reason: 'not sent: the metric was stopped after an error in row 101' });
    expect(done.items[200]).toMatchObject({ outcome: 'failed', reason: 'not sent: the metric was stopped after an error in row 101' });
    expect(buildReport(done).totals).toMatchObject({ created: 100, failed: 150, pending: 0 });
    expect(progress.status).toBe('done');
    expectAccountedFor(done);
  });

  it('puts each of several 422 problems on its own row', () => {
    const state = prepare(monthlyRows(5), longSpec());
    const body = {
      errors: [
        { type: 'attribute_invalid', field: 'data_points[1].date', message: 'must be the first day of a month, the start of a monthly period' },
        { type: 'attribute_invalid', field: 'data_points[4].value', message: 'is not a number' },
      ],
    };
    const { step } = harness([put(REVENUE, { status: 422, body })]);
    const { state: done } = step(state);
    expect(outcomes(done)).toEqual([
      ['failed', 'not stored: the API refused the whole batch because of row 2'],
      ['failed', 'the API refused the date 2010-02-01: must be the first day of a month, the start of a monthly period'],
      ['failed', 'not stored: the API refused the whole batch because of row 2'],
      ['failed', 'not stored: the API refused the whole batch because of row 2'],
      ['failed', 'the API refused the value 4: is not a number'],
    ]);
  });

  it('fails only the batch Apps Script refused to send, with its reason, and sends the others', () => {
    const state = prepare(monthlyRows(120), longSpec());
    const { step, transport } = harness([put(REVENUE), put(REVENUE, { refused: 'payload_too_large', message: 'Exception: Payload too large' }), put(REVENUE)]);
    const { state: done } = step(state);

    transport.assertDone();
    expect(sentBatches(transport)).toHaveLength(3);
    const reason = 'not sent: Apps Script refused to send a request that is too large, so nothing was sent. Select fewer rows at a time';
    expect(outcomes(done)).toEqual([
      ...Array.from({ length: 50 }, () => ['created', undefined]),
      ...Array.from({ length: 50 }, () => ['failed', reason]),
      ...Array.from({ length: 20 }, () => ['created', undefined]),
    ]);
    expect(done.status).toBe('done');
    expectAccountedFor(done);
  });

  it("stops the metric on a 404, with the server's message on the batch and nothing more sent", () => {
    const state = prepare(monthlyRows(120), longSpec());
    const { step, transport } = harness([put(REVENUE, errorReply(404, 'record_missing', undefined, `Metric not found: ${REVENUE}`))]);
    const { state: done } = step(state);

    transport.assertDone();
    expect(sentBatches(transport)).toHaveLength(1);
    expect(done.items[0]).toMatchObject({ outcome: 'failed', reason: `not stored: the API has no such metric (Metric not found: ${REVENUE})` });
    expect(done.items[49]).toMatchObject({ outcome: 'failed', reason: `not stored: the API has no such metric (Metric not found: ${REVENUE})` });
    expect(done.items[50]).toMatchObject({ outcome: 'failed', reason: 'not sent: the metric was stopped after an error in row 1' });
    expect(buildReport(done).summary).toBe('120 rows read: 120 failed.');
  });

  it('leaves the batch pending when the retry budget is spent, and pauses after three such steps', () => {
    const state = prepare(monthlyRows(10), longSpec());
    const unavailable = put(REVENUE, { status: 503, body: 'Service Unavailable' });
    let current = state;
    for (let attempt = 1; attempt <= 3; attempt++) {
      const { step } = harness([unavailable, unavailable], { retry: { maxRetries: 1 } });
      const { state: next, progress } = step(current);
      expect(next.items.every((item) => item.outcome === 'pending')).toBe(true);
      expect(next.batches[0]!.status).toBe('pending');
      expect(progress.problem).toBe('The API had a temporary problem (HTTP 503). Try again in a minute.');
      expect(next.status).toBe(attempt < 3 ? 'running' : 'paused');
      current = next;
    }
    const report = buildReport(current);
    expect(report.items[0]!.reason).toBe('not sent: export paused (The API had a temporary problem (HTTP 503). Try again in a minute)');
    expect(report.summary).toBe('10 rows read: 10 not sent (export paused).');
  });

  it('pauses the whole export when the token is rejected, losing nothing', () => {
    const state = prepare(monthlyRows(60), longSpec());
    const { step } = harness([put(REVENUE, errorReply(401, 'unauthorized'))]);
    const { state: paused, progress } = step(state);
    expect(paused.status).toBe('paused');
    expect(progress.problem).toMatch(/^The API token was rejected\./);
    expect(paused.items.every((item) => item.outcome === 'pending')).toBe(true);
    expect(paused.batches.map((b) => b.status)).toEqual(['pending', 'pending']);
  });

  it('counts a 403 against the metric, not the export', () => {
    const state = prepare(
      [
        ['Date', 'Revenue', 'Net Burn'],
        ['2024-01-01', 1, 2],
      ],
      wideSpec(),
    );
    const { step } = harness([put(REVENUE, errorReply(403, 'forbidden')), put(BURN)]);
    const { state: done } = step(state);
    expect(outcomes(done)).toEqual([
      ['failed', 'not stored: this API token has no access to the metric'],
      ['created', undefined],
    ]);
  });

  it('does not change the state it was given', () => {
    const state = prepare(monthlyRows(3), longSpec());
    const before = JSON.stringify(state);
    harness([put(REVENUE)]).step(state);
    expect(JSON.stringify(state)).toBe(before);
  });
});
