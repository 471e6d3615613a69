// Where snapshots keep their definitions: a hidden sheet, one row per snapshot. Not developer metadata:
// Google attaches it to "rows, columns, sheets, or a spreadsheet" (developers.google.com/sheets/api/guides/metadata),
// not to a range, and the runtime does not model it. Not document properties: "9 kB / val" holds the
// fingerprints of about 900 cells. A cell holds 50,000 characters, a row as many cells as needed, and the
// sheet travels with File › Make a copy.

import { InputError } from '../core/errors';
import { ADDIN_NAME } from '../core/product';
import { decodeDefinition, type SnapshotRecord } from '../core/snapshots/snapshot';
import { ensureSize, insertSheetAtEnd } from './own-sheets';

const SNAPSHOT_SHEET = `${ADDIN_NAME} snapshots`;
const HEADER = ['Snapshot id', 'Definition', 'Cells last written (fingerprints)'];
/** A fingerprint chunk per cell, under the 50,000 characters a cell holds. */
const CHUNK = 49_000;

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;
type Book = GoogleAppsScript.Spreadsheet.Spreadsheet;

function storeSheet(create: boolean, book: Book): Sheet | null {
  const existing = book.getSheetByName(SNAPSHOT_SHEET);
  if (existing) {
    if (existing.getRange(1, 1).getValue() !== HEADER[0]) {
      throw new InputError(`The sheet "${SNAPSHOT_SHEET}" is not ${ADDIN_NAME}'s record of snapshots. Rename it, then try again.`);
    }
    return existing;
  }
  if (!create) return null;
  const sheet = insertSheetAtEnd(book, SNAPSHOT_SHEET);
  sheet.getRange(1, 1, 1, HEADER.length).setValues([HEADER]);
  sheet.hideSheet();
  return sheet;
}

/** A row a person damaged is skipped, not fatal to every other snapshot. */
function readRows(sheet: Sheet): Array<{ row: number; record: SnapshotRecord }> {
  const last = sheet.getLastRow();
  if (last < 2) return [];
  return sheet.getRange(2, 1, last - 1, Math.max(sheet.getLastColumn(), 3)).getValues().flatMap((cells, i) => {
    const definition = decodeDefinition(cells[1]);
    if (!definition || definition.id !== cells[0]) return [];
    return [{ row: i + 2, record: { definition, cells: cells.slice(2).map((c) => String(c ?? '')).join('') } }];
  });
}

export function readSnapshots(book: Book = SpreadsheetApp.getActiveSpreadsheet()): SnapshotRecord[] {
  const sheet = storeSheet(false, book);
  return sheet ? readRows(sheet).map((r) => r.record) : [];
}

/** Whether a block of a sheet (1-based, inclusive) overlaps a snapshot table on it: values inserted from the API. */
export function overlapsSnapshot(sheetName: string, block: { row: number; column: number; lastRow: number; lastColumn: number }, book: Book = SpreadsheetApp.getActiveSpreadsheet()): boolean {
  const sheet = book.getSheetByName(sheetName);
  if (!sheet) return false;
  return readSnapshots(book).some(({ definition }) => {
    if (definition.sheetId !== sheet.getSheetId()) return false;
    const table = sheet.getRange(definition.range);
    return table.getRow() <= block.lastRow && block.row <= table.getLastRow() && table.getColumn() <= block.lastColumn && block.column <= table.getLastColumn();
  });
}

function chunks(text: string): string[] {
  const parts: string[] = [];
  for (let i = 0; i < text.length; i += CHUNK) parts.push(text.slice(i, i + CHUNK));
  return parts.length ? parts : [''];
}

/** Adds the snapshot's row, or rewrites it (found by id); leftover chunk cells of a larger record are cleared. */
export function saveSnapshot(record: SnapshotRecord, book: Book = SpreadsheetApp.getActiveSpreadsheet()): void {
  const sheet = storeSheet(true, book)!;
  const found = readRows(sheet).find((r) => r.record.definition.id === record.definition.id);
  const row = found?.row ?? Math.max(sheet.getLastRow(), 1) + 1;
  const cells = [record.definition.id, JSON.stringify(record.definition), ...chunks(record.cells)];
  ensureSize(sheet, row, cells.length);
  const width = Math.max(sheet.getLastColumn(), cells.length);
  const padded = Array.from({ length: width }, (_, i) => cells[i] ?? '');
  // Plain text: a definition or fingerprint must never be read as a number, date or formula.
  sheet.getRange(row, 1, 1, width).setNumberFormat('@').setValues([padded]);
}
