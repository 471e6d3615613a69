// Fault injection: latency, jitter, 503s, dropped connections, forced runs and slow responses, reproducible by seed.

import { DEMO_IDS } from '../demo-data';
import type { RunningEmulator } from '../testing';
import { get, startConformanceEmulator } from './helpers';

let emulator: RunningEmulator;
/** Every hold the emulator asked for, in order: latency is read from here, never from a clock. */
const holds: number[] = [];
beforeAll(async () => {
  emulator = await startConformanceEmulator({
    hold: async (ms) => {
      holds.push(ms);
    },
  });
});
afterAll(() => emulator.stop());
beforeEach(async () => {
  await emulator.control.reset();
  holds.length = 0;
});

const metrics = () => get(emulator, '/metrics', `company_id=${DEMO_IDS.fund}`);

describe('faults', () => {
  it('adds a fixed latency to API responses but not to the control API', async () => {
    await emulator.control.faults({ latencyMs: 250 });
    expect((await metrics()).status).toBe(200);
    expect(holds).toEqual([250]);
    await emulator.control.requests();
    await emulator.control.faults({});
    expect(holds).toEqual([250]);
  });

  it('adds jitter within its bound, drawn per request and replayed by its seed', async () => {
    const run = async () => {
      await emulator.control.reset();
      holds.length = 0;
      await emulator.control.faults({ latencyMs: 50, jitterMs: 100, seed: 42 });
      for (let i = 0; i < 30; i += 1) expect((await metrics()).status).toBe(200);
      return [...holds];
    };
    const first = await run();
    expect(first).toHaveLength(30);
    for (const ms of first) {
      expect(ms).toBeGreaterThanOrEqual(50);
      expect(ms).toBeLessThanOrEqual(150);
    }
    // Jitter at all: 30 draws over 101 values are far from one value (without jitter every hold is 50).
    expect(new Set(first).size).toBeGreaterThan(10);
    expect(Math.max(...first) - Math.min(...first)).toBeGreaterThan(50);
    expect(await run()).toEqual(first);
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
    await metrics();
    await metrics();
    expect(holds).toEqual([300]);
    expect((await emulator.control.requests()).map((r) => r.status)).toEqual([200, 200]);
  });

  it('lets a held answer go at once when released, and says how many it held', async () => {
    // The default hold, a real timer: this test fails by timing out if the release does not end it.
    const real = await startConformanceEmulator();
    try {
      await real.control.faults({ slowNext: { count: 1, delayMs: 600_000 } });
      const answer = get(real, '/metrics', `company_id=${DEMO_IDS.fund}`);
      let released = 0;
      while (released === 0) released = await real.control.release();
      expect(released).toBe(1);
      expect((await answer).status).toBe(200);
      expect(await real.control.release()).toBe(0);
    } finally {
      await real.stop();
    }
  });

  it('refuses unknown fault settings', async () => {
    await expect(emulator.control.faults({ failRate: 2 })).rejects.toThrow(/between 0 and 1/);
  });
});
