// The OAuth scopes each Apps Script method needs, as its reference page lists them under "Authorization".
//
// Every method page of the reference ends with "Scripts that use this method require authorization with one or
// more of the following scopes: …" when the method needs one; any one of the listed scopes is enough. A method
// without that section needs none. The runtime refuses a call whose scopes the manifest's `oauthScopes` all lack
// (permissions.ts), and test/build/apps-script-scopes.test.ts fails when the built add-in calls a method this file
// does not list, or one whose scopes appsscript.json lacks.
//
// `verified` says how the entry was checked: 'method' — the method's own Authorization section was read;
// 'class' — other methods of the same page were read and this one is taken to follow them (the reference is
// uniform per class for these; the stricter reading: a scope is required). Entries the add-in does not call yet
// but the installation check is expected to (ScriptApp.getAuthorizationInfo…) are listed ahead.

const AUTH = 'https://www.googleapis.com/auth/';
export const SCOPE = {
  spreadsheets: `${AUTH}spreadsheets`,
  spreadsheetsCurrentOnly: `${AUTH}spreadsheets.currentonly`,
  externalRequest: `${AUTH}script.external_request`,
  containerUi: `${AUTH}script.container.ui`,
  scriptApp: `${AUTH}script.scriptapp`,
  userinfoEmail: `${AUTH}userinfo.email`,
} as const;

const REFERENCE = 'https://developers.google.com/apps-script/reference/';

/** What one method needs: any one of `scopes` (none when empty), per its reference page. */
export interface MethodScopes {
  readonly scopes: readonly string[];
  readonly page: string;
  readonly verified: 'method' | 'class';
}

/** One reference page: what its methods need when not listed (the class's pattern), and the methods listed one by one. */
interface ClassScopes {
  readonly page: string;
  /** What any method of the class not listed below needs (the pattern of the page). */
  readonly scopes: readonly string[];
  readonly methods: Readonly<Record<string, { scopes?: readonly string[]; verified: 'method' | 'class' }>>;
}

/** The active spreadsheet and everything reached from it: "spreadsheets.currentonly" or the full scope. */
const SHEETS = [SCOPE.spreadsheetsCurrentOnly, SCOPE.spreadsheets] as const;
const NONE: readonly string[] = [];

/** `names` all with the class's own scopes, checked as `verified`. */
function same(verified: 'method' | 'class', ...names: string[]): ClassScopes['methods'] {
  return Object.fromEntries(names.map((name) => [name, { verified }]));
}

const CLASSES: Readonly<Record<string, ClassScopes>> = {
  SpreadsheetApp: {
    page: `${REFERENCE}spreadsheet/spreadsheet-app`,
    scopes: SHEETS,
    methods: {
      ...same('class', 'getActiveSpreadsheet', 'getActive', 'getActiveSheet', 'getActiveRange', 'getCurrentCell', 'setActiveSheet', 'setActiveRange', 'flush'),
      // "SpreadsheetApp.openById / openByUrl need spreadsheets" (spreadsheets.currentonly covers only the active spreadsheet).
      openById: { scopes: [SCOPE.spreadsheets], verified: 'method' },
      openByUrl: { scopes: [SCOPE.spreadsheets], verified: 'method' },
      open: { scopes: [SCOPE.spreadsheets], verified: 'class' },
      create: { scopes: [SCOPE.spreadsheets], verified: 'class' },
      // getUi and the builders' factories change nothing in a document; their pages show no Authorization section (unverified per method).
      getUi: { scopes: NONE, verified: 'class' },
      newDataValidation: { scopes: NONE, verified: 'class' },
      newConditionalFormatRule: { scopes: NONE, verified: 'class' },
    },
  },
  Spreadsheet: {
    page: `${REFERENCE}spreadsheet/spreadsheet`,
    scopes: SHEETS,
    methods: same(
      'class',
      'deleteSheet',
      'getActiveRange',
      'getActiveSheet',
      'getId',
      'getName',
      'getNumSheets',
      'getOwner',
      'getSheetByName',
      'getSheets',
      'getSpreadsheetTimeZone',
      'getUrl',
      'insertSheet',
      'setActiveRange',
      'setActiveSheet',
      'toast',
    ),
  },
  Sheet: {
    page: `${REFERENCE}spreadsheet/sheet`,
    scopes: SHEETS,
    methods: same(
      'class',
      'activate',
      'addDeveloperMetadata',
      'clear',
      'getDataRange',
      'getDeveloperMetadata',
      'getFilter',
      'getParent',
      'getLastColumn',
      'getLastRow',
      'getMaxColumns',
      'getMaxRows',
      'getName',
      'getRange',
      'getSheetId',
      'hideColumns',
      'hideRows',
      'hideSheet',
      'insertColumnsAfter',
      'insertRowsAfter',
      'isSheetHidden',
      'protect',
      'setConditionalFormatRules',
      'setColumnWidth',
      'setFrozenColumns',
      'setFrozenRows',
      'setName',
      'showColumns',
      'showRows',
      'showSheet',
    ),
  },
  Range: {
    page: `${REFERENCE}spreadsheet/range`,
    scopes: SHEETS,
    methods: same(
      'class',
      'activate',
      'clearContent',
      'clearDataValidations',
      'createFilter',
      'getA1Notation',
      'getColumn',
      'getDisplayValue',
      'getDisplayValues',
      'getFormula',
      'getFormulas',
      'getLastColumn',
      'getLastRow',
      'getNote',
      'getNumColumns',
      'getNumRows',
      'getNumberFormat',
      'getNumberFormats',
      'getRow',
      'getSheet',
      'getValue',
      'getValues',
      'setBackground',
      'setDataValidation',
      'setFontWeight',
      'setFormula',
      'setFormulas',
      'setNote',
      'setNumberFormat',
      'setNumberFormats',
      'setValue',
      'setValues',
    ),
  },
  // "Scripts that use this method require authorization with one or more of the following scopes:
  // https://www.googleapis.com/auth/spreadsheets.currentonly, https://www.googleapis.com/auth/spreadsheets" (getKey, getValue; remove follows its page).
  DeveloperMetadata: {
    page: `${REFERENCE}spreadsheet/developer-metadata`,
    scopes: SHEETS,
    methods: { ...same('method', 'getKey', 'getValue'), ...same('class', 'remove') },
  },
  Filter: { page: `${REFERENCE}spreadsheet/filter`, scopes: SHEETS, methods: same('class', 'remove') },
  Protection: { page: `${REFERENCE}spreadsheet/protection`, scopes: SHEETS, methods: same('class', 'setDescription', 'setWarningOnly') },
  // Builders hold a rule until a Range or Sheet applies it; their pages show no Authorization section.
  DataValidationBuilder: {
    page: `${REFERENCE}spreadsheet/data-validation-builder`,
    scopes: NONE,
    methods: same('class', 'build', 'requireCheckbox', 'requireValueInList', 'requireValueInRange', 'setAllowInvalid', 'setHelpText'),
  },
  ConditionalFormatRuleBuilder: {
    page: `${REFERENCE}spreadsheet/conditional-format-rule-builder`,
    scopes: NONE,
    methods: same('class', 'build', 'setBackground', 'setRanges', 'whenCellEmpty', 'whenTextEqualTo'),
  },
  // Every dialog and sidebar method lists script.container.ui; creating a menu is taken to as well (the stricter reading).
  Ui: {
    page: `${REFERENCE}base/ui`,
    scopes: [SCOPE.containerUi],
    methods: { ...same('class', 'createAddonMenu', 'createMenu'), ...same('method', 'showSidebar') },
  },
  // The Menu page's methods (addItem, addSeparator, addSubMenu, addToUi) have no Authorization section.
  Menu: { page: `${REFERENCE}base/menu`, scopes: NONE, methods: same('method', 'addItem', 'addSeparator', 'addToUi') },
  Session: {
    page: `${REFERENCE}base/session`,
    scopes: NONE,
    methods: {
      // "Scripts that use this method require authorization with one or more of the following scopes: https://www.googleapis.com/auth/userinfo.email"
      getActiveUser: { scopes: [SCOPE.userinfoEmail], verified: 'method' },
      getEffectiveUser: { scopes: [SCOPE.userinfoEmail], verified: 'method' },
      ...same('method', 'getScriptTimeZone', 'getTemporaryActiveUserKey', 'getActiveUserLocale'),
    },
  },
  // User.getEmail has no Authorization section: the scope is needed to get the User from Session, not to read it.
  User: { page: `${REFERENCE}base/user`, scopes: NONE, methods: same('method', 'getEmail') },
  Blob: { page: `${REFERENCE}base/blob`, scopes: NONE, methods: same('class', 'getBytes', 'getDataAsString') },
  ScriptApp: {
    page: `${REFERENCE}script/script-app`,
    scopes: NONE,
    methods: {
      ...Object.fromEntries(
        ['newTrigger', 'deleteTrigger', 'getProjectTriggers', 'getUserTriggers'].map((name) => [
          name,
          { scopes: [SCOPE.scriptApp], verified: 'method' as const },
        ]),
      ),
      // Reports which scopes the user granted; it cannot need one itself (no Authorization section, unverified per method).
      ...same(
        'class',
        'getAuthorizationInfo',
        'requireScopes',
        'requireAllScopes',
        'getScriptId',
        'AuthMode',
        'AuthorizationStatus',
        'EventType',
        'TriggerSource',
        'WeekDay',
      ),
    },
  },
  AuthorizationInfo: {
    page: `${REFERENCE}script/authorization-info`,
    scopes: NONE,
    methods: same('class', 'getAuthorizationStatus', 'getAuthorizationUrl', 'getAuthorizedScopes'),
  },
  // "Scripts that use this method require authorization with one or more of the following scopes: https://www.googleapis.com/auth/script.scriptapp" (each Trigger method)
  Trigger: { page: `${REFERENCE}script/trigger`, scopes: [SCOPE.scriptApp], methods: same('method', 'getEventType', 'getHandlerFunction', 'getUniqueId') },
  TriggerBuilder: { page: `${REFERENCE}script/trigger-builder`, scopes: [SCOPE.scriptApp], methods: same('class', 'timeBased') },
  ClockTriggerBuilder: {
    page: `${REFERENCE}script/clock-trigger-builder`,
    scopes: [SCOPE.scriptApp],
    methods: same('class', 'create', 'everyDays', 'everyHours', 'everyWeeks'),
  },
  // "This service requires the https://www.googleapis.com/auth/script.external_request scope" (UrlFetchApp page; fetch's own section lists it).
  UrlFetchApp: { page: `${REFERENCE}url-fetch/url-fetch-app`, scopes: [SCOPE.externalRequest], methods: same('method', 'fetch', 'fetchAll') },
  HTTPResponse: { page: `${REFERENCE}url-fetch/http-response`, scopes: NONE, methods: same('class', 'getAllHeaders', 'getContentText', 'getResponseCode') },
  CacheService: { page: `${REFERENCE}cache/cache-service`, scopes: NONE, methods: same('class', 'getUserCache', 'getDocumentCache', 'getScriptCache') },
  Cache: { page: `${REFERENCE}cache/cache`, scopes: NONE, methods: same('class', 'get', 'getAll', 'put', 'putAll', 'remove', 'removeAll') },
  LockService: { page: `${REFERENCE}lock/lock-service`, scopes: NONE, methods: same('class', 'getUserLock', 'getDocumentLock') },
  Lock: { page: `${REFERENCE}lock/lock`, scopes: NONE, methods: same('class', 'tryLock', 'waitLock', 'releaseLock', 'hasLock') },
  PropertiesService: {
    page: `${REFERENCE}properties/properties-service`,
    scopes: NONE,
    methods: same('class', 'getUserProperties', 'getDocumentProperties', 'getScriptProperties'),
  },
  Properties: {
    page: `${REFERENCE}properties/properties`,
    scopes: NONE,
    methods: same('class', 'deleteProperty', 'getKeys', 'getProperties', 'getProperty', 'setProperties', 'setProperty'),
  },
  HtmlService: {
    page: `${REFERENCE}html/html-service`,
    scopes: NONE,
    methods: same('class', 'createHtmlOutputFromFile', 'createHtmlOutput', 'createTemplateFromFile'),
  },
  HtmlOutput: { page: `${REFERENCE}html/html-output`, scopes: NONE, methods: same('class', 'append', 'setTitle', 'setWidth', 'setHeight', 'getContent') },
  HtmlTemplate: { page: `${REFERENCE}html/html-template`, scopes: NONE, methods: same('class', 'evaluate') },
  Utilities: {
    page: `${REFERENCE}utilities/utilities`,
    scopes: NONE,
    methods: same('class', 'formatDate', 'getUuid', 'newBlob', 'sleep', 'base64Encode', 'computeHmacSha256Signature', 'Charset'),
  },
  // The support log (src/gas/support-log.ts): the console page lists no Authorization section for any method.
  Console: { page: `${REFERENCE}base/console`, scopes: NONE, methods: same('class', 'log', 'warn') },
};

/** `Class.member` → what the reference lists for it: every method the add-in calls (and a few the installation check will). */
export const LISTED_METHODS: ReadonlyMap<string, MethodScopes> = new Map(
  Object.entries(CLASSES).flatMap(([className, entry]) =>
    Object.entries(entry.methods).map(([member, method]): [string, MethodScopes] => [
      `${className}.${member}`,
      { scopes: method.scopes ?? entry.scopes, page: `${entry.page}#${member}`, verified: method.verified },
    ]),
  ),
);

/**
 * The scopes `className.member` needs (any one suffices; empty: none): the listed method's, else its class's
 * pattern, else null for a class this file does not know (the runtime checks nothing there).
 */
export function requiredScopes(className: string, member: string): readonly string[] | null {
  const listed = LISTED_METHODS.get(`${className}.${member}`);
  if (listed) return listed.scopes;
  return CLASSES[className]?.scopes ?? null;
}
