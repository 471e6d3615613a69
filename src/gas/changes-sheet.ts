// The "Changes" sheet: one row per value a refresh replaced (and per refresh that failed), and the "Pushes"
// sheet: one row per value a push sent; both appended, never rewritten, so a row stays visible until someone
// deletes it.

import { CHANGES_HEADER, CHANGES_SHEET, changeCells, type ChangeRow } from '../core/snapshots/changes';
import { timeFormatIn } from '../core/sheets/number-formats';
import { writeValues } from './sheet-io';
import { ensureSize, insertSheetAtEnd } from './own-sheets';
import { PUSHES_HEADER, PUSHES_SHEET, pushLogCells, type PushLogRow } from '../core/jobs/push-log';
import { PLAIN_TEXT_FORMAT } from '../core/sheets/cell-safety';
import { JOURNAL_SHEET } from './journal-sheet';
import { SCOPE } from '../core/settings/permissions';
import { isGranted } from './granted-scopes';

type Book = GoogleAppsScript.Spreadsheet.Spreadsheet;

/** Pixels for a log's time column: about 36 characters of Arial 10. */
export const TIME_COLUMN_WIDTH = 260;

/**
 * Appends the rows, creating the sheet on first use; nothing when there are none. Metric names, sources and
 * problems are API or person text: one reading "=…" stays text. Returns the sheet's name, or null.
 */
export function appendChanges(rows: readonly ChangeRow[], book: Book = SpreadsheetApp.getActiveSpreadsheet()): string | null {
  // The period stays the text it is ("2024-03-01"), as the metric's own label would: not a date Sheets guesses.
  return appendLogRows(book, CHANGES_SHEET, CHANGES_HEADER, rows.map(changeCells), [3]);
}

/**
 * Appends rows to the Pushes sheet (core/jobs/push-log.ts), each with the active user's email. Values are shown
 * whole; one longer than a cell holds shows its beginning and says that the journal (gas/journal-sheet) has it.
 */
export function appendPushLog(rows: ReadonlyArray<Omit<PushLogRow, 'who'>>, book: Book = SpreadsheetApp.getActiveSpreadsheet()): string | null {
  if (rows.length === 0) return null;
  // Blank when Google hides it (another domain's user, a consumer account): said so, not guessed.
  // Also blank when the person did not grant the email permission (granular consent): the push itself went.
  const who = isGranted(SCOPE.userinfoEmail) ? Session.getActiveUser().getEmail() : '';
  // The period and the values stay the text they are: not dates or numbers Sheets guesses.
  return appendLogRows(
    book,
    PUSHES_SHEET,
    PUSHES_HEADER,
    rows.map((row) => pushLogCells({ ...row, who }, JOURNAL_SHEET)),
    [5, 6, 7],
  );
}

/** Brings the Pushes sheet to the front; the sentence says where it is, or that nothing was pushed yet. */
export function showPushLog(book: Book = SpreadsheetApp.getActiveSpreadsheet()): string {
  const sheet = book.getSheetByName(PUSHES_SHEET);
  if (!sheet) return `Nothing has been pushed from this spreadsheet yet: the "${PUSHES_SHEET}" sheet appears with the first export, audit push or import.`;
  sheet.activate();
  return `The "${PUSHES_SHEET}" sheet lists every value pushed from this spreadsheet: ${Math.max(0, sheet.getLastRow() - 1)} so far.`;
}

/**
 * One mechanism for the add-in's logs: the header on first use, then rows appended below the last, never
 * rewritten; column 1 is the time, `textColumns` (1-based) are kept as text.
 */
function appendLogRows(
  book: Book,
  name: string,
  header: readonly string[],
  cells: ReadonlyArray<ReadonlyArray<Date | string | number | null>>,
  textColumns: readonly number[],
): string | null {
  if (cells.length === 0) return null;
  let sheet = book.getSheetByName(name);
  if (!sheet) {
    sheet = insertSheetAtEnd(book, name);
    writeValues(sheet.getRange(1, 1, 1, header.length), [[...header]]).setFontWeight('bold');
    sheet.setFrozenRows(1);
    // A time with its zone ("2024-03-01 10:00:00 America/Los_Angeles") is wider than a default column (100 px):
    // room for it, so the zone shows rather than being cut off or turned into ###.
    sheet.setColumnWidth(1, TIME_COLUMN_WIDTH);
  }
  const first = Math.max(sheet.getLastRow(), 1) + 1;
  const last = first + cells.length - 1;
  ensureSize(sheet, last);
  // Text columns (a period such as "2024-03-01") stay the text they are, not a date Sheets guesses.
  for (const column of textColumns) sheet.getRange(first, column, cells.length, 1).setNumberFormat(PLAIN_TEXT_FORMAT);
  writeValues(sheet.getRange(first, 1, cells.length, header.length), cells);
  // The rows' times are wall-clock in the spreadsheet's zone now; the format names it, so they read true after it changes.
  sheet.getRange(first, 1, cells.length, 1).setNumberFormat(timeFormatIn(book.getSpreadsheetTimeZone()));
  return sheet.getName();
}
