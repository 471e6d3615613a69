// Granular consent: a person may grant some of the add-in's permissions and not others (docs/platform.md,
// "Granular consent"). Which permission each feature needs, in the consent screen's words, and the one sentence
// that says which to grant and how. The Apps Script side (what is granted) is src/gas/granted-scopes.ts.

import { ADDIN_NAME } from '../product';

const AUTH = 'https://www.googleapis.com/auth/';

/** The scopes appsscript.json asks for (test/build checks the two agree). */
export const SCOPE = {
  spreadsheets: `${AUTH}spreadsheets`,
  externalRequest: `${AUTH}script.external_request`,
  containerUi: `${AUTH}script.container.ui`,
  scriptApp: `${AUTH}script.scriptapp`,
  userinfoEmail: `${AUTH}userinfo.email`,
} as const;

export const MANIFEST_SCOPES: readonly string[] = Object.values(SCOPE);

/**
 * What the consent screen calls each scope, so a person finds the box to tick: the words a public add-on's
 * permissions page quotes from it (sheetautomation.com/docs/getting-started/permission) for four of them; the
 * email scope's is Google's usual description (unverified here). A scope not listed is named by its URL.
 */
const PERMISSION_NAMES: Readonly<Record<string, string>> = {
  [SCOPE.spreadsheets]: 'See, edit, create and delete your spreadsheets in Google Drive',
  [`${AUTH}spreadsheets.currentonly`]: 'View and manage spreadsheets that this application has been installed in',
  [SCOPE.externalRequest]: 'Connect to an external service',
  [SCOPE.containerUi]: 'Display and run third-party web content in prompts and sidebars inside Google applications',
  [SCOPE.scriptApp]: 'Allow this application to run when you are not present',
  [SCOPE.userinfoEmail]: 'See your primary Google Account email address',
};

/** What stops without each scope (docs/guide.md, "If you declined a permission"); everything else keeps working. */
export const FEATURES_NEEDING: Readonly<Record<string, string>> = {
  [SCOPE.spreadsheets]: 'everything that reads or writes this spreadsheet: inserting, snapshots, exports, the audit, imports',
  [SCOPE.externalRequest]: 'formulas and every feature that reads or writes the API',
  [SCOPE.containerUi]: 'the menu and the sidebar',
  [SCOPE.scriptApp]: 'scheduled snapshot refreshes',
  [SCOPE.userinfoEmail]: 'telling whether you own this spreadsheet, and your email in the Pushes sheet',
};

/** The consent screen's name for a scope, in quotes. */
export function permissionName(scope: string): string {
  return `"${PERMISSION_NAMES[scope] ?? scope}"`;
}

/**
 * "<feature> needs the permission "…", which was not granted to <add-in>", and how to grant it: the authorization
 * page when Apps Script gave its address, else opening the add-in again (Apps Script asks for what is missing), and
 * in any case removing the add-in's access in the Google Account (Authorization guide: "Visit the permissions page
 * for your Google account … Connected apps & sites … Remove"), after which it asks for every permission again.
 * Several scopes are alternatives: granting any one is enough.
 */
export function permissionSentence(feature: string, scopes: readonly string[], authorizationUrl: string | null): string {
  const names = scopes.map(permissionName);
  const which = names.length === 1 ? `the permission ${names[0]}` : `one of the permissions ${names.join(' or ')}`;
  const how = authorizationUrl
    ? `To grant it, open ${authorizationUrl} and tick it`
    : `To grant it, open Extensions › ${ADDIN_NAME} › Open sidebar and tick it when Google asks`;
  return `${feature} needs ${which}, which was not granted to ${ADDIN_NAME}. ${how}; if Google does not ask, remove ${ADDIN_NAME} at myaccount.google.com › Security › Third-party apps with account access, then open it again and allow every permission. Everything else keeps working meanwhile.`;
}

/**
 * The scopes named by Apps Script's own refusal of a call for want of a permission: "You do not have permission to
 * call X. Required permissions: …" (a scope the user did not grant) or "Specified permissions are not sufficient to
 * call X. Required permissions: …" (one the manifest lacks), one URL or alternatives as "(a || b)"; null for any
 * other message. The reference documents neither text (docs/platform.md, §8 and "Granular consent").
 */
export function refusedScopes(message: string): { call: string; scopes: string[] } | null {
  const match =
    /(?:You do not have permission to call|Specified permissions are not sufficient to call) ([\w.]+)\. Required permissions: (\(?https:\/\/[^\s)]+(?: \|\| https:\/\/[^\s)]+)*\)?)/.exec(
      message,
    );
  if (!match) return null;
  return { call: match[1]!, scopes: match[2]!.replace(/^\(|\)$/g, '').split(' || ') };
}

/**
 * Apps Script's other words for a permission not granted, which name no scope ("Authorization is required to perform
 * that action.", PLATFORM.md; docs/platform.md, §13): whoever meets them learns where the missing permission is named.
 */
export const AUTHORIZATION_REQUIRED = /Authorization is required to perform that action/i;

export function unnamedPermissionSentence(): string {
  return `${ADDIN_NAME} needs a permission you have not granted. Open Extensions › ${ADDIN_NAME} › Check this installation: its first line names the permission and how to grant it. Everything else keeps working meanwhile.`;
}

/**
 * The sentence for Apps Script's refusal of `call`: its feature, and of the alternatives it lists the ones the
 * manifest asks for (a person can grant only those; "(spreadsheets.currentonly || spreadsheets)" names both).
 */
export function refusalSentence(call: string, scopes: readonly string[]): string {
  const asked = scopes.filter((scope) => MANIFEST_SCOPES.includes(scope));
  return permissionSentence(featureOfCall(call), asked.length > 0 ? asked : scopes, null);
}

/** The feature in the sentence for a refusal the add-in did not guard: named by what Apps Script refused. */
function featureOfCall(call: string): string {
  if (call.startsWith('UrlFetchApp.')) return 'Reaching the API';
  if (/^(ScriptApp|Trigger|TriggerBuilder|ClockTriggerBuilder)\./.test(call)) return 'Scheduling a snapshot refresh';
  if (call.startsWith('Ui.')) return 'Showing the sidebar or a dialog';
  if (call.startsWith('Session.')) return 'Knowing who you are';
  return 'Reading and writing this spreadsheet';
}
