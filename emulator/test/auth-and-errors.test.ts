// Authentication, the error bodies, routes outside the contract and malformed requests.

import { DEMO_IDS, OUTSIDER_TOKEN } from '../demo-data';
import { NOT_EMULATED_ENDPOINTS } from '../routes/not-emulated';
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

describe('authentication', () => {
  it('answers 401 with exactly {errors:[{type:"unauthorized"}]} without a token', async () => {
    const answer = await get(emulator, '/metrics', `company_id=${fund}`, null);
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({ errors: [{ type: 'unauthorized' }] });
  });

  it('answers 401 for an unknown token and for a scheme other than Bearer', async () => {
    expect((await get(emulator, '/metrics', `company_id=${fund}`, 'wrong-token')).status).toBe(401);
    const basic = await call(emulator, 'GET', '/metrics', { query: `company_id=${fund}`, token: null, headers: { authorization: `Basic ${emulator.token}` } });
    expect(basic.status).toBe(401);
  });

  it('accepts the scheme in any case', async () => {
    const answer = await call(emulator, 'GET', '/metrics', {
      query: `company_id=${fund}`,
      token: null,
      headers: { authorization: `bearer ${emulator.token}` },
    });
    expect(answer.status).toBe(200);
  });

  it('checks the token before the parameters', async () => {
    expect((await get(emulator, '/data_points', 'page=0', null)).status).toBe(401);
  });

  it('answers 403 with exactly {errors:[{type:"forbidden"}]} for a company of another user', async () => {
    const answer = await get(emulator, '/portfolio_company_profiles', `company_id=${fund}`, OUTSIDER_TOKEN);
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({ errors: [{ type: 'forbidden' }] });
  });

  it('lets each token reach only its user companies', async () => {
    const answer = await get(emulator, '/portfolio_company_profiles', `company_id=${DEMO_IDS.otherFund}`, OUTSIDER_TOKEN);
    expect(answer.status).toBe(200);
    expect(answer.body.portfolio_company_profiles.map((p: { name: string }) => p.name)).toEqual(['Harbor Holdings']);
  });
});

describe('endpoints the document lists without payloads', () => {
  it.each(NOT_EMULATED_ENDPOINTS.map(([method, path]) => [method, path.replace(':id', DEMO_IDS.profile(1))]))('answers 501 to %s %s', async (method, path) => {
    const answer = await call(emulator, method, path, method === 'POST' || method === 'PUT' ? { body: {} } : {});
    expect(answer.status).toBe(501);
    expect(answer.body.errors[0].message).toBe("not emulated: the API document does not show this endpoint's payloads");
  });

  it('still asks for a token', async () => {
    expect((await call(emulator, 'GET', '/portfolio_folders', { token: null })).status).toBe(401);
  });
});

describe('requests outside the contract', () => {
  it('answers 404 record_missing to an unknown path', async () => {
    const answer = await get(emulator, '/widgets');
    expect(answer.status).toBe(404);
    expect(answer.body.errors[0]).toEqual(expect.objectContaining({ type: 'record_missing' }));
  });

  it('answers 404 to a method the path does not take', async () => {
    expect((await call(emulator, 'DELETE', '/metrics')).status).toBe(404);
  });

  it('answers 400 parameter_invalid to malformed JSON', async () => {
    const answer = await call(emulator, 'POST', '/metrics', { rawBody: '{"metric": {' });
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toEqual([{ type: 'parameter_invalid', field: 'body', message: 'is not valid JSON' }]);
  });

  it('answers 400 to a body that is not JSON', async () => {
    const answer = await call(emulator, 'POST', '/metrics', { rawBody: 'name=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0].type).toBe('parameter_invalid');
  });

  it('answers 400 to a missing body', async () => {
    const answer = await call(emulator, 'POST', '/contacts');
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0]).toEqual(expect.objectContaining({ type: 'parameter_invalid', field: 'contact' }));
  });
});
