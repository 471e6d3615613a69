// The benchmark's wiring: the emulator in a child process with latency and a scaled rate limit, runtimes
// over it, and one way to measure a run (requests the emulator saw, simulated wall time, real time).

import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { GasRuntime, GasRuntimeOptions } from '../gas-runtime';
import { OWNER, startStack, type Stack } from '../test/support/stack';
import { DIST, ensureBuilt } from '../test/support/built-bundle';

/** What the run is configured with: the emulator's latency and its rate limit, scaled from the real one. */
export interface BenchConfig {
  latencyMs: number;
  /** Requests per window, per token. */
  rateLimit: number;
  rateWindowSeconds: number;
  /** Only these scenarios (all when empty). */
  only: string[];
}

/**
 * Which runs a process does: the add-in's, or the benchmark's own clients (the naive baseline and the
 * audit's floor client). The two sides run in separate processes, each with its own emulator, so the
 * baseline's slow sequential requests overlap the add-in's runs without sharing a clock or a rate window.
 */
export type Side = 'addin' | 'baseline';

/** The API's documented limit; the run scales both numbers by the same factor, so the rate stays the same. */
export const REAL_RATE_LIMIT = { limit: 500, windowSeconds: 300 } as const;

/** What one measured run cost. */
export interface Measured<T> {
  value: T;
  /** API requests the emulator logged (every attempt, 429s and faults included). */
  requests: number;
  /** Of those, answered 429. */
  rateLimited: number;
  /** Other answers of 400 and more (0 means dropped): should be 0 in every scenario. */
  failed: number;
  /** Requests by method (GET, PUT, …), 429s included. */
  byMethod: Record<string, number>;
  /**
   * The runtime's virtual clock across the run: real time while executions ran (HTTP, the bundle's
   * load, computing), plus every Utilities.sleep and every wait the benchmark advanced between export
   * steps. Time between executions (the benchmark's own bookkeeping) is not counted.
   */
  simMs: number;
  /** Real elapsed time of the run, for the curious: with virtual sleeps it is far below simMs. */
  realMs: number;
}

export class Bench {
  private constructor(
    readonly config: BenchConfig,
    readonly stack: Stack,
  ) {}

  static async start(config: BenchConfig): Promise<Bench> {
    ensureBuilt();
    const stack = await startStack({
      empty: true,
      latencyMs: config.latencyMs,
      rateLimit: config.rateLimit,
      rateWindowSeconds: config.rateWindowSeconds,
    });
    return new Bench(config, stack);
  }

  /**
   * The same emulator at another rate limit: runs measured through it start from a fresh window of that
   * limit (the emulator is set again at each), so a scenario can compare the scaled limit with the real one.
   */
  atRateLimit(limit: number, windowSeconds: number): Bench {
    return new Bench({ ...this.config, rateLimit: limit, rateWindowSeconds: windowSeconds }, this.stack);
  }

  get emulator(): Stack['emulator'] {
    return this.stack.emulator;
  }

  /** The fund every scenario but the audit works in (the emulator's own, empty at start). */
  get fundId(): string {
    return this.stack.emulator.companyId;
  }

  /**
   * A fresh runtime (empty cache, properties set) running the add-in as built, warmed up. `rateBudget`
   * sets the user's METRICS_API_RATE_LIMIT setting, as a user whose API limit changed would;
   * `defaultCompany` the settings' default company (the emulator's fund when left out).
   */
  addinRuntime(options: { rateBudget?: string; defaultCompany?: string; customFunctionsPerSecond?: number | false } = {}): Promise<GasRuntime> {
    // A scenario with a fund of its own (the grid) makes it the default company, which formula access allows.
    // Apps Script's per-second refusal of custom functions (on in the runtime) is off unless a scenario asks for
    // it: the per-cell sheets here measure requests and time; fund-model-executions measures the refusal.
    const assumptions = { customFunctionsPerSecond: options.customFunctionsPerSecond ?? false };
    const rt = this.stack.runtime(options.defaultCompany ? { defaultCompany: options.defaultCompany, assumptions } : { assumptions });
    if (options.rateBudget) rt.properties.user(OWNER).setProperty('METRICS_API_RATE_LIMIT', options.rateBudget);
    return this.warmUp(rt);
  }

  /** A fresh runtime running another script (the baseline clients, or a variant of the bundle), warmed up. */
  scriptRuntime(source: string): Promise<GasRuntime> {
    const options: Partial<GasRuntimeOptions> = {
      code: source,
      files: DIST,
      scriptTimeZone: manifestTimeZone(),
      assumptions: { customFunctionsPerSecond: false },
    };
    return this.warmUp(this.stack.runtime(options));
  }

  /**
   * A runtime starts its HTTP worker thread on its first request (about 100 ms, counted on the virtual
   * clock), which neither Apps Script nor a second run pays. One request before measuring starts it:
   * the add-in's own connection test (two API requests, before the run's request log is cleared), or
   * the clients' request to the control API. Then every cache is emptied, the add-in's rate budget too,
   * so the measured run starts as cold as a fresh runtime.
   */
  private async warmUp(rt: GasRuntime): Promise<GasRuntime> {
    await this.freshRateWindow();
    if (rt.functionNames().includes('benchWarmUp')) rt.run('benchWarmUp');
    else rpcValue(rt.callServer('testConnection', [this.fundId]));
    rt.cache.clear();
    return rt;
  }

  /**
   * Starts a fresh rate window: moves the emulator's clock to the start of its next window and clears
   * the counts, so every measured run meets the limit the same way (a client cannot know where in
   * the server's window it starts; from a fresh window is what the floor assumes).
   */
  async freshRateWindow(): Promise<void> {
    await this.emulator.control.rateLimit({ limit: this.config.rateLimit, windowSeconds: this.config.rateWindowSeconds, freshWindow: true });
  }

  /** Moves both clocks, as the sidebar's wait between two export steps would. */
  async wait(rt: GasRuntime, ms: number): Promise<void> {
    rt.clock.advance(ms);
    await this.emulator.control.advanceClock(ms);
  }

  /**
   * Runs `action` from a fresh rate window and an empty request log, and says what it cost. The runtime's
   * clock first moves on by a window too, so the add-in's own rate budget (a sliding log in its cache)
   * also starts empty, as the server's count does: no run inherits the previous run's requests.
   */
  async measure<T>(rt: GasRuntime, action: () => T | Promise<T>): Promise<Measured<T>> {
    rt.clock.advance(this.config.rateWindowSeconds * 1000 + 1000);
    await this.freshRateWindow();
    await this.emulator.control.clearRequests();
    const simStart = rt.clock.now();
    const realStart = performance.now();
    const value = await action();
    const realMs = performance.now() - realStart;
    const simMs = rt.clock.now() - simStart;
    const log = await this.emulator.control.requests();
    const byMethod: Record<string, number> = {};
    for (const request of log) byMethod[request.method] = (byMethod[request.method] ?? 0) + 1;
    return {
      byMethod,
      value,
      requests: log.length,
      rateLimited: log.filter((r) => r.status === 429).length,
      failed: log.filter((r) => r.status !== 429 && (r.status >= 400 || r.status === 0)).length,
      simMs,
      realMs,
    };
  }

  async stop(): Promise<void> {
    await this.stack.stop();
  }
}

function manifestTimeZone(): string {
  const manifest = JSON.parse(readFileSync(path.join(DIST, 'appsscript.json'), 'utf8')) as { timeZone?: string };
  return manifest.timeZone ?? 'Etc/UTC';
}

/** What google.script.run's success handler gets from the add-in's server functions. */
export function rpcValue<T>(result: unknown): T {
  const rpc = result as { ok: true; value: T } | { ok: false; error: string };
  if (!rpc.ok) throw new Error(`server call failed: ${rpc.error}`);
  return rpc.value;
}
