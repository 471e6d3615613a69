// The whole add-in on one machine: the built dist/Code.js in the Node runtime for Apps Script,
// talking over loopback HTTP to the API emulator in a child process.

import { createGasRuntime, type GasRuntime, type GasRuntimeOptions } from '../../gas-runtime';
import { emulatorClockMover, startEmulatorProcess, type ProcessOptions, type RunningEmulator } from '../../emulator/testing';
import { DIST, CODE_PATH, ensureBuilt } from './built-bundle';
import type { ExportHandle } from '../../src/shared/rpc';

export const OWNER = 'owner@example.com';

export interface Stack {
  emulator: RunningEmulator;
  /** A fresh runtime (empty caches and properties) with the owner's settings pointing at the emulator. */
  runtime(options?: Partial<GasRuntimeOptions> & { token?: string | null; defaultCompany?: string | null }): GasRuntime;
  /** API requests the emulator saw since the last call (method, path and decoded query). */
  takeRequests(): Promise<Array<{ method: string; path: string; query: string; status: number }>>;
  stop(): Promise<void>;
}

export async function startStack(emulatorOptions: ProcessOptions = {}): Promise<Stack> {
  ensureBuilt();
  const emulator = await startEmulatorProcess(emulatorOptions);
  const runtimes: GasRuntime[] = [];
  /** The runtime's sleeps are virtual; moving the emulator's clock with them keeps its rate window in step. */
  const emulatorClock = emulatorClockMover(emulator.url);
  await emulator.control.clearRequests();
  return {
    emulator,
    runtime(options = {}) {
      const { token = emulator.token, defaultCompany = emulator.companyId, ...runtimeOptions } = options;
      const rt = createGasRuntime({ code: { path: CODE_PATH }, files: DIST, owner: OWNER, onSleep: emulatorClock.advance, ...runtimeOptions });
      const props = rt.properties.user(OWNER);
      props.setProperty('METRICS_API_BASE_URL', emulator.url);
      if (token) props.setProperty('METRICS_API_TOKEN', token);
      if (defaultCompany) props.setProperty('METRICS_DEFAULT_COMPANY_ID', defaultCompany);
      runtimes.push(rt);
      return rt;
    },
    async takeRequests() {
      const requests = await emulator.control.requests();
      await emulator.control.clearRequests();
      return requests.map((r) => ({ method: r.method, path: r.path, query: decodeURIComponent(r.query ?? ''), status: r.status }));
    },
    async stop() {
      await Promise.all(runtimes.map((rt) => rt.close()));
      await emulatorClock.close();
      await emulator.stop();
    },
  };
}

/** What a sidebar server function answers. */
export type Rpc<T> = { ok: true; value: T } | { ok: false; error: string };

/** The value of a server function's answer, or the test fails with the sentence it gave. */
export function ok<T>(result: unknown): T {
  const rpc = result as Rpc<T>;
  if (!rpc.ok) throw new Error(`server call failed: ${rpc.error}`);
  return rpc.value;
}

/** Drives an export as the sidebar does: steps until it ends, waiting out the rate limit on both clocks. */
export async function driveExport(stack: Stack, rt: GasRuntime, handle: ExportHandle, maxSteps = 50): Promise<ExportHandle> {
  for (let step = 0; !handle.report && step < maxSteps; step++) {
    const wait = handle.progress.waitingForRateLimitMs;
    if (wait) {
      rt.clock.advance(wait);
      await stack.emulator.control.advanceClock(wait);
    }
    handle = ok<ExportHandle>(rt.callServer('continueExport', [handle.exportId]));
  }
  return handle;
}

/**
 * A test file's stack: started once before its tests, stopped after them, and reset before each test
 * (demo data, no faults, an empty request log). `onStart` receives it, for the file's own `stack`.
 */
export function useStack(onStart: (stack: Stack) => void, emulatorOptions: ProcessOptions = {}): void {
  let started: Stack | undefined;
  beforeAll(async () => {
    started = await startStack(emulatorOptions);
    onStart(started);
  });
  afterAll(() => started?.stop());
  beforeEach(async () => {
    await started!.emulator.control.reset();
    await started!.emulator.control.clearRequests();
  });
}

