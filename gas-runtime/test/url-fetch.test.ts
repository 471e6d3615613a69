import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createGasRuntime, CustomFunctionError, type GasRuntime } from '../index';
import { fixture } from './support/fixtures';
import { useTestServer, type TestServer } from './support/test-server';

let server: TestServer;
let rt: GasRuntime;

useTestServer((started) => (server = started));

beforeEach(() => {
  rt = createGasRuntime({ code: fixture('fetch'), fetchTimeoutMs: 500 });
});

afterEach(async () => {
  await rt.close();
});

describe('UrlFetchApp.fetch', () => {
  it('returns the status and body of a successful request', () => {
    expect(rt.run('fetchResponse', [`${server.url}/status/201`])).toEqual({ code: 201, text: 'error 201' });
  });

  it('throws Apps Script’s exception for a status of 400 or more without muteHttpExceptions', () => {
    const failure = rt.run('fetchFailure', [`${server.url}/status/404`]);
    expect(failure).toEqual({
      name: 'Exception',
      message: `Request failed for ${server.url} returned code 404. Truncated server response: error 404 (use muteHttpExceptions option to examine full response)`,
      isError: true,
      text: `Exception: Request failed for ${server.url} returned code 404. Truncated server response: error 404 (use muteHttpExceptions option to examine full response)`,
    });
  });

  it('truncates a long error response in the exception', () => {
    const failure = rt.run('fetchFailure', [`${server.url}/status/500?long=1`]) as { message: string };
    expect(failure.message).toMatch(/Truncated server response: error 500: x{89}\.\.\. \(use muteHttpExceptions/);
  });

  it('returns a 4xx/5xx response with muteHttpExceptions', () => {
    expect(rt.run('fetchResponse', [`${server.url}/status/503`, { muteHttpExceptions: true }])).toEqual({ code: 503, text: 'error 503' });
  });

  it('sends method, headers and a string payload with its content type', () => {
    const echo = rt.run('fetchEcho', [
      `${server.url}/echo`,
      { method: 'post', headers: { Authorization: 'Bearer t' }, payload: '{"a":1}', contentType: 'application/json' },
    ]);
    expect(echo).toMatchObject({ method: 'POST', body: '{"a":1}', headers: { authorization: 'Bearer t', 'content-type': 'application/json' } });
    expect((echo as { headers: Record<string, string> }).headers['user-agent']).toMatch(/Google-Apps-Script/);
  });

  it('form-encodes an object payload by default', () => {
    const echo = rt.run('fetchEcho', [`${server.url}/echo`, { method: 'put', payload: { name: 'a b', n: 2 } }]);
    expect(echo).toMatchObject({ method: 'PUT', body: 'name=a+b&n=2', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  });

  it('does not send a payload with GET', () => {
    expect(rt.run('fetchEcho', [`${server.url}/echo`, { payload: 'ignored' }])).toMatchObject({ method: 'GET', body: '' });
  });

  it('gives headers as the server named them, repeated ones as arrays in getAllHeaders', () => {
    const result = rt.run('fetchHeaders', [`${server.url}/headers`]) as {
      headers: Record<string, unknown>;
      all: Record<string, unknown>;
      text: string;
      blob: string;
      contentType: string;
    };
    expect(result.headers).toMatchObject({ 'Content-Type': 'text/plain; charset=utf-8', 'X-RateLimit-Remaining': '7', 'Set-Cookie': 'a=1' });
    expect(result.all).toMatchObject({ 'Set-Cookie': ['a=1', 'b=2'], 'X-RateLimit-Remaining': '7' });
    expect(result).toMatchObject({ text: 'héllo', blob: 'héllo', contentType: 'text/plain; charset=utf-8' });
  });

  it('decodes the body in the charset the response names, and gzip transparently', () => {
    expect(rt.run('fetchResponse', [`${server.url}/latin1`])).toEqual({ code: 200, text: 'café' });
    expect(rt.run('fetchResponse', [`${server.url}/gzip`])).toEqual({ code: 200, text: 'compressed text' });
  });

  it('follows redirects unless followRedirects is false', () => {
    expect(rt.run('fetchEcho', [`${server.url}/redirect?to=/echo`])).toMatchObject({ method: 'GET', path: '/echo' });
    expect(rt.run('fetchResponse', [`${server.url}/redirect?to=/echo`, { followRedirects: false }])).toEqual({ code: 302, text: '' });
  });

  it('throws "Address unavailable" when nothing listens on the port', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const url = `http://127.0.0.1:${port}/x`;
    expect(rt.run('fetchFailure', [url])).toMatchObject({ name: 'Exception', message: `Address unavailable: ${url}` });
  });

  it('throws "Address unavailable" when the server drops the connection', () => {
    expect(rt.run('fetchFailure', [`${server.url}/reset`])).toMatchObject({ message: `Address unavailable: ${server.url}/reset` });
  });

  it('throws "Timeout" when the server does not answer within the fetch timeout', () => {
    const started = Date.now();
    expect(rt.run('fetchFailure', [`${server.url}/hang`])).toMatchObject({ message: `Timeout: ${server.url}/hang` });
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('waits a networkLatency on the virtual clock: the slowest of a fetchAll, a timeout past fetchTimeoutMs, and no async executions', async () => {
    const slow = createGasRuntime({
      code: fixture('fetch'),
      fetchTimeoutMs: 60_000,
      networkLatency: ({ url }) => (url.endsWith('/status/201') ? 9_000 : url.endsWith('/status/202') ? 4_000 : url.endsWith('/status/203') ? 70_000 : 0),
    });
    try {
      const all = slow.run('fetchAllTimed', [[`${server.url}/status/201`, `${server.url}/status/202`]]) as { elapsed: number };
      const each = slow.run('fetchEachTimed', [[`${server.url}/status/201`, `${server.url}/status/202`]]) as { elapsed: number };
      expect(all.elapsed).toBeGreaterThanOrEqual(9_000);
      expect(all.elapsed).toBeLessThan(13_000);
      expect(each.elapsed).toBeGreaterThanOrEqual(13_000);
      expect(slow.run('fetchFailure', [`${server.url}/status/203`])).toMatchObject({ message: `Timeout: ${server.url}/status/203` });
      await expect(slow.recalculate([{ formula: `=FETCH_TEXT("${server.url}/status/201")`, cell: 'A1' }])).rejects.toThrow(/networkLatency/);
    } finally {
      await slow.close();
    }
  });

  it('rejects a URL that is not http(s) and a URL over 2 kB', () => {
    expect(rt.run('fetchFailure', ['ftp://example.com/x'])).toMatchObject({ message: 'Invalid argument: ftp://example.com/x' });
    expect(rt.run('fetchFailure', [`${server.url}/echo?q=${'a'.repeat(2100)}`])).toMatchObject({ message: 'Limit Exceeded: URLFetch URL Length.' });
  });

  it('counts each request, and its real duration, against the execution', () => {
    rt.run('fetchEachTimed', [[`${server.url}/slow?ms=100`, `${server.url}/slow?ms=100`]]);
    const [record] = rt.executions;
    expect(record).toMatchObject({ urlFetchCount: 2, outcome: 'completed' });
    expect(record?.durationMs).toBeGreaterThanOrEqual(200);
  });

  it('works in a custom function, whose failure becomes the cell’s error', () => {
    expect(rt.runCustomFunction('FETCH_TEXT', [`${server.url}/status/200`])).toBe('error 200');
    expect(() => rt.runCustomFunction('FETCH_TEXT', [`${server.url}/status/401`])).toThrow(
      new CustomFunctionError(
        `Request failed for ${server.url} returned code 401. Truncated server response: error 401 (use muteHttpExceptions option to examine full response)`,
      ),
    );
  });

  it('never lets a request outlive the execution’s time limit', () => {
    const patient = createGasRuntime({ code: fixture('fetch'), fetchTimeoutMs: 60_000 });
    const started = Date.now();
    expect(() => patient.runCustomFunction('SLEEP_THEN_FETCH', [`${server.url}/hang`])).toThrow(new CustomFunctionError('Exceeded maximum execution time'));
    // Half a second of the 30 was left; half the fetch timeout is a bound no busy machine reaches by accident.
    expect(Date.now() - started).toBeLessThan(30_000);
    return patient.close();
  });

  it('refuses, loudly, a server on the runtime’s own thread, which could never answer', async () => {
    const sameThread = http.createServer((_, response) => response.end('never'));
    await new Promise<void>((resolve) => sameThread.listen(0, '127.0.0.1', resolve));
    const { port } = sameThread.address() as AddressInfo;
    try {
      expect(() => rt.run('fetchFailure', [`http://127.0.0.1:${port}/`])).toThrow(expect.objectContaining({ code: 'SAME_THREAD_SERVER' }) as unknown as Error);
    } finally {
      await new Promise<void>((resolve) => sameThread.close(() => resolve()));
    }
  });
});

describe('UrlFetchApp.fetchAll', () => {
  it('sends its requests concurrently', async () => {
    const urls = Array.from({ length: 5 }, (_, i) => `${server.url}/slow?ms=300&i=${i}`);
    // Counted at the server, not timed: one at a time, never two, with fetch; all five in flight at once with fetchAll.
    await server.resetStats();
    rt.run('fetchEachTimed', [urls.slice(0, 2)]);
    expect((await server.stats()).maxInFlight).toBe(1);
    await server.resetStats();
    const concurrent = rt.run('fetchAllTimed', [urls]) as { texts: string[] };
    expect(concurrent.texts).toEqual(Array(5).fill('slept 300'));
    expect((await server.stats()).maxInFlight).toBe(5);
    expect(rt.executions[1]?.urlFetchCount).toBe(5);
  });

  it('accepts request objects; one failing request fails the whole call unless muted', () => {
    expect(rt.run('fetchAllFailure', [[{ url: `${server.url}/status/200` }, { url: `${server.url}/status/500`, muteHttpExceptions: false }]])).toMatch(
      /^Request failed for .* returned code 500/,
    );
    expect(rt.run('fetchAllFailure', [[{ url: `${server.url}/status/200` }, { url: `${server.url}/status/500`, muteHttpExceptions: true }]])).toBeNull();
  });
});
