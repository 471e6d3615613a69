// Fault injection: latency, jitter, 503s, dropped connections, forced runs and slow responses, reproducible by seed.

import { DEMO_IDS } from '../demo-data';
import type { RunningEmulator } from '../testing';
import { get, startConformanceEmulator } from './helpers';

let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await startConformanceEmulator();
});
afterAll(() => emulator.stop());
beforeEach(() => emulator.control.reset());

const metrics = () => get(emulator, '/metrics', `company_id=${DEMO_IDS.fund}`);

async function timed<T>(action: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = performance.now();
  const result = await action();
  return { result, ms: performance.now() - started };
}

describe('faults', () => {
  it('adds a fixed latency to API responses but not to the control API', async () => {
    await emulator.control.faults({ latencyMs: 250 });
    expect((await timed(metrics)).ms).toBeGreaterThanOrEqual(240);
    expect((await timed(() => emulator.control.requests())).ms).toBeLessThan(200);
  });

  it('adds jitter within its bound', async () => {
    await emulator.control.faults({ latencyMs: 50, jitterMs: 100 });
    const { ms } = await timed(metrics);
    expect(ms).toBeGreaterThanOrEqual(45);
    expect(ms).toBeLessThan(400);
  });

  it('answers 503 with a plain-text body for the failing share', async () => {
    await emulator.control.faults({ failRate: 1 });
    const answer = await metrics();
    expect(answer.status).toBe(503);
    expect(answer.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(answer.body).toBe('Service Unavailable');
  });

  it('replays the same mix of failures for the same seed', async () => {
    const run = async () => {
      await emulator.control.faults({ failRate: 0.5, seed: 7 });
      const statuses: number[] = [];
      for (let i = 0; i < 16; i += 1) statuses.push((await metrics()).status);
      return statuses;
    };
    const first = await run();
    const second = await run();
    expect(second).toEqual(first);
    expect(new Set(first)).toEqual(new Set([200, 503]));
  });

  it('drops the connection without an answer, and logs it', async () => {
    await emulator.control.faults({ dropRate: 1 });
    await expect(metrics()).rejects.toThrow();
    await emulator.control.faults({ dropRate: 0 });
    const log = await emulator.control.requests();
    expect(log[0]).toEqual(expect.objectContaining({ path: '/metrics', status: 0, fault: 'drop' }));
  });

  it('forces a run of N 429s, then answers normally', async () => {
    await emulator.control.faults({ next429: 2 });
    const statuses = [(await metrics()).status, (await metrics()).status, (await metrics()).status];
    expect(statuses).toEqual([429, 429, 200]);
  });

  it('forces a run of N 503s, then answers normally', async () => {
    await emulator.control.faults({ next5xx: 2 });
    const statuses = [(await metrics()).status, (await metrics()).status, (await metrics()).status];
    expect(statuses).toEqual([503, 503, 200]);
    const settings = await emulator.control.faults({});
    expect(settings.next5xx).toBe(0);
  });

  it('delays only the next N responses by the given time', async () => {
    await emulator.control.faults({ slowNext: { count: 1, delayMs: 300 } });
    expect((await timed(metrics)).ms).toBeGreaterThanOrEqual(290);
    expect((await timed(metrics)).ms).toBeLessThan(250);
  });

  it('refuses unknown fault settings', async () => {
    await expect(emulator.control.faults({ failRate: 2 })).rejects.toThrow(/between 0 and 1/);
  });
});
