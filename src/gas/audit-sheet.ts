// The audit sheet in the spreadsheet: laid out as the core's model says, and its snapshot kept in
// document properties (in pieces under the 9 KB a value may hold).

import type { AuditSheetModel, GridRange } from '../core/audit';

const SNAPSHOT_KEY = 'METRICS_AUDIT_SNAPSHOT';
const PIECE = 8000;

function spreadsheet(): GoogleAppsScript.Spreadsheet.Spreadsheet {
  return SpreadsheetApp.getActiveSpreadsheet();
}

function rangeOf(sheet: GoogleAppsScript.Spreadsheet.Sheet, grid: GridRange): GoogleAppsScript.Spreadsheet.Range {
  return sheet.getRange(grid.row, grid.column, grid.numRows, grid.numColumns);
}

/** Writes the model into a sheet of its own, replacing an earlier audit there (never another sheet's data). */
export function writeAuditSheet(sheetName: string, model: AuditSheetModel): GoogleAppsScript.Spreadsheet.Sheet {
  const existing = spreadsheet().getSheetByName(sheetName);
  const sheet = existing ?? spreadsheet().insertSheet(sheetName);
  if (existing) {
    existing.getFilter()?.remove();
    existing.setConditionalFormatRules([]);
    existing.clear();
    existing.getRange(1, 1, existing.getMaxRows(), existing.getMaxColumns()).clearDataValidations();
    existing.showRows(1, existing.getMaxRows());
    existing.showColumns(1, existing.getMaxColumns());
  }
  const { layout, formatting } = model.summary;
  const missingRows = layout.rows - sheet.getMaxRows();
  if (missingRows > 0) sheet.insertRowsAfter(sheet.getMaxRows(), missingRows);
  const missingColumns = layout.columns - sheet.getMaxColumns();
  if (missingColumns > 0) sheet.insertColumnsAfter(sheet.getMaxColumns(), missingColumns);

  // Formats first: plain text keeps API text such as "=IMPORTXML(…)" or "2024-01-01" as text.
  for (const { range, format } of formatting.numberFormats) rangeOf(sheet, range).setNumberFormat(format);
  sheet.getRange(1, 1, layout.rows, layout.columns).setValues(model.values as unknown[][]);
  for (const row of formatting.hiddenRows) sheet.hideRows(row);
  for (const column of formatting.hiddenColumns) sheet.hideColumns(column);
  sheet.setFrozenRows(formatting.frozenRows);
  sheet.setFrozenColumns(formatting.frozenColumns);
  for (const range of formatting.bold) rangeOf(sheet, range).setFontWeight('bold');
  for (const validation of formatting.validations) {
    const builder = SpreadsheetApp.newDataValidation();
    const rule = validation.kind === 'list'
      ? builder.requireValueInList(validation.labels, true).setAllowInvalid(validation.allowInvalid).setHelpText(validation.helpText).build()
      : builder.requireCheckbox().build();
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
  sheet.activate();
  return sheet;
}

export function readSheetValues(sheetName: string): unknown[][] | null {
  const sheet = spreadsheet().getSheetByName(sheetName);
  return sheet ? sheet.getDataRange().getValues() : null;
}

/** The snapshot of an audit sheet, by the sheet's id (a rename keeps it). */
export function saveSnapshot(sheetName: string, text: string): void {
  const sheet = spreadsheet().getSheetByName(sheetName);
  if (!sheet) return;
  const key = `${SNAPSHOT_KEY}_${sheet.getSheetId()}`;
  const props = PropertiesService.getDocumentProperties();
  const old = Number(props.getProperty(`${key}_n`) ?? '0');
  const pieces: Record<string, string> = {};
  let n = 0;
  for (let i = 0; i < text.length; i += PIECE, n++) pieces[`${key}_${n}`] = text.slice(i, i + PIECE);
  pieces[`${key}_n`] = String(n);
  props.setProperties(pieces);
  for (let i = n; i < old; i++) props.deleteProperty(`${key}_${i}`);
}

export function loadSnapshot(sheetName: string): string | null {
  const sheet = spreadsheet().getSheetByName(sheetName);
  if (!sheet) return null;
  const key = `${SNAPSHOT_KEY}_${sheet.getSheetId()}`;
  const props = PropertiesService.getDocumentProperties().getProperties();
  const n = Number(props[`${key}_n`] ?? 'NaN');
  if (!Number.isInteger(n)) return null;
  const parts: string[] = [];
  for (let i = 0; i < n; i++) {
    const part = props[`${key}_${i}`];
    if (part === undefined) return null;
    parts.push(part);
  }
  return parts.join('');
}
