// The runtime: loads the bundle into a fresh vm context per execution and runs custom functions,
// triggers, menu items and google.script.run calls against the shared in-memory state.

import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { types } from 'node:util';
import vm from 'node:vm';
import { CacheServiceStandIn, CacheStores, type Cache, type CacheCallsReport, type CacheEvictionOptions, type CacheStatsReport } from './cache';
import { VirtualClock, type RuntimeClock } from './clock';
import { asMatrix, toCellResult, type CellOutput } from './custom-function-values';
import {
  assumptionsOption,
  customFunctionStoreUser,
  resolveAssumptions,
  resolveSharedDrive,
  type PlatformAssumptions,
  type ResolvedAssumptions,
  type ResolvedSharedDrive,
  type SharedDriveOption,
} from './assumptions';
import { AuthMode, type AuthModeName } from './enums';
import { CustomFunctionError, GasError, GasRuntimeUsageError, ScriptError, ServerCallError } from './errors';
import { Execution, sleepForReal, type ExecutionBudget, type ExecutionKind, type ExecutionRecord } from './execution';
import { parseFormulaCall } from './formula-call';
import {
  DEFAULT_FETCH_TIMEOUT_MS,
  DEFAULT_PROPERTIES_DAILY_QUOTA,
  DEFAULT_TRIGGER_RUNTIME_DAILY_MS,
  DEFAULT_URL_FETCH_DAILY_QUOTA,
  WORKSPACE_PROPERTIES_DAILY_QUOTA,
  WORKSPACE_TRIGGER_RUNTIME_DAILY_MS,
  WORKSPACE_URL_FETCH_DAILY_QUOTA,
} from './limits';
import { DailyQuota } from './daily-quota';
import { LockTable, type LockArbiter } from './lock';
import type { LogEntry, LogLevel, LogSink } from './logging';
import { Membrane } from './membrane';
import { PROPERTIES_QUOTA_REFUSAL, PropertiesServiceStandIn, PropertyStores, type Properties, type PropertiesCallsReport } from './properties';
import { createRealm, fastGlobalsFor, fastGlobalsFrom, fastGlobalsSource, type Realm } from './realm';
import { copyServerArguments, copyServerResult } from './script-run';
import { createGlobals, type SharedState } from './services';
import { User } from './session';
import { formatA1 } from './spreadsheet/a1';
import type { CellError } from './spreadsheet/cell';
import { clearContent, hasContent } from './spreadsheet/cell';
import { DEFAULT_DATE_FORMAT, DEFAULT_DATE_TIME_FORMAT, isAutomaticFormat } from './spreadsheet/number-format';
import { dateToSerial, serialToDate } from './spreadsheet/serial-date';
import type { Sheet } from './spreadsheet/sheet';
import { Spreadsheet, unknownFormula, type FormulaEvaluator } from './spreadsheet/spreadsheet';
import { Ui, UiRecorder } from './spreadsheet/ui';
import { SyncHttpClient } from './sync-http';
import type { JobOutcome, JobRequest, JobResult } from './concurrent/protocol';
import { WorkerPool, type FinishedJob, type JobSpec, type PendingJob } from './concurrent/pool';
import { InvocationRate } from './invocation-rate';
import { SpreadsheetAppStandIn } from './spreadsheet/spreadsheet-app';
import type { Range } from './spreadsheet/range';
import { isValidTimeZone } from './time-zone';
import { UrlFetchAllowlist, UrlFetchQuota, type UrlFetchQuotaCharger } from './url-fetch-limits';
import { ScriptAppStandIn } from './services';
import { clockEvent, TriggerTable, type TriggerRecord } from './triggers';

export interface GasRuntimeOptions {
  /** The built bundle (e.g. dist/Code.js), as source text or a path to read. */
  code: string | { path: string };
  /** Folder holding the project's HTML files, for HtmlService.createHtmlOutputFromFile('Sidebar'). */
  files?: string;
  /** The spreadsheet's time zone; default America/New_York. */
  timeZone?: string;
  /**
   * What Session.getScriptTimeZone() returns. Default: the `timeZone` of an appsscript.json next to
   * the bundle (when `code` is a path), else the spreadsheet's.
   */
  scriptTimeZone?: string;
  /** The spreadsheet's owner; default owner@example.com. */
  owner?: string;
  /** The user at the keyboard unless an execution names another; default: the owner. */
  activeUser?: string;
  /** Called on every Utilities.sleep with its milliseconds (e.g. to advance an emulator's clock). */
  onSleep?: (ms: number) => void;
  /** Origin of the virtual clock; default: now. */
  startTime?: Date;
  /** How long a fetch may take before it fails with "Timeout: <url>"; default 60 s. */
  fetchTimeoutMs?: number;
  /**
   * Virtual ms each request's answer takes on top of its real time, for a slow network without real waiting: a
   * synchronous execution's clock advances by it after the answer (the slowest of a fetchAll's), and a request
   * slower than fetchTimeoutMs fails with "Timeout: <url>" at it. Concurrent executions share one clock, so the
   * async entry points refuse a runtime with this option.
   */
  networkLatency?: (request: { method: string; url: string }) => number;
  /** Gives formulas written by the script a value; default: every formula shows #NAME?. */
  formulaEvaluator?: FormulaEvaluator;
  spreadsheetName?: string;
  spreadsheetId?: string;
  scriptId?: string;
  /**
   * The OAuth scopes the script was granted; a service call needing another fails with Apps Script's
   * "Specified permissions are not sufficient to call X" error. Default: the `oauthScopes` of an
   * appsscript.json beside the bundle (when `code` is a path); none declared means no check, as
   * Apps Script then grants whatever the code needs.
   */
  oauthScopes?: readonly string[];
  /**
   * Scopes each user declined on the consent screen (granular consent), by email; rt.authorize changes them later.
   * Default: every user granted every scope.
   */
  declinedScopes?: Readonly<Record<string, readonly string[]>>;
  /** Receives every Logger.log and console.* line as it is written (they are kept in rt.logs either way). */
  onLog?: LogSink;
  /** Caches lose entries early, as Apps Script allows (seeded random drops, a byte budget); default: off. */
  cacheEviction?: CacheEvictionOptions;
  /**
   * The kind of Google account every user has, which sets the daily quotas' defaults: 'consumer' (default;
   * gmail.com) or 'workspace' (quotas page: URL Fetch 20,000 / 100,000, Properties 50,000 / 500,000, triggers'
   * total runtime 90 min / 6 h a day).
   */
  account?: 'consumer' | 'workspace';
  /** UrlFetch requests per user per 24 hours; default by `account`: 20,000 (consumer), 100,000 (Workspace). */
  urlFetchDailyQuota?: number;
  /** Properties calls (reads and writes) per user per 24 hours; default by `account`: 50,000 or 500,000. */
  propertiesDailyQuota?: number;
  /** Trigger run time per user per 24 hours, in ms; default by `account`: 90 minutes or 6 hours. */
  triggerRuntimeDailyQuotaMs?: number;
  /** URL prefixes UrlFetchApp may fetch; default: the `urlFetchWhitelist` of an appsscript.json beside the bundle, else any URL. */
  urlFetchWhitelist?: readonly string[];
  /**
   * The script runs as an Editor add-on, so the add-on trigger rules apply (one trigger of each type per user
   * per document, time-driven at most hourly). Default true: this runtime exists for an add-on; false models a
   * bound or standalone script.
   */
  addOn?: boolean;
  /**
   * Another spreadsheet the same script (add-on) runs in: this runtime shares that one's user and script
   * properties and caches, and keeps its own document properties and cache, as Apps Script scopes them
   * (properties.ts, cache.ts). Locks, triggers and the UrlFetch quota stay this runtime's own.
   */
  sameScriptAs?: GasRuntime;
  /**
   * Switches for the platform behaviours the reference does not state (docs/platform.md): each default is the
   * reading the add-in was built on; flip one to run the add-in as if the platform behaved the other way.
   */
  assumptions?: PlatformAssumptions;
  /**
   * The spreadsheet is in a Shared Drive: `getOwner()` returns null, and a custom function reads the user properties
   * (and cache and lock) of no one, the file's creator or the caller, as `customFunctionProperties` says (default
   * 'none', the stricter reading; docs/platform.md, §12). Default: the spreadsheet has an owner, `owner`.
   */
  sharedDrive?: SharedDriveOption;
}

/** One run of a time-driven trigger, as `rt.triggers.runDue()` and `advance()` report it. */
export interface TriggerRun {
  triggerUid: string;
  handlerFunction: string;
  /** The trigger's owner, whom it ran as. */
  user: string;
  /** When the run was due (virtual ms); it started then or, after a clock jump, at the time of the call. */
  scheduledAt: number;
  ok: boolean;
  /** The handler's error message when it failed (an exception, a timeout, a missing function). */
  error?: string;
  execution: ExecutionRecord;
}

/** Time-driven triggers as tests see and drive them. */
export interface TriggerControls {
  /** The live triggers of every user, oldest first, with each one's owner, schedule and next run. */
  list(): TriggerRecord[];
  /**
   * Runs every trigger due at the clock's current time, each once, earliest first, as its owner in FULL
   * mode; runs missed during a clock jump collapse into one. A failing handler is recorded, not thrown.
   */
  runDue(): TriggerRun[];
  /** Moves the clock forward by `ms`, stopping at each due run on the way (the clock reads its due time) and running it. */
  advance(ms: number): TriggerRun[];
}

/** Auth modes an ordinary execution can have; custom functions always run in CUSTOM_FUNCTION. */
export type RunAuthMode = 'NONE' | 'LIMITED' | 'FULL';

export interface RunOptions {
  authMode?: RunAuthMode;
  user?: string;
}

export interface UserOption {
  user?: string;
}

export interface EvaluateFormulaOptions {
  /** The sheet the formula sits on; default: the active sheet. */
  sheet?: string;
  /** The cell the formula sits in (A1 notation); its result spills from there. */
  cell: string;
  user?: string;
}

/** A cell by sheet (default: the active one) and A1 notation. */
export interface FormulaLocationOption {
  sheet?: string;
  cell: string;
}

export type FormulaOutcome = { ok: true; values: CellOutput[][] } | { ok: false; error: CellError };

/** "Simultaneous executions: 30 / user" (quotas page). */
export const DEFAULT_MAX_CONCURRENT = 30;

export interface ConcurrencyOptions {
  /** How many executions run at once; the rest wait in a queue. Default 30, Apps Script's quota per user. */
  maxConcurrent?: number;
  /** Real ms each execution spends starting before the bundle loads; it counts on the execution's clock. Default 0. */
  startupMs?: number;
}

export interface RecalculationCell {
  formula: string;
  /** The cell the formula sits in (A1 notation). */
  cell: string;
  /** Default: the active sheet. */
  sheet?: string;
  user?: string;
}

/** When an execution was asked for, started and ended, on the virtual clock (ms since the epoch). */
export interface ExecutionTimes {
  queuedAt: number;
  startedAt: number;
  finishedAt: number;
}

export type RecalculatedCell = FormulaOutcome & ExecutionTimes & { cell: string; sheet: string };

/** A worker thread's runtime: the host's clock, locks and services, reached from that thread. */
export interface WorkerSide {
  filename: string;
  clock: SharedArrayBuffer;
  locks: LockArbiter;
  hostServices: (execution: Execution) => Record<string, object>;
  /** The host's daily quota. */
  urlFetchQuota: UrlFetchQuotaCharger;
  log: (level: LogLevel, message: string, time: number, functionName: string, executionId: number) => void;
  /** V8's code cache of the bundle, made by the host (`vm.Script#createCachedData`): the worker's compile reads it instead of parsing again. */
  codeCache?: Uint8Array;
  /** The host's verdict on binding the built-ins fast (realm.ts `fastGlobalsSource`): the worker need not probe the bundle again. */
  fastGlobals?: string | null;
  /** The thread's one HTTP client, shared by its copies of every runtime (each would otherwise start a thread of its own); close leaves it open. */
  http?: SyncHttpClient;
}

/** Execution failures, before each entry point turns them into its own error type. */
interface Failure {
  name: string;
  message: string;
  timedOut: boolean;
  cause: unknown;
}

/** Thrown by an entry point's body when the function to run does not exist: nothing ran, nothing is logged. */
class NotStarted extends Error {
  constructor(readonly error: Error) {
    super(error.message);
  }
}

interface ExecutionScope {
  realm: Realm;
  membrane: Membrane;
  execution: Execution;
  /** The bundle's top-level functions by name. */
  functions: Map<string, (...args: unknown[]) => unknown>;
}

const ENTRY = Symbol.for('gas-runtime.entry');

/**
 * The bundle compiled once per thread, by file name and source: a test makes many runtimes of one bundle, and
 * compiling 650 kB again for each cost about 70 ms of CPU. A vm.Script keeps no state of the contexts it runs in,
 * so each execution still runs the whole global code in a fresh context.
 */
const compiledBundles = new Map<string, Map<string, vm.Script>>();
/** Each compiled bundle's code cache, made once, for the worker threads of every runtime of it. */
const codeCaches = new WeakMap<vm.Script, Buffer>();

function compiledBundle(source: string, filename: string, codeCache: Uint8Array | undefined): vm.Script {
  let byName = compiledBundles.get(filename);
  if (!byName) compiledBundles.set(filename, (byName = new Map()));
  let script = byName.get(source);
  if (!script) {
    // A rejected cache (another V8 version or flags) only costs the parse it was meant to save.
    script = new vm.Script(source, {
      filename,
      ...(codeCache ? { cachedData: Buffer.from(codeCache.buffer, codeCache.byteOffset, codeCache.byteLength) } : {}),
    });
    byName.set(source, script);
  }
  return script;
}

/** A worker thread compiles the bundle (from the host's code cache) and takes the host's binding of the built-ins as it starts. */
export function prepareBundle(source: string, filename: string, codeCache: Uint8Array, fastGlobals: string | null): void {
  compiledBundle(source, filename, codeCache);
  fastGlobalsFrom(source, fastGlobals);
}

function codeCacheOf(script: vm.Script): Buffer {
  let cache = codeCaches.get(script);
  if (!cache) codeCaches.set(script, (cache = script.createCachedData()));
  return cache;
}
/** Runs the function staged under ENTRY, so the vm's timeout covers the call. */
const CALL_ENTRY = new vm.Script('globalThis[Symbol.for("gas-runtime.entry")]()', { filename: 'gas-runtime:entry.js' });

function describe(error: unknown): { name: string; message: string } {
  if (typeof error === 'object' && error !== null && 'message' in error) {
    const { name, message } = error as { name?: unknown; message?: unknown };
    return { name: typeof name === 'string' ? name : 'Error', message: String(message) };
  }
  return { name: 'Error', message: String(error) };
}

/** The appsscript.json beside the bundle, if `code` is a path and there is one. */
function readManifest(code: GasRuntimeOptions['code']): { timeZone?: unknown; oauthScopes?: unknown; urlFetchWhitelist?: unknown } | undefined {
  if (typeof code === 'string') return undefined;
  const manifest = path.join(path.dirname(code.path), 'appsscript.json');
  if (!existsSync(manifest)) return undefined;
  return JSON.parse(readFileSync(manifest, 'utf8')) as { timeZone?: unknown; oauthScopes?: unknown; urlFetchWhitelist?: unknown };
}

/** The manifest's scopes; a malformed list is a misconfiguration, not "no scopes". */
function manifestScopes(manifest: { oauthScopes?: unknown } | undefined): readonly string[] | undefined {
  const scopes = manifest?.oauthScopes;
  if (scopes === undefined) return undefined;
  if (!Array.isArray(scopes) || !scopes.every((scope) => typeof scope === 'string')) {
    throw new GasRuntimeUsageError('appsscript.json: oauthScopes must be a list of scope URLs.', 'INVALID_OPTION');
  }
  return scopes as string[];
}

/**
 * Apps Script's words when a time-driven trigger starts with the user's "Triggers total runtime" spent: public
 * reports quote it for runs that failed the moment they started (github.com/webdigi/GmailScheduler/issues/31,
 * github.com/btoews/OctoGAS/issues/16).
 */
export const TRIGGER_RUNTIME_QUOTA_REFUSAL = 'Service using too much computer time for one day';

function accountIsWorkspace(account: GasRuntimeOptions['account']): boolean {
  if (account === undefined || account === 'consumer') return false;
  if (account === 'workspace') return true;
  throw new GasRuntimeUsageError(`account must be 'consumer' or 'workspace', not ${JSON.stringify(account)}.`, 'INVALID_OPTION');
}

function isVmTimeout(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT';
}

/** Each runtime's stores, for a runtime of another document of the same script (`sameScriptAs`). */
const stores = new WeakMap<GasRuntime, { properties: PropertyStores; caches: CacheStores }>();

export class GasRuntime {
  readonly spreadsheet: Spreadsheet;
  readonly ui: UiRecorder;
  readonly clock: RuntimeClock;
  readonly executions: ExecutionRecord[] = [];
  readonly logs: LogEntry[] = [];
  readonly properties: { user(email: string): Properties; document(): Properties; script(): Properties; calls(): PropertiesCallsReport };
  readonly cache: { user(email: string): Cache; document(): Cache; script(): Cache; clear(): void; stats(): CacheStatsReport; calls(): CacheCallsReport };
  readonly urlFetchQuota: UrlFetchQuota;
  /** Every daily quota the runtime counts, per user per 24 hours: `used(user)`, `remaining(user)`, `limit`, `reset()`. */
  readonly quotas: { urlFetch: UrlFetchQuota; properties: DailyQuota; triggerRuntimeMs: DailyQuota };
  readonly locks: LockTable;
  readonly triggers: TriggerControls;
  /**
   * Custom functions invoked by recalculations, per user per second (`assumptions.customFunctionsPerSecond`):
   * `limit`, and `counted(user)` → how many were invoked and refused, charged as the daily quotas are (the owner).
   */
  readonly invocationRate: InvocationRate;

  readonly #options: GasRuntimeOptions;
  readonly #script: vm.Script;
  /** Binds JavaScript's built-ins lexically in each execution's context, for speed (realm.ts); null when the script's own declarations forbid it. */
  readonly #fastGlobals: vm.Script | null;
  readonly #clock: VirtualClock;
  readonly #shared: SharedState;
  readonly #owner: string;
  readonly #activeUser: string;
  readonly #oauthScopes: ReadonlySet<string> | null;
  /** What each user declined of the scopes (granular consent), by email in lower case. */
  readonly #declined = new Map<string, ReadonlySet<string>>();
  #http: SyncHttpClient | null = null;
  #current: Execution | null = null;
  #nextExecutionId = 1;
  readonly #scriptTimeZone: string;
  readonly #assumptions: ResolvedAssumptions;
  readonly #sharedDrive: ResolvedSharedDrive | null;
  /** The bundle's custom functions (upper case), found once, for the formulas a script writes. */
  #customFunctionNames: Set<string> | null = null;
  readonly #triggerTable: TriggerTable;
  readonly #worker: WorkerSide | null;
  #pool: WorkerPool | null = null;

  /** `worker` is for gas-runtime's own worker threads (concurrent/worker.ts); tests and tools leave it out. */
  constructor(options: GasRuntimeOptions, worker?: WorkerSide) {
    this.#worker = worker ?? null;
    this.#options = options;
    const timeZone = options.timeZone ?? 'America/New_York';
    const manifest = readManifest(options.code);
    const scriptTimeZone = options.scriptTimeZone ?? (typeof manifest?.timeZone === 'string' ? manifest.timeZone : undefined) ?? timeZone;
    const scopes = options.oauthScopes ?? manifestScopes(manifest);
    this.#oauthScopes = scopes === undefined ? null : new Set(scopes);
    for (const zone of [timeZone, scriptTimeZone]) {
      if (!isValidTimeZone(zone)) throw new GasRuntimeUsageError(`Unknown time zone: ${zone}`, 'INVALID_OPTION');
    }
    this.#assumptions = resolveAssumptions(options.assumptions, { spreadsheet: timeZone, script: scriptTimeZone });
    const source = typeof options.code === 'string' ? options.code : readFileSync(options.code.path, 'utf8');
    const filename = worker?.filename ?? (typeof options.code === 'string' ? 'Code.js' : options.code.path);
    this.#scriptTimeZone = scriptTimeZone;
    this.#script = compiledBundle(source, filename, worker?.codeCache);
    this.#fastGlobals = worker?.fastGlobals !== undefined ? fastGlobalsFrom(source, worker.fastGlobals) : fastGlobalsFor(source);
    this.#owner = options.owner ?? 'owner@example.com';
    this.#activeUser = options.activeUser ?? this.#owner;
    this.#sharedDrive = resolveSharedDrive(options.sharedDrive, this.#owner);
    this.#clock = new VirtualClock((options.startTime ?? new Date()).getTime(), worker?.clock);
    this.clock = { now: () => this.#clock.now(), advance: (ms) => this.#clock.advance(ms) };

    this.ui = new UiRecorder();
    const scriptId = options.scriptId ?? 'gas-runtime-script';
    this.spreadsheet = new Spreadsheet({
      id: options.spreadsheetId ?? `1${createHash('sha256').update(`${scriptId}:spreadsheet`).digest('base64url')}`,
      name: options.spreadsheetName ?? 'Untitled spreadsheet',
      timeZone,
      owner: this.#sharedDrive ? null : this.#owner,
      ui: this.ui,
      evaluator: options.formulaEvaluator ?? unknownFormula,
      writtenDatesGetDateFormat: this.#assumptions.writtenDatesGetDateFormat,
    });
    const workspace = accountIsWorkspace(options.account);
    this.urlFetchQuota = new UrlFetchQuota(
      options.urlFetchDailyQuota ?? (workspace ? WORKSPACE_URL_FETCH_DAILY_QUOTA : DEFAULT_URL_FETCH_DAILY_QUOTA),
      this.clock,
    );
    this.quotas = {
      urlFetch: this.urlFetchQuota,
      properties: new DailyQuota(
        'propertiesDailyQuota',
        options.propertiesDailyQuota ?? (workspace ? WORKSPACE_PROPERTIES_DAILY_QUOTA : DEFAULT_PROPERTIES_DAILY_QUOTA),
        PROPERTIES_QUOTA_REFUSAL,
        this.clock,
      ),
      triggerRuntimeMs: new DailyQuota(
        'triggerRuntimeDailyQuotaMs',
        options.triggerRuntimeDailyQuotaMs ?? (workspace ? WORKSPACE_TRIGGER_RUNTIME_DAILY_MS : DEFAULT_TRIGGER_RUNTIME_DAILY_MS),
        TRIGGER_RUNTIME_QUOTA_REFUSAL,
        this.clock,
      ),
    };
    const sameScript = options.sameScriptAs ? stores.get(options.sameScriptAs) : undefined;
    // A spreadsheet of the same script shares the user's daily Properties count too: the quota is per user.
    const propertyStores = new PropertyStores(sameScript?.properties.quota ?? this.quotas.properties, sameScript?.properties);
    const cacheStores = new CacheStores(this.clock, options.cacheEviction, sameScript?.caches);
    stores.set(this, { properties: propertyStores, caches: cacheStores });
    const whitelist = options.urlFetchWhitelist ?? manifest?.urlFetchWhitelist;
    const whitelistSource = options.urlFetchWhitelist === undefined ? 'appsscript.json' : 'urlFetchWhitelist option';
    this.properties = propertyStores;
    this.cache = cacheStores;
    this.locks = new LockTable(this.clock);
    this.invocationRate = new InvocationRate(this.#assumptions.customFunctionsPerSecond, this.clock);
    this.#triggerTable = new TriggerTable(scriptId, options.addOn ?? true, this.clock);
    this.triggers = {
      list: () => this.#triggerTable.list(),
      runDue: () => this.#runDueTriggers(),
      advance: (ms) => this.#advanceThroughTriggers(ms),
    };
    this.#shared = {
      spreadsheet: this.spreadsheet,
      ui: new Ui(this.ui),
      properties: propertyStores,
      caches: cacheStores,
      locks: worker?.locks ?? this.locks,
      ...(worker ? { hostServices: worker.hostServices } : {}),
      http: () => worker?.http ?? (this.#http ??= new SyncHttpClient()),
      filesDirectory: options.files,
      scriptTimeZone,
      scriptId,
      fetchTimeoutMs: options.fetchTimeoutMs ?? DEFAULT_FETCH_TIMEOUT_MS,
      urlFetchQuota: worker?.urlFetchQuota ?? this.urlFetchQuota,
      urlFetchAllowlist: whitelist === undefined ? null : new UrlFetchAllowlist(whitelist, whitelistSource),
      onSleep: options.onSleep,
      ...(options.networkLatency ? { networkLatency: options.networkLatency } : {}),
      log: (level, message) => this.#log(level, message),
      triggers: this.#triggerTable,
      activeSpreadsheetInTimeTrigger: this.#assumptions.activeSpreadsheetInTimeTrigger,
      requiredScopes: manifestScopes(manifest) ?? (scopes === undefined ? null : [...scopes]),
    };
    for (const [user, declined] of Object.entries(options.declinedScopes ?? {})) this.authorize(user, { decline: declined });
  }

  /**
   * What `user` answered on the consent screen: granular consent lets a person "authorize specific scopes"
   * (developers.google.com/apps-script/concepts/scopes), so each scope in `decline` is not granted to them, and
   * every other scope the manifest asks for is. Replaces what the user answered before; `{}` grants everything.
   * A service call needing only declined scopes fails with "You do not have permission to call X. Required
   * permissions: …" (permissions.ts); ScriptApp.getAuthorizationInfo and requireScopes report it.
   */
  authorize(user: string, answer: { decline?: readonly string[] } = {}): void {
    const decline = answer.decline ?? [];
    if (!Array.isArray(decline) || !decline.every((scope) => typeof scope === 'string')) {
      throw new GasRuntimeUsageError('authorize: decline must be a list of scope URLs.', 'INVALID_OPTION');
    }
    const requested = this.#shared.requiredScopes;
    const unknown = requested === null ? [] : decline.filter((scope) => !requested.includes(scope));
    if (unknown.length > 0)
      throw new GasRuntimeUsageError(`authorize: the manifest does not ask for ${unknown.join(', ')}, so it cannot be declined.`, 'INVALID_OPTION');
    this.#declined.set(user.toLowerCase(), new Set(decline));
  }

  /** The scopes `user` declined. */
  #declinedFor(user: string): ReadonlySet<string> {
    return this.#declined.get(user.toLowerCase()) ?? new Set();
  }

  /** Shorthand for `rt.triggers.runDue()`. */
  runDueTriggers(): TriggerRun[] {
    return this.#runDueTriggers();
  }

  #runDueTriggers(): TriggerRun[] {
    const now = this.#clock.now();
    const due = this.#triggerTable
      ._entries()
      .filter((entry) => entry.nextRunAt <= now)
      .sort((a, b) => a.nextRunAt - b.nextRunAt);
    const runs: TriggerRun[] = [];
    for (const entry of due) {
      // A handler may delete another due trigger (or itself) before its turn.
      if (this.#triggerTable._find(entry.uniqueId) !== entry) continue;
      const scheduledAt = entry.nextRunAt;
      this.#triggerTable._reschedule(entry, now);
      runs.push(this.#runTrigger(entry, scheduledAt));
    }
    return runs;
  }

  #advanceThroughTriggers(ms: number): TriggerRun[] {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`The clock only moves forward by a finite number of milliseconds, not ${ms}.`);
    const target = this.#clock.now() + ms;
    const runs: TriggerRun[] = [];
    for (;;) {
      const next = [...this.#triggerTable._entries()].sort((a, b) => a.nextRunAt - b.nextRunAt)[0];
      if (!next || next.nextRunAt > target) break;
      const scheduledAt = next.nextRunAt;
      const now = this.#clock.now();
      if (scheduledAt > now) this.#clock.advance(scheduledAt - now);
      this.#triggerTable._step(next);
      runs.push(this.#runTrigger(next, scheduledAt));
    }
    const now = this.#clock.now();
    if (target > now) this.#clock.advance(target - now);
    return runs;
  }

  /**
   * One trigger run: "Installable triggers always run under the account of the person who created them"
   * (installable triggers guide), in AuthMode.FULL, with the time-driven event object. The handler's failure
   * is the run's outcome, never thrown: Apps Script records it in the executions log (and add-ons "don't
   * automatically send the user an email", editor add-on triggers guide).
   */
  #runTrigger(entry: TriggerRecord, scheduledAt: number): TriggerRun {
    const name = entry.handlerFunction;
    const event = clockEvent(entry, this.#clock.now());
    const quota = this.quotas.triggerRuntimeMs;
    const outcome = this.#execute(
      name,
      'trigger',
      'FULL',
      entry.owner,
      (scope) => {
        const fn = name.endsWith('_') ? undefined : scope.functions.get(name);
        if (!fn) throw new ScriptError(`Script function not found: ${name}`, 'Exception', name);
        this.#call(scope, fn, [scope.membrane.toScript(event)]);
      },
      { log: true, budget: { ms: quota.remaining(entry.owner), refusal: quota.refusal } },
    );
    const execution = this.executions[this.executions.length - 1]!;
    // Counted once it ends, whatever its outcome: the run time was spent.
    quota.add(entry.owner, execution.durationMs, execution.startedAt);
    return {
      triggerUid: entry.uniqueId,
      handlerFunction: name,
      user: entry.owner,
      scheduledAt,
      ok: outcome.ok,
      ...(outcome.ok ? {} : { error: outcome.failure.message }),
      execution,
    };
  }

  /**
   * Runs a custom function as one cell's recalculation would: returns what the cell(s) show (a value
   * or rows of values), or throws CustomFunctionError with the message the cell's tooltip shows.
   */
  runCustomFunction(name: string, args: unknown[] = [], options: UserOption = {}): CellOutput | CellOutput[][] {
    const user = options.user ?? this.#activeUser;
    const outcome = this.#execute(name, 'custom-function', 'CUSTOM_FUNCTION', user, this.#customFunctionBody(name, args));
    if (outcome.ok) return outcome.value;
    if (outcome.failure.cause instanceof CustomFunctionError) throw outcome.failure.cause;
    throw new CustomFunctionError(outcome.failure.message);
  }

  /**
   * Runs a function as a trigger or menu item would, in the given auth mode (FULL by default).
   * onOpen and onInstall get an event object with `authMode` when none is given; a given event's
   * `authMode` may be the mode's name. The script's error is rethrown as ScriptError.
   */
  run(name: string, args: unknown[] = [], options: RunOptions = {}): unknown {
    const authMode = options.authMode ?? 'FULL';
    const user = options.user ?? this.#activeUser;
    const outcome = this.#execute(name, 'run', authMode, user, (scope) => {
      const fn = name.endsWith('_') ? undefined : scope.functions.get(name);
      if (!fn) throw new ScriptError(`Script function not found: ${name}`, 'Exception', name);
      const scriptArgs = this.#eventArgs(name, args, authMode, user).map((arg) => scope.membrane.toScript(arg));
      return scope.membrane.toHost(this.#call(scope, fn, scriptArgs));
    });
    if (outcome.ok) return outcome.value;
    if (outcome.failure.cause instanceof ScriptError) throw outcome.failure.cause;
    throw new ScriptError(outcome.failure.message, outcome.failure.name, name, { cause: outcome.failure.cause });
  }

  /**
   * Calls a server function as google.script.run does: only top-level functions whose name does not
   * end in '_'; arguments and result copied by its rules (a Date argument fails, a Date in the result
   * makes it null); a failure surfaces as ServerCallError carrying only the message.
   */
  callServer(name: string, args: unknown[] = [], options: UserOption = {}): unknown {
    const copied = copyServerArguments(args);
    const user = options.user ?? this.#activeUser;
    const outcome = this.#execute(name, 'server-call', 'FULL', user, this.#serverCallBody(name, copied));
    if (outcome.ok) return outcome.value;
    throw new ServerCallError(outcome.failure.message);
  }

  #customFunctionBody(name: string, args: unknown[]): (scope: ExecutionScope) => CellOutput | CellOutput[][] {
    return (scope) => {
      // Sheets matches function names without regard to case and never calls private (_) ones.
      const match = [...scope.functions.keys()].find((candidate) => candidate.toUpperCase() === name.toUpperCase() && !candidate.endsWith('_'));
      const fn = match === undefined ? undefined : scope.functions.get(match);
      if (!fn) throw new NotStarted(new CustomFunctionError(`Unknown function: '${name}'.`, '#NAME?'));
      const result = this.#call(
        scope,
        fn,
        args.map((arg) => scope.membrane.toScript(arg)),
      );
      return toCellResult(scope.membrane.toHost(result));
    };
  }

  #serverCallBody(name: string, copied: unknown[]): (scope: ExecutionScope) => unknown {
    return (scope) => {
      const fn = name.endsWith('_') ? undefined : scope.functions.get(name);
      if (!fn) throw new NotStarted(new ServerCallError(`google.script.run.${name} is not a function`));
      return copyServerResult(
        this.#call(
          scope,
          fn,
          copied.map((arg) => scope.membrane.toScript(arg)),
        ),
      );
    };
  }

  /**
   * Evaluates `=NAME(args)` in a cell: references are read from the grid (a single cell as a value,
   * a range as rows), the custom function runs, and its result is written at the cell and spilled
   * right and down. Returns the values, or the error the cell shows (#ERROR!, #NAME?, #REF!).
   */
  evaluateFormula(formula: string, options: EvaluateFormulaOptions): FormulaOutcome {
    const { call, sheet, anchor, row, column, args } = this.#readFormula(formula, options);
    const remembered = this.#remembered(sheet, row, column, formula, args);
    if (remembered) return remembered;
    const selection = this.spreadsheet._selection();
    // In a custom function, getActiveRange() is the cell that called it (unless switched off: the selection stays).
    if (this.#assumptions.activeRangeIsCallingCell) this.spreadsheet._activate(sheet, anchor);
    let result: CellOutput | CellOutput[][];
    try {
      result = this.runCustomFunction(call.functionName, args, { user: options.user });
    } catch (error) {
      if (!(error instanceof CustomFunctionError)) throw error;
      return this.#computed(
        sheet,
        row,
        column,
        formula,
        args,
        this.#writeFormulaError(sheet, row, column, formula, { code: error.code, message: error.message }),
      );
    } finally {
      this.spreadsheet._activate(selection.sheet, selection.range);
    }
    return this.#computed(sheet, row, column, formula, args, this.#writeSpill(sheet, row, column, formula, asMatrix(result)));
  }

  /**
   * With `identicalFormulaRecalculates: false`, Sheets keeps what a formula showed when its text and arguments
   * are those of its last run (and no flush found its cell without it since): that result is written back.
   */
  #remembered(sheet: Sheet, row: number, column: number, formula: string, args: unknown[]): FormulaOutcome | null {
    this.spreadsheet._formulaComputed(sheet, row, column);
    if (this.#assumptions.identicalFormulaRecalculates) return null;
    const memo = this.spreadsheet._memo(sheet, row, column);
    if (!memo || memo.formula !== formula || memo.args !== argumentsKey(args)) return null;
    const outcome = memo.outcome as FormulaOutcome;
    return outcome.ok ? this.#writeSpill(sheet, row, column, formula, outcome.values) : this.#writeFormulaError(sheet, row, column, formula, outcome.error);
  }

  /** Remembers what a formula showed after its run, for `identicalFormulaRecalculates: false`. */
  #computed(sheet: Sheet, row: number, column: number, formula: string, args: unknown[], outcome: FormulaOutcome): FormulaOutcome {
    if (this.#assumptions.identicalFormulaRecalculates) return outcome;
    this.spreadsheet._remember(sheet, row, column, { formula, args: argumentsKey(args), outcome });
    return outcome;
  }

  /**
   * Recalculates, as Sheets does after a script's write, every cell whose formula (one of the bundle's custom
   * functions) a script wrote since that cell was last calculated. Other formulas are left to `formulaEvaluator`.
   * `user`: whose recalculation it is (default the active user); a call's own writes are recalculated as its user.
   */
  async recalculateWritten(options: ConcurrencyOptions & UserOption = {}): Promise<RecalculatedCell[]> {
    const names = (this.#customFunctionNames ??= this.#findCustomFunctionNames());
    const cells = this.spreadsheet._writtenFormulas().flatMap(({ sheet, row, column, formula }) => {
      let name: string;
      try {
        name = parseFormulaCall(formula).functionName.toUpperCase();
      } catch {
        return [];
      }
      return names.has(name) ? [{ formula, cell: formatA1(row, column, 1, 1), sheet: sheet.getName(), ...(options.user ? { user: options.user } : {}) }] : [];
    });
    const { user: _user, ...concurrency } = options;
    return cells.length === 0 ? [] : this.recalculate(cells, concurrency);
  }

  /**
   * Puts a formula's outcome in its cell as a recalculation does: `loading` holds the formula with no value yet
   * (Sheets' "Loading…"), values are written and spilled (refused with #REF! where Sheets refuses), an error is
   * the cell's error. For a formula engine outside the runtime (the workbench's) that evaluates what
   * `evaluateFormula` cannot read, such as `=METRIC_VALUE(…)/100` or `=SUM(A1:A3)`.
   */
  writeFormulaOutcome(
    at: FormulaLocationOption,
    formula: string,
    outcome: 'loading' | { values: CellOutput[][] } | { error: CellError },
  ): FormulaOutcome | null {
    const anchor = this.#anchorOf(at);
    const sheet = anchor.getSheet();
    const row = anchor.getRow();
    const column = anchor.getColumn();
    if (outcome === 'loading') {
      this.#placePendingFormula(sheet, row, column, formula);
      return null;
    }
    return 'error' in outcome
      ? this.#writeFormulaError(sheet, row, column, formula, outcome.error)
      : this.#writeSpill(sheet, row, column, formula, outcome.values);
  }

  #anchorOf(at: FormulaLocationOption): Range {
    const sheet = at.sheet === undefined ? this.spreadsheet.getActiveSheet() : this.spreadsheet.getSheetByName(at.sheet);
    if (!sheet) throw new GasRuntimeUsageError(`No sheet named ${at.sheet}.`, 'INVALID_OPTION');
    const anchor = sheet._rangeFromA1(at.cell);
    if (anchor.getNumRows() !== 1 || anchor.getNumColumns() !== 1) throw new GasRuntimeUsageError(`${at.cell} is not a single cell.`, 'INVALID_OPTION');
    return anchor;
  }

  /** Parses a formula in its cell and reads its arguments from the grid (a single cell as a value, a range as rows). */
  #readFormula(formula: string, options: EvaluateFormulaOptions) {
    const call = parseFormulaCall(formula);
    const sheet = options.sheet === undefined ? this.spreadsheet.getActiveSheet() : this.spreadsheet.getSheetByName(options.sheet);
    if (!sheet) throw new GasRuntimeUsageError(`No sheet named ${options.sheet}.`, 'INVALID_OPTION');
    const anchor = sheet._rangeFromA1(options.cell);
    if (anchor.getNumRows() !== 1 || anchor.getNumColumns() !== 1) throw new GasRuntimeUsageError(`${options.cell} is not a single cell.`, 'INVALID_OPTION');
    const args = call.args.map((arg) => {
      if (arg.kind === 'omitted') return undefined;
      if (arg.kind === 'literal') return arg.value;
      if (arg.kind === 'array') return arg.rows.length === 1 && arg.rows[0]!.length === 1 ? arg.rows[0]![0] : arg.rows;
      const range = sheet._rangeFromA1(arg.a1);
      const value = range.getNumRows() === 1 && range.getNumColumns() === 1 ? range.getValue() : range.getValues();
      return this.#assumptions.datesInScriptZone ? inScriptZone(value, this.spreadsheet.getSpreadsheetTimeZone(), this.#scriptTimeZone) : value;
    });
    return { call, sheet, anchor, row: anchor.getRow(), column: anchor.getColumn(), args };
  }

  /**
   * Recalculates cells as Sheets does: "Each time a custom function is used in a spreadsheet, Sheets
   * makes a separate call to the Apps Script server", so the cells' executions run at the same time,
   * each in a worker thread, at most `maxConcurrent` at once (the rest queued). Every argument is read
   * from the grid when the recalculation starts; each result is written (spilled) into the grid when
   * its execution ends. Resolves with each cell's outcome and times, in the order given.
   */
  async recalculate(cells: RecalculationCell[], options: ConcurrencyOptions = {}): Promise<RecalculatedCell[]> {
    const concurrency = this.#concurrency(options);
    const read = cells.map((cell) => ({ cell, ...this.#readFormula(cell.formula, { cell: cell.cell, sheet: cell.sheet, user: cell.user }) }));
    // Sheets holds each cell's formula while its value loads ("Loading…"), so an execution that reads its
    // sheet's formulas sees every cell of the recalculation, not only those already finished.
    for (const { cell, sheet, row, column } of read) this.#placePendingFormula(sheet, row, column, cell.formula);
    // Sheets asks for every cell of a recalculation at once: each is invoked at this instant, whenever it starts.
    const askedAt = this.#clock.now();
    return Promise.all(
      read.map(async ({ cell, call, sheet, anchor, row, column, args }) => {
        const remembered = this.#remembered(sheet, row, column, cell.formula, args);
        if (remembered) {
          const now = this.#clock.now();
          return { ...remembered, cell: cell.cell, sheet: sheet.getName(), queuedAt: now, startedAt: now, finishedAt: now };
        }
        const done = await this.#submit({
          functionName: call.functionName,
          kind: 'custom-function',
          user: cell.user ?? this.#activeUser,
          args,
          cell: anchor,
          askedAt,
          ...concurrency,
        });
        const result = this.#customFunctionResult(done.result.outcome);
        const written = this.#computed(
          sheet,
          row,
          column,
          cell.formula,
          args,
          result instanceof CustomFunctionError
            ? this.#writeFormulaError(sheet, row, column, cell.formula, { code: result.code, message: result.message })
            : this.#writeSpill(sheet, row, column, cell.formula, asMatrix(result)),
        );
        return { ...written, cell: cell.cell, sheet: sheet.getName(), queuedAt: done.queuedAt, startedAt: done.startedAt, finishedAt: done.finishedAt };
      }),
    );
  }

  /**
   * runCustomFunction in a worker thread, beside other concurrent executions; rejects with CustomFunctionError as it throws.
   * `at` is the cell calling it (its getActiveRange()), for a call nested in a formula that a formula engine evaluates.
   */
  async runCustomFunctionAsync(
    name: string,
    args: unknown[] = [],
    options: UserOption & ConcurrencyOptions & { at?: FormulaLocationOption } = {},
  ): Promise<CellOutput | CellOutput[][]> {
    const cell = options.at ? this.#anchorOf(options.at) : undefined;
    const done = await this.#submit({
      functionName: name,
      kind: 'custom-function',
      user: options.user ?? this.#activeUser,
      args,
      ...(cell ? { cell } : {}),
      ...this.#concurrency(options),
    });
    const result = this.#customFunctionResult(done.result.outcome);
    if (result instanceof CustomFunctionError) throw result;
    return result;
  }

  /**
   * callServer in a worker thread: google.script.run calls from a page run beside each other (and
   * beside a recalculation), so one call sees what another writes to the shared cache while it runs.
   * Same copy rules and errors as callServer (rejects with ServerCallError).
   */
  async callServerAsync(
    name: string,
    args: unknown[] = [],
    options: UserOption & ConcurrencyOptions & { recalculateWrittenFormulas?: boolean } = {},
  ): Promise<unknown> {
    const copied = copyServerArguments(args);
    // Found before the call starts: the bundle is loaded synchronously to list them.
    if (options.recalculateWrittenFormulas) this.#customFunctionNames ??= this.#findCustomFunctionNames();
    const call = this.#submit({ functionName: name, kind: 'server-call', user: options.user ?? this.#activeUser, args: copied, ...this.#concurrency(options) });
    const done = options.recalculateWrittenFormulas ? await this.#whileRecalculating(call, options.user ?? this.#activeUser) : await call;
    const { outcome } = done.result;
    if (outcome.ok) return outcome.value;
    throw new ServerCallError(outcome.message);
  }

  #findCustomFunctionNames(): Set<string> {
    return new Set(
      this.functionNames()
        .filter((name) => !name.endsWith('_'))
        .map((name) => name.toUpperCase()),
    );
  }

  /** Waits for `call`, meanwhile recalculating what scripts write, as Sheets does while a script runs: as the call's user. */
  async #whileRecalculating<T>(call: Promise<T>, user: string): Promise<T> {
    let settled = false;
    const loop = (async () => {
      while (!settled) {
        await this.recalculateWritten({ user });
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    try {
      return await call;
    } finally {
      settled = true;
      await loop;
    }
  }

  /** Resolves once no concurrent execution is queued or running (synchronous calls are refused until then). */
  async idle(): Promise<void> {
    await this.#pool?.idle();
  }

  #concurrency(options: ConcurrencyOptions): { maxConcurrent: number; startupMs: number } {
    if (this.#options.networkLatency)
      throw new GasRuntimeUsageError(
        'networkLatency is for synchronous executions: concurrent ones share one clock that a latency would move for all.',
        'INVALID_OPTION',
      );
    const maxConcurrent = options.maxConcurrent ?? DEFAULT_MAX_CONCURRENT;
    const startupMs = options.startupMs ?? 0;
    if (!Number.isInteger(maxConcurrent) || maxConcurrent < 1)
      throw new GasRuntimeUsageError(`maxConcurrent must be a positive integer, not ${maxConcurrent}.`, 'INVALID_OPTION');
    if (!Number.isFinite(startupMs) || startupMs < 0)
      throw new GasRuntimeUsageError(`startupMs must be a finite number of ms ≥ 0, not ${startupMs}.`, 'INVALID_OPTION');
    return { maxConcurrent, startupMs };
  }

  #customFunctionResult(outcome: JobOutcome): CellOutput | CellOutput[][] | CustomFunctionError {
    if (outcome.ok) return outcome.value as CellOutput | CellOutput[][];
    return new CustomFunctionError(outcome.message, (outcome.cellCode as CellError['code'] | undefined) ?? '#ERROR!');
  }

  /** Queues one concurrent execution; records it as the synchronous entry points do, and surfaces a usage error the same way. */
  async #submit(request: Omit<JobSpec, 'cell'> & { cell?: Range; askedAt?: number }): Promise<FinishedJob> {
    if (this.#current) throw new GasRuntimeUsageError('A concurrent execution cannot start from inside an execution.', 'INVALID_OPTION');
    const { askedAt, ...spec } = request;
    this.#pool ??= this.#createPool();
    // Counted as the recalculation asks, before a slot frees: a refused call never starts (and takes no slot).
    const refusal =
      spec.kind === 'custom-function' ? this.invocationRate.invoke(customFunctionStoreUser(spec.user, this.#owner, this.#sharedDrive), askedAt) : null;
    const done = refusal === null ? await this.#pool.run(spec) : this.#refused(refusal);
    // An execution's writes are applied when it ends, as SpreadsheetApp.flush() applies them.
    this.spreadsheet._flush();
    const { result } = done;
    if (result.logged) {
      const { outcome } = result;
      this.executions.push({
        id: done.id,
        functionName: spec.functionName,
        kind: spec.kind,
        authMode: spec.kind === 'custom-function' ? 'CUSTOM_FUNCTION' : 'FULL',
        user: spec.user,
        queuedAt: done.queuedAt,
        startedAt: done.startedAt,
        durationMs: result.durationMs,
        urlFetchCount: result.urlFetchCount,
        lockWaitMs: result.lockWaitMs,
        outcome: outcome.ok ? 'completed' : outcome.timedOut ? 'timed-out' : 'failed',
        ...(outcome.ok ? {} : { error: outcome.message }),
      });
    }
    if (result.usageError) throw new GasRuntimeUsageError(result.usageError.message, result.usageError.code);
    return done;
  }

  /** A custom function Apps Script refused before it started: recorded as a failed execution of no time, shown as #ERROR!. */
  #refused(message: string): FinishedJob {
    const now = this.#clock.now();
    return {
      id: this.#nextExecutionId++,
      queuedAt: now,
      startedAt: now,
      finishedAt: now,
      result: {
        logged: true,
        durationMs: 0,
        urlFetchCount: 0,
        lockWaitMs: 0,
        outcome: { ok: false, name: 'Exception', message, timedOut: false, cellCode: '#ERROR!' },
      },
    };
  }

  #createPool(): WorkerPool {
    const source = typeof this.#options.code === 'string' ? this.#options.code : readFileSync(this.#options.code.path, 'utf8');
    return new WorkerPool({
      init: {
        clock: this.#clock._buffer,
        source,
        filename: typeof this.#options.code === 'string' ? 'Code.js' : this.#options.code.path,
        codeCache: codeCacheOf(this.#script),
        fastGlobals: fastGlobalsSource(this.#fastGlobals),
        files: this.#options.files,
        timeZone: this.spreadsheet.getSpreadsheetTimeZone(),
        scriptTimeZone: this.#scriptTimeZone,
        owner: this.#owner,
        activeUser: this.#activeUser,
        scriptId: this.#shared.scriptId,
        fetchTimeoutMs: this.#shared.fetchTimeoutMs,
        oauthScopes: this.#oauthScopes === null ? null : [...this.#oauthScopes],
        urlFetchWhitelist: this.#shared.urlFetchAllowlist === null ? null : [...this.#shared.urlFetchAllowlist.prefixes],
        assumptions: assumptionsOption(this.#assumptions),
        sharedDrive: this.#sharedDrive,
      },
      locks: this.locks,
      urlFetchQuota: this.urlFetchQuota,
      clockStart: () => this.#clock._start(),
      clockStop: () => this.#clock._stop(),
      now: () => this.#clock.now(),
      nextExecutionId: () => this.#nextExecutionId++,
      begin: (job: PendingJob, id: number, startedAt: number) => {
        const kind = job.kind;
        const execution = new Execution({
          id,
          functionName: job.functionName,
          kind,
          authMode: kind === 'custom-function' ? 'CUSTOM_FUNCTION' : 'FULL',
          user: job.user,
          owner: this.#owner,
          clock: this.#clock,
          oauthScopes: this.#oauthScopes,
          declinedScopes: this.#declinedFor(job.user),
          startedAt,
          realWaits: true,
          privateUserCache: !this.#assumptions.sharedCachesAcrossExecutions,
          sharedDrive: this.#sharedDrive,
          declinedScopeRefusalNamesScope: this.#assumptions.declinedScopeRefusalNamesScope,
        });
        const cell = job.cell as Range | undefined;
        // The execution starts: in eviction mode the host's caches (the ones its CacheService reaches) lose entries now, as at a synchronous start.
        this.#shared.caches._executionStarted();
        return {
          services: {
            SpreadsheetApp: new SpreadsheetAppStandIn(this.spreadsheet, this.#shared.ui),
            // Triggers live on the host, so a sidebar call served concurrently sees and creates the same ones.
            ScriptApp: new ScriptAppStandIn(
              this.#shared.scriptId,
              { table: this.#triggerTable, execution, spreadsheet: this.spreadsheet, scriptTimeZone: this.#scriptTimeZone },
              {
                granted: this.#oauthScopes === null ? null : [...this.#oauthScopes],
                declined: [...this.#declinedFor(job.user)],
                requested: this.#shared.requiredScopes,
              },
            ),
            PropertiesService: new PropertiesServiceStandIn(this.#shared.properties, execution),
            CacheService: new CacheServiceStandIn(this.#shared.caches, execution),
          },
          declinedScopes: [...execution.declinedScopes],
          // The host serves one call at a time, so the custom function's cell is its active range exactly while its call runs.
          around: <T>(run: () => T): T => {
            if (!cell || !this.#assumptions.activeRangeIsCallingCell) return run();
            const selection = this.spreadsheet._selection();
            this.spreadsheet._activate(cell.getSheet(), cell);
            try {
              return run();
            } finally {
              this.spreadsheet._activate(selection.sheet, selection.range);
            }
          },
        };
      },
      log: (level, message, time, functionName, executionId) => this.#pushLog({ level, message, time, functionName, executionId }),
    });
  }

  /** In a worker thread (concurrent/worker.ts): runs one execution the host started and reports what the host records. */
  _runJob(job: JobRequest): JobResult {
    const kind: ExecutionKind = job.kind;
    const body = kind === 'custom-function' ? this.#customFunctionBody(job.functionName, job.args) : this.#serverCallBody(job.functionName, job.args);
    const { outcome, execution, logged } = this.#executeRaw(
      job.functionName,
      kind,
      kind === 'custom-function' ? 'CUSTOM_FUNCTION' : 'FULL',
      job.user,
      body,
      true,
      job,
    );
    const cause = outcome.ok ? null : outcome.failure.cause;
    return {
      logged,
      durationMs: execution.elapsedMs(),
      urlFetchCount: execution.urlFetchCount,
      lockWaitMs: execution.lockWaitMs,
      outcome: outcome.ok
        ? { ok: true, value: outcome.value }
        : {
            ok: false,
            name: outcome.failure.name,
            message: outcome.failure.message,
            timedOut: outcome.failure.timedOut,
            ...(cause instanceof CustomFunctionError ? { cellCode: cause.code, message: cause.message } : {}),
          },
      ...(execution.usageError ? { usageError: { message: execution.usageError.message, code: execution.usageError.code } } : {}),
    };
  }

  /** The bundle's top-level function names (the bundle is loaded once to find them; that load is not logged). */
  functionNames(): string[] {
    const outcome = this.#execute('(load)', 'run', 'FULL', this.#activeUser, (scope) => [...scope.functions.keys()], { log: false });
    if (outcome.ok) return outcome.value;
    throw new ScriptError(outcome.failure.message, outcome.failure.name, '(load)', { cause: outcome.failure.cause });
  }

  /**
   * Ends the HTTP worker and the threads of concurrent executions, if any were started (after any
   * still queued or running end). The runtime stays usable; the next fetch or concurrent execution starts new ones.
   */
  async close(): Promise<void> {
    const http = this.#http;
    this.#http = null;
    const pool = this.#pool;
    this.#pool = null;
    await pool?.idle();
    await Promise.all([http?.close(), pool?.close()]);
  }

  #log(level: LogLevel, message: string): void {
    const time = this.#clock.now();
    const functionName = this.#current?.functionName ?? '';
    // 0 outside any execution (a test's own call); ids start at 1.
    const executionId = this.#current?.id ?? 0;
    if (this.#worker) this.#worker.log(level, message, time, functionName, executionId);
    else this.#pushLog({ level, message, time, functionName, executionId });
  }

  #pushLog(entry: LogEntry): void {
    this.logs.push(entry);
    this.#options.onLog?.(entry);
  }

  #eventArgs(name: string, args: unknown[], authMode: RunAuthMode, user: string): unknown[] {
    const mode = AuthMode._get(authMode);
    const isOpenOrInstall = name === 'onOpen' || name === 'onInstall';
    if (args.length === 0 && isOpenOrInstall) {
      const event: Record<string, unknown> = { authMode: mode };
      if (name === 'onOpen' && authMode !== 'NONE') event.source = this.spreadsheet;
      if (name === 'onOpen') event.user = new User(authMode === 'FULL' ? user : '');
      return [event];
    }
    const [first, ...rest] = args;
    if (typeof first === 'object' && first !== null && Object.getPrototypeOf(first) === Object.prototype && isOpenOrInstall) {
      const event = { ...(first as Record<string, unknown>) };
      if (event.authMode === undefined || typeof event.authMode === 'string')
        event.authMode = AuthMode._get((event.authMode as AuthModeName | undefined) ?? authMode);
      return [event, ...rest];
    }
    return args;
  }

  #call(scope: ExecutionScope, fn: (...args: unknown[]) => unknown, args: unknown[]): unknown {
    const global = scope.realm.global as Record<symbol, unknown>;
    global[ENTRY] = () => fn.apply(scope.realm.global, args);
    try {
      return CALL_ENTRY.runInContext(scope.realm.context, { timeout: Math.max(1, Math.floor(scope.execution.remainingMs())) });
    } finally {
      delete global[ENTRY];
    }
  }

  /** One execution: fresh context, services, the bundle loaded, `body` run, the limits and the log applied. */
  #execute<T>(
    functionName: string,
    kind: ExecutionKind,
    authMode: AuthModeName,
    user: string,
    body: (scope: ExecutionScope) => T,
    options: { log: boolean; budget?: ExecutionBudget } = { log: true },
  ): { ok: true; value: T } | { ok: false; failure: Failure } {
    if (this.#pool && this.#pool.inFlight > 0) {
      // It would block the thread that answers the concurrent executions' calls.
      throw new GasRuntimeUsageError('Concurrent executions are running; await them (or rt.idle()) before a synchronous call.', 'EXECUTIONS_RUNNING');
    }
    const { outcome, execution, logged } = this.#executeRaw(functionName, kind, authMode, user, body, options.log, null, options.budget);
    if (logged) {
      this.executions.push({
        id: execution.id,
        functionName,
        kind,
        authMode,
        user,
        queuedAt: execution.startedAt,
        startedAt: execution.startedAt,
        durationMs: execution.elapsedMs(),
        urlFetchCount: execution.urlFetchCount,
        lockWaitMs: execution.lockWaitMs,
        outcome: outcome.ok ? 'completed' : outcome.failure.timedOut ? 'timed-out' : 'failed',
        ...(outcome.ok ? {} : { error: outcome.failure.message }),
      });
    }
    if (execution.usageError) throw execution.usageError;
    return outcome;
  }

  /**
   * The execution itself. `job` is set in a worker thread: the host chose the id and start time, the
   * host's clock runs, the host releases the locks, and waits are real.
   */
  #executeRaw<T>(
    functionName: string,
    kind: ExecutionKind,
    authMode: AuthModeName,
    user: string,
    body: (scope: ExecutionScope) => T,
    log: boolean,
    job: JobRequest | null,
    budget?: ExecutionBudget,
  ): { outcome: { ok: true; value: T } | { ok: false; failure: Failure }; execution: Execution; logged: boolean } {
    if (this.#current) throw new GasRuntimeUsageError('Executions run one at a time; a runtime call was made from inside an execution.', 'INVALID_OPTION');
    const execution = new Execution({
      id: job?.id ?? this.#nextExecutionId++,
      functionName,
      kind,
      authMode,
      user,
      owner: this.#owner,
      clock: this.#clock,
      oauthScopes: this.#oauthScopes,
      // A worker thread's job carries what the host knew of the user's consent when it started the execution.
      declinedScopes: job ? new Set(job.declinedScopes) : this.#declinedFor(user),
      privateUserCache: !this.#assumptions.sharedCachesAcrossExecutions,
      sharedDrive: this.#sharedDrive,
      declinedScopeRefusalNamesScope: this.#assumptions.declinedScopeRefusalNamesScope,
      ...(job ? { startedAt: job.startedAt, realWaits: true } : {}),
      ...(budget ? { budget } : {}),
    });
    this.#current = execution;
    if (!job) this.#clock._start();
    let outcome: { ok: true; value: T } | { ok: false; failure: Failure };
    let logged = log;
    try {
      if (job && job.startupMs > 0) sleepForReal(job.startupMs);
      // A quota already spent refuses the execution before any of the script runs.
      if (budget && budget.ms <= 0) throw new GasError(budget.refusal, 'Exception');
      const scope = this.#load(execution);
      outcome = { ok: true, value: body(scope) };
    } catch (error) {
      if (error instanceof NotStarted) {
        logged = false;
        outcome = { ok: false, failure: { ...describe(error.error), timedOut: false, cause: error.error } };
      } else {
        const timedOut = execution.timedOut || isVmTimeout(error);
        const { name, message } = timedOut ? { name: 'Error', message: execution.limitMessage } : describe(error);
        outcome = { ok: false, failure: { name, message, timedOut, cause: error } };
      }
    } finally {
      if (!job) {
        this.#clock._stop();
        this.locks._releaseAll(execution.id);
        // An execution's writes are applied when it ends, as SpreadsheetApp.flush() applies them.
        this.spreadsheet._flush();
      }
      this.#current = null;
    }
    // requireScopes "ends the current execution" for want of consent, whatever the script did with its error.
    if (execution.endedForConsent !== null && !execution.timedOut) {
      outcome = {
        ok: false,
        failure: { name: 'Exception', message: execution.endedForConsent, timedOut: false, cause: outcome.ok ? null : outcome.failure.cause },
      };
    }
    // Apps Script stops an execution at its limit wherever it is; one that ran past it did not finish.
    if (outcome.ok && (execution.timedOut || execution.elapsedMs() > execution.limitMs)) {
      outcome = { ok: false, failure: { name: 'Error', message: execution.limitMessage, timedOut: true, cause: null } };
    }
    return { outcome, execution, logged };
  }

  #load(execution: Execution): ExecutionScope {
    const realm = createRealm(
      () => this.#clock.now(),
      `gas-runtime:${execution.functionName}#${execution.id}`,
      this.#assumptions.zonesIntlLacks,
      this.#fastGlobals,
    );
    const membrane = new Membrane(realm, execution);
    for (const [name, service] of Object.entries(createGlobals(this.#shared, execution, membrane))) {
      Object.defineProperty(realm.global, name, { value: service, writable: true, configurable: true, enumerable: false });
    }
    const before = new Set(Object.getOwnPropertyNames(realm.global));
    // Apps Script runs the whole project's global code at the start of every execution.
    this.#script.runInContext(realm.context, { timeout: Math.max(1, Math.floor(execution.remainingMs())) });
    const functions = new Map<string, (...args: unknown[]) => unknown>();
    for (const name of Object.getOwnPropertyNames(realm.global)) {
      const value = realm.global[name];
      if (!before.has(name) && typeof value === 'function') functions.set(name, value as (...args: unknown[]) => unknown);
    }
    return { realm, membrane, execution, functions };
  }

  /** A cell whose formula is in place and whose value has not arrived yet (a different formula's spill goes). */
  #placePendingFormula(sheet: Sheet, row: number, column: number, formula: string): void {
    if (sheet._cell(row, column)?.formula === formula) return;
    this.#clearSpill(sheet, row, column);
    const cell = sheet._cellForWrite(row, column);
    clearContent(cell);
    cell.formula = formula;
  }

  #writeFormulaError(sheet: Sheet, row: number, column: number, formula: string, error: CellError): FormulaOutcome {
    this.#clearSpill(sheet, row, column);
    const cell = sheet._cellForWrite(row, column);
    clearContent(cell);
    cell.formula = formula;
    cell.error = error;
    return { ok: false, error };
  }

  /** Writes an array result from its anchor, refusing (#REF!) to grow the grid or to overwrite other data, as Sheets does. */
  #writeSpill(sheet: Sheet, row: number, column: number, formula: string, values: CellOutput[][]): FormulaOutcome {
    this.#clearSpill(sheet, row, column);
    const height = values.length;
    const width = Math.max(1, ...values.map((cells) => cells.length));
    const missingRows = row + height - 1 - sheet.getMaxRows();
    if (missingRows > 0)
      return this.#writeFormulaError(sheet, row, column, formula, {
        code: '#REF!',
        message: `Result was not automatically expanded, please insert more rows (${missingRows}).`,
      });
    const missingColumns = column + width - 1 - sheet.getMaxColumns();
    if (missingColumns > 0)
      return this.#writeFormulaError(sheet, row, column, formula, {
        code: '#REF!',
        message: `Result was not automatically expanded, please insert more columns (${missingColumns}).`,
      });
    for (let i = 0; i < height; i++) {
      for (let j = 0; j < width; j++) {
        if ((i > 0 || j > 0) && hasContent(sheet._cell(row + i, column + j))) {
          return this.#writeFormulaError(sheet, row, column, formula, {
            code: '#REF!',
            message: `Array result was not expanded because it would overwrite data in ${formatA1(row + i, column + j, 1, 1)}.`,
          });
        }
      }
    }
    const anchorKey = `${row}:${column}`;
    values.forEach((cells, i) =>
      cells.forEach((value, j) => {
        const cell = sheet._cellForWrite(row + i, column + j);
        clearContent(cell);
        // A result is a value, never re-read as an entry: the text "=1+2" stays text.
        if (types.isDate(value)) {
          const zone = this.#assumptions.returnedDatesInScriptZone ? this.#scriptTimeZone : this.spreadsheet.getSpreadsheetTimeZone();
          cell.value = dateToSerial((value as Date).getTime(), zone);
          if (isAutomaticFormat(cell.format)) cell.format = cell.value % 1 === 0 ? DEFAULT_DATE_FORMAT : DEFAULT_DATE_TIME_FORMAT;
        } else cell.value = value === '' ? null : (value as string | number | boolean);
        if (i === 0 && j === 0) cell.formula = formula;
        else cell.spilledFrom = anchorKey;
        sheet._forgetIfBlank(row + i, column + j);
      }),
    );
    return { ok: true, values };
  }

  #clearSpill(sheet: Sheet, row: number, column: number): void {
    const anchorKey = `${row}:${column}`;
    for (const [r, c, cell] of sheet._entries()) {
      if (cell.spilledFrom !== anchorKey) continue;
      clearContent(cell);
      sheet._forgetIfBlank(r, c);
    }
  }
}

/** A formula's arguments as text, to tell a rerun with the same arguments (Dates by their instant). */
function argumentsKey(args: unknown[]): string {
  return JSON.stringify(args, (_key, value: unknown) => (value === undefined ? null : value));
}

/** A date argument as `datesInScriptZone` builds it: the cell's wall-clock reading, at that time in the script's zone. */
function inScriptZone(value: unknown, spreadsheetZone: string, scriptZone: string): unknown {
  if (Array.isArray(value)) return value.map((item) => inScriptZone(item, spreadsheetZone, scriptZone));
  return types.isDate(value) ? serialToDate(dateToSerial((value as Date).getTime(), spreadsheetZone), scriptZone) : value;
}

/** Creates a runtime for a built Apps Script bundle. */
export function createGasRuntime(options: GasRuntimeOptions): GasRuntime {
  return new GasRuntime(options);
}
