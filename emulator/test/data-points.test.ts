// GET /data_points and PUT /metrics/{metric_id}/data_points, from the spec.

import { DEMO_IDS } from '../demo-data';
import type { RunningEmulator } from '../testing';
import { call, get, startConformanceEmulator } from './helpers';

let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await startConformanceEmulator();
});
afterAll(() => emulator.stop());
// Every test starts from the demo data: jest --randomize runs them in any order.
beforeEach(() => emulator.control.reset());

const m = DEMO_IDS.metrics;

/** A metric of its own for a test that writes, so tests never depend on each other. */
async function freshMetric(frequency: string, points: Array<{ date: string; value: string | null }> = []): Promise<string> {
  const created = await emulator.control.fixtures({ metrics: [{ company_id: DEMO_IDS.fund, frequency, name: `Fresh ${frequency}` }] });
  const metricId = created.metrics[0]!.id;
  if (points.length > 0) await emulator.control.fixtures({ data_points: points.map((point) => ({ metric_id: metricId, ...point })) });
  return metricId;
}

describe('GET /data_points', () => {
  it('answers newest first with 25 per page by default', async () => {
    const answer = await get(emulator, '/data_points', `metric_id=${m.monthlyRecurringRevenue}`);
    expect(answer.status).toBe(200);
    expect(answer.body.data_points).toHaveLength(25);
    expect(answer.body.meta).toEqual({ total: 78, total_pages: 4, page: 1 });
    const dates = answer.body.data_points.map((p: { date: string }) => p.date);
    expect(dates[0]).toBe('2025-06-01');
    expect([...dates].sort().reverse()).toEqual(dates);
    expect(answer.body.data_points[0]).not.toHaveProperty('source');
  });

  it('holds daily data over two years and monthly data over five', async () => {
    const daily = await get(emulator, '/data_points', `metric_id=${m.dailyActiveUsers}&page_size=100`);
    expect(daily.body.meta.total).toBe(731);
    const oldest = await get(emulator, '/data_points', `metric_id=${m.dailyActiveUsers}&page_size=100&page=8`);
    expect(oldest.body.data_points.at(-1).date).toBe('2023-07-01');
  });

  it('takes several metrics Rails style and orders newest first, then by metric', async () => {
    const answer = await get(emulator, '/data_points', `metric_id[]=${m.dailyRevenue}&metric_id[]=${m.dailyActiveUsers}&page_size=4`);
    expect(answer.body.data_points.map((p: { date: string; metric_id: string }) => [p.date, p.metric_id])).toEqual([
      ['2025-06-30', m.dailyRevenue],
      ['2025-06-30', m.dailyActiveUsers],
      ['2025-06-29', m.dailyRevenue],
      ['2025-06-29', m.dailyActiveUsers],
    ]);
    expect(answer.body.meta.total).toBe(1462);
  });

  it('keeps only the last metric of a bare repeated metric_id', async () => {
    const answer = await get(emulator, '/data_points', `metric_id=${m.dailyRevenue}&metric_id=${m.headcount}`);
    expect(new Set(answer.body.data_points.map((p: { metric_id: string }) => p.metric_id))).toEqual(new Set([m.headcount]));
  });

  it('refuses metric_id sent both bare and as a list, in either order, with 400 naming metric_id', async () => {
    for (const query of [`metric_id=${m.dailyRevenue}&metric_id[]=${m.headcount}`, `metric_id[]=${m.dailyRevenue}&metric_id=${m.headcount}`]) {
      const answer = await get(emulator, '/data_points', query);
      expect(answer.status).toBe(400);
      expect(answer.body.errors).toEqual([{ type: 'parameter_invalid', field: 'metric_id', message: expect.stringContaining('metric_id[]=a&metric_id[]=b') }]);
    }
  });

  it('checks the token before the mixed metric_id forms', async () => {
    const answer = await get(emulator, '/data_points', `metric_id=${m.dailyRevenue}&metric_id[]=${m.headcount}`, null);
    expect(answer.status).toBe(401);
  });

  it('filters by an inclusive date range', async () => {
    const answer = await get(emulator, '/data_points', `metric_id=${m.monthlyRecurringRevenue}&start_date=2024-01-01&end_date=2024-03-01`);
    expect(answer.body.data_points.map((p: { date: string }) => p.date)).toEqual(['2024-03-01', '2024-02-01', '2024-01-01']);
  });

  it('answers blank values as null, and exclude_blank=true drops them', async () => {
    const metricId = await freshMetric('monthly', [
      { date: '2024-01-01', value: '1.5' },
      { date: '2024-02-01', value: null },
      { date: '2024-03-01', value: '3' },
    ]);
    const all = await get(emulator, '/data_points', `metric_id=${metricId}`);
    expect(all.body.data_points.map((p: { value: string | null }) => p.value)).toEqual(['3', null, '1.5']);
    const filled = await get(emulator, '/data_points', `metric_id=${metricId}&exclude_blank=true`);
    expect(filled.body.data_points.map((p: { value: string | null }) => p.value)).toEqual(['3', '1.5']);
    expect(filled.body.meta.total).toBe(2);
  });

  it('carries the source object only with include_source=true', async () => {
    const answer = await get(emulator, '/data_points', `metric_id=${m.netBurn}&include_source=true&page_size=100`);
    const types = new Set(answer.body.data_points.map((p: { source: { source_type: string } }) => p.source.source_type));
    expect(types).toEqual(new Set(['ai_inbox', 'update_request', 'user_provided', 'unknown']));
    const unknown = answer.body.data_points.find((p: { source: { source_type: string } }) => p.source.source_type === 'unknown');
    expect(unknown.source).toEqual({ source_type: 'unknown', label: 'Unknown source' });
  });

  it('may carry source types the document does not list', async () => {
    const answer = await get(emulator, '/data_points', `metric_id=${m.cashBalance}&include_source=true&page_size=100`);
    expect(answer.body.data_points.some((p: { source: { source_type: string } }) => p.source.source_type === 'integration')).toBe(true);
  });

  it('answers an empty page with total_pages 0 for a metric without points', async () => {
    const answer = await get(emulator, '/data_points', `metric_id=${m.emptyMetric}`);
    expect(answer.body).toEqual({ data_points: [], meta: { total: 0, total_pages: 0, page: 1 } });
  });

  it.each([
    ['page=0', 'page'],
    ['page_size=0', 'page_size'],
    ['page_size=101', 'page_size'],
    ['page=abc', 'page'],
    ['exclude_blank=yes', 'exclude_blank'],
    ['include_source=1', 'include_source'],
    ['start_date=2024-02-30', 'start_date'],
  ])('answers 400 parameter_invalid for %s', async (extra, field) => {
    const answer = await get(emulator, '/data_points', `metric_id=${m.netBurn}&${extra}`);
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toEqual([{ type: 'parameter_invalid', field, message: expect.any(String) }]);
  });

  it('accepts page_size 1 and 100', async () => {
    expect((await get(emulator, '/data_points', `metric_id=${m.netBurn}&page_size=1`)).body.data_points).toHaveLength(1);
    expect((await get(emulator, '/data_points', `metric_id=${m.dailyRevenue}&page_size=100`)).body.data_points).toHaveLength(100);
  });

  it('answers 400 with field metric_id for a metric that does not exist or that the token cannot see', async () => {
    for (const metricId of ['99999999-0000-4000-8000-000000000000', m.otherFundRevenue]) {
      const answer = await get(emulator, '/data_points', `metric_id[]=${m.netBurn}&metric_id[]=${metricId}`);
      expect(answer.status).toBe(400);
      expect(answer.body.errors[0]).toEqual(expect.objectContaining({ type: 'parameter_invalid', field: 'metric_id' }));
    }
  });

  it('answers 400 when metric_id is missing', async () => {
    const answer = await get(emulator, '/data_points', 'page=1');
    expect(answer.body.errors).toEqual([{ type: 'parameter_invalid', field: 'metric_id', message: 'is required' }]);
  });
});

describe('PUT /metrics/{metric_id}/data_points', () => {
  const put = (metricId: string, body: unknown) => call(emulator, 'PUT', `/metrics/${metricId}/data_points`, { body });

  it('creates points and answers 200 with ids and the API source', async () => {
    const metricId = await freshMetric('monthly');
    const answer = await put(metricId, {
      data_points: [
        { date: '2025-01-01', value: '10.50' },
        { date: '2025-02-01', value: '-3' },
      ],
    });
    expect(answer.status).toBe(200);
    expect(answer.body.data_points).toHaveLength(2);
    expect(answer.body.data_points[0]).toEqual({
      id: expect.any(String),
      date: '2025-01-01',
      value: '10.50',
      metric_id: metricId,
      source: { source_type: 'user_provided', label: 'Provided via API', app_url: expect.stringMatching(/^https:\/\//) },
    });
  });

  it('updates the point already stored for a date, keeping its id', async () => {
    const metricId = await freshMetric('monthly', [{ date: '2025-03-01', value: '1' }]);
    const before = await get(emulator, '/data_points', `metric_id=${metricId}`);
    const answer = await put(metricId, { data_points: [{ date: '2025-03-01', value: '2' }] });
    expect(answer.body.data_points[0].id).toBe(before.body.data_points[0].id);
    const after = await get(emulator, '/data_points', `metric_id=${metricId}`);
    expect(after.body.data_points).toEqual([expect.objectContaining({ date: '2025-03-01', value: '2' })]);
  });

  it('accepts 50 items and refuses 51 with field data_points', async () => {
    const metricId = await freshMetric('daily');
    const items = (count: number) =>
      Array.from({ length: count }, (_, i) => ({ date: new Date(Date.UTC(2024, 0, 1 + i)).toISOString().slice(0, 10), value: String(i) }));
    expect((await put(metricId, { data_points: items(50) })).status).toBe(200);
    const refused = await put(metricId, { data_points: items(51) });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual([{ type: 'attribute_invalid', field: 'data_points', message: expect.any(String) }]);
  });

  it.each([
    ['monthly', '2024-01-02'],
    ['quarterly', '2024-02-01'],
    ['weekly', '2024-01-02'],
  ])('refuses a %s point dated %s, which is not a period start', async (frequency, date) => {
    const metricId = await freshMetric(frequency);
    const answer = await put(metricId, {
      data_points: [
        { date: '2024-01-01', value: '1' },
        { date, value: '1' },
      ],
    });
    expect(answer.status).toBe(422);
    expect(answer.body.errors).toEqual([{ type: 'attribute_invalid', field: 'data_points[1].date', message: expect.any(String) }]);
  });

  it('stores nothing when any item is invalid', async () => {
    const metricId = await freshMetric('monthly');
    await put(metricId, {
      data_points: [
        { date: '2024-01-01', value: '1' },
        { date: '2024-01-15', value: '2' },
      ],
    });
    expect((await get(emulator, '/data_points', `metric_id=${metricId}`)).body.meta.total).toBe(0);
  });

  it('refuses values that are not decimal text', async () => {
    const metricId = await freshMetric('daily');
    const answer = await put(metricId, {
      data_points: [
        { date: '2024-01-01', value: '1,5' },
        { date: '2024-01-02', value: '1e3' },
        { date: '2024-01-03', value: '' },
      ],
    });
    expect(answer.status).toBe(422);
    expect(answer.body.errors.map((e: { field: string }) => e.field)).toEqual(['data_points[0].value', 'data_points[1].value', 'data_points[2].value']);
  });

  it('refuses two items with the same date', async () => {
    const metricId = await freshMetric('daily');
    const answer = await put(metricId, {
      data_points: [
        { date: '2024-01-01', value: '1' },
        { date: '2024-01-01', value: '2' },
      ],
    });
    expect(answer.body.errors).toEqual([{ type: 'attribute_invalid', field: 'data_points[1].date', message: expect.stringContaining('data_points[0]') }]);
  });

  it('answers 404 record_missing for an unknown metric', async () => {
    const answer = await put('99999999-0000-4000-8000-000000000000', { data_points: [{ date: '2024-01-01', value: '1' }] });
    expect(answer.status).toBe(404);
    expect(answer.body.errors[0].type).toBe('record_missing');
  });

  it('answers 403 for a metric of a company the token cannot access', async () => {
    const answer = await put(m.otherFundRevenue, { data_points: [{ date: '2024-01-01', value: '1' }] });
    expect(answer.status).toBe(403);
  });

  it('answers 400 when data_points is not an array', async () => {
    const answer = await put(m.netBurn, { data_points: { date: '2024-01-01', value: '1' } });
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0]).toEqual(expect.objectContaining({ type: 'parameter_invalid', field: 'data_points' }));
  });
});
