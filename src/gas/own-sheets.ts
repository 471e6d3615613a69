// The sheets the add-in makes for itself (audit, coverage, Changes, its hidden stores): created, grown and
// cleared one way wherever they are written.

type Book = GoogleAppsScript.Spreadsheet.Spreadsheet;
type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

/** A new last sheet. insertSheet makes it active, and a refresh must not move the person away from where they work. */
export function insertSheetAtEnd(book: Book, name: string): Sheet {
  const selection = book.getActiveRange();
  const active = book.getActiveSheet();
  const sheet = book.insertSheet(name, book.getNumSheets());
  if (selection) book.setActiveRange(selection);
  else book.setActiveSheet(active);
  return sheet;
}

/** A new sheet at the end, hidden and warning-only protected with `description`, which says what it keeps. */
export function insertHiddenSheet(name: string, description: string): Sheet {
  const book = SpreadsheetApp.getActiveSpreadsheet();
  const sheet = book.insertSheet(name, book.getNumSheets());
  try {
    sheet.hideSheet();
    sheet.protect().setDescription(description).setWarningOnly(true);
  } catch (error) {
    book.deleteSheet(sheet);
    throw error;
  }
  return sheet;
}

/**
 * The sheet of that name, emptied for writing again (filter, conditional formats, values, formats, dropdowns,
 * hidden rows and columns), or a new one: a report the add-in rewrites replaces its own earlier version only.
 */
export function clearedSheet(name: string): Sheet {
  const book = SpreadsheetApp.getActiveSpreadsheet();
  const existing = book.getSheetByName(name);
  if (!existing) return book.insertSheet(name);
  existing.getFilter()?.remove();
  existing.setConditionalFormatRules([]);
  existing.clear();
  existing.getRange(1, 1, existing.getMaxRows(), existing.getMaxColumns()).clearDataValidations();
  existing.showRows(1, existing.getMaxRows());
  existing.showColumns(1, existing.getMaxColumns());
  return existing;
}

/** Adds rows and columns at the end until the sheet has at least `rows` × `columns`. */
export function ensureSize(sheet: Sheet, rows: number, columns = 1): void {
  if (rows > sheet.getMaxRows()) sheet.insertRowsAfter(sheet.getMaxRows(), rows - sheet.getMaxRows());
  if (columns > sheet.getMaxColumns()) sheet.insertColumnsAfter(sheet.getMaxColumns(), columns - sheet.getMaxColumns());
}
