// The add-in's settings in the user's properties. The token is read here and handed only to the client.

import { ConfigError } from '../core/errors';
import { DEFAULT_RATE_LIMIT, parseRateLimit, type RateLimit } from '../core/api/rate-budget';
import { validateBaseUrl } from '../core/settings/base-url';
import { requireUnderPrefix } from '../core/settings/url-allowlist';
import { SETTINGS_HINT } from '../core/product';
import { normalizeCompanyIds, parseFormulaAccess, withCompany } from '../core/formulas/formula-access';
import { missingCredential, type CredentialsOf } from '../core/settings/credential-sentences';
import type { CheckedSettings } from '../core/settings/settings-update';
import type { SettingsSummary } from '../shared/rpc';

/** Documented names, so an admin script can set them for a user. */
export const TOKEN_KEY = 'METRICS_API_TOKEN';
export const BASE_URL_KEY = 'METRICS_API_BASE_URL';
const COMPANY_KEY = 'METRICS_DEFAULT_COMPANY_ID';
/** Requests per seconds, like "500/300": for when the operator changes the API's limit. */
const RATE_LIMIT_KEY = 'METRICS_API_RATE_LIMIT';
/** Followed by the spreadsheet's id: the JSON list of company ids formulas there may read (the owner's copy counts). */
const FORMULA_ACCESS_KEY_PREFIX = 'METRICS_FORMULA_ACCESS_';
/** Part of every cache key; changes with the token or base URL, so answers of the old account or environment stop. */
const SETTINGS_GENERATION_KEY = 'METRICS_CACHE_SETTINGS_GENERATION';

// Replaced by webpack's DefinePlugin with the prefix of `npm run build -- --api-base-url`, or null; absent
// outside the bundle (unit tests of this adapter), hence the typeof.
declare const __API_BASE_URL_PREFIX__: string | null | undefined;

/** The manifest's urlFetchWhitelist prefix, or null for a plain build (workbench, tests): any valid base URL. */
export const ALLOWED_BASE_URL_PREFIX: string | null = typeof __API_BASE_URL_PREFIX__ === 'string' ? __API_BASE_URL_PREFIX__ : null;

/** validateBaseUrl, then the build's allowlist: Apps Script refuses every fetch outside it, so say so at once. */
export function checkBaseUrl(input: string): string {
  return requireUnderPrefix(validateBaseUrl(input), ALLOWED_BASE_URL_PREFIX);
}

function store(): GoogleAppsScript.Properties.Properties {
  return PropertiesService.getUserProperties();
}

/** All of the user's properties in one read, for an execution that needs several settings to hand to the readers below. */
export type UserProperties = Readonly<Record<string, string>>;

export function readUserProperties(): UserProperties {
  return store().getProperties();
}

/** What the sidebar may see: never the token itself. */
export function readSettingsSummary(props: UserProperties = readUserProperties()): Omit<SettingsSummary, 'isOwner' | 'sharingNote'> {
  const token = props[TOKEN_KEY];
  return {
    tokenSet: Boolean(token),
    // No character of the token, nor its length: the page learns only that one is set (SECURITY.md).
    tokenLast4: null,
    tokenHint: null,
    baseUrl: props[BASE_URL_KEY] ?? null,
    defaultCompanyId: props[COMPANY_KEY] ?? null,
  };
}

/** One property read unless the execution holds them all already (user properties also keep job records). */
export function readSettingsGeneration(props?: UserProperties): string {
  return (props ? props[SETTINGS_GENERATION_KEY] : store().getProperty(SETTINGS_GENERATION_KEY)) ?? '0';
}

/** Saves a checked update in one write; a new token or base URL starts a new settings generation (no old answers). */
export function saveCheckedSettings(update: CheckedSettings): void {
  const props = store().getProperties();
  const fields: Array<[string, string | null | undefined]> = [
    [TOKEN_KEY, update.token],
    [BASE_URL_KEY, update.baseUrl],
    [COMPANY_KEY, update.defaultCompanyId],
  ];
  const changes: Record<string, string> = {};
  const deletions: string[] = [];
  for (const [key, value] of fields) {
    if (value === null) deletions.push(key);
    else if (value !== undefined) changes[key] = value;
  }
  const changed = (key: string, value: string | null | undefined) => value !== undefined && (value ?? undefined) !== props[key];
  if (changed(TOKEN_KEY, update.token) || changed(BASE_URL_KEY, update.baseUrl)) {
    changes[SETTINGS_GENERATION_KEY] = Utilities.getUuid().slice(0, 8);
  }
  if (Object.keys(changes).length) store().setProperties(changes);
  for (const key of deletions) store().deleteProperty(key);
}

/**
 * The credentials for one execution. A custom function gets the spreadsheet owner's user properties (editors'
 * formulas spend the owner's token, docs/reference.md "Sharing"): `of` says so, for the sentence when one is missing.
 */
export function readCredentials(
  of: CredentialsOf = 'caller',
  props: UserProperties = readUserProperties(),
): { token: string; baseUrl: string; rateLimit: RateLimit } {
  const token = props[TOKEN_KEY];
  const baseUrl = props[BASE_URL_KEY];
  if (!token) throw missingCredential('token', of);
  if (!baseUrl) throw missingCredential('baseUrl', of);
  // Re-validated on read: a property set by an admin script skipped the sidebar's checks.
  const rateLimit = props[RATE_LIMIT_KEY] ? parseRateLimit(props[RATE_LIMIT_KEY]) : DEFAULT_RATE_LIMIT;
  let checked: string;
  try {
    checked = checkBaseUrl(baseUrl);
  } catch (error) {
    if (error instanceof ConfigError) throw new ConfigError(`${error.message} Open ${SETTINGS_HINT} and change the base URL.`);
    throw error;
  }
  return { token, baseUrl: checked, rateLimit };
}

function formulaAccessKey(spreadsheetId: string = SpreadsheetApp.getActiveSpreadsheet().getId()): string {
  return FORMULA_ACCESS_KEY_PREFIX + spreadsheetId;
}

/**
 * The companies formulas in the active spreadsheet (or the one given: a time-driven trigger has none active)
 * may read (without a stored list, the default company), from the runner's properties: in a custom function
 * the owner's, in the sidebar and the runner's own triggers the caller's.
 */
export function readFormulaAccess(props: UserProperties = readUserProperties(), spreadsheetId?: string): string[] {
  return parseFormulaAccess(props[formulaAccessKey(spreadsheetId)], props[COMPANY_KEY] ?? null);
}

/** Stores the list (already checked ids) for the active spreadsheet, replacing the default. */
export function saveFormulaAccess(companyIds: readonly string[]): string[] {
  const ids = normalizeCompanyIds(companyIds);
  store().setProperty(formulaAccessKey(), JSON.stringify(ids));
  return ids;
}

/** Adds one company to the active spreadsheet's list (the default company stays when no list was stored); false when it was on it. */
export function addFormulaAccess(companyId: string): boolean {
  const current = readFormulaAccess();
  const next = withCompany(current, companyId);
  if (next.length === current.length) return false;
  saveFormulaAccess(next);
  return true;
}
