// The manifest's urlFetchWhitelist: URLs outside it are refused before sending, and the manifest is checked.

import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createGasRuntime, GasRuntimeUsageError, type GasRuntime } from '../index';
import { UrlFetchAllowlist } from '../url-fetch-limits';
import { FIXTURES } from './support/fixtures';
import { useTestServer, type TestServer } from './support/test-server';

let server: TestServer;
const dirs: string[] = [];
const runtimes: GasRuntime[] = [];

useTestServer((started) => (server = started));
afterAll(async () => {
  await Promise.all(runtimes.map((rt) => rt.close()));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  await server.resetStats();
});

/** fetch.js beside an appsscript.json with the given whitelist, in a fresh temporary folder. */
function withManifest(urlFetchWhitelist: unknown): GasRuntime {
  const dir = mkdtempSync(path.join(tmpdir(), 'gas-allowlist-'));
  dirs.push(dir);
  copyFileSync(path.join(FIXTURES, 'fetch.js'), path.join(dir, 'Code.js'));
  writeFileSync(path.join(dir, 'appsscript.json'), JSON.stringify({ timeZone: 'Etc/UTC', urlFetchWhitelist }));
  const rt = createGasRuntime({ code: { path: path.join(dir, 'Code.js') }, fetchTimeoutMs: 500 });
  runtimes.push(rt);
  return rt;
}

const refusal = (url: string) => `Request to ${url} failed because the URL has not been whitelisted in the script manifest.`;

describe('urlFetchWhitelist', () => {
  it('refuses a URL no prefix matches, before sending it', async () => {
    const rt = withManifest(['https://api.example.com/v1/']);
    const url = `${server.url}/status/200`;
    expect(rt.run('fetchFailure', [url])).toMatchObject({ name: 'Exception', message: refusal(url) });
    expect(rt.run('fetchAllFailure', [[url]])).toBe(refusal(url));
    expect((await server.stats()).requests).toBe(0);
    expect(rt.urlFetchQuota.used('owner@example.com')).toBe(0);
  });

  it('lets a matching URL through (here to a closed port, so the network error proves it was sent)', () => {
    const rt = withManifest(['https://127.0.0.1:9/v1/']);
    expect(rt.run('fetchFailure', ['https://127.0.0.1:9/v1/metrics?x=1'])).toMatchObject({
      message: 'Address unavailable: https://127.0.0.1:9/v1/metrics?x=1',
    });
  });

  it.each([
    ['https://api.example.com/v1', 'https://api.example.com/v1', true],
    ['https://api.example.com/v1', 'https://api.example.com/v1/metrics', true],
    ['https://api.example.com/v1', 'https://api.example.com/v1?page=2', true],
    ['https://api.example.com/v1', 'https://api.example.com/v10', false],
    ['https://api.example.com/v1/', 'https://api.example.com/V1/metrics', false],
    ['https://api.example.com/', 'http://api.example.com/', false],
    ['https://api.example.com/', 'https://api.example.com.evil.test/', false],
    ['https://*.example.com/', 'https://eu.api.example.com/x', true],
    ['https://*.example.com/', 'https://example.com/x', false],
  ])('prefix %s, URL %s: allowed %s', (prefix, url, allowed) => {
    // Matched without fetching: these hosts are not to be looked up from a test.
    expect(new UrlFetchAllowlist([prefix], 'test').allows(url)).toBe(allowed);
  });

  it.each([
    [['http://api.example.com/'], /must use https:\/\//],
    [['https://api.example.com'], /non-empty path/],
    [['api.example.com/'], /not a valid URL/],
    [['https://exa mple.com/'], /not a valid URL/],
    [[42], /not a string/],
    [[], /non-empty list/],
    ['https://api.example.com/', /non-empty list/],
  ])('refuses a manifest whitelist of %j', (whitelist, message) => {
    expect(() => withManifest(whitelist)).toThrow(GasRuntimeUsageError);
    expect(() => withManifest(whitelist)).toThrow(message);
  });

  it('is not applied without a whitelist', () => {
    const rt = createGasRuntime({ code: { path: path.join(FIXTURES, 'fetch.js') } });
    runtimes.push(rt);
    expect(rt.run('fetchResponse', [`${server.url}/status/200`])).toMatchObject({ code: 200 });
  });
});
