// What the sidebar tells someone who may not own the spreadsheet: whose connection formulas use.

/**
 * null for the owner. A known non-owner learns that formulas use the owner's connection and companies while their
 * own jobs use theirs; when Apps Script does not say who owns the file (Shared Drives, blank emails), it is neutral.
 */
export function sharingNote(isOwner: boolean | null, ownerEmail: string | null): string | null {
  if (isOwner === true) return null;
  if (isOwner === null) {
    return "Formulas in this spreadsheet use the spreadsheet owner's API connection and the companies the owner allowed, whoever opens it.";
  }
  const owner = ownerEmail ? `its owner's (${ownerEmail})` : "its owner's";
  return `Formulas in this spreadsheet use ${owner} API connection and the companies the owner allowed, not yours. Your own exports, imports and pushes use your connection, set here.`;
}

/** Why someone who is not the owner cannot change formula access, and what they can do instead. */
export function formulaAccessRefusal(ownerEmail: string | null): string {
  const owner = ownerEmail ? `its owner (${ownerEmail})` : 'its owner';
  return `Only ${owner} can change which companies formulas in this spreadsheet may read: formulas use the owner's connection and list, so nothing was changed. Ask the owner, or make a copy of the spreadsheet (File › Make a copy) to use your own.`;
}
