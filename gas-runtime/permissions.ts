// What each auth mode lets a script call: the one table behind every "You do not have permission" error.
//
// Sources: the custom functions guide ("Using Apps Script services": Cache, Lock, Properties, URL Fetch
// and Utilities work; HTML can be generated but not displayed; Spreadsheet is read only and cannot
// open other spreadsheets) and the add-on authorization lifecycle (NONE: add menu items only;
// LIMITED, a simple trigger: the current document, UI and properties but no network; FULL: everything).

import type { AuthModeName } from './enums';
import { GasError } from './errors';
import type { Execution } from './execution';

type Capability = 'menu' | 'ui' | 'document-read' | 'document-write' | 'other-documents' | 'properties' | 'cache' | 'lock' | 'urlfetch';

const ALLOWED: Record<AuthModeName, ReadonlySet<Capability>> = {
  NONE: new Set<Capability>(['menu']),
  LIMITED: new Set<Capability>(['menu', 'ui', 'document-read', 'document-write', 'properties', 'cache', 'lock']),
  FULL: new Set<Capability>(['menu', 'ui', 'document-read', 'document-write', 'other-documents', 'properties', 'cache', 'lock', 'urlfetch']),
  CUSTOM_FUNCTION: new Set<Capability>(['document-read', 'properties', 'cache', 'lock', 'urlfetch']),
};

const SCOPES: Partial<Record<Capability, string>> = {
  urlfetch: 'https://www.googleapis.com/auth/script.external_request',
  'document-read': 'https://www.googleapis.com/auth/spreadsheets.currentonly || https://www.googleapis.com/auth/spreadsheets',
  'document-write': 'https://www.googleapis.com/auth/spreadsheets.currentonly || https://www.googleapis.com/auth/spreadsheets',
  'other-documents': 'https://www.googleapis.com/auth/spreadsheets',
  ui: 'https://www.googleapis.com/auth/script.container.ui',
};

/** Classes of the spreadsheet model whose mutating methods need write access. */
const DOCUMENT_CLASSES = new Set(['Spreadsheet', 'Sheet', 'Range', 'Filter']);
/** Method names that change the document (or its selection, or show something). */
const WRITE_METHOD = /^(set|clear|insert|delete|append|hide|show|unhide|activate|autoResize|create|remove|toast|merge|sort|copy|move|rename|duplicate|add|protect|trim|randomize|flush)/;

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
    case 'Ui':
      return member === 'createMenu' || member === 'createAddonMenu' ? 'menu' : 'ui';
    case 'SpreadsheetApp':
      if (member === 'getUi') return 'menu';
      if (member === 'openById' || member === 'openByUrl' || member === 'open' || member === 'create') return 'other-documents';
      if (/^(getActive|getCurrentCell|getSelection)/.test(member)) return 'document-read';
      if (member === 'setActiveSheet' || member === 'setActiveRange' || member === 'setActiveSpreadsheet') return 'document-write';
      return null;
    default:
      if (DOCUMENT_CLASSES.has(className)) return WRITE_METHOD.test(member) ? 'document-write' : 'document-read';
      return null;
  }
}

/**
 * Throws the error Apps Script gives when `className.member` is not allowed in the execution's auth
 * mode; does nothing when it is.
 */
export function checkAccess(execution: Execution, className: string, member: string): void {
  const capability = capabilityOf(className, member);
  if (capability === null || ALLOWED[execution.authMode].has(capability)) return;
  if (execution.authMode === 'CUSTOM_FUNCTION') {
    if (className === 'SpreadsheetApp' && member === 'getUi') throw new GasError('Cannot call SpreadsheetApp.getUi() from this context.');
    // Custom functions name only the method: "You do not have permission to call setValue".
    if (capability === 'document-write') throw new GasError(`You do not have permission to call ${member}`);
  }
  const scopes = SCOPES[capability];
  throw new GasError(`You do not have permission to call ${className}.${member}${scopes ? `. Required permissions: ${scopes}` : ''}`);
}
