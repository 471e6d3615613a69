// The "Changes" sheet: one row per value a refresh replaced (and per refresh that failed), appended,
// never rewritten, so a restated figure stays visible until someone deletes the row.

import { CHANGES_HEADER, CHANGES_SHEET, changeCells, type ChangeRow } from '../core/snapshots/changes';
import { asSafeRows } from '../core/sheets/cell-safety';

export type { ChangeRow } from '../core/snapshots/changes';

/**
 * The sheet, created on first use with a bold, frozen header. insertSheet makes the new sheet active, and
 * a refresh must not move the person away from where they are working, so the selection is put back.
 */
function changesSheet(book: GoogleAppsScript.Spreadsheet.Spreadsheet): GoogleAppsScript.Spreadsheet.Sheet {
  const existing = book.getSheetByName(CHANGES_SHEET);
  if (existing) return existing;
  const selection = book.getActiveRange();
  const active = book.getActiveSheet();
  const sheet = book.insertSheet(CHANGES_SHEET, book.getNumSheets());
  sheet.getRange(1, 1, 1, CHANGES_HEADER.length).setValues([[...CHANGES_HEADER]]).setFontWeight('bold');
  sheet.setFrozenRows(1);
  if (selection) book.setActiveRange(selection);
  else book.setActiveSheet(active);
  return sheet;
}

/**
 * Appends the rows below the sheet's last row; nothing (not even the sheet) when there are none. Metric names,
 * sources and problems are API or person text: one reading "=…" stays text. Returns the sheet's name, or null.
 * `book` is the active spreadsheet unless a scheduled refresh opened one by id.
 */
export function appendChanges(rows: readonly ChangeRow[], book: GoogleAppsScript.Spreadsheet.Spreadsheet = SpreadsheetApp.getActiveSpreadsheet()): string | null {
  if (rows.length === 0) return null;
  const sheet = changesSheet(book);
  const cells = rows.map((row) => {
    const [time, ...rest] = changeCells(row);
    return [new Date(String(time)), ...rest];
  });
  const first = Math.max(sheet.getLastRow(), 1) + 1;
  if (first + cells.length - 1 > sheet.getMaxRows()) sheet.insertRowsAfter(sheet.getMaxRows(), first + cells.length - 1 - sheet.getMaxRows());
  // The period stays the text it is ("2024-03-01"), as the metric's own label would: not a date Sheets guesses.
  sheet.getRange(first, 3, cells.length, 1).setNumberFormat('@');
  sheet.getRange(first, 1, cells.length, CHANGES_HEADER.length).setValues(asSafeRows(cells));
  sheet.getRange(first, 1, cells.length, 1).setNumberFormat('yyyy-mm-dd hh:mm:ss');
  return sheet.getName();
}
