import { ApiError, FetchRefusedError, LockUnavailableError, NetworkError, OutOfTimeError, RateLimitedError, userSentence } from '../../src/core/errors';
import { RequestBudget } from '../../src/core/api/rate-budget';
import { Requester } from '../../src/core/api/requester';
import { CountingMutex, MemoryCache } from '../support/memory-cache';
import { FakeClock, ScriptedTransport, SlowTransport, type Step } from '../support/scripted-transport';

const BASE = 'https://api.test/v1';
const TOKEN = 'secret-token-abcd1234';

function requester(steps: Step[], extra: Partial<ConstructorParameters<typeof Requester>[0]> = {}) {
  const transport = new ScriptedTransport(steps);
  const clock = new FakeClock();
  const r = new Requester({ baseUrl: BASE, token: TOKEN, transport, clock, retry: { random: () => 0.5 }, ...extra });
  return { r, transport, clock };
}

describe('Requester', () => {
  it('sends the bearer token, JSON body and Rails-style query', () => {
    const { r, transport } = requester([{ match: 'PUT /v1/metrics/m1/data_points?a[]=x&a[]=y', reply: { status: 200, body: { data_points: [] } } }]);
    r.send({ method: 'PUT', path: '/metrics/m1/data_points', query: { a: ['x', 'y'] }, body: { data_points: [] } });
    const sent = transport.sent[0]!;
    expect(sent.headers['Authorization']).toBe(`Bearer ${TOKEN}`);
    expect(sent.headers['Content-Type']).toBe('application/json');
    expect(sent.body).toBe('{"data_points":[]}');
    expect(sent.url).toBe(`${BASE}/metrics/m1/data_points?a%5B%5D=x&a%5B%5D=y`);
  });

  it.each([
    [
      400,
      { errors: [{ type: 'parameter_invalid', field: 'page', message: 'must be at least 1' }] },
      'parameter_invalid',
      'The API rejected the parameter "page": must be at least 1.',
    ],
    [401, { errors: [{ type: 'unauthorized' }] }, 'unauthorized', 'The API token was rejected.'],
    [403, { errors: [{ type: 'forbidden' }] }, 'forbidden', 'This API token has no access to that company or record.'],
    [
      422,
      { errors: [{ type: 'attribute_invalid', field: 'name', message: 'has already been taken' }] },
      'attribute_invalid',
      'The API refused the value of "name": has already been taken.',
    ],
  ])('turns HTTP %i into a typed error and a sentence', (status, body, code, sentence) => {
    const { r } = requester([{ match: 'POST /v1/metrics', reply: { status, body } }]);
    let caught: unknown;
    try {
      r.send({ method: 'POST', path: '/metrics' });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ApiError);
    expect((caught as ApiError).code).toBe(code);
    expect((caught as ApiError).status).toBe(status);
    expect(userSentence(caught)).toContain(sentence);
    expect(userSentence(caught)).not.toContain(TOKEN);
  });

  it('maps a 404 to record_missing, naming the path, and does not retry it', () => {
    const { r, transport } = requester([
      { match: 'PUT /v1/metrics/x/data_points', reply: { status: 404, body: { errors: [{ type: 'record_missing', message: 'Metric not found' }] } } },
    ]);
    let caught: unknown;
    try {
      r.send({ method: 'PUT', path: '/metrics/x/data_points' });
    } catch (error) {
      caught = error;
    }
    expect((caught as ApiError).code).toBe('record_missing');
    expect(userSentence(caught)).toBe('Not found: the API has no record at /v1/metrics/x/data_points: Metric not found. Check the id.');
    expect(transport.sent).toHaveLength(1);
  });

  it("says which collection a refused request was about, whatever the base URL's own path", () => {
    const { r } = requester([{ match: 'GET /v1/portfolio_company_profiles', reply: { status: 403, body: { errors: [{ type: 'forbidden' }] } } }]);
    let caught: unknown;
    try {
      r.send({ method: 'GET', path: '/portfolio_company_profiles' });
    } catch (error) {
      caught = error;
    }
    expect((caught as ApiError).about).toBe('portfolio_company_profiles');
  });

  it('sleeps for Retry-After seconds on 429 and retries the same request', () => {
    const { r, clock, transport } = requester([
      { match: 'GET /v1/metrics', reply: { status: 429, body: { errors: [{ type: 'rate_limit_exceeded' }] }, headers: { 'retry-after': '7' } } },
      { match: 'GET /v1/metrics', reply: { status: 200, body: { metrics: [] } } },
    ]);
    expect(r.send({ method: 'GET', path: '/metrics' }).data).toEqual({ metrics: [] });
    expect(clock.sleeps).toEqual([7000]);
    expect(transport.sent).toHaveLength(2);
  });

  it('backs off exponentially from about 2 s when a 429 has no Retry-After', () => {
    const { r, clock, transport } = requester([
      { match: 'GET /v1/metrics', reply: { status: 429, body: { errors: [{ type: 'rate_limit_exceeded' }] } } },
      { match: 'GET /v1/metrics', reply: { status: 429, body: { errors: [{ type: 'rate_limit_exceeded' }] } } },
      { match: 'GET /v1/metrics', reply: { status: 429, body: { errors: [{ type: 'rate_limit_exceeded' }] } } },
      { match: 'GET /v1/metrics', reply: { status: 200, body: { metrics: [] } } },
    ]);
    r.send({ method: 'GET', path: '/metrics' });
    // Equal jitter with random() = 0.5: three quarters of 2 s, 4 s, 8 s.
    expect(clock.sleeps).toEqual([1500, 3000, 6000]);
    expect(transport.sent).toHaveLength(4);
    transport.assertDone();
  });

  it('retries a 429 on POST, since the server did not act on it', () => {
    const { r, transport } = requester([
      { match: 'POST /v1/contacts', reply: { status: 429, body: { errors: [{ type: 'rate_limit_exceeded' }] } } },
      { match: 'POST /v1/contacts', reply: { status: 201, body: { contact: { id: 'c' } } } },
    ]);
    expect(r.send({ method: 'POST', path: '/contacts', body: {} }).status).toBe(201);
    expect(transport.sent).toHaveLength(2);
  });

  it('never repeats a POST after a 5xx or a lost connection', () => {
    const a = requester([{ match: 'POST /v1/contacts', reply: { status: 503, body: 'busy' } }]);
    expect(() => a.r.send({ method: 'POST', path: '/contacts', body: {} })).toThrow(ApiError);
    expect(a.transport.sent).toHaveLength(1);
    const b = requester([{ match: 'POST /v1/contacts', reply: 'network-error' }]);
    expect(() => b.r.send({ method: 'POST', path: '/contacts', body: {} })).toThrow(NetworkError);
    expect(b.transport.sent).toHaveLength(1);
  });

  it('never retries a request Apps Script refused to send, and says what to do', () => {
    const refused = { refused: 'daily_quota' as const, message: 'Service invoked too many times for one day: urlfetch.' };
    const { r, transport, clock } = requester([
      { match: 'GET /v1/x?page=1', reply: refused },
      { match: 'GET /v1/x?page=2', reply: { status: 200, body: { n: 2 } } },
    ]);
    const settled = r.sendAllSettled<{ n: number }>([1, 2].map((page) => ({ method: 'GET' as const, path: '/x', query: { page } })));
    expect(settled[0]).toEqual({ ok: false, error: expect.any(FetchRefusedError) });
    expect(settled[1]).toEqual({ ok: true, result: { status: 200, data: { n: 2 } } });
    expect(userSentence((settled[0] as { error: Error }).error)).toBe(
      "Apps Script's daily quota of URL fetches for this account is used up, so nothing was sent. It renews within 24 hours of its first use; until then formulas still show the values the add-in has cached.",
    );
    expect(transport.sent).toHaveLength(2);
    expect(clock.sleeps).toEqual([]);
    transport.assertDone();
  });

  it('retries GET and PUT after 5xx and lost connections', () => {
    const { r, transport } = requester([
      { match: 'PUT /v1/metrics/m/data_points', reply: { status: 502, body: '<html>bad gateway</html>' } },
      { match: 'PUT /v1/metrics/m/data_points', reply: 'network-error' },
      { match: 'PUT /v1/metrics/m/data_points', reply: { status: 200, body: { data_points: [] } } },
    ]);
    expect(r.send({ method: 'PUT', path: '/metrics/m/data_points', body: {} }).status).toBe(200);
    expect(transport.sent).toHaveLength(3);
    transport.assertDone();
  });

  it('gives up with a clear sentence when waiting would pass the deadline', () => {
    const clock = new FakeClock();
    const transport = new ScriptedTransport([
      { match: 'GET /v1/metrics', reply: { status: 429, body: { errors: [{ type: 'rate_limit_exceeded' }] }, headers: { 'retry-after': '60' } } },
    ]);
    const r = new Requester({ baseUrl: BASE, token: TOKEN, transport, clock, deadline: clock.now() + 25_000 });
    let caught: unknown;
    try {
      r.send({ method: 'GET', path: '/metrics' });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(RateLimitedError);
    expect(userSentence(caught)).toBe("The API's rate limit was reached. Try again in 60 seconds.");
    expect(clock.sleeps).toEqual([]);
    expect(transport.sent).toHaveLength(1);
  });

  it('stops after the total wait budget is spent', () => {
    const steps: Step[] = Array.from({ length: 3 }, () => ({ match: 'GET /v1/metrics', reply: { status: 503, body: '' } }));
    const { r, clock, transport } = requester(steps, { retry: { random: () => 0.5, maxTotalWaitMs: 5000 } });
    expect(() => r.send({ method: 'GET', path: '/metrics' })).toThrow(ApiError);
    expect(clock.sleeps).toEqual([1500, 3000]);
    expect(transport.sent).toHaveLength(3);
  });

  it('treats a non-JSON success body as an unexpected response', () => {
    const { r } = requester([{ match: 'GET /v1/metrics', reply: { status: 200, body: 'not json' } }]);
    expect(() => r.send({ method: 'GET', path: '/metrics' })).toThrow(/not JSON/);
  });

  it('sends concurrent waves and retries only the requests that were refused', () => {
    const steps: Step[] = [
      { match: 'GET /v1/x?page=1', reply: { status: 200, body: { n: 1 } } },
      { match: 'GET /v1/x?page=2', reply: { status: 429, body: { errors: [{ type: 'rate_limit_exceeded' }] }, headers: { 'retry-after': '3' } } },
      { match: 'GET /v1/x?page=3', reply: { status: 200, body: { n: 3 } } },
      { match: 'GET /v1/x?page=2', reply: { status: 200, body: { n: 2 } } },
    ];
    const { r, transport, clock } = requester(steps);
    const results = r.sendAll<{ n: number }>([1, 2, 3].map((page) => ({ method: 'GET' as const, path: '/x', query: { page } })));
    expect(results.map((x) => x.data.n)).toEqual([1, 2, 3]);
    expect(transport.waves).toEqual([3]);
    expect(clock.sleeps).toEqual([3000]);
    transport.assertDone();
  });

  it('after a 429 without Retry-After, probes with one request before sending a whole wave again', () => {
    const refused = { status: 429, body: { errors: [{ type: 'rate_limit_exceeded' }] } };
    const ok = (n: number) => ({ status: 200, body: { n } });
    const steps: Step[] = [
      ...[1, 2, 3, 4].map((page) => ({ match: `GET /v1/x?page=${page}`, reply: refused })),
      { match: 'GET /v1/x?page=1', reply: refused },
      { match: 'GET /v1/x?page=1', reply: ok(1) },
      ...[2, 3, 4].map((page) => ({ match: `GET /v1/x?page=${page}`, reply: ok(page) })),
    ];
    const { r, transport, clock } = requester(steps);
    const results = r.sendAll<{ n: number }>([1, 2, 3, 4].map((page) => ({ method: 'GET' as const, path: '/x', query: { page } })));
    expect(results.map((x) => x.data.n)).toEqual([1, 2, 3, 4]);
    // Four refused together; then one at a time until one passes (5 refusals in all, not 8); then the rest.
    expect(transport.waves).toEqual([4, 3]);
    expect(transport.sent).toHaveLength(9);
    expect(clock.sleeps).toEqual([1500, 3000]);
    transport.assertDone();
  });

  it('paces waves by the shared request budget', () => {
    const clock = new FakeClock();
    const cache = new MemoryCache(clock);
    const budget = new RequestBudget(cache, new CountingMutex(), clock, { limit: 4, windowMs: 60_000 });
    const steps: Step[] = Array.from({ length: 6 }, (_, i) => ({ match: `GET /v1/x?page=${i + 1}`, reply: { status: 200, body: {} } }));
    const transport = new ScriptedTransport(steps);
    const r = new Requester({ baseUrl: BASE, token: TOKEN, transport, clock, budget });
    r.sendAll(Array.from({ length: 6 }, (_, i) => ({ method: 'GET' as const, path: '/x', query: { page: i + 1 } })));
    // Four fit the window at once; the rest wait until the first second leaves it.
    expect(transport.waves).toEqual([4, 2]);
    expect(transport.sent).toHaveLength(6);
    expect(clock.sleeps).toEqual([61_000]);
  });

  it('sends a wave that fetchAll failed for one lost connection again in halves, each request through the budget', () => {
    const clock = new FakeClock();
    const budget = new RequestBudget(new MemoryCache(clock), new CountingMutex(), clock);
    const ok = (n: number) => ({ status: 200, body: { n } });
    const steps: Step[] = [
      { match: 'GET /v1/x?page=1', reply: ok(1) },
      { match: 'GET /v1/x?page=2', reply: 'drop-wave' },
      { match: 'GET /v1/x?page=3', reply: ok(3) },
      { match: 'GET /v1/x?page=4', reply: ok(4) },
      ...[1, 2, 3, 4].map((page) => ({ match: `GET /v1/x?page=${page}`, reply: ok(page) })),
    ];
    const transport = new ScriptedTransport(steps);
    const r = new Requester({ baseUrl: BASE, token: TOKEN, transport, clock, budget, retry: { random: () => 0.5 } });
    const results = r.sendAll<{ n: number }>([1, 2, 3, 4].map((page) => ({ method: 'GET' as const, path: '/x', query: { page } })));
    expect(results.map((x) => x.data.n)).toEqual([1, 2, 3, 4]);
    expect(transport.waves).toEqual([4, 2, 2]);
    expect(transport.sent).toHaveLength(8);
    expect(budget.used()).toBe(8);
    // A lost connection backs off from about 0.5 s (three quarters of it with random() = 0.5).
    expect(clock.sleeps).toEqual([375]);
    transport.assertDone();
  });

  it('never sends a POST again after fetchAll failed its wave, and says it may have been processed', () => {
    const { r, transport, clock } = requester([
      { match: 'POST /v1/contacts', reply: { status: 201, body: { contact: { id: 'a' } } } },
      { match: 'POST /v1/contacts', reply: 'drop-wave' },
    ]);
    const settled = r.sendAllSettled([
      { method: 'POST', path: '/contacts', body: { n: 1 } },
      { method: 'POST', path: '/contacts', body: { n: 2 } },
    ]);
    expect(settled.map((s) => (s.ok ? 'ok' : s.error.name))).toEqual(['NetworkError', 'NetworkError']);
    expect(transport.sent).toHaveLength(2);
    expect(transport.waves).toEqual([2]);
    expect(clock.sleeps).toEqual([]);
    transport.assertDone();
  });

  it('keeps the answers already received when the rate budget runs out mid-send', () => {
    const clock = new FakeClock();
    const budget = new RequestBudget(new MemoryCache(clock), new CountingMutex(), clock, { limit: 3, windowMs: 60_000 });
    const steps: Step[] = [1, 2, 3].map((page) => ({ match: `GET /v1/x?page=${page}`, reply: { status: 200, body: { n: page } } }));
    const transport = new ScriptedTransport(steps);
    const r = new Requester({ baseUrl: BASE, token: TOKEN, transport, clock, budget, deadline: clock.now() + 20_000 });
    const settled = r.sendAllSettled<{ n: number }>([1, 2, 3, 4, 5].map((page) => ({ method: 'GET' as const, path: '/x', query: { page } })));
    expect(settled.slice(0, 3)).toEqual([1, 2, 3].map((n) => ({ ok: true, result: { status: 200, data: { n } } })));
    expect(settled.slice(3).map((s) => !s.ok && s.error)).toEqual([expect.any(RateLimitedError), expect.any(RateLimitedError)]);
    expect(userSentence((settled[3] as { error: Error }).error)).toBe('The add-in has used its budget of 3 API requests per minute. Try again in 61 seconds.');
    expect(transport.sent).toHaveLength(3);
    transport.assertDone();
  });

  it("holds the user's other executions back for a Retry-After too long to wait in this one", () => {
    const clock = new FakeClock();
    const budget = new RequestBudget(new MemoryCache(clock), new CountingMutex(), clock);
    const transport = new ScriptedTransport([
      { match: 'GET /v1/metrics', reply: { status: 429, body: { errors: [{ type: 'rate_limit_exceeded' }] }, headers: { 'retry-after': '600' } } },
    ]);
    const r = new Requester({ baseUrl: BASE, token: TOKEN, transport, clock, budget, deadline: clock.now() + 25_000 });
    expect(() => r.send({ method: 'GET', path: '/metrics' })).toThrow(RateLimitedError);
    expect(transport.sent).toHaveLength(1);
    // Another execution of the same user, a minute later, is told to wait the rest of the ten minutes.
    clock.advance(60_000);
    let caught: unknown;
    try {
      budget.take(1, clock.now() + 30_000);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(RateLimitedError);
    expect((caught as RateLimitedError).retryAfterSeconds).toBe(540);
  });

  it('holds no other execution back when it gives up on a 429 without Retry-After: the server asked for no wait', () => {
    const clock = new FakeClock();
    const budget = new RequestBudget(new MemoryCache(clock), new CountingMutex(), clock);
    const refused = { status: 429, body: { errors: [{ type: 'rate_limit_exceeded' }] } };
    const transport = new ScriptedTransport([{ match: 'GET /v1/metrics', reply: refused }]);
    // 1.5 s left past the first attempt: too little to back off 2 s and try again.
    const r = new Requester({ baseUrl: BASE, token: TOKEN, transport, clock, budget, retry: { random: () => 1 }, deadline: clock.now() + 3_500 });
    expect(() => r.send({ method: 'GET', path: '/metrics' })).toThrow("The API's rate limit was reached. Try again in 2 seconds.");
    // Another cell starting now is not refused for this one's backoff, and never with the add-in's own budget.
    expect(budget.take(1, clock.now() + 25_000)).toBe(1);
    expect(clock.sleeps).toEqual([]);
  });

  it('holds the others back for its backoff while it waits to try again itself', () => {
    const clock = new FakeClock();
    const budget = new RequestBudget(new MemoryCache(clock), new CountingMutex(), clock);
    const refused = { status: 429, body: { errors: [{ type: 'rate_limit_exceeded' }] } };
    const transport = new ScriptedTransport([
      { match: 'GET /v1/metrics', reply: refused },
      { match: 'GET /v1/metrics', reply: { status: 200, body: { metrics: [] } } },
    ]);
    const r = new Requester({ baseUrl: BASE, token: TOKEN, transport, clock, budget, retry: { random: () => 1 }, deadline: clock.now() + 25_000 });
    // Another execution asking while this one sleeps out its 2 s backoff is told the server's reason.
    let toldOther: RateLimitedError | undefined;
    const sleep = clock.sleep.bind(clock);
    clock.sleep = (ms: number) => {
      try {
        budget.take(1, clock.now() + 1);
      } catch (error) {
        if (error instanceof RateLimitedError) toldOther = error;
      }
      sleep(ms);
    };
    r.send({ method: 'GET', path: '/metrics' });
    expect(toldOther?.by).toBe('server');
    expect(toldOther?.message).toBe("The API's rate limit was reached. Try again in 2 seconds.");
  });

  it('starts no request without time left for the longest round trip seen so far', () => {
    const clock = new FakeClock();
    const ok = { status: 200, body: {} };
    const transport = new SlowTransport(
      [
        { match: 'GET /v1/a', reply: ok },
        { match: 'GET /v1/b', reply: ok },
      ],
      clock,
      8000,
    );
    const r = new Requester({ baseUrl: BASE, token: TOKEN, transport, clock, deadline: clock.now() + 20_000 });
    r.send({ method: 'GET', path: '/a' });
    r.send({ method: 'GET', path: '/b' });
    // 4 s left, and the last answers took 8 s: the third request is not sent.
    let caught: unknown;
    try {
      r.send({ method: 'GET', path: '/c' });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(OutOfTimeError);
    expect(userSentence(caught)).toBe(
      "This run is close to Apps Script's time limit (4 s left, and an answer can take 8 s), so 1 request was not sent. Run it again to finish; for a formula, narrow the date range or split it over several formulas.",
    );
    expect(transport.sent).toHaveLength(2);
    transport.assertDone();
  });

  it('checks the time again after the budget waited for a busy lock, and sends nothing the time left cannot cover', () => {
    const clock = new FakeClock();
    // Another execution (a scheduled refresh) holds the user's lock: each try costs the 5 s it waits.
    const busyLock = {
      withLock: (): never => {
        clock.advance(5000);
        throw new LockUnavailableError(5000);
      },
    };
    const budget = new RequestBudget(new MemoryCache(), busyLock, clock);
    const transport = new ScriptedTransport([]);
    const r = new Requester({ baseUrl: BASE, token: TOKEN, transport, clock, budget, deadline: clock.now() + 6000 });
    let caught: unknown;
    try {
      r.send({ method: 'GET', path: '/a' });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(OutOfTimeError);
    expect((caught as OutOfTimeError).unsent).toBe(1);
    expect(transport.sent).toHaveLength(0);
  });

  it('does not wait for the rate budget into the last round trip before the deadline, where a request could not end in time', () => {
    const clock = new FakeClock();
    const budget = new RequestBudget(new MemoryCache(clock), new CountingMutex(), clock, { limit: 1, windowMs: 24_000 });
    const transport = new ScriptedTransport([{ match: 'GET /v1/a', reply: { status: 200, body: {} } }]);
    const start = clock.now();
    const r = new Requester({ baseUrl: BASE, token: TOKEN, transport, clock, budget, deadline: start + 25_000 });
    r.send({ method: 'GET', path: '/a' });
    // The budget frees a request only ~24 s on, leaving less than the 2 s a round trip needs before the deadline.
    expect(() => r.send({ method: 'GET', path: '/b' })).toThrow(RateLimitedError);
    expect(transport.sent).toHaveLength(1);
    expect(clock.now() - start).toBeLessThan(2_000); // refused at once, not after waiting
  });

  it('needs at least 2 s left before a first request, however fast the answers', () => {
    const clock = new FakeClock();
    const transport = new ScriptedTransport([]);
    const r = new Requester({ baseUrl: BASE, token: TOKEN, transport, clock, deadline: clock.now() + 1999 });
    const settled = r.sendAllSettled([
      { method: 'GET', path: '/a' },
      { method: 'GET', path: '/b' },
    ]);
    expect(settled.map((s) => !s.ok && s.error)).toEqual([expect.any(OutOfTimeError), expect.any(OutOfTimeError)]);
    expect(userSentence((settled[0] as { error: Error }).error)).toMatch(/\(1 s left, and an answer can take 2 s\), so 2 requests were not sent/);
    expect(transport.sent).toHaveLength(0);
  });

  it('refuses to start without a token, with the place to set one', () => {
    expect(() => new Requester({ baseUrl: BASE, token: '', transport: new ScriptedTransport([]), clock: new FakeClock() })).toThrow(/No API token is set/);
  });
});
