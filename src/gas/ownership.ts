// Whether the person in the sidebar owns the spreadsheet, as far as Apps Script says; in a Shared Drive, where no one
// does, who connected it.

import type { FileCase } from '../core/settings/shared-drive';
import { connectionForCaller, isOwnerless } from './shared-drive-connection';

import { SCOPE } from '../core/settings/permissions';
import { grantsNow, missingPermissionSentence } from './granted-scopes';

/**
 * The owner's email, or null when Apps Script does not reveal it: getOwner() returns null for a file
 * in a Shared Drive, and an email may be blank across domains or for consumer accounts.
 */
export function spreadsheetOwnerEmail(): string | null {
  return SpreadsheetApp.getActiveSpreadsheet().getOwner()?.getEmail() || null;
}

/**
 * true or false when both emails are known; null when either is blank or null. Only meaningful in
 * the sidebar and menu (FULL authorization): a custom function sees a blank active user.
 */
export function callerIsOwner(missing: readonly string[] = grantsNow().missing): boolean | null {
  // A declined permission (granular consent) makes ownership unknown, never a failure: the email one for the caller,
  // the spreadsheet one for the owner. `missing` is the permissions not granted, when the caller asked already.
  if (missing.includes(SCOPE.userinfoEmail) || missing.includes(SCOPE.spreadsheets)) return null;
  const caller = Session.getActiveUser().getEmail();
  const owner = spreadsheetOwnerEmail();
  if (!caller || !owner) return null;
  return caller.toLowerCase() === owner.toLowerCase();
}

export type { FileCase };

/** Owned by whom, or in a Shared Drive (no owner) and who connected it (gas/shared-drive-connection.ts). */
export function fileCase(): FileCase {
  // Without the spreadsheet permission (granular consent) the file cannot be asked whether it has an owner: unknown,
  // as an owner whose email is hidden, never a failure of the settings.
  const { missing } = grantsNow();
  if (missing.includes(SCOPE.spreadsheets)) return { kind: 'owned', ownerEmail: null, callerIsOwner: null };
  if (isOwnerless()) return { kind: 'shared-drive', connection: connectionForCaller() };
  return { kind: 'owned', ownerEmail: spreadsheetOwnerEmail(), callerIsOwner: callerIsOwner(missing) };
}

/**
 * Whether the list the caller keeps for this spreadsheet is the one formulas read: the owner's; in a Shared Drive
 * the connecting person's (false while no one has connected it). null when Apps Script does not say.
 */
export function callerListCountsForFormulas(found: FileCase = fileCase()): boolean | null {
  if (found.kind === 'owned') return found.callerIsOwner;
  return found.connection.kind === 'connected' && found.connection.verified;
}

/** Why ownership is unknown when the email permission was not granted, and how to grant it; else null. */
export function ownershipPermissionNote(): string | null {
  return missingPermissionSentence('Telling whether you own this spreadsheet (so whose connection its formulas use)', SCOPE.userinfoEmail);
}
