// GET and POST /metrics, from the spec.

import { DEMO_IDS, HTML_METRIC_NAME } from '../demo-data';
import type { RunningEmulator } from '../testing';
import { call, get, startConformanceEmulator } from './helpers';

let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await startConformanceEmulator();
});
afterAll(() => emulator.stop());
// Every test starts from the demo data: jest --randomize runs them in any order.
beforeEach(() => emulator.control.reset());

const fund = DEMO_IDS.fund;

describe('GET /metrics', () => {
  it('lists the fund metrics with meta, without created_at', async () => {
    const answer = await get(emulator, '/metrics', `company_id=${fund}`);
    expect(answer.status).toBe(200);
    expect(answer.body.meta).toEqual({ total: 114, total_pages: 5, page: 1 });
    expect(answer.body.metrics[0]).toEqual({
      id: DEMO_IDS.metrics.dailyActiveUsers,
      name: 'Daily Active Users',
      frequency: 'daily',
      unit: 'number',
      portfolio_company_profile_id: DEMO_IDS.profile(1),
      company_id: fund,
    });
    expect(answer.body.metrics.map((m: { name: string }) => m.name)).toContain(HTML_METRIC_NAME);
  });

  it('returns frequencies beyond the documented four, as live accounts do', async () => {
    const answer = await get(emulator, '/metrics', `company_id=${fund}`);
    expect(answer.body.metrics.find((m: { id: string }) => m.id === DEMO_IDS.metrics.auditedRevenue).frequency).toBe('annually');
  });

  it('filters by filter[portfolio_company_profile_id] in deep-object style', async () => {
    const answer = await get(emulator, '/metrics', `company_id=${fund}&filter[portfolio_company_profile_id]=${DEMO_IDS.profile(1)}`);
    expect(answer.status).toBe(200);
    expect(answer.body.metrics.map((m: { id: string }) => m.id)).toEqual([
      DEMO_IDS.metrics.dailyActiveUsers,
      DEMO_IDS.metrics.weeklySignups,
      DEMO_IDS.metrics.monthlyRecurringRevenue,
      DEMO_IDS.metrics.auditedRevenue,
    ]);
  });

  it('answers 400 when filter is not an object', async () => {
    const answer = await get(emulator, '/metrics', `company_id=${fund}&filter=${DEMO_IDS.profile(1)}`);
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0]).toEqual(expect.objectContaining({ type: 'parameter_invalid', field: 'filter' }));
  });

  it('answers 400 for a filter profile that is not of the company', async () => {
    const answer = await get(emulator, '/metrics', `company_id=${DEMO_IDS.startup}&filter[portfolio_company_profile_id]=${DEMO_IDS.profile(1)}`);
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0].field).toBe('filter[portfolio_company_profile_id]');
  });

  it('answers 400 parameter_invalid when company_id is missing or not a uuid', async () => {
    const missing = await get(emulator, '/metrics');
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual([{ type: 'parameter_invalid', field: 'company_id', message: 'is required' }]);
    const malformed = await get(emulator, '/metrics', 'company_id=42');
    expect(malformed.body.errors[0]).toEqual({ type: 'parameter_invalid', field: 'company_id', message: 'must be a UUID' });
  });

  it('answers 403 for a company the token cannot access, and for one that does not exist', async () => {
    for (const company of [DEMO_IDS.otherFund, '99999999-0000-4000-8000-000000000000']) {
      const answer = await get(emulator, '/metrics', `company_id=${company}`);
      expect(answer.status).toBe(403);
      expect(answer.body).toEqual({ errors: [{ type: 'forbidden' }] });
    }
  });

  it('pages at 25: the last page, a page beyond it, and page 0', async () => {
    const [company] = (await emulator.control.fixtures({ companies: [{ name: 'Paged Co', kind: 'startup' }] })).companies;
    await emulator.control.fixtures({ metrics: Array.from({ length: 27 }, (_, i) => ({ company_id: company!.id, name: `M${i}` })) });
    const last = await get(emulator, '/metrics', `company_id=${company!.id}&page=2`);
    expect(last.body.metrics).toHaveLength(2);
    expect(last.body.meta).toEqual({ total: 27, total_pages: 2, page: 2 });
    const beyond = await get(emulator, '/metrics', `company_id=${company!.id}&page=3`);
    expect(beyond.status).toBe(200);
    expect(beyond.body).toEqual({ metrics: [], meta: { total: 27, total_pages: 2, page: 3 } });
    const zero = await get(emulator, '/metrics', `company_id=${company!.id}&page=0`);
    expect(zero.status).toBe(400);
    expect(zero.body.errors[0].field).toBe('page');
  });

  it('answers an empty list with total_pages 0 for a company without metrics', async () => {
    const [company] = (await emulator.control.fixtures({ companies: [{ name: 'Bare Co' }] })).companies;
    const answer = await get(emulator, '/metrics', `company_id=${company!.id}`);
    expect(answer.body).toEqual({ metrics: [], meta: { total: 0, total_pages: 0, page: 1 } });
  });
});

describe('POST /metrics', () => {
  it('creates a metric and answers 201 with created_at', async () => {
    const answer = await call(emulator, 'POST', '/metrics', {
      body: { metric: { name: 'Bookings', frequency: 'monthly', unit: 'EUR', company_id: DEMO_IDS.startup } },
    });
    expect(answer.status).toBe(201);
    expect(answer.body.metric).toEqual(expect.objectContaining({ name: 'Bookings', frequency: 'monthly', unit: 'EUR', company_id: DEMO_IDS.startup }));
    expect(answer.body.metric.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
    const state = await emulator.control.state();
    expect(state.metrics.some((m) => m.id === answer.body.metric.id)).toBe(true);
  });

  it('answers 422 attribute_invalid per bad attribute', async () => {
    const answer = await call(emulator, 'POST', '/metrics', {
      body: { metric: { name: 'X', frequency: 'annually', unit: 'dollars', company_id: fund } },
    });
    expect(answer.status).toBe(422);
    expect(answer.body.errors).toEqual([
      { type: 'attribute_invalid', field: 'frequency', message: 'must be one of: daily, weekly, monthly, quarterly' },
      { type: 'attribute_invalid', field: 'unit', message: expect.any(String) },
    ]);
  });

  it('answers 422 naming a missing attribute', async () => {
    const answer = await call(emulator, 'POST', '/metrics', { body: { metric: { frequency: 'daily', unit: 'number', company_id: fund } } });
    expect(answer.status).toBe(422);
    expect(answer.body.errors).toEqual([{ type: 'attribute_invalid', field: 'name', message: 'is required' }]);
  });

  it('answers 400 when the metric root key is missing', async () => {
    const answer = await call(emulator, 'POST', '/metrics', { body: { name: 'x' } });
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0]).toEqual(expect.objectContaining({ type: 'parameter_invalid', field: 'metric' }));
  });

  it('answers 403 for a company the token cannot access', async () => {
    const answer = await call(emulator, 'POST', '/metrics', {
      body: { metric: { name: 'X', frequency: 'daily', unit: 'number', company_id: DEMO_IDS.otherFund } },
    });
    expect(answer.status).toBe(403);
  });
});
