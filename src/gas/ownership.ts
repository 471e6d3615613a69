// Whether the person in the sidebar owns the spreadsheet, as far as Apps Script says.

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
  const caller = Session.getActiveUser().getEmail();
  const owner = spreadsheetOwnerEmail();
  if (!caller || !owner) return null;
  return caller.toLowerCase() === owner.toLowerCase();
}
