// The audit push's conflicts in the audit sheet: a note on each cell that was not pushed because someone
// changed its value on the server, cleared once the cell is overwritten on purpose or takes the server's value.

import { CONFLICT_NOTE_PREFIX, type ConflictGuard } from '../core/audit/conflicts';
import { parseSnapshot, snapshotCells } from '../core/audit/snapshot';
import { InputError } from '../core/errors';
import { loadSnapshot, snapshotScope } from './audit-store';
import { requireSigned } from '../core/trust/signed-record';
import { userHmac } from './user-signing-key';
import { appsScriptDateFormatter, spreadsheetTimeZone } from './spreadsheet-dates';

/** What a step compares the server's values with: the audit's snapshot as stored now (confirmed cells included). */
export function conflictGuard(sheetName: string): ConflictGuard {
  const stored = loadSnapshot(sheetName);
  if (!stored) throw new InputError(`There is no audit in "${sheetName}" to push: build the audit first.`);
  // Read again at each step: a store rewritten since the push verified it is refused, not compared with.
  requireSigned(userHmac(), snapshotScope(sheetName), stored.text, stored.signature, {
    what: `The audit in "${sheetName}"`,
    remedy: 'Build the audit again from your sidebar, then make your edits and push.',
  });
  const cells = snapshotCells(parseSnapshot(stored.text));
  return { keyAtBuild: (profileId, propertyId) => cells.keyOf(profileId, propertyId), timeZone: spreadsheetTimeZone(), formatDate: appsScriptDateFormatter };
}

/**
 * Sets each cell's note (a conflict's) or clears it (null): a note the add-in did not write is left as it is.
 * A note is no value: the push's fingerprint of the sheet's values does not change.
 */
export function markConflictCells(sheetName: string, marks: ReadonlyArray<{ row: number; column: number; note: string | null }>): void {
  const sheet = SpreadsheetApp.getActiveSpreadsheet().getSheetByName(sheetName);
  if (!sheet || marks.length === 0) return;
  for (const { row, column, note } of marks) {
    const range = sheet.getRange(row, column);
    if (note !== null) range.setNote(note);
    else if (range.getNote().startsWith(CONFLICT_NOTE_PREFIX)) range.setNote(null);
  }
}
