// The whole add-in on one machine: the built dist/Code.js in the Node runtime for Apps Script,
// talking over loopback HTTP to the API emulator in a child process.

import { createGasRuntime, type GasRuntime, type GasRuntimeOptions } from '../../gas-runtime';
import { emulatorClockMover, startEmulatorProcess, type ProcessOptions, type RunningEmulator } from '../../emulator/testing';
import type { EmulatorState } from '../../emulator/records';
import { DIST, CODE_PATH, ensureBuilt } from './built-bundle';
import type { AuditPushHandle, ExportHandle } from '../../src/shared/rpc';

export const OWNER = 'owner@example.com';

/** A user's settings in their user properties; the base URL always points at the emulator. */
export interface UserSettings {
  /** Default: the emulator's token; null for none. */
  token?: string | null;
  /** Default: the emulator's company; null for none. */
  defaultCompany?: string | null;
}

export type StackRuntimeOptions = Partial<GasRuntimeOptions> &
  UserSettings & {
    /**
     * The active user's own settings, when `activeUser` is not the owner (the top-level token and
     * defaultCompany are the owner's): with none given the active user has no properties at all.
     */
    activeUserSettings?: UserSettings;
  };

export interface Stack {
  emulator: RunningEmulator;
  /**
   * A fresh runtime (empty caches and properties) with the owner's settings pointing at the emulator.
   * `owner` and `activeUser` may differ: custom functions then read the owner's properties, the sidebar the active user's.
   */
  runtime(options?: StackRuntimeOptions): GasRuntime;
  /** API requests the emulator saw since the last call (method, path and decoded query). */
  takeRequests(): Promise<Array<{ method: string; path: string; query: string; status: number; userId?: string }>>;
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
      const { token, defaultCompany, activeUserSettings, ...runtimeOptions } = options;
      const owner = runtimeOptions.owner ?? OWNER;
      const rt = createGasRuntime({ code: { path: CODE_PATH }, files: DIST, owner, onSleep: emulatorClock.advance, ...runtimeOptions });
      const put = (user: string, settings: UserSettings): void => {
        const props = rt.properties.user(user);
        props.setProperty('METRICS_API_BASE_URL', emulator.url);
        const { token: userToken = emulator.token, defaultCompany: company = emulator.companyId } = settings;
        if (userToken) props.setProperty('METRICS_API_TOKEN', userToken);
        if (company) props.setProperty('METRICS_DEFAULT_COMPANY_ID', company);
      };
      put(owner, { token, defaultCompany });
      const activeUser = runtimeOptions.activeUser;
      if (activeUser && activeUser !== owner && activeUserSettings) put(activeUser, activeUserSettings);
      runtimes.push(rt);
      return rt;
    },
    async takeRequests() {
      const requests = await emulator.control.requests();
      await emulator.control.clearRequests();
      return requests.map((r) => ({
        method: r.method,
        path: r.path,
        query: decodeURIComponent(r.query ?? ''),
        status: r.status,
        ...(r.userId ? { userId: r.userId } : {}),
      }));
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

/**
 * Lets formulas in the runtime's spreadsheet read these companies, as the owner does in Settings ›
 * Formula access (the owner's own sidebar call, so through the add-in's own checks).
 */
export function grantFormulaAccess(rt: GasRuntime, companyIds: string[], owner = OWNER): void {
  ok(rt.callServer('setFormulaAccess', [companyIds], { user: owner }));
}

/** Drives an export as the sidebar does: steps until it ends, waiting out the rate limit on both clocks. */
export async function driveExport(stack: Stack, rt: GasRuntime, handle: ExportHandle, maxSteps = 50): Promise<ExportHandle> {
  return driveJob(stack, rt, handle, 'continueExport', (h) => h.exportId, maxSteps);
}

/** Drives an audit push (or an overwrite) as the sidebar does, to its report. */
export async function driveAuditPush(stack: Stack, rt: GasRuntime, first: AuditPushHandle): Promise<AuditPushHandle> {
  return driveJob(stack, rt, first, 'continueAuditPush', (handle) => handle.pushId);
}

/** A PUT /portfolio_property_values straight to the API, as someone in the web application (or Undo) sends it. */
export async function putPropertyValue(stack: Stack, body: Record<string, unknown>): Promise<void> {
  const response = await fetch(`${stack.emulator.url}/portfolio_property_values`, {
    method: 'PUT',
    headers: { Authorization: `Bearer ${stack.emulator.token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ portfolio_property_value: body }),
  });
  if (response.status >= 300) throw new Error(`PUT /portfolio_property_values answered ${response.status}`);
}

/**
 * Drives any resumable job as the sidebar does: calls `next` (continueUndo, continueAuditPush, ...) with the
 * job's id until a report comes, waiting out the rate limit on both clocks.
 */
export async function driveJob<H extends { report?: unknown; progress: { waitingForRateLimitMs?: number } }>(
  stack: Stack,
  rt: GasRuntime,
  first: H,
  next: string,
  id: (handle: H) => string,
  maxSteps = 20,
): Promise<H> {
  let handle = first;
  for (let step = 0; !handle.report && step < maxSteps; step++) {
    await waitOnBothClocks(stack, rt, handle.progress.waitingForRateLimitMs);
    handle = ok<H>(rt.callServer(next, [id(handle)]));
  }
  return handle;
}

/** Waits out a wait a job asked for, on the runtime's clock and the emulator's (its rate window). */
export async function waitOnBothClocks(stack: Stack, rt: GasRuntime, waitMs: number | undefined): Promise<void> {
  if (!waitMs) return;
  rt.clock.advance(waitMs);
  await stack.emulator.control.advanceClock(waitMs);
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

/** useStack, and the emulator's state as every test starts (its demo data, read once from the emulator). */
export function useStackWithState(onStart: (stack: Stack, state: EmulatorState) => void, emulatorOptions: ProcessOptions = {}): void {
  let stack: Stack;
  useStack((started) => (stack = started), emulatorOptions);
  beforeAll(async () => onStart(stack, await stack.emulator.control.state()));
}
