// The Apps Script adapters against small fakes of the services they wrap.

import { LockUnavailableError, FetchRefusedError, NetworkError, userSentence } from '../../src/core/errors';
import { createUrlFetchTransport } from '../../src/gas/urlfetch-transport';
import { readCredentials, readSettingsGeneration, readSettingsSummary, saveCheckedSettings, TOKEN_KEY, BASE_URL_KEY } from '../../src/gas/user-settings';
import { validateBaseUrl } from '../../src/core/settings/base-url';
import { validateToken } from '../../src/core/settings/token';
import { userMutex, wrapCache } from '../../src/gas/cache-and-lock';

type Globals = Record<string, unknown>;
const g = globalThis as unknown as Globals;

function fakeResponse(status: number, body: string, headers: Record<string, string | string[]> = {}) {
  return { getResponseCode: () => status, getContentText: () => body, getAllHeaders: () => headers };
}

afterEach(() => {
  for (const name of ['UrlFetchApp', 'PropertiesService', 'LockService']) delete g[name];
});

describe('UrlFetchApp transport', () => {
  it('sends with muteHttpExceptions, no redirects, JSON content type, and lower-cases headers', () => {
    const calls: Array<[string, Record<string, unknown>]> = [];
    g['UrlFetchApp'] = {
      fetch: (url: string, params: Record<string, unknown>) => (
        calls.push([url, params]), fakeResponse(429, '{}', { 'Retry-After': '5', 'Set-Cookie': ['a', 'b'] })
      ),
    };
    const response = createUrlFetchTransport().fetch({
      method: 'PUT',
      url: 'https://x/y',
      headers: { Authorization: 'Bearer t', 'Content-Type': 'application/json' },
      body: '{"a":1}',
    });
    expect(response).toEqual({ status: 429, body: '{}', headers: { 'retry-after': '5', 'set-cookie': 'a, b' } });
    expect(calls[0]![1]).toEqual({
      method: 'put',
      headers: { Authorization: 'Bearer t' },
      muteHttpExceptions: true,
      followRedirects: false,
      payload: '{"a":1}',
      contentType: 'application/json',
    });
  });

  it('turns a thrown fetch into a NetworkError without the query string', () => {
    g['UrlFetchApp'] = {
      fetch: () => {
        throw new Error('Address unavailable');
      },
    };
    expect(() => createUrlFetchTransport().fetch({ method: 'GET', url: 'https://x/y?secret=1', headers: {} })).toThrow(NetworkError);
    try {
      createUrlFetchTransport().fetch({ method: 'GET', url: 'https://x/y?secret=1', headers: {} });
    } catch (error) {
      expect((error as Error).message).toBe('Could not reach https://x/y: Address unavailable');
    }
  });

  it.each([
    ['Service invoked too many times for one day: urlfetch.', 'daily_quota', /daily quota of URL fetches .* renews within 24 hours/],
    ['Limit Exceeded: URLFetch URL Length.', 'url_too_long', /over its 2 kB limit, so nothing was sent\. Ask for fewer metrics/],
    ['Exception: Payload too large', 'payload_too_large', /too large, so nothing was sent\. Select fewer rows/],
  ])('turns Apps Script refusing to send ("%s") into a FetchRefusedError with what to do', (message, reason, sentence) => {
    g['UrlFetchApp'] = {
      fetch: () => {
        throw new Error(message);
      },
    };
    let caught: unknown;
    try {
      createUrlFetchTransport().fetch({ method: 'GET', url: 'https://x/y?secret=1', headers: {} });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(FetchRefusedError);
    expect((caught as FetchRefusedError).reason).toBe(reason);
    expect(userSentence(caught)).toMatch(sentence);
    expect(userSentence(caught)).not.toContain('secret');
  });

  it('refuses a URL over 2 kB itself, and still sends the rest of the wave', () => {
    const sent: string[][] = [];
    g['UrlFetchApp'] = { fetchAll: (requests: Array<{ url: string }>) => (sent.push(requests.map((r) => r.url)), requests.map(() => fakeResponse(200, '{}'))) };
    const long = `https://x/y?ids=${'a'.repeat(2100)}`;
    const results = createUrlFetchTransport().fetchAll([
      { method: 'GET', url: 'https://x/1', headers: {} },
      { method: 'GET', url: long, headers: {} },
      { method: 'GET', url: 'https://x/3', headers: {} },
    ]);
    expect(sent).toEqual([['https://x/1', 'https://x/3']]);
    expect(results[0]).toEqual({ status: 200, body: '{}', headers: {} });
    expect(results[1]).toBeInstanceOf(FetchRefusedError);
    expect((results[1] as FetchRefusedError).reason).toBe('url_too_long');
    expect(results[2]).toEqual({ status: 200, body: '{}', headers: {} });
  });

  it('refuses the whole wave when fetchAll hits the daily quota, sending nothing one by one', () => {
    let singles = 0;
    g['UrlFetchApp'] = {
      fetchAll: () => {
        throw new Error('Service invoked too many times for one day: urlfetch.');
      },
      fetch: () => (singles++, fakeResponse(200, '{}')),
    };
    const results = createUrlFetchTransport().fetchAll([
      { method: 'GET', url: 'https://x/1', headers: {} },
      { method: 'PUT', url: 'https://x/2', headers: {}, body: '{}' },
    ]);
    expect(results.map((r) => (r as FetchRefusedError).reason)).toEqual(['daily_quota', 'daily_quota']);
    expect(singles).toBe(0);
  });

  it('fails every request of the wave when fetchAll throws for one lost connection, sending nothing again itself', () => {
    let singles = 0;
    g['UrlFetchApp'] = {
      fetchAll: () => {
        throw new Error('Address unavailable: https://x/bad?secret=1');
      },
      fetch: () => (singles++, fakeResponse(200, '{}')),
    };
    const results = createUrlFetchTransport().fetchAll([
      { method: 'GET', url: 'https://x/good', headers: {} },
      { method: 'GET', url: 'https://x/bad', headers: {} },
      { method: 'POST', url: 'https://x/post', headers: {}, body: '{}' },
    ]);
    expect(results.every((r) => r instanceof NetworkError && r.waveSize === 3)).toBe(true);
    expect((results[2] as NetworkError).message).toMatch(/may or may not have been processed/);
    expect(results.map((r) => (r as NetworkError).message).join()).not.toContain('secret');
    expect(singles).toBe(0);
  });
});

describe('user settings', () => {
  let props: Record<string, string>;
  beforeEach(() => {
    props = {};
    const store = {
      getProperties: () => ({ ...props }),
      getProperty: (k: string) => props[k] ?? null,
      setProperty: (k: string, v: string) => {
        props[k] = v;
        return store;
      },
      setProperties: (all: Record<string, string>) => {
        Object.assign(props, all);
        return store;
      },
      deleteProperty: (k: string) => {
        delete props[k];
        return store;
      },
    };
    g['PropertiesService'] = { getUserProperties: () => store };
    let uuids = 0;
    g['Utilities'] = { getUuid: () => `0000000${++uuids}-0000-4000-8000-000000000000` };
  });

  it('stores the token under METRICS_API_TOKEN and shows only its last four characters', () => {
    saveCheckedSettings({ token: validateToken('  tok_live_0123456789abcd ') });
    expect(props[TOKEN_KEY]).toBe('tok_live_0123456789abcd');
    const summary = readSettingsSummary();
    expect(summary).toEqual({ tokenSet: true, tokenLast4: null, tokenHint: null, baseUrl: null, defaultCompanyId: null });
    expect(JSON.stringify(summary)).not.toContain('tok_live');
    // A new token starts a new settings generation (answers cached with the old one stop counting).
    const generation = readSettingsGeneration();
    saveCheckedSettings({ token: 'tok_live_0123456789abcd' });
    expect(readSettingsGeneration()).toBe(generation);
    saveCheckedSettings({ token: null });
    expect(readSettingsSummary().tokenSet).toBe(false);
    expect(readSettingsGeneration()).not.toBe(generation);
  });

  it('validates the base URL before storing it under METRICS_API_BASE_URL', () => {
    expect(() => validateBaseUrl('http://api.example.com')).toThrow(/https/);
    saveCheckedSettings({ baseUrl: validateBaseUrl('https://api.example.com/v1/') });
    expect(props[BASE_URL_KEY]).toBe('https://api.example.com/v1');
  });

  it('says where to set the token when it is missing, and re-checks a base URL an admin script set', () => {
    expect(() => readCredentials()).toThrow('No API token is set. Open Extensions › Portfolio Metrics › Open sidebar › Settings and paste your API token.');
    props[TOKEN_KEY] = 'tok_live_0123456789abcd';
    props[BASE_URL_KEY] = 'http://evil.example.com';
    expect(() => readCredentials()).toThrow(/https/);
  });
});

describe('cache and lock', () => {
  it('passes cache calls through unchanged', () => {
    const calls: string[] = [];
    const cache = wrapCache({
      get: (k: string) => (calls.push(`get ${k}`), 'v'),
      getAll: (ks: string[]) => (calls.push(`getAll ${ks.join()}`), {}),
      put: (k: string, _v: string, t: number) => {
        calls.push(`put ${k} ${t}`);
      },
      putAll: (_v: object, t: number) => {
        calls.push(`putAll ${t}`);
      },
      remove: (k: string) => {
        calls.push(`remove ${k}`);
      },
      removeAll: (ks: string[]) => {
        calls.push(`removeAll ${ks.join()}`);
      },
    } as unknown as GoogleAppsScript.Cache.Cache);
    cache.get('a');
    cache.getAll(['a', 'b']);
    cache.put('a', 'v', 60);
    cache.putAll({ a: 'v' }, 30);
    cache.remove('a');
    cache.removeAll(['a']);
    expect(calls).toEqual(['get a', 'getAll a,b', 'put a 60', 'putAll 30', 'remove a', 'removeAll a']);
  });

  it('releases the lock it took, even when the work throws, and refuses to run the work if the lock stays busy for 5 s', () => {
    const events: string[] = [];
    let available = true;
    g['LockService'] = { getUserLock: () => ({ tryLock: (ms: number) => (events.push(`try ${ms}`), available), releaseLock: () => events.push('release') }) };
    expect(() =>
      userMutex().withLock(() => {
        throw new Error('boom');
      }),
    ).toThrow('boom');
    available = false;
    let ran = false;
    expect(() => userMutex().withLock(() => (ran = true))).toThrow(LockUnavailableError);
    expect(() => userMutex().withLock(() => 42)).toThrow(
      'Another run of the add-in for this account held its lock for 5 seconds. Wait a moment and try again.',
    );
    expect(ran).toBe(false);
    expect(events).toEqual(['try 5000', 'release', 'try 5000', 'try 5000']);
  });
});
