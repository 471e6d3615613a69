// The control API: health, request log, fixtures, state, reset, clock, and persistence with a data file.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEMO_IDS, DEMO_TOKEN } from '../demo-data';
import { startEmulatorInProcess, type RunningEmulator } from '../testing';
import { call, get, startConformanceEmulator } from './helpers';

let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await startConformanceEmulator();
});
afterAll(() => emulator.stop());
// Every test starts from the demo data: jest --randomize runs them in any order.
beforeEach(() => emulator.control.reset());

describe('control API', () => {
  it('reports health with the token and company', async () => {
    const health = await (await fetch(`${emulator.url}/__emulator/health`)).json();
    expect(health).toEqual({ status: 'ok', token: DEMO_TOKEN, companyId: DEMO_IDS.fund, now: expect.any(String) });
  });

  it('logs API requests with method, path, query, status, time, body and the user whose token was used, and clears the log', async () => {
    await emulator.control.clearRequests();
    await get(emulator, '/metrics', `company_id=${DEMO_IDS.fund}&page=1`);
    await call(emulator, 'POST', '/metrics', { body: { metric: { name: 'Logged', frequency: 'daily', unit: 'number', company_id: DEMO_IDS.startup } } });
    const log = await emulator.control.requests();
    expect(log).toEqual([
      { method: 'GET', path: '/metrics', query: `company_id=${DEMO_IDS.fund}&page=1`, status: 200, time: expect.any(String), userId: DEMO_IDS.demoUser },
      expect.objectContaining({ method: 'POST', path: '/metrics', query: '', status: 201, body: { metric: expect.objectContaining({ name: 'Logged' }) } }),
    ]);
    await emulator.control.clearRequests();
    expect(await emulator.control.requests()).toEqual([]);
  });

  it('adds fixtures: a company, a user whose token reaches only it, and its records', async () => {
    const created = await emulator.control.fixtures({
      companies: [{ name: 'Fixture Fund', kind: 'investor', access_tokens: [] }],
    });
    const companyId = created.companies[0]!.id;
    await emulator.control.fixtures({
      users: [{ token: 'fixture-token', company_ids: [companyId] }],
      portfolio_company_profiles: [{ id: '11111111-0000-4000-8000-000000000001', company_id: companyId, name: 'Only Profile' }],
    });
    const own = await get(emulator, '/portfolio_company_profiles', `company_id=${companyId}`, 'fixture-token');
    expect(own.body.portfolio_company_profiles.map((p: { id: string }) => p.id)).toEqual(['11111111-0000-4000-8000-000000000001']);
    expect((await get(emulator, '/portfolio_company_profiles', `company_id=${companyId}`)).status).toBe(403);
    expect((await get(emulator, '/metrics', `company_id=${DEMO_IDS.fund}`, 'fixture-token')).status).toBe(403);
  });

  it('gives new fixture companies to the default token unless told otherwise', async () => {
    const created = await emulator.control.fixtures({ companies: [{ name: 'Startup Fixture', kind: 'startup' }] });
    expect((await get(emulator, '/metrics', `company_id=${created.companies[0]!.id}`)).status).toBe(200);
    expect((await get(emulator, '/portfolio_properties', `company_id=${created.companies[0]!.id}`)).status).toBe(403);
  });

  it('refuses a fixture that names a missing record, leaving the state untouched', async () => {
    const before = (await emulator.control.state()).metrics.length;
    await expect(
      emulator.control.fixtures({
        metrics: [{ company_id: DEMO_IDS.fund, name: 'Orphan' }, { company_id: '99999999-0000-4000-8000-000000000000' }],
      }),
    ).rejects.toThrow(/no company/);
    expect((await emulator.control.state()).metrics.length).toBe(before);
  });

  it('exposes the full state', async () => {
    const state = await emulator.control.state();
    expect(state.companies.map((c) => c.name)).toEqual(expect.arrayContaining(['Northwind Ventures', 'Acme Analytics', 'Blue Harbor Partners']));
    expect(state.portfolio_properties.filter((p) => p.auto_calculated)).toHaveLength(5);
  });

  it('stamps new records with the advanced clock', async () => {
    await emulator.control.advanceClock(24 * 3600 * 1000);
    const answer = await call(emulator, 'POST', '/metrics', {
      body: { metric: { name: 'Tomorrow', frequency: 'daily', unit: 'number', company_id: DEMO_IDS.startup } },
    });
    expect(Date.parse(answer.body.metric.created_at) - Date.now()).toBeGreaterThan(23 * 3600 * 1000);
  });
});

describe('reset', () => {
  it('returns to the demo data', async () => {
    await call(emulator, 'POST', '/metrics', { body: { metric: { name: 'Temporary', frequency: 'daily', unit: 'number', company_id: DEMO_IDS.fund } } });
    await emulator.control.reset();
    const answer = await get(emulator, '/metrics', `company_id=${DEMO_IDS.fund}`);
    expect(answer.body.meta.total).toBe(114);
  });

  it('empties everything but the fund and its token on request', async () => {
    await emulator.control.reset({ empty: true });
    const state = await emulator.control.state();
    expect(state.companies).toEqual([{ id: DEMO_IDS.fund, name: 'Northwind Ventures', kind: 'investor' }]);
    expect(state.metrics).toEqual([]);
    expect((await get(emulator, '/metrics', `company_id=${DEMO_IDS.fund}`)).body.meta).toEqual({ total: 0, total_pages: 0, page: 1 });
    await emulator.control.reset();
  });
});

describe('persistence with a data file', () => {
  it('keeps what was written across restarts', async () => {
    const directory = mkdtempSync(path.join(tmpdir(), 'emulator-'));
    const dataFile = path.join(directory, 'state.json');
    try {
      const first = await startEmulatorInProcess({ dataFile });
      const created = await call(first, 'POST', '/metrics', {
        body: { metric: { name: 'Persisted', frequency: 'weekly', unit: 'percent', company_id: DEMO_IDS.fund } },
      });
      await first.stop();
      const second = await startEmulatorInProcess({ dataFile });
      // The demo fund's 114 metrics fill pages 1..5 of 25; the one created comes last.
      const listed = await get(second, '/metrics', `company_id=${DEMO_IDS.fund}&page=5`);
      expect(listed.body.metrics.map((m: { id: string }) => m.id)).toContain(created.body.metric.id);
      await second.stop();
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
