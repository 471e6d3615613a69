// Dates as the spreadsheet means them: its own time zone, not the script's.

import type { DateFormatter } from '../core/validate/dates';

export function spreadsheetTimeZone(book: GoogleAppsScript.Spreadsheet.Spreadsheet = SpreadsheetApp.getActiveSpreadsheet()): string {
  return book.getSpreadsheetTimeZone();
}

const dayIn = (date: Date, timeZone: string) => Utilities.formatDate(date, timeZone, 'yyyy-MM-dd');

/** True when the instant is the first millisecond of its day in the zone: a date cell's midnight there. */
function startsDay(date: Date, timeZone: string, day: string): boolean {
  return dayIn(new Date(date.getTime() - 1), timeZone) !== day;
}

/** A Date's day in the spreadsheet's zone: how the add-in reads every date cell it reads with getValues. */
export const appsScriptDateFormatter: DateFormatter = (date, timeZone) => dayIn(date, timeZone);

declare const __SCRIPT_TIME_ZONE__: string | undefined;

/**
 * The script's time zone, as the manifest (appsscript.json's timeZone) sets it and the build bakes it in. A custom
 * function may not call Session: "Custom functions can call certain Apps Script services … Cache, HTML, JDBC,
 * Language, Lock, Maps, Properties, Spreadsheet, URL Fetch, Utilities, XML" (custom functions guide). Outside a
 * build (unit tests) it is unknown, and a date is read in the spreadsheet's zone alone.
 */
const SCRIPT_TIME_ZONE: string | null = typeof __SCRIPT_TIME_ZONE__ === 'string' ? __SCRIPT_TIME_ZONE__ : null;

/**
 * A custom function's date argument as the day its cell shows. The reference does not say in which zone Sheets
 * builds the Date a custom function receives for a date cell (docs/platform.md, §5): a Date at midnight in the
 * script's zone but not in the spreadsheet's is read as that day of the script's zone.
 */
export const argumentDateFormatter: DateFormatter = (date, timeZone) => {
  const day = dayIn(date, timeZone);
  if (startsDay(date, timeZone, day)) return day;
  const scriptZone = SCRIPT_TIME_ZONE;
  if (scriptZone === null || scriptZone === timeZone) return day;
  const scriptDay = dayIn(date, scriptZone);
  return startsDay(date, scriptZone, scriptDay) ? scriptDay : day;
};
