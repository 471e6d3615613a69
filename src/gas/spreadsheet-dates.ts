// Dates as the spreadsheet means them: its own time zone, not the script's.

import type { DateFormatter } from '../core/validate/dates';

export function spreadsheetTimeZone(book: GoogleAppsScript.Spreadsheet.Spreadsheet = SpreadsheetApp.getActiveSpreadsheet()): string {
  return book.getSpreadsheetTimeZone();
}

export const appsScriptDateFormatter: DateFormatter = (date, timeZone) => Utilities.formatDate(date, timeZone, 'yyyy-MM-dd');
