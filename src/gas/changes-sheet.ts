// The "Changes" sheet: one row per value a refresh replaced (and per refresh that failed), appended,
// never rewritten, so a restated figure stays visible until someone deletes the row.

import { CHANGES_HEADER, CHANGES_SHEET, changeCells, type ChangeRow } from '../core/snapshots/changes';
import { writeValues } from './sheet-io';
import { ensureSize, insertSheetAtEnd } from './own-sheets';

type Book = GoogleAppsScript.Spreadsheet.Spreadsheet;

/**
 * Appends the rows, creating the sheet on first use; nothing when there are none. Metric names, sources and
 * problems are API or person text: one reading "=…" stays text. Returns the sheet's name, or null.
 */
export function appendChanges(rows: readonly ChangeRow[], book: Book = SpreadsheetApp.getActiveSpreadsheet()): string | null {
  if (rows.length === 0) return null;
  let sheet = book.getSheetByName(CHANGES_SHEET);
  if (!sheet) {
    sheet = insertSheetAtEnd(book, CHANGES_SHEET);
    writeValues(sheet.getRange(1, 1, 1, CHANGES_HEADER.length), [CHANGES_HEADER]).setFontWeight('bold');
    sheet.setFrozenRows(1);
  }
  const first = Math.max(sheet.getLastRow(), 1) + 1;
  const last = first + rows.length - 1;
  ensureSize(sheet, last);
  // The period stays the text it is ("2024-03-01"), as the metric's own label would: not a date Sheets guesses.
  sheet.getRange(first, 3, rows.length, 1).setNumberFormat('@');
  writeValues(sheet.getRange(first, 1, rows.length, CHANGES_HEADER.length), rows.map(changeCells));
  sheet.getRange(first, 1, rows.length, 1).setNumberFormat('yyyy-mm-dd hh:mm:ss');
  return sheet.getName();
}
