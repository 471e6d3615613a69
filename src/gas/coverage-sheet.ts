// The "Reporting coverage" sheet: the core's coverage table with its formats, in a sheet of its own.

import type { CoverageSheetModel, SheetRange } from '../core/formulas/grid-builder';
import { writeValues } from './sheet-io';
import { clearedSheet, ensureSize } from './own-sheets';

function rangeOf(sheet: GoogleAppsScript.Spreadsheet.Sheet, r: SheetRange): GoogleAppsScript.Spreadsheet.Range {
  return sheet.getRange(r.row, r.column, r.numRows, r.numColumns);
}

/** Replaces an earlier coverage in that sheet, never another sheet's data. */
export function writeCoverageSheet(sheetName: string, model: CoverageSheetModel): GoogleAppsScript.Spreadsheet.Sheet {
  const sheet = clearedSheet(sheetName);
  const rows = model.values.length;
  const columns = model.values[0]!.length;
  ensureSize(sheet, rows, columns);
  // Company and metric names are API text: one reading "=…" stays text.
  writeValues(sheet.getRange(1, 1, rows, columns), model.values);
  sheet.setFrozenRows(model.frozenRows);
  sheet.setFrozenColumns(model.frozenColumns);
  rangeOf(sheet, model.bold).setFontWeight('bold');
  const { range, text, background } = model.blankHighlight;
  sheet.setConditionalFormatRules([
    SpreadsheetApp.newConditionalFormatRule()
      .whenTextEqualTo(text)
      .setBackground(background)
      .setRanges([rangeOf(sheet, range)])
      .build(),
  ]);
  rangeOf(sheet, model.filter).createFilter();
  sheet.activate();
  return sheet;
}
