// The audit sheet in the spreadsheet, laid out as the core's model says (its snapshot: audit-store.ts).

import type { AuditSheetModel, GridRange } from '../core/audit';
import type { AuditCell } from '../core/audit/types';
import { AUDIT_FUND_KEY } from '../core/audit/layout';
import { clearedSheet, ensureSize } from './own-sheets';
import { settleDateFormats, writeValues } from './sheet-io';

function rangeOf(sheet: GoogleAppsScript.Spreadsheet.Sheet, grid: GridRange): GoogleAppsScript.Spreadsheet.Range {
  return sheet.getRange(grid.row, grid.column, grid.numRows, grid.numColumns);
}

/**
 * Writes the model into a sheet of its own, replacing an earlier audit there (never another sheet's data).
 * `labelsRange` gives the column a dropdown over 500 labels reads (the staged store's).
 */
export function writeAuditSheet(
  sheetName: string,
  model: AuditSheetModel,
  labelsRange: (propertyId: string) => GoogleAppsScript.Spreadsheet.Range | null,
): GoogleAppsScript.Spreadsheet.Sheet {
  const sheet = clearedSheet(sheetName);
  const { layout, formatting } = model.summary;
  ensureSize(sheet, layout.rows, layout.columns);

  // Formats first: see AuditFormatting.numberFormats.
  for (const { range, format } of formatting.numberFormats) rangeOf(sheet, range).setNumberFormat(format);
  writeValues(sheet.getRange(1, 1, layout.rows, layout.columns), model.values);
  for (const range of formatting.dateColumns ?? []) {
    const written = model.values
      .slice(range.row - 1, range.row - 1 + range.numRows)
      .map((row) => row.slice(range.column - 1, range.column - 1 + range.numColumns));
    settleDateFormats(rangeOf(sheet, range), written);
  }
  // The fund in developer metadata, shown in no cell; clear() leaves an earlier build's, so it is replaced.
  for (const entry of sheet.getDeveloperMetadata()) if (entry.getKey() === AUDIT_FUND_KEY) entry.remove();
  sheet.addDeveloperMetadata(AUDIT_FUND_KEY, model.snapshot.companyId);
  for (const row of formatting.hiddenRows) sheet.hideRows(row);
  for (const column of formatting.hiddenColumns) sheet.hideColumns(column);
  sheet.setFrozenRows(formatting.frozenRows);
  sheet.setFrozenColumns(formatting.frozenColumns);
  for (const range of formatting.bold) rangeOf(sheet, range).setFontWeight('bold');
  for (const validation of formatting.validations) {
    const builder = SpreadsheetApp.newDataValidation();
    let rule: GoogleAppsScript.Spreadsheet.DataValidation;
    if (validation.kind === 'checkbox') {
      rule = builder.requireCheckbox().build();
    } else {
      const source = validation.kind === 'listFromRange' ? labelsRange(validation.propertyId) : null;
      if (validation.kind === 'listFromRange' && !source) throw new Error(`No labels were stored for the dropdown of ${validation.propertyId}.`);
      const criteria = source ? builder.requireValueInRange(source, true) : builder.requireValueInList(validation.labels, true);
      rule = criteria.setAllowInvalid(validation.allowInvalid).setHelpText(validation.helpText).build();
    }
    rangeOf(sheet, validation.range).setDataValidation(rule);
  }
  for (const range of formatting.readOnly.ranges) rangeOf(sheet, range).setBackground(formatting.readOnly.background);
  if (formatting.blankHighlight) {
    const rule = SpreadsheetApp.newConditionalFormatRule()
      .whenCellEmpty()
      .setBackground(formatting.blankHighlight.background)
      .setRanges([rangeOf(sheet, formatting.blankHighlight.range)])
      .build();
    sheet.setConditionalFormatRules([rule]);
  }
  rangeOf(sheet, formatting.filter).createFilter();
  // Opened on the first company's name: A1, where a new sheet's selection starts, is the hidden id row's marker.
  sheet.getRange(layout.headerRow + 1, layout.nameColumn).activate();
  return sheet;
}

/**
 * The fund the audit sheet's developer metadata names; null when it names none (a sheet built before the fund
 * moved there keeps it in its marker cell) or several that differ, which no build writes.
 */
export function auditSheetFund(sheetName: string): string | null {
  const sheet = SpreadsheetApp.getActiveSpreadsheet().getSheetByName(sheetName);
  const funds = new Set((sheet?.getDeveloperMetadata() ?? []).filter((entry) => entry.getKey() === AUDIT_FUND_KEY).map((entry) => entry.getValue() ?? ''));
  return funds.size === 1 ? [...funds][0]! : null;
}

export function readSheetValues(sheetName: string): unknown[][] | null {
  const sheet = SpreadsheetApp.getActiveSpreadsheet().getSheetByName(sheetName);
  return sheet ? sheet.getDataRange().getValues() : null;
}

/** Writes cells of the audit sheet one by one, each as writeValues writes (the column's format decides text). */
export function writeAuditCells(sheetName: string, cells: ReadonlyArray<{ row: number; column: number; value: AuditCell }>): void {
  const sheet = SpreadsheetApp.getActiveSpreadsheet().getSheetByName(sheetName);
  if (!sheet) return;
  for (const cell of cells) writeValues(sheet.getRange(cell.row, cell.column), [[cell.value]]);
}
