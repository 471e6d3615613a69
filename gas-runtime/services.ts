// The globals one execution sees: every stand-in service, built for that execution and wrapped by its membrane.

import { CacheServiceStandIn, type CacheStores } from './cache';
import { AuthMode, AuthorizationStatus, EventType, TriggerSource, WeekDay, type GasEnum } from './enums';
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
import { deleteTrigger, newTrigger, projectTriggers, userTriggers, type TriggerBuilderStandIn, type TriggerContext, type TriggerStandIn, type TriggerTable } from './triggers';
import { UrlFetchAppStandIn } from './url-fetch';
import type { UrlFetchAllowlist, UrlFetchQuotaCharger } from './url-fetch-limits';
import { UtilitiesService, type SleepListener } from './utilities';

/** ScriptApp, as far as the add-in needs it: its enums, the script's id and time-driven triggers (triggers.ts). */
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
    /** The scopes granted (null: the manifest lists none, so whatever the code needs) and those the manifest asks for. */
    readonly _scopes: { granted: readonly string[] | null; required: readonly string[] | null } = { granted: null, required: null },
  ) {}

  /**
   * "Gets an object that determines whether the user needs to authorize this script to use one or more services"
   * (ScriptApp reference); the user has granted the runtime's `oauthScopes`, and the manifest asks for its own list.
   */
  getAuthorizationInfo(authMode: unknown, oAuthScopes?: unknown): AuthorizationInfoStandIn {
    void authMode;
    const asked = Array.isArray(oAuthScopes) ? oAuthScopes.map(String) : null;
    return new AuthorizationInfoStandIn(this._scriptId, this._scopes.granted, asked ?? this._scopes.required);
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

/** AuthorizationInfo: "An object that checks if the user has granted authorization for the required scopes of the script." */
export class AuthorizationInfoStandIn {
  static readonly gasName = 'AuthorizationInfo';

  constructor(
    readonly _scriptId: string,
    readonly _granted: readonly string[] | null,
    readonly _required: readonly string[] | null,
  ) {}

  #missing(): string[] {
    if (this._granted === null || this._required === null) return [];
    const granted = new Set(this._granted);
    return this._required.filter((scope) => !granted.has(scope));
  }

  getAuthorizationStatus(): GasEnum {
    return AuthorizationStatus._get(this.#missing().length > 0 ? 'REQUIRED' : 'NOT_REQUIRED');
  }

  /** "If no authorization is required, this method returns null" (the address is a stand-in). */
  getAuthorizationUrl(): string | null {
    return this.#missing().length > 0 ? `https://script.google.com/macros/d/${this._scriptId}/authorize` : null;
  }

  /** "Gets a list of authorized scopes for the script", or of the asked-for list those authorized; null when unknown. */
  getAuthorizedScopes(): string[] | null {
    if (this._granted === null) return this._required === null ? null : [...this._required];
    const granted = new Set(this._granted);
    return this._required === null ? [...this._granted] : this._required.filter((scope) => granted.has(scope));
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
      { granted: execution.oauthScopes === null ? null : [...execution.oauthScopes], required: shared.requiredScopes },
    ),
    Logger: new LoggerStandIn(shared.log),
    console: new ConsoleStandIn(shared.log),
  };
  if (shared.hostServices) Object.assign(services, shared.hostServices(execution));
  for (const name of UNMODELLED_SERVICES) services[name] = new UnmodelledService(name);
  return Object.fromEntries(Object.entries(services).map(([name, service]) => [name, membrane.wrap(service)]));
}
