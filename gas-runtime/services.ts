// The globals one execution sees: every stand-in service, built for that execution and wrapped by its membrane.

import { CacheServiceStandIn, type CacheStores } from './cache';
import { AuthMode, AuthorizationStatus, enumName, EventType, TriggerSource, WeekDay, type GasEnum } from './enums';
import { GasError } from './errors';
import type { Execution } from './execution';
import { HtmlServiceStandIn } from './html';
import { LockServiceStandIn, type LockArbiter } from './lock';
import { ConsoleStandIn, LoggerStandIn, type LogLevel } from './logging';
import type { Membrane } from './membrane';
import { PropertiesServiceStandIn, type PropertyStores } from './properties';
import { SessionStandIn } from './session';
import type { Spreadsheet } from './spreadsheet/spreadsheet';
import { SpreadsheetAppStandIn } from './spreadsheet/spreadsheet-app';
import type { Ui } from './spreadsheet/ui';
import type { SyncHttpClient } from './sync-http';
import {
  deleteTrigger,
  newTrigger,
  projectTriggers,
  userTriggers,
  type TriggerBuilderStandIn,
  type TriggerContext,
  type TriggerStandIn,
  type TriggerTable,
} from './triggers';
import { UrlFetchAppStandIn, type NetworkLatency } from './url-fetch';
import type { UrlFetchAllowlist, UrlFetchQuotaCharger } from './url-fetch-limits';
import { UtilitiesService, type SleepListener } from './utilities';

/**
 * What one user granted of the scopes: `granted` is what the grant can cover (the runtime's `oauthScopes`; null: the
 * manifest lists none, so whatever the code needs), less `declined` (rt.authorize); `requested` is the manifest's list.
 */
export interface ScopeGrants {
  granted: readonly string[] | null;
  declined: readonly string[];
  requested: readonly string[] | null;
}

const NO_GRANTS: ScopeGrants = { granted: null, declined: [], requested: null };

/** Whether `scope` is granted under `grants`. */
function isGranted(grants: ScopeGrants, scope: string): boolean {
  return (grants.granted === null || grants.granted.includes(scope)) && !grants.declined.includes(scope);
}

/** The scopes an argument names: a list of strings, as the reference types it (String[]). */
function scopeList(value: unknown, method: string): string[] {
  if (!Array.isArray(value) || !value.every((scope) => typeof scope === 'string')) {
    throw new GasError(`The parameters (${value === null ? 'null' : typeof value}) don't match the method signature for ScriptApp.${method}.`);
  }
  return value as string[];
}

/** The auth mode argument: one of ScriptApp.AuthMode's values. */
function authModeName(value: unknown, method: string): string {
  const name = enumName(AuthMode, value);
  if (name !== undefined) return name;
  throw new GasError(`The parameters (${typeof value}) don't match the method signature for ScriptApp.${method}.`);
}

/** ScriptApp, as far as the add-in needs it: its enums, the script's id, authorization and time-driven triggers (triggers.ts). */
export class ScriptAppStandIn {
  static readonly gasName = 'ScriptApp';
  readonly AuthMode = AuthMode;
  readonly EventType = EventType;
  readonly TriggerSource = TriggerSource;
  readonly WeekDay = WeekDay;
  readonly AuthorizationStatus = AuthorizationStatus;

  constructor(
    readonly _scriptId: string,
    readonly _triggers: TriggerContext,
    readonly _scopes: ScopeGrants = NO_GRANTS,
  ) {}

  /**
   * "Gets an object that determines whether the user needs to authorize this script to use one or more services"
   * (ScriptApp reference); with `oAuthScopes`, about those scopes: AuthorizationInfo "checks if the user has granted
   * authorization for the required scopes of the script" (AuthorizationInfo reference). Only FULL asks anything of
   * the user: "scripts should call ScriptApp.getAuthorizationInfo(ScriptApp.AuthMode.FULL), since no other
   * authorization mode requires that users grant authorization" (same page), so another mode reports NOT_REQUIRED.
   */
  getAuthorizationInfo(authMode: unknown, oAuthScopes?: unknown): AuthorizationInfoStandIn {
    const mode = authModeName(authMode, 'getAuthorizationInfo');
    const asked = oAuthScopes === undefined ? this._scopes.requested : scopeList(oAuthScopes, 'getAuthorizationInfo');
    return new AuthorizationInfoStandIn(this._scriptId, this._scopes, asked, mode === 'FULL');
  }

  /**
   * requireScopes(authMode, oAuthScopes): throws unless the user granted every scope listed. The reference page was
   * not at hand (docs/platform.md, "Granular consent"); the runtime takes the stricter reading of its release note
   * (the execution ends, even if the script catches the error, and scopes the manifest does not ask for are an error).
   */
  requireScopes(authMode: unknown, oAuthScopes: unknown): void {
    const mode = authModeName(authMode, 'requireScopes');
    this.#require(mode, scopeList(oAuthScopes, 'requireScopes'));
  }

  /** requireAllScopes(authMode): requireScopes with every scope the manifest asks for. */
  requireAllScopes(authMode: unknown): void {
    const mode = authModeName(authMode, 'requireAllScopes');
    this.#require(mode, [...(this._scopes.requested ?? [])]);
  }

  #require(mode: string, scopes: readonly string[]): void {
    const requested = this._scopes.requested;
    const unknown = requested === null ? [] : scopes.filter((scope) => !requested.includes(scope));
    if (unknown.length > 0) throw new GasError(`The script does not request these scopes: ${unknown.join(', ')}`);
    if (mode !== 'FULL') return;
    const missing = scopes.filter((scope) => !isGranted(this._scopes, scope));
    if (missing.length === 0) return;
    const message = AUTHORIZATION_REQUIRED;
    this._triggers.execution.endedForConsent = message;
    throw new GasError(message);
  }

  getScriptId(): string {
    return this._scriptId;
  }

  newTrigger(functionName: unknown): TriggerBuilderStandIn {
    return newTrigger(this._triggers, functionName);
  }

  getProjectTriggers(): TriggerStandIn[] {
    return projectTriggers(this._triggers);
  }

  getUserTriggers(document: unknown): TriggerStandIn[] {
    return userTriggers(this._triggers, document);
  }

  deleteTrigger(trigger: unknown): void {
    deleteTrigger(this._triggers, trigger);
  }
}

/**
 * What an execution ended by requireScopes reports: the words public reports quote when Apps Script wants the
 * user's authorization ("Authorization is required to perform that action.", PLATFORM.md); the reference states none.
 */
export const AUTHORIZATION_REQUIRED = 'Authorization is required to perform that action.';

/** AuthorizationInfo: "An object that checks if the user has granted authorization for the required scopes of the script." */
export class AuthorizationInfoStandIn {
  static readonly gasName = 'AuthorizationInfo';

  constructor(
    readonly _scriptId: string,
    readonly _grants: ScopeGrants,
    /** The scopes asked about: the list given, else the manifest's (null: none declared). */
    readonly _asked: readonly string[] | null,
    readonly _full: boolean,
  ) {}

  #missing(): string[] {
    if (!this._full || this._asked === null) return [];
    return this._asked.filter((scope) => !isGranted(this._grants, scope));
  }

  getAuthorizationStatus(): GasEnum {
    return AuthorizationStatus._get(this.#missing().length > 0 ? 'REQUIRED' : 'NOT_REQUIRED');
  }

  /** "If no authorization is required, this method returns null" (the address is a stand-in). */
  getAuthorizationUrl(): string | null {
    return this.#missing().length > 0 ? `https://script.google.com/macros/d/${this._scriptId}/authorize` : null;
  }

  /**
   * "Gets a list of authorized scopes for the script. If authorization information is requested for a specified list
   * of scopes, returns the authorized scopes from the specified list." Null when nothing is known (no manifest list).
   */
  getAuthorizedScopes(): string[] | null {
    if (this._asked !== null) return this._asked.filter((scope) => isGranted(this._grants, scope));
    if (this._grants.granted === null) return null;
    return this._grants.granted.filter((scope) => isGranted(this._grants, scope));
  }
}

/**
 * A service Apps Script has but the add-in does not use. It exists, as in Apps Script, so
 * `typeof DriveApp` is 'object'; touching any member is a loud NOT_IMPLEMENTED gap.
 */
export class UnmodelledService {
  constructor(readonly _gasName: string) {}
}

/** Apps Script's other global services, present so that a script using one fails loudly rather than with a ReferenceError it might catch. */
const UNMODELLED_SERVICES = [
  'Browser',
  'CalendarApp',
  'CardService',
  'Charts',
  'ContentService',
  'DocumentApp',
  'DriveApp',
  'FormApp',
  'GmailApp',
  'Jdbc',
  'LanguageApp',
  'MailApp',
  'Maps',
  'SlidesApp',
  'XmlService',
] as const;

/** What the services share across executions. */
export interface SharedState {
  spreadsheet: Spreadsheet;
  ui: Ui;
  properties: PropertyStores;
  caches: CacheStores;
  locks: LockArbiter;
  /**
   * In a worker thread: the services whose state the host owns (SpreadsheetApp, PropertiesService,
   * CacheService), as remote objects forwarding to stand-ins the host made for this execution.
   */
  hostServices?: (execution: Execution) => Record<string, object>;
  http: () => SyncHttpClient;
  filesDirectory: string | undefined;
  scriptTimeZone: string;
  scriptId: string;
  fetchTimeoutMs: number;
  /** In a worker thread, the host's quota: it is per user across executions. */
  urlFetchQuota: UrlFetchQuotaCharger;
  urlFetchAllowlist: UrlFetchAllowlist | null;
  onSleep: SleepListener | undefined;
  /** GasRuntimeOptions.networkLatency; synchronous executions only. */
  networkLatency?: NetworkLatency;
  log: (level: LogLevel, message: string) => void;
  /** Installable triggers; in a worker thread ScriptApp is the host's (hostServices), so this is never reached there. */
  triggers: TriggerTable;
  /** The register's switch: an add-on's time-driven trigger sees the spreadsheet it was created in. */
  activeSpreadsheetInTimeTrigger: boolean;
  /** The scopes the manifest asks for, or null when it lists none. */
  requiredScopes: readonly string[] | null;
}

/** The global objects of one execution, already wrapped for the script. */
export function createGlobals(shared: SharedState, execution: Execution, membrane: Membrane): Record<string, unknown> {
  // Every execution starts here: in eviction mode, the caches lost entries since the last one. In a worker
  // thread the caches the script uses are the host's, and the host applied the drop when it started the execution.
  if (!shared.hostServices) shared.caches._executionStarted();
  // An add-on's time-driven trigger runs with no document open (see SpreadsheetAppStandIn); a bound script's has its container.
  const hasActiveDocument = !(execution.kind === 'trigger' && shared.triggers._addOn && !shared.activeSpreadsheetInTimeTrigger);
  const services: Record<string, object> = {
    SpreadsheetApp: new SpreadsheetAppStandIn(shared.spreadsheet, shared.ui, hasActiveDocument),
    UrlFetchApp: new UrlFetchAppStandIn(shared.http, execution, {
      timeoutMs: shared.fetchTimeoutMs,
      scriptId: shared.scriptId,
      quota: shared.urlFetchQuota,
      allowlist: shared.urlFetchAllowlist,
      ...(shared.networkLatency ? { latency: shared.networkLatency } : {}),
    }),
    PropertiesService: new PropertiesServiceStandIn(shared.properties, execution, hasActiveDocument),
    CacheService: new CacheServiceStandIn(shared.caches, execution),
    LockService: new LockServiceStandIn(shared.locks, execution, hasActiveDocument),
    Utilities: new UtilitiesService(execution, shared.onSleep),
    Session: new SessionStandIn(execution, shared.scriptTimeZone, shared.scriptId),
    HtmlService: new HtmlServiceStandIn(shared.filesDirectory, membrane.realm),
    ScriptApp: new ScriptAppStandIn(
      shared.scriptId,
      { table: shared.triggers, execution, spreadsheet: shared.spreadsheet, scriptTimeZone: shared.scriptTimeZone },
      {
        granted: execution.oauthScopes === null ? null : [...execution.oauthScopes],
        declined: [...execution.declinedScopes],
        requested: shared.requiredScopes,
      },
    ),
    Logger: new LoggerStandIn(shared.log),
    console: new ConsoleStandIn(shared.log),
  };
  if (shared.hostServices) Object.assign(services, shared.hostServices(execution));
  for (const name of UNMODELLED_SERVICES) services[name] = new UnmodelledService(name);
  return Object.fromEntries(Object.entries(services).map(([name, service]) => [name, membrane.wrap(service)]));
}
