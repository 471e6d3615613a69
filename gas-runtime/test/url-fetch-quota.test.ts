// URL Fetch's daily quota: "URL Fetch calls 20,000 / day", per user, reset 24 hours after the first request.

import { createGasRuntime, type GasRuntime } from '../index';
import { fixture } from './support/fixtures';
import { useTestServer, type TestServer } from './support/test-server';

const OVER_QUOTA = 'Service invoked too many times for one day: urlfetch.';
const OWNER = 'owner@example.com';
const EDITOR = 'editor@example.com';
let server: TestServer;
let rt: GasRuntime;

useTestServer((started) => (server = started));
beforeEach(() => {
  rt = createGasRuntime({ code: fixture('fetch'), owner: OWNER, urlFetchDailyQuota: 3, startTime: new Date('2024-03-01T12:00:00Z') });
});
afterEach(async () => {
  await rt.close();
});

describe('the URL Fetch daily quota', () => {
  it('is 20,000 by default', () => {
    expect(createGasRuntime({ code: '' }).urlFetchQuota.limit).toBe(20_000);
  });

  it('refuses every fetch past the quota across executions, sending nothing', async () => {
    for (let i = 0; i < 3; i++) expect(rt.run('fetchResponse', [`${server.url}/status/200`])).toMatchObject({ code: 200 });
    expect(rt.run('fetchFailure', [`${server.url}/status/200`])).toMatchObject({ name: 'Exception', message: OVER_QUOTA });
    expect(() => rt.run('fetchResponse', [`${server.url}/status/200`])).toThrow(OVER_QUOTA);
    expect((await server.stats()).requests).toBe(3);
    expect(rt.urlFetchQuota.used(OWNER)).toBe(3);
  });

  it('counts each request of a fetchAll, and refuses one that does not fit whole', async () => {
    expect(rt.run('fetchAllTimed', [[`${server.url}/status/200`, `${server.url}/status/200`]])).toMatchObject({ texts: ['error 200', 'error 200'] });
    expect(rt.run('fetchAllFailure', [[`${server.url}/status/200`, `${server.url}/status/200`]])).toBe(OVER_QUOTA);
    expect((await server.stats()).requests).toBe(2);
    expect(rt.run('fetchResponse', [`${server.url}/status/200`])).toMatchObject({ code: 200 });
  });

  it('counts requests that failed too', async () => {
    for (let i = 0; i < 3; i++) rt.run('fetchResponse', [`${server.url}/status/500`, { muteHttpExceptions: true }]);
    expect(rt.run('fetchFailure', [`${server.url}/status/200`])).toMatchObject({ message: OVER_QUOTA });
  });

  it('is per user, and custom functions count against the owner', () => {
    for (let i = 0; i < 3; i++) rt.run('fetchResponse', [`${server.url}/status/200`], { user: OWNER });
    expect(rt.run('fetchResponse', [`${server.url}/status/200`], { user: EDITOR })).toMatchObject({ code: 200 });
    expect(() => rt.runCustomFunction('FETCH_TEXT', [`${server.url}/status/200`], { user: EDITOR })).toThrow(OVER_QUOTA);
    expect(rt.urlFetchQuota.used(EDITOR)).toBe(1);
  });

  it('resets 24 hours after the first request', () => {
    rt.run('fetchResponse', [`${server.url}/status/200`]);
    rt.clock.advance(60 * 60_000);
    rt.run('fetchResponse', [`${server.url}/status/200`]);
    rt.run('fetchResponse', [`${server.url}/status/200`]);
    // 23 hours after the first request: still the same day's quota.
    rt.clock.advance(22 * 60 * 60_000);
    expect(rt.run('fetchFailure', [`${server.url}/status/200`])).toMatchObject({ message: OVER_QUOTA });
    rt.clock.advance(60 * 60_000);
    expect(rt.run('fetchResponse', [`${server.url}/status/200`])).toMatchObject({ code: 200 });
    expect(rt.urlFetchQuota.used(OWNER)).toBe(1);
  });
});
