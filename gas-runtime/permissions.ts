// What a script may call: the auth mode's table and the manifest's OAuth scopes, behind every permission error.
//
// Sources: the custom functions guide ("Using Apps Script services": Cache, HTML (generate only),
// JDBC, Language, Lock, Maps, Properties, Spreadsheet (read only, no other spreadsheets), URL Fetch,
// Utilities and XML work; a service needing the user's authorization fails with "You do not have
// permission to call X"), the add-on authorization lifecycle (NONE: add menu items only; LIMITED, a
// simple trigger: the current document, UI and properties but no network; FULL: everything), and
// the manifest's `oauthScopes` (when set, Apps Script grants exactly those scopes and a call needing
// another fails with "Specified permissions are not sufficient to call X"), and granular consent (a user may grant
// some of those scopes and decline others: rt.authorize; a call needing only declined ones fails with "You do not
// have permission to call X. Required permissions: …"). What each method needs comes
// from one table, scopes.ts, written from each method's reference page.

import type { AuthModeName } from './enums';
import { GasError } from './errors';
import type { Execution } from './execution';
import { requiredScopes } from './scopes';

type Capability = 'menu' | 'ui' | 'document-read' | 'document-write' | 'other-documents' | 'properties' | 'cache' | 'lock' | 'urlfetch' | 'triggers';

const ALLOWED: Record<AuthModeName, ReadonlySet<Capability>> = {
  NONE: new Set<Capability>(['menu']),
  LIMITED: new Set<Capability>(['menu', 'ui', 'document-read', 'document-write', 'properties', 'cache', 'lock']),
  // Managing triggers needs the user's authorization (script.scriptapp), so only FULL may: simple triggers and custom functions cannot.
  FULL: new Set<Capability>(['menu', 'ui', 'document-read', 'document-write', 'other-documents', 'properties', 'cache', 'lock', 'urlfetch', 'triggers']),
  CUSTOM_FUNCTION: new Set<Capability>(['document-read', 'properties', 'cache', 'lock', 'urlfetch']),
};

/**
 * Services a custom function may not call: "Custom functions can call certain Apps Script services … specifically
 * the following: Cache, HTML, JDBC, Language, Lock, Maps, Properties, Spreadsheet, URL Fetch, Utilities, XML"
 * (custom functions guide). Those needing the user's authorization are refused for that; Session is not in the
 * list either, nor is ScriptApp (so a custom function cannot ask getAuthorizationInfo what was granted); the
 * reference does not say what calling them there does, so the runtime takes the stricter reading (refused), the
 * one a script can rely on. The runtime does not model the others: outside custom functions they
 * stay loud gaps.
 */
const REFUSED_IN_CUSTOM_FUNCTIONS = new Set(['CalendarApp', 'DocumentApp', 'DriveApp', 'FormApp', 'GmailApp', 'MailApp', 'SlidesApp', 'Session', 'ScriptApp']);

/** Classes of the spreadsheet model whose mutating methods need write access. */
const DOCUMENT_CLASSES = new Set(['Spreadsheet', 'Sheet', 'Range', 'Filter', 'Protection', 'DeveloperMetadata']);
/** Method names that change the document (or its selection, or show something). */
const WRITE_METHOD =
  /^(set|clear|insert|delete|append|hide|show|unhide|activate|autoResize|create|remove|toast|merge|sort|copy|move|rename|duplicate|add|protect|trim|randomize|flush)/;

function capabilityOf(className: string, member: string): Capability | null {
  switch (className) {
    case 'UrlFetchApp':
      return 'urlfetch';
    case 'PropertiesService':
      return 'properties';
    case 'CacheService':
      return 'cache';
    case 'LockService':
      return 'lock';
    case 'Menu':
      return 'menu';
    case 'ScriptApp':
      return member === 'newTrigger' || member === 'getProjectTriggers' || member === 'getUserTriggers' || member === 'deleteTrigger' ? 'triggers' : null;
    case 'TriggerBuilder':
    case 'ClockTriggerBuilder':
    case 'Trigger':
      return 'triggers';
    case 'Ui':
      return member === 'createMenu' || member === 'createAddonMenu' ? 'menu' : 'ui';
    case 'SpreadsheetApp':
      if (member === 'getUi') return null;
      if (member === 'openById' || member === 'openByUrl' || member === 'open' || member === 'create') return 'other-documents';
      if (/^(getActive|getCurrentCell|getSelection)/.test(member)) return 'document-read';
      if (member === 'setActiveSheet' || member === 'setActiveRange' || member === 'setActiveSpreadsheet') return 'document-write';
      return null;
    default:
      if (DOCUMENT_CLASSES.has(className)) return WRITE_METHOD.test(member) ? 'document-write' : 'document-read';
      return null;
  }
}

/** Scopes as Apps Script lists them: one URL, or alternatives as `(a || b)`. */
function describeScopes(scopes: readonly string[]): string {
  return scopes.length === 1 ? scopes[0]! : `(${scopes.join(' || ')})`;
}

/** The error a custom function gets for a service that needs the user's authorization, or null if the service is allowed there. */
export function customFunctionRefusal(execution: Execution, className: string, member: string): GasError | null {
  if (execution.authMode !== 'CUSTOM_FUNCTION' || !REFUSED_IN_CUSTOM_FUNCTIONS.has(className)) return null;
  return new GasError(`You do not have permission to call ${className}.${member}`);
}

/**
 * Throws the error Apps Script gives when `className.member` is not allowed in the execution's auth
 * mode, or needs a scope the manifest does not declare; does nothing when it is allowed.
 */
export function checkAccess(execution: Execution, className: string, member: string): void {
  const refusal = customFunctionRefusal(execution, className, member);
  if (refusal) throw refusal;
  // getUi is a capability of its own in custom functions only: elsewhere the Ui's methods are checked.
  if (execution.authMode === 'CUSTOM_FUNCTION' && className === 'SpreadsheetApp' && member === 'getUi') {
    throw new GasError('Cannot call SpreadsheetApp.getUi() from this context.');
  }
  const capability = capabilityOf(className, member);
  const scopes = requiredScopes(className, member);
  const needed = scopes !== null && scopes.length > 0 ? scopes : null;
  if (capability !== null && !ALLOWED[execution.authMode].has(capability)) {
    // Custom functions name only the method: "You do not have permission to call setValue".
    if (execution.authMode === 'CUSTOM_FUNCTION' && capability === 'document-write') throw new GasError(`You do not have permission to call ${member}`);
    throw new GasError(`You do not have permission to call ${className}.${member}${needed ? `. Required permissions: ${describeScopes(needed)}` : ''}`);
  }
  const declared = execution.oauthScopes;
  if (needed === null) return;
  if (declared !== null && !needed.some((scope) => declared.has(scope))) {
    // The text live scripts report for a scope the manifest lacks, e.g. "Specified permissions are not sufficient to
    // call Session.getActiveUser. Required permissions: https://www.googleapis.com/auth/userinfo.email".
    throw new GasError(`Specified permissions are not sufficient to call ${className}.${member}. Required permissions: ${describeScopes(needed)}`);
  }
  // AuthMode.NONE runs before the user has authorized anything (add-on lifecycle: "add menu items only"), so what the
  // user declined cannot matter there; the table above already limits it to menus.
  if (execution.authMode === 'NONE') return;
  if (needed.some((scope) => (declared === null || declared.has(scope)) && !execution.declinedScopes.has(scope))) return;
  // The register's switch (docs/platform.md): the other text public reports quote, which names no scope.
  if (!execution.declinedScopeRefusalNamesScope) throw new GasError('Authorization is required to perform that action.');
  throw declinedRefusal(className, member, needed);
}

/**
 * What a call gets when the manifest asks for its scope but the user did not grant it (granular consent,
 * rt.authorize): the message a published add-on's user reported for a trigger scope they had not granted,
 * "ScriptApp.newTrigger を呼び出す権限がありません。必要な権限: https://www.googleapis.com/auth/script.scriptapp"
 * (github.com/ttsukagoshi/mail-merge-for-gmail/issues/129), i.e. "You do not have permission to call
 * ScriptApp.newTrigger. Required permissions: …". The reference documents no text for it; the call throws (the
 * stricter reading: no prompt that lets the execution go on).
 */
export function declinedRefusal(className: string, member: string, needed: readonly string[]): GasError {
  return new GasError(`You do not have permission to call ${className}.${member}. Required permissions: ${describeScopes(needed)}`);
}
