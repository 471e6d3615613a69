import type { ApiClient } from '../../src/core/api/client';
import { Requester } from '../../src/core/api/requester';
import { runWaveStep, type WaveFailureEffect, type WaveJobState } from '../../src/core/jobs/wave-step';
import {
  ApiError,
  ConfigError,
  FetchRefusedError,
  FormulaAccessError,
  InputError,
  NetworkError,
  OutOfTimeError,
  RateLimitedError,
} from '../../src/core/errors';
import { failureKind, redactEmails, redactPath, supportLine, type SupportEvent, type SupportLog } from '../../src/core/log/support-log';
import { FakeClock, ScriptedTransport, SlowTransport } from '../support/scripted-transport';

const BASE = 'https://api.test/v1';
const TOKEN = 'tokZqXvKpWmYrJhNtQsLgB';
const ID = '123e4567-e89b-42d3-a456-426614174000';

/** A log that keeps the lines, as support would read them. */
function listLog(): SupportLog & { lines: string[] } {
  const lines: string[] = [];
  return { lines, write: (event: SupportEvent) => lines.push(supportLine(event).text) };
}

describe('redactPath', () => {
  it.each([
    [`${BASE}/metrics/${ID}/data_points?start_date=2024-01-01&token=x`, `/v1/metrics/${ID}/data_points`],
    [`${BASE}/contacts?email=ada%40example.com#top`, '/v1/contacts'],
    ['https://api.test/contacts/ada.lovelace%40engines.example/notes', '/contacts/…@engines.example/notes'],
    ['https://api.test/notes/Some%20cell%20text/42', '/notes/…/…'],
    ['/metrics', '/metrics'],
    ['https://api.test', '/'],
  ])('keeps of %s only %s', (url, path) => {
    expect(redactPath(url)).toBe(path);
  });
});

it('cuts every email in a text to its domain', () => {
  expect(redactEmails('from ada.lovelace@engines.example and "grace@cobol.example"')).toBe('from …@engines.example and "…@cobol.example"');
});

describe('failureKind', () => {
  it.each<[unknown, string]>([
    [
      new ApiError(422, [{ type: 'attribute_invalid', field: 'value', message: 'Confidential 8675309 is not a number' }], 'PUT', '/x'),
      'api-422-attribute_invalid-field-value',
    ],
    [new ApiError(401, [], 'GET', '/metrics'), 'api-401-unauthorized'],
    [new NetworkError('reset', BASE), 'network'],
    [new NetworkError('DNS error', BASE, 1, true), 'network-unreachable'],
    [new FetchRefusedError('too long', BASE, 'url_too_long'), 'fetch-refused-url_too_long'],
    [new RateLimitedError('wait', 30, 'add-in'), 'rate-limited-by-add-in'],
    [new OutOfTimeError('late'), 'out-of-time'],
    [new ConfigError('no token'), 'config'],
    [new FormulaAccessError('Confidential fund', 'not allowed'), 'input-formula-access'],
    [new InputError('"ada@engines.example" is not valid'), 'input'],
    [new Error('Service invoked too many times for one day: urlfetch.'), 'daily-quota-urlfetch'],
    [new TypeError('Cannot read Confidential'), 'unexpected-TypeError'],
    ['a string', 'unexpected-string'],
  ])('names %p by its kind alone', (error, kind) => {
    expect(failureKind(error)).toBe(kind);
  });
});

it('gives each event one line, warning for what waited or failed', () => {
  expect(
    supportLine({ kind: 'request', method: 'GET', url: `${BASE}/metrics?company_id=${ID}`, outcome: { status: 200 }, ms: 312.4, attempt: 0, wave: 1 }),
  ).toEqual({ level: 'log', text: '[support] request GET /v1/metrics status=200 ms=312' });
  expect(
    supportLine({ kind: 'request', method: 'PUT', url: `${BASE}/x`, outcome: { status: 429, code: 'rate_limit_exceeded' }, ms: 20, attempt: 2, wave: 5 }),
  ).toEqual({ level: 'warn', text: '[support] request PUT /v1/x status=429 code=rate_limit_exceeded ms=20 retry=2 wave=5' });
  expect(supportLine({ kind: 'request', method: 'GET', url: BASE, outcome: { network: 'dropped' }, ms: 0, attempt: 0, wave: 1 }).text).toBe(
    '[support] request GET /v1 network=dropped ms=0',
  );
  expect(supportLine({ kind: 'step-end', job: 'export', jobId: ID, status: 'paused', ms: 20_000, notBeforeMs: 4000 })).toEqual({
    level: 'warn',
    text: `[support] step-end job=export id=${ID} status=paused ms=20000 next-in-ms=4000`,
  });
  expect(supportLine({ kind: 'step-start', job: 'export', jobId: 'not an id' }).text).toBe('[support] step-start job=export id=…');
  expect(supportLine({ kind: 'refusal', place: 'cell', failure: 'Confidential cell text' }).text).toBe(
    '[support] refusal place=cell kind=Confidential_cell_text',
  );
});

describe('the requester', () => {
  it('logs each answer with its path, status and time, the 429 wait and the retry, never the token or the query', () => {
    const clock = new FakeClock();
    const transport = new ScriptedTransport([
      { match: 'GET /v1/contacts?email=ada@engines.example', reply: { status: 429 } },
      { match: 'GET /v1/contacts?email=ada@engines.example', reply: { status: 200, body: { contacts: [] } } },
    ]);
    const log = listLog();
    new Requester({ baseUrl: BASE, token: TOKEN, transport, clock, log, retry: { random: () => 0.5 } }).send({
      method: 'GET',
      path: '/contacts',
      query: { email: 'ada@engines.example' },
    });
    expect(log.lines).toEqual([
      '[support] request GET /v1/contacts status=429 code=rate_limit_exceeded ms=0',
      `[support] wait reason=rate_limit ms=${clock.sleeps[0]}`,
      '[support] request GET /v1/contacts status=200 ms=0 retry=1',
    ]);
    expect(log.lines.join('\n')).not.toMatch(/tokZ|engines|ada/);
  });

  it('logs requests not sent for want of time, with how many and the time left', () => {
    const clock = new FakeClock();
    const ok = { status: 200, body: {} };
    const transport = new SlowTransport([{ match: 'GET /v1/a', reply: ok }], clock, 8000);
    const log = listLog();
    const r = new Requester({ baseUrl: BASE, token: TOKEN, transport, clock, log, deadline: clock.now() + 12_000 });
    r.send({ method: 'GET', path: '/a' });
    expect(() =>
      r.sendAll([
        { method: 'GET', path: '/b' },
        { method: 'GET', path: '/c' },
      ]),
    ).toThrow(OutOfTimeError);
    expect(log.lines).toEqual(['[support] request GET /v1/a status=200 ms=8000', '[support] not-sent reason=out_of_time requests=2 left-ms=4000']);
  });
});

describe('a job step', () => {
  const state = (): WaveJobState & { left: number } => ({
    status: 'running',
    left: 3,
    counters: { steps: 0, stepsWithoutProgress: 0, rateLimitWaitMs: 0, retryWaitMs: 0 },
  });
  // The step reads only the client's clock and time left.
  const client = { now: () => Date.UTC(2026, 0, 1), remainingMs: () => 60_000 } as unknown as ApiClient;
  const step = (effect: WaveFailureEffect, shouldStop = false) => {
    const log = listLog();
    runWaveStep(
      state(),
      client,
      { deadline: client.now() + 20_000, marginMs: 0, supportLog: log, shouldStop: () => shouldStop },
      {
        waveSize: 1,
        maxStepsWithoutProgress: 3,
        isComplete: (s) => s.left === 0,
        wave: () => ({ progressed: false, failure: 'sentence with Confidential 8675309' }),
        effectOf: () => effect,
        progress: () => ({}),
        stormSentence: () => 'storm',
      },
    );
    return log.lines;
  };

  it.each<[WaveFailureEffect, string]>([
    [{ kind: 'pause', message: 'The token was rejected: Confidential 8675309' }, '[support] step-stopped effect=pause'],
    [{ kind: 'wait', message: 'late', outOfTime: true }, '[support] step-stopped effect=wait out-of-time'],
    [{ kind: 'wait', message: 'limit', retryAfterMs: 30_000 }, '[support] step-stopped effect=wait retry-after-ms=30000'],
    [{ kind: 'transient', message: 'HTTP 503' }, '[support] step-stopped effect=transient'],
  ])('says why it stopped early (%p), never the sentence', (effect, line) => {
    expect(step(effect)).toEqual([line]);
  });

  it('says it was cancelled', () => {
    expect(step({ kind: 'none' }, true)).toEqual(['[support] step-stopped effect=cancelled']);
  });
});
