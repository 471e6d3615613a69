// The add-in built with `--api-base-url https://api.example.com/`, in the runtime: it refuses to save or to use
// a base URL outside the prefix its manifest allows, with a sentence naming the prefix. The plain bundle
// (dist/, the tests' and the workbench's) still takes loopback.

import path from 'node:path';
import { createGasRuntime, type GasRuntime } from '../../gas-runtime';
import { CODE_PATH, DIST, buildWithAllowlist, ensureBuilt } from '../support/built-bundle';
import type { Rpc } from '../support/stack';

jest.setTimeout(120_000);

const OWNER = 'owner@example.com';
const COMPANY = '123e4567-e89b-12d3-a456-426614174000';
const REFUSAL =
  'The base URL must start with https://api.example.com/: this installation of the add-in may fetch only from there (the allowlist it was built with).';

let flaggedDir: string;
const runtimes: GasRuntime[] = [];
beforeAll(async () => {
  ensureBuilt();
  flaggedDir = await buildWithAllowlist('https://api.example.com/');
});
afterAll(() => Promise.all(runtimes.map((rt) => rt.close())));

function runtime(dir: string, codePath = path.join(dir, 'Code.js')): GasRuntime {
  const rt = createGasRuntime({ code: { path: codePath }, files: dir, owner: OWNER });
  runtimes.push(rt);
  return rt;
}

describe('the bundle built with --api-base-url https://api.example.com/', () => {
  it.each([
    ['the loopback emulator', 'http://127.0.0.1:8787'],
    ['another host', 'https://api.other.example.org/v1'],
    ['a host that only starts like the allowed one', 'https://api.example.com.evil.test/v1'],
  ])('refuses to save %s, naming the allowed prefix, and saves nothing', (_what, baseUrl) => {
    const rt = runtime(flaggedDir);
    const result = rt.callServer('saveSettings', [{ token: 'tok_live_ABCDEFGHIJKLmnop', baseUrl }]) as Rpc<unknown>;
    expect(result).toEqual({ ok: false, error: REFUSAL });
    expect(rt.properties.user(OWNER).getProperties()).toEqual({});
  });

  it('saves a base URL under the prefix', () => {
    const rt = runtime(flaggedDir);
    const result = rt.callServer('saveSettings', [{ baseUrl: 'https://api.example.com/v1' }]) as Rpc<{ baseUrl: string }>;
    expect(result).toEqual({ ok: true, value: expect.objectContaining({ baseUrl: 'https://api.example.com/v1' }) });
    expect(rt.properties.user(OWNER).getProperty('METRICS_API_BASE_URL')).toBe('https://api.example.com/v1');
  });

  it('refuses to use a base URL an admin script set outside the prefix, before any fetch', () => {
    const rt = runtime(flaggedDir);
    rt.properties.user(OWNER).setProperties({ METRICS_API_TOKEN: 'tok_live_ABCDEFGHIJKLmnop', METRICS_API_BASE_URL: 'http://127.0.0.1:8787' });
    const result = rt.callServer('testConnection', [COMPANY]) as Rpc<unknown>;
    expect(result).toEqual({ ok: false, error: `${REFUSAL} Open Extensions › Portfolio Metrics › Open sidebar › Settings and change the base URL.` });
    expect(rt.executions.map((e) => e.urlFetchCount)).toEqual([0]);
  });
});

describe('the plain bundle (dist/)', () => {
  it('still saves a loopback base URL, for the emulator', () => {
    const rt = runtime(DIST, CODE_PATH);
    const result = rt.callServer('saveSettings', [{ baseUrl: 'http://127.0.0.1:8787' }]) as Rpc<{ baseUrl: string }>;
    expect(result).toEqual({ ok: true, value: expect.objectContaining({ baseUrl: 'http://127.0.0.1:8787' }) });
  });
});
