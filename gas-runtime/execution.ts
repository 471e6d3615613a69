// One execution of the script: who runs it, in which auth mode, and how much of its time is left.

import { customFunctionStoreUser, type ResolvedSharedDrive } from './assumptions';
import type { VirtualClock } from './clock';
import type { AuthModeName } from './enums';
import { EXCEEDED_MAXIMUM_EXECUTION_TIME, GasError, type GasRuntimeUsageError } from './errors';
import { CUSTOM_FUNCTION_LIMIT_MS, ORDINARY_EXECUTION_LIMIT_MS } from './limits';

/** How the execution was started. */
export type ExecutionKind = 'custom-function' | 'run' | 'server-call' | 'trigger';

export interface ExecutionInit {
  id: number;
  functionName: string;
  kind: ExecutionKind;
  authMode: AuthModeName;
  /** The person at the keyboard (the user whose formula recalculated, who opened the sheet, who clicked). */
  user: string;
  owner: string;
  clock: VirtualClock;
  /** The manifest's `oauthScopes`, or null when it declares none (Apps Script then grants what the code needs). */
  oauthScopes: ReadonlySet<string> | null;
  /** The scopes the execution's user declined on the consent screen (granular consent); default none. */
  declinedScopes?: ReadonlySet<string>;
  /** The register's switch: a declined scope's refusal names it (default) or reads "Authorization is required…". */
  declinedScopeRefusalNamesScope?: boolean;
  /** Virtual start time, when the host started the execution for a worker thread; default: now. */
  startedAt?: number;
  /**
   * Whether sleeps and lock waits take real time. Concurrent executions wait for real: a jump of the
   * shared clock would age every other execution running at the same time.
   */
  realWaits?: boolean;
  /** A daily quota of run time that may end the execution before its own limit (triggers' total runtime). */
  budget?: ExecutionBudget;
  /** A custom function's user cache and lock are its own, not the owner's shared ones (assumption switch `sharedCachesAcrossExecutions: false`). */
  privateUserCache?: boolean;
  /** The spreadsheet is in a Shared Drive: no owner, and a custom function reads the store its reading names. */
  sharedDrive?: ResolvedSharedDrive | null;
}

/** What is left of a daily quota of run time, and Apps Script's words when the execution runs past it. */
export interface ExecutionBudget {
  ms: number;
  refusal: string;
}

/** What the log keeps of an execution. */
export interface ExecutionRecord {
  id: number;
  functionName: string;
  kind: ExecutionKind;
  authMode: AuthModeName;
  user: string;
  /** Virtual time the execution was asked for, ms since the epoch: before `startedAt` when it waited for a free slot. */
  queuedAt: number;
  /** Virtual time at the start, ms since the epoch. */
  startedAt: number;
  /** Virtual duration in ms: real time spent running plus sleeps and lock waits. */
  durationMs: number;
  /** Requests sent through UrlFetchApp (each request of a fetchAll counts). */
  urlFetchCount: number;
  /** Virtual ms spent in LockService waiting for a lock another execution (or a simulated holder) held. */
  lockWaitMs: number;
  outcome: 'completed' | 'failed' | 'timed-out';
  /** The error's message when the execution failed. */
  error?: string;
}

export class Execution {
  readonly id: number;
  readonly functionName: string;
  readonly kind: ExecutionKind;
  readonly authMode: AuthModeName;
  readonly user: string;
  readonly owner: string;
  readonly startedAt: number;
  readonly limitMs: number;
  /** Apps Script's words when the execution reaches `limitMs`: its time limit's, or a daily quota's. */
  readonly limitMessage: string;
  readonly oauthScopes: ReadonlySet<string> | null;
  /** What the user declined of the scopes (rt.authorize): a call needing only those fails for want of the user's consent. */
  readonly declinedScopes: ReadonlySet<string>;
  readonly declinedScopeRefusalNamesScope: boolean;
  readonly realWaits: boolean;
  readonly privateUserCache: boolean;
  readonly sharedDrive: ResolvedSharedDrive | null;
  urlFetchCount = 0;
  lockWaitMs = 0;
  /** Set once the limit was exceeded: Apps Script ends the execution even if the script catches the error. */
  timedOut = false;
  /**
   * The first misuse of the runtime (a gap, a misconfiguration) seen during the execution. The script
   * may catch the error it got, but the caller of the runtime still receives this one.
   */
  usageError: GasRuntimeUsageError | null = null;
  /**
   * Set when ScriptApp.requireScopes ended the execution for want of consent: the reference says it "ends the
   * current execution", so the execution fails with this message even if the script caught the error.
   */
  endedForConsent: string | null = null;
  readonly #clock: VirtualClock;

  constructor(init: ExecutionInit) {
    this.id = init.id;
    this.functionName = init.functionName;
    this.kind = init.kind;
    this.authMode = init.authMode;
    this.user = init.user;
    this.owner = init.owner;
    this.oauthScopes = init.oauthScopes;
    this.declinedScopes = init.declinedScopes ?? new Set();
    this.declinedScopeRefusalNamesScope = init.declinedScopeRefusalNamesScope ?? true;
    this.#clock = init.clock;
    this.startedAt = init.startedAt ?? init.clock.now();
    this.realWaits = init.realWaits ?? false;
    const ownLimitMs = init.kind === 'custom-function' ? CUSTOM_FUNCTION_LIMIT_MS : ORDINARY_EXECUTION_LIMIT_MS;
    // The stricter reading: a run that spends the rest of the day's quota is stopped there (the reference is silent).
    const quotaFirst = init.budget !== undefined && init.budget.ms < ownLimitMs;
    this.limitMs = quotaFirst ? init.budget!.ms : ownLimitMs;
    this.limitMessage = quotaFirst ? init.budget!.refusal : EXCEEDED_MAXIMUM_EXECUTION_TIME;
    this.privateUserCache = init.privateUserCache ?? false;
    this.sharedDrive = init.sharedDrive ?? null;
  }

  get isCustomFunction(): boolean {
    return this.kind === 'custom-function';
  }

  /**
   * The user whose user-scoped stores this execution reads: in a custom function, the spreadsheet's owner, or in a
   * Shared Drive the store the reading names (assumptions.ts, SharedDriveReading).
   */
  get storeUser(): string {
    return this.isCustomFunction ? customFunctionStoreUser(this.user, this.owner, this.sharedDrive) : this.user;
  }

  /** A custom function may write only the store of the person recalculating ("editors can't set user properties in a custom function"). */
  get userStoreReadOnly(): boolean {
    return this.isCustomFunction && this.storeUser !== this.user;
  }

  /** Whose user cache and lock this execution gets: storeUser's, or (switched) one of this custom function's own. */
  get cacheUser(): string {
    return this.privateUserCache && this.isCustomFunction ? `${this.storeUser}#execution-${this.id}` : this.storeUser;
  }

  now(): number {
    return this.#clock.now();
  }

  elapsedMs(): number {
    return this.#clock.now() - this.startedAt;
  }

  remainingMs(): number {
    return this.limitMs - this.elapsedMs();
  }

  recordUsageError(error: GasRuntimeUsageError): void {
    this.usageError ??= error;
  }

  /** Throws Apps Script's time-limit error once the execution has run too long; called at every service call. */
  checkTime(): void {
    if (this.timedOut || this.elapsedMs() > this.limitMs) {
      this.timedOut = true;
      throw new GasError(this.limitMessage, 'Error');
    }
  }

  /** A sleep or a wait: advances the virtual clock, or blocks the thread for real in a concurrent execution; then checks the limit. */
  wait(ms: number): void {
    if (this.realWaits) sleepForReal(ms);
    else this.#clock.advance(ms);
    this.checkTime();
  }
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));

/** Blocks this thread for `ms` of real time (a worker thread's execution; never the host's event loop). */
export function sleepForReal(ms: number): void {
  const until = performance.now() + ms;
  for (let left = ms; left > 0; left = until - performance.now()) Atomics.wait(sleeper, 0, 0, left);
}
