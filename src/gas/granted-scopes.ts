// What the person at the keyboard granted of the add-in's permissions, as Apps Script reports it at the moment of
// asking (granular consent: any of them may be declined). Each feature that needs a permission asks here just
// before it acts, and says which permission to grant and how rather than failing in Apps Script's words.

import { PermissionMissingError } from '../core/errors';
import { MANIFEST_SCOPES, permissionSentence } from '../core/settings/permissions';

/** getAuthorizedScopes() is in the reference ("Gets a list of authorized scopes for the script") but not in @types. */
type AuthorizationInfo = GoogleAppsScript.Script.AuthorizationInfo & { getAuthorizedScopes(): string[] | null; getAuthorizationUrl(): string | null };
/** getAuthorizationInfo(authMode, oAuthScopes) is in the reference; @types has only the one-argument form. */
type ScriptAppWithScopes = { getAuthorizationInfo(authMode: GoogleAppsScript.Script.AuthMode, oAuthScopes: string[]): AuthorizationInfo };

export interface Grants {
  /** The manifest's scopes the user has not granted. */
  missing: string[];
  /** Where to grant them (null when nothing is missing, or Apps Script gave no address). */
  authorizationUrl: string | null;
}

/**
 * The manifest's scopes the user has not granted, from getAuthorizationInfo in FULL ("since no other authorization
 * mode requires that users grant authorization", AuthorizationInfo reference). A null list (nothing known) counts as
 * all granted: the calls themselves still refuse, and userSentence names the permission then.
 */
export function grantsNow(): Grants {
  const info = (ScriptApp as unknown as ScriptAppWithScopes).getAuthorizationInfo(ScriptApp.AuthMode.FULL, [...MANIFEST_SCOPES]);
  const authorized = info.getAuthorizedScopes();
  const granted = new Set(authorized ?? MANIFEST_SCOPES);
  const missing = MANIFEST_SCOPES.filter((scope) => !granted.has(scope));
  return { missing, authorizationUrl: missing.length > 0 ? info.getAuthorizationUrl() : null };
}

/** Whether the user granted `scope`. */
export function isGranted(scope: string): boolean {
  return !grantsNow().missing.includes(scope);
}

/** Throws the feature's sentence (PermissionMissingError) when the user has not granted `scope`. */
export function requirePermission(feature: string, scope: string): void {
  const grants = grantsNow();
  if (grants.missing.includes(scope)) throw new PermissionMissingError(permissionSentence(feature, [scope], grants.authorizationUrl), [scope]);
}

/** The feature's sentence when `scope` is not granted, else null: for features that report rather than throw. */
export function missingPermissionSentence(feature: string, scope: string): string | null {
  const grants = grantsNow();
  return grants.missing.includes(scope) ? permissionSentence(feature, [scope], grants.authorizationUrl) : null;
}
