// Any edits pushed through the real client (requester, retries, rate limit) over a network that refuses,
// fails, throttles and loses answers at random: every cell ends accounted for, no confirmed cell is sent
// again, and the snapshot the server records leaves only the refused cells for a fresh push.

import { NetworkError } from '../../../src/core/errors';
import fc from 'fast-check';
import { PROPERTY_SEED, seeded } from '../../support/property-seed';
import { createApiClient } from '../../../src/core/api/client';
import type { HttpRequest, HttpResponse, Transport } from '../../../src/core/api/transport';
import { buildAuditPushReport } from '../../../src/core/audit/push-report';
import { runAuditPushStep } from '../../../src/core/audit/run-push-step';
import { applySnapshotUpdates } from '../../../src/core/audit/snapshot';
import type { AuditPushState } from '../../../src/core/audit/types';
import { resumeAuditPush } from '../../../src/core/audit/write-back';
import { FakeClock } from '../../support/scripted-transport';
import { edit, fundModel, fundSchema, preparePush, PROFILE, PROPERTY, readBack } from './audit-fixtures';

const model = fundModel();
const schema = fundSchema();

/** What the network does to one request. */
type Fault = 'pass' | '503' | '429' | 'drop' | 'lost-answer' | '422';
const fault = fc.constantFrom<Fault>('pass', 'pass', 'pass', '503', '429', 'drop', 'lost-answer', '422');

/**
 * A small stand-in for PUT /portfolio_property_values: an upsert per (profile, property) answering 201
 * or 200 as the API does, with a fault drawn per request. "lost-answer" stores the value and loses the
 * answer (the server acted); "drop" loses the request before the server sees it.
 */
class FlakyValueStore implements Transport {
  readonly stored = new Map<string, unknown>();
  /** 2xx answers the client received, per cell. */
  readonly confirmed = new Map<string, number>();
  private next = 0;

  constructor(private readonly faults: readonly Fault[]) {}

  fetch(request: HttpRequest): HttpResponse {
    const answer = this.answer(request);
    if (answer instanceof NetworkError) throw answer;
    return answer;
  }

  fetchAll(requests: HttpRequest[]): Array<HttpResponse | NetworkError> {
    return requests.map((request) => this.answer(request));
  }

  private answer(request: HttpRequest): HttpResponse | NetworkError {
    if (request.method !== 'PUT' || !request.url.endsWith('/portfolio_property_values'))
      throw new Error(`Unexpected request: ${request.method} ${request.url}`);
    // Once the scripted faults are spent the network heals, so every push can end.
    const what = this.faults[this.next++] ?? 'pass';
    const body = (JSON.parse(request.body ?? '{}') as { portfolio_property_value: Record<string, unknown> }).portfolio_property_value;
    const key = `${String(body['portfolio_company_profile_id'])}/${String(body['portfolio_property_id'])}`;
    if (what === 'drop') return new NetworkError('connection reset', request.url);
    if (what === '503') return { status: 503, headers: {}, body: 'Service Unavailable' };
    if (what === '429') return { status: 429, headers: {}, body: JSON.stringify({ errors: [{ type: 'rate_limited', message: 'Too many requests' }] }) };
    if (what === '422')
      return { status: 422, headers: {}, body: JSON.stringify({ errors: [{ type: 'attribute_invalid', field: 'value', message: 'is invalid' }] }) };
    const existed = this.stored.has(key);
    this.stored.set(key, { ...body });
    if (what === 'lost-answer') return new NetworkError('connection reset after the request was sent', request.url);
    this.confirmed.set(key, (this.confirmed.get(key) ?? 0) + 1);
    return { status: existed ? 200 : 201, headers: {}, body: JSON.stringify({ portfolio_property_value: { id: 'v', ...body } }) };
  }
}

const EDITABLE = [PROPERTY.headquarters, PROPERTY.employees, PROPERTY.memo] as const;
const edits = fc.array(
  fc.record({
    profile: fc.constantFrom(...Object.values(PROFILE)),
    property: fc.constantFrom(...EDITABLE),
    text: fc.stringMatching(/^[A-Za-z][A-Za-z ]{0,11}$/),
    number: fc.integer({ min: 0, max: 100_000 }),
  }),
  { minLength: 1, maxLength: 9 },
);

it(`accounts for every cell, never resends a confirmed one, and leaves only refused cells for a fresh push (seed ${PROPERTY_SEED})`, () => {
  fc.assert(
    fc.property(edits, fc.array(fault, { minLength: 1, maxLength: 40 }), fc.integer({ min: 1, max: 4 }), (cells, faults, waveSize) => {
      const sheet = readBack(model.values);
      for (const cell of cells) edit(sheet, cell.profile, cell.property, cell.property === PROPERTY.employees ? cell.number : `${cell.text} ${cell.number}`);
      let state: AuditPushState = preparePush(sheet, model, schema);
      const planned = state.items.filter((item) => item.outcome === 'pending').length;
      const store = new FlakyValueStore(faults);
      const clock = new FakeClock(Date.UTC(2025, 0, 6, 9));
      for (let step = 0; step < 60 && state.status !== 'done'; step++) {
        if (state.status === 'paused') state = resumeAuditPush(state);
        const api = createApiClient({
          baseUrl: 'https://api.test',
          token: 'token-123456',
          transport: store,
          clock,
          deadline: clock.now() + 270_000,
          retry: { random: () => 0.5, maxRetries: 2 },
        });
        if (state.notBefore !== undefined && clock.now() < state.notBefore) clock.sleep(state.notBefore - clock.now());
        state = runAuditPushStep(state, api, { deadline: clock.now() + 270_000, marginMs: 30_000, waveSize }).state;
      }
      expect(state.status).toBe('done');
      const report = buildAuditPushReport(state);
      expect(Object.values(report.totals).reduce((a, b) => a + b, 0)).toBe(report.cellsCompared);
      expect(report.totals.pending).toBe(0);
      expect(report.totals.created + report.totals.updated + report.totals.failed).toBe(planned);
      for (const item of state.items) {
        const key = `${state.profiles[item.profile]!.id}/${state.properties[item.property]!.id}`;
        if (item.outcome === 'created' || item.outcome === 'updated') {
          // Confirmed once, and never sent again after that.
          expect([key, store.confirmed.get(key)]).toEqual([key, 1]);
          expect(store.stored.has(key)).toBe(true);
        }
        if (item.outcome === 'failed') expect(item.reason).toMatch(/is invalid/);
      }
      // The server records the confirmed cells in the snapshot: a fresh push plans only the refused ones.
      const recorded = { ...model, snapshot: applySnapshotUpdates(model.snapshot, report.snapshotUpdates) };
      const fresh = preparePush(sheet, recorded, schema);
      expect(fresh.items.filter((item) => item.outcome === 'pending')).toHaveLength(report.totals.failed);
    }),
    seeded(100),
  );
});
