// The throttle: per token, epoch-aligned fixed windows, every request counts, 429 with or without Retry-After.

import { DEMO_IDS, OUTSIDER_TOKEN } from '../demo-data';
import type { RunningEmulator } from '../testing';
import { call, get, startConformanceEmulator } from './helpers';

const WINDOW_SECONDS = 300;
let plain: RunningEmulator;
let withRetryAfter: RunningEmulator;

beforeAll(async () => {
  plain = await startConformanceEmulator({ rateLimit: 5, rateWindowSeconds: WINDOW_SECONDS });
  withRetryAfter = await startConformanceEmulator({ rateLimit: 2, rateWindowSeconds: WINDOW_SECONDS, retryAfter: true });
});
afterAll(async () => {
  await plain.stop();
  await withRetryAfter.stop();
});

/** Resets the emulator and moves its clock to one second into a fresh window, so no boundary falls inside a test. */
async function freshWindow(emulator: RunningEmulator): Promise<void> {
  await emulator.control.reset();
  await emulator.control.rateLimit({ freshWindow: true });
  await emulator.control.advanceClock(1000);
}

const metrics = (emulator: RunningEmulator, token?: string | null) => get(emulator, '/metrics', `company_id=${DEMO_IDS.fund}`, token);

describe('rate limit', () => {
  beforeEach(() => freshWindow(plain));

  it('answers 429 rate_limit_exceeded after the limit, without Retry-After by default', async () => {
    for (let i = 0; i < 5; i += 1) expect((await metrics(plain)).status).toBe(200);
    const answer = await metrics(plain);
    expect(answer.status).toBe(429);
    expect(answer.body).toEqual({ errors: [{ type: 'rate_limit_exceeded', message: expect.stringContaining('5 requests per 300 seconds') }] });
    expect(answer.headers.get('retry-after')).toBeNull();
  });

  it('counts every request: errors, unknown paths and not-emulated endpoints too', async () => {
    await get(plain, '/metrics', 'company_id=bad');
    await get(plain, '/nowhere');
    await get(plain, '/portfolio_files');
    await metrics(plain);
    await call(plain, 'POST', '/metrics', { rawBody: '{' });
    expect((await metrics(plain)).status).toBe(429);
  });

  it('counts each token on its own', async () => {
    for (let i = 0; i < 6; i += 1) await metrics(plain);
    const outsider = await get(plain, '/metrics', `company_id=${DEMO_IDS.otherFund}`, OUTSIDER_TOKEN);
    expect(outsider.status).toBe(200);
  });

  it('lets requests through again once the clock moves into the next window', async () => {
    for (let i = 0; i < 6; i += 1) await metrics(plain);
    expect((await metrics(plain)).status).toBe(429);
    await plain.control.advanceClock(WINDOW_SECONDS * 1000);
    expect((await metrics(plain)).status).toBe(200);
  });

  it('keeps the window epoch-aligned: advancing within the window does not reset it', async () => {
    for (let i = 0; i < 5; i += 1) await metrics(plain);
    await plain.control.advanceClock((WINDOW_SECONDS - 10) * 1000);
    expect((await metrics(plain)).status).toBe(429);
  });

  it('does not count control API calls', async () => {
    for (let i = 0; i < 10; i += 1) await plain.control.requests();
    expect((await metrics(plain)).status).toBe(200);
  });

  it('can be changed at run time through the control API', async () => {
    await plain.control.rateLimit({ limit: 1 });
    expect((await metrics(plain)).status).toBe(200);
    expect((await metrics(plain)).status).toBe(429);
  });
});

describe('a fresh window on request', () => {
  it('moves the clock to the start of the next window, whatever the time within the current one', async () => {
    await plain.control.reset();
    const windowMs = WINDOW_SECONDS * 1000;
    for (const into of [1_000, 150_000, windowMs - 500]) {
      await plain.control.rateLimit({ freshWindow: true });
      await plain.control.advanceClock(into);
      const before = Date.parse((await call(plain, 'GET', '/__emulator/clock')).body.now);
      expect(before % windowMs).toBeGreaterThanOrEqual(into);
      await plain.control.rateLimit({ limit: 5, freshWindow: true });
      const after = Date.parse((await call(plain, 'GET', '/__emulator/clock')).body.now);
      expect(Math.floor(after / windowMs)).toBe(Math.floor(before / windowMs) + 1);
      expect(after % windowMs).toBeLessThan(into);
    }
  });

  it('refuses a freshWindow that is not a boolean', async () => {
    const answer = await call(plain, 'POST', '/__emulator/rate-limit', { body: { freshWindow: 'yes' } });
    expect(answer.status).toBe(400);
  });
});

describe('rate limit with retryAfter', () => {
  it('sends Retry-After with the seconds left in the window', async () => {
    await freshWindow(withRetryAfter);
    await metrics(withRetryAfter);
    await metrics(withRetryAfter);
    const answer = await metrics(withRetryAfter);
    expect(answer.status).toBe(429);
    const seconds = Number(answer.headers.get('retry-after'));
    expect(seconds).toBeGreaterThanOrEqual(WINDOW_SECONDS - 2);
    expect(seconds).toBeLessThanOrEqual(WINDOW_SECONDS - 1);
  });
});
