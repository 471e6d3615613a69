// Whether the person in the sidebar owns the spreadsheet, as far as Apps Script says.

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
export function callerIsOwner(): boolean | null {
  // A declined permission (granular consent) makes ownership unknown, never a failure: the email one for the caller,
  // the spreadsheet one for the owner.
  const { missing } = grantsNow();
  if (missing.includes(SCOPE.userinfoEmail) || missing.includes(SCOPE.spreadsheets)) return null;
  const caller = Session.getActiveUser().getEmail();
  const owner = spreadsheetOwnerEmail();
  if (!caller || !owner) return null;
  return caller.toLowerCase() === owner.toLowerCase();
}

/** Why ownership is unknown when the email permission was not granted, and how to grant it; else null. */
export function ownershipPermissionNote(): string | null {
  return missingPermissionSentence('Telling whether you own this spreadsheet (so whose connection its formulas use)', SCOPE.userinfoEmail);
}
