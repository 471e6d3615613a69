// Messages between the host's GasRuntime and the worker threads that run its concurrent executions.

import type { LogLevel } from '../logging';
import type { LockAnswer } from '../lock';
import type { UsageErrorCode } from '../errors';
import type { WireError } from './wire';

/**
 * What a worker thread needs to start: the bundle. Threads are shared by every runtime of one bundle in a process
 * (pool.ts), so what belongs to one runtime comes with its first job on the thread (`RuntimeInit`).
 */
export interface ThreadInit {
  rpcPort: import('node:worker_threads').MessagePort;
  /** Int32Array[1]: the host stores 1 and notifies once a reply is posted. */
  signal: SharedArrayBuffer;
  source: string;
  filename: string;
  /** The host's V8 code cache of the bundle (runtime.ts `WorkerSide.codeCache`). */
  codeCache: Uint8Array;
  /** The host's binding of the built-ins, or null for none (realm.ts `fastGlobalsSource`). */
  fastGlobals: string | null;
}

/** What a worker needs to build its own runtime over one host runtime's state. */
export interface RuntimeInit {
  clock: SharedArrayBuffer;
  files: string | undefined;
  timeZone: string;
  scriptTimeZone: string;
  owner: string;
  activeUser: string;
  scriptId: string;
  fetchTimeoutMs: number;
  oauthScopes: string[] | null;
  /** The host's urlFetchWhitelist prefixes (already checked there), so a worker refuses what a synchronous execution refuses. */
  urlFetchWhitelist: string[] | null;
  /** The host's assumption switches (docs/platform.md). */
  assumptions: import('../assumptions').PlatformAssumptions;
  /** The host's Shared Drive case, resolved (null: the spreadsheet has an owner). */
  sharedDrive: import('../assumptions').ResolvedSharedDrive | null;
}

/** Everything a host runtime hands its pool: the thread's part and its own. */
export type WorkerInit = ThreadInit & RuntimeInit;

/** Host to worker, besides jobs: the runtime closed, so the thread drops its copy (and that copy's HTTP worker). */
export interface ForgetRuntime {
  type: 'forget';
  runtime: number;
}

export type JobKind = 'custom-function' | 'server-call';

/** One execution the host started; the worker runs it in a fresh context. */
export interface JobRequest {
  id: number;
  /** The host runtime the job belongs to (a number unique in the process). */
  runtime: number;
  /** That runtime's settings, on its first job on this thread; the thread keeps its runtime until told to forget it. */
  runtimeInit?: RuntimeInit;
  functionName: string;
  kind: JobKind;
  user: string;
  /** The scopes the user declined (rt.authorize), as the host knew them when it started the execution. */
  declinedScopes: string[];
  args: unknown[];
  startedAt: number;
  /** Real ms the worker waits before loading the bundle, as Apps Script spends starting an execution. */
  startupMs: number;
  /** SpreadsheetApp, PropertiesService and CacheService made on the host for this execution, as handles. */
  services: Record<string, unknown>;
}

export type JobOutcome = { ok: true; value: unknown } | { ok: false; name: string; message: string; timedOut: boolean; cellCode?: string };

export interface JobResult {
  /** False when the function did not exist: nothing ran, as the synchronous entry points leave no record. */
  logged: boolean;
  durationMs: number;
  urlFetchCount: number;
  lockWaitMs: number;
  outcome: JobOutcome;
  usageError?: { message: string; code: UsageErrorCode };
}

/** Worker to host, on the RPC port, in the order the worker sent them. */
export type WorkerMessage =
  | { type: 'ready' }
  | { type: 'startup-failed'; error: WireError }
  | { type: 'call'; handle: number; member: string; args: unknown[] }
  | { type: 'get'; handle: number; member: string }
  | { type: 'lock'; action: 'try' | 'release'; key: string }
  /** Counts requests against the host's daily quota, which is per user across every execution. */
  | { type: 'url-fetch-quota'; user: string; count: number }
  | { type: 'log'; level: LogLevel; message: string; time: number; functionName: string; executionId: number }
  | { type: 'done'; result: JobResult }
  | { type: 'crashed'; error: WireError };

export type Reply = { ok: true; value: unknown } | { ok: false; error: WireError };
export type { LockAnswer };
