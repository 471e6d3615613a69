// The "Refresh data" menu item: every add-in formula in the spreadsheet fetches fresh values.

import { findAddinFormulas } from '../core/formulas/names';
import { startNewCacheGeneration } from '../gas/document-settings';

/**
 * Sheets re-runs a custom function only when its arguments change, and our cache would answer
 * it anyway. So: start a new cache generation (every cache key includes it, so nothing cached
 * before counts), then clear and rewrite each add-in formula, which makes Sheets run it again.
 */
export function refreshAllFormulas(): number {
  startNewCacheGeneration();
  const spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
  const pending: Array<{ range: GoogleAppsScript.Spreadsheet.Range; formula: string }> = [];
  for (const sheet of spreadsheet.getSheets()) {
    const data = sheet.getDataRange();
    for (const cell of findAddinFormulas(data.getFormulas())) {
      pending.push({ range: sheet.getRange(data.getRow() + cell.row - 1, data.getColumn() + cell.column - 1), formula: cell.formula });
    }
  }
  for (const { range } of pending) range.clearContent();
  SpreadsheetApp.flush();
  for (const { range, formula } of pending) range.setFormula(formula);
  SpreadsheetApp.flush();
  return pending.length;
}
