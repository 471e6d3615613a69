// Fault injection: latency, 5xx, dropped connections and forced runs, drawn from a seeded generator for reproducible runs.

import { seededRandom } from './random';

/** Every fault knob; rates are shares of API requests between 0 and 1. */
export interface FaultSettings {
  /** Added to every API response. */
  latencyMs: number;
  /** Up to this much more, drawn per request. */
  jitterMs: number;
  /** Share of requests answered 503 with a plain-text body (as a proxy would). */
  failRate: number;
  /** Share of requests whose socket is destroyed without an answer. */
  dropRate: number;
  seed: number;
  /** The next N API requests answer 429. */
  next429: number;
  /** The next N API requests answer 503. */
  next5xx: number;
  /** The next `count` API responses are delayed by `delayMs` more. */
  slowNext: { count: number; delayMs: number };
  /**
   * Every API request answers 429 for this long (ms on the emulator's clock) from when it is set: a storm
   * of a given length, however few or many requests meet it. 0 ends one.
   */
  throttleForMs: number;
}

export const NO_FAULTS: FaultSettings = {
  latencyMs: 0,
  jitterMs: 0,
  failRate: 0,
  dropRate: 0,
  seed: 1,
  next429: 0,
  next5xx: 0,
  slowNext: { count: 0, delayMs: 0 },
  throttleForMs: 0,
};

/** What happens to one API request before it reaches the emulated service. */
export type FaultOutcome = 'pass' | 'drop' | 'fail' | 'throttle';

/** Decides, request by request, which fault (if any) applies. */
export class FaultInjector {
  private current: FaultSettings;
  private random: () => number;
  /** When the storm set by throttleForMs ends (emulator clock, ms). */
  private throttleUntil = 0;

  constructor(
    private readonly initial: FaultSettings,
    private readonly now: () => number = Date.now,
  ) {
    this.current = structuredClone(initial);
    this.random = seededRandom(initial.seed);
  }

  /** The settings in force, with what is left of the forced runs. */
  settings(): FaultSettings {
    return structuredClone(this.current);
  }

  /** Merges new settings; a new seed restarts the generator. */
  update(settings: Partial<FaultSettings>): void {
    this.current = {
      ...this.current,
      ...settings,
      slowNext: { ...this.current.slowNext, ...settings.slowNext },
    };
    if (settings.seed !== undefined) this.random = seededRandom(settings.seed);
    if (settings.throttleForMs !== undefined) this.throttleUntil = this.now() + settings.throttleForMs;
  }

  /** Back to the start-up settings and seed. */
  reset(): void {
    this.current = structuredClone(this.initial);
    this.random = seededRandom(this.initial.seed);
    this.throttleUntil = 0;
  }

  /** How long to hold this request: fixed latency, jitter, and a pending slow response. */
  delayFor(): number {
    let delay = this.current.latencyMs;
    if (this.current.jitterMs > 0) delay += Math.round(this.random() * this.current.jitterMs);
    if (this.current.slowNext.count > 0) {
      this.current.slowNext.count -= 1;
      delay += this.current.slowNext.delayMs;
    }
    return delay;
  }

  /** Forced runs first, then the random shares; both draws happen on every request so runs replay exactly. */
  decide(): FaultOutcome {
    if (this.now() < this.throttleUntil) return 'throttle';
    if (this.current.next429 > 0) {
      this.current.next429 -= 1;
      return 'throttle';
    }
    if (this.current.next5xx > 0) {
      this.current.next5xx -= 1;
      return 'fail';
    }
    if (this.current.dropRate <= 0 && this.current.failRate <= 0) return 'pass';
    const dropDraw = this.random();
    const failDraw = this.random();
    if (dropDraw < this.current.dropRate) return 'drop';
    if (failDraw < this.current.failRate) return 'fail';
    return 'pass';
  }
}

/** Reads fault settings from untrusted JSON; returns the problem, or the settings. */
export function readFaultSettings(input: unknown): Partial<FaultSettings> | string {
  if (!input || typeof input !== 'object' || Array.isArray(input)) return 'body must be a JSON object';
  const source = input as Record<string, unknown>;
  const result: Partial<FaultSettings> = {};
  const numbers = ['latencyMs', 'jitterMs', 'failRate', 'dropRate', 'seed', 'next429', 'next5xx', 'throttleForMs'] as const;
  for (const key of Object.keys(source)) {
    if (key !== 'slowNext' && !(numbers as readonly string[]).includes(key)) return `unknown fault setting: ${key}`;
  }
  for (const key of numbers) {
    const value = source[key];
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) return `${key} must be a number >= 0`;
    if ((key === 'failRate' || key === 'dropRate') && value > 1) return `${key} must be between 0 and 1`;
    result[key] = value;
  }
  const slow = source.slowNext;
  if (slow !== undefined) {
    const { count, delayMs } = (slow ?? {}) as Record<string, unknown>;
    if (typeof count !== 'number' || typeof delayMs !== 'number' || count < 0 || delayMs < 0) {
      return 'slowNext must be { count: number >= 0, delayMs: number >= 0 }';
    }
    result.slowNext = { count, delayMs };
  }
  return result;
}
