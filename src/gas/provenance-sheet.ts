// The "Provenance" sheet: the core's provenance table (each fund model cell's value and source) in a sheet of its own.

import type { SheetCell } from '../core/formulas/metric-formulas';
import { PLAIN_TEXT_FORMAT } from '../core/sheets/cell-safety';
import { writeValues } from './sheet-io';
import { clearedSheet, ensureSize } from './own-sheets';

/** The table's text columns (company, metric, period, source, link): kept as written, so "2024-01" stays a label, not a date. */
const TEXT_COLUMNS = [1, 2, 3, 5, 6];

/** Replaces an earlier provenance in that sheet, never another sheet's data. */
export function writeProvenanceSheet(sheetName: string, table: readonly (readonly SheetCell[])[]): GoogleAppsScript.Spreadsheet.Sheet {
  const sheet = clearedSheet(sheetName);
  const rows = table.length;
  const columns = table[0]!.length;
  ensureSize(sheet, rows, columns);
  for (const column of TEXT_COLUMNS) sheet.getRange(1, column, rows, 1).setNumberFormat(PLAIN_TEXT_FORMAT);
  // Company and metric names, labels and links are API text: written through the one safe writer.
  writeValues(sheet.getRange(1, 1, rows, columns), table);
  sheet.setFrozenRows(1);
  sheet.setFrozenColumns(1);
  sheet.getRange(1, 1, 1, columns).setFontWeight('bold');
  sheet.getRange(1, 1, rows, columns).createFilter();
  sheet.activate();
  return sheet;
}
