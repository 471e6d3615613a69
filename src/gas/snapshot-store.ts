// Where snapshots keep their definitions: a hidden sheet, one row per snapshot. Not developer metadata:
// Google attaches it to "rows, columns, sheets, or a spreadsheet" (developers.google.com/sheets/api/guides/metadata),
// not to a range, and the runtime does not model it. Not document properties: "9 kB / val" holds the
// fingerprints of about 900 cells. A cell holds 50,000 characters, a row as many cells as needed, and the
// sheet travels with File › Make a copy.
//
// Every editor can change that sheet, hidden or not, so each row is signed with the key of the user who wrote
// it (core/trust): a row reads back as `verified` only for that user, unchanged, in this spreadsheet. A row
// of the first layout (no signature) never verifies.

import { InputError } from '../core/errors';
import { ADDIN_NAME } from '../core/product';
import { decodeDefinition, type SnapshotRecord } from '../core/snapshots/snapshot';
import { signedByAnother, signRecord, verifyRecord, type Hmac, type SignatureScope } from '../core/trust/signed-record';
import { ensureSize, insertSheetAtEnd } from './own-sheets';
import { writePlainText, writeValues } from './sheet-io';
import { userHmac } from './user-signing-key';

const SNAPSHOT_SHEET = `${ADDIN_NAME} snapshots`;
const HEADER = ['Snapshot id', 'Definition', 'Signature', 'Cells last written (fingerprints)'];
/** Columns before the fingerprint chunks. */
const FIXED = 3;
/** A fingerprint chunk per cell, under the 50,000 characters a cell holds. */
const CHUNK = 49_000;

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;
type Book = GoogleAppsScript.Spreadsheet.Spreadsheet;

/** A stored snapshot, and whether the current user signed it as it reads now (else it is a request, not a definition). */
export interface StoredSnapshot extends SnapshotRecord {
  verified: boolean;
  /** Unverified, and its signature names another user: most likely their own snapshot (a claim, for words only). */
  signedByAnother: boolean;
}

function scopeOf(book: Book): SignatureScope {
  return { purpose: 'snapshot', spreadsheetId: book.getId() };
}

/** The signed text: the definition cell as stored and the fingerprints, which decide what a refresh may overwrite. */
function signedText(definitionCell: string, cells: string): string {
  return JSON.stringify([definitionCell, cells]);
}

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
  writeValues(sheet.getRange(1, 1, 1, HEADER.length), [HEADER]);
  sheet.hideSheet();
  return sheet;
}

/** A sheet of the first layout gets this one's header when a row is written (its old rows stay unverified). */
function ensureHeader(sheet: Sheet): void {
  const header = sheet.getRange(1, 1, 1, HEADER.length);
  if (header.getValues()[0]!.some((cell, i) => cell !== HEADER[i])) writeValues(header, [HEADER]);
}

/** A row a person damaged is skipped, not fatal to every other snapshot. */
function readRows(
  sheet: Sheet,
  verify: (text: string, signature: unknown) => boolean,
  another: (signature: unknown) => boolean = () => false,
): Array<{ row: number; record: StoredSnapshot }> {
  const last = sheet.getLastRow();
  if (last < 2) return [];
  return sheet
    .getRange(2, 1, last - 1, Math.max(sheet.getLastColumn(), FIXED + 1))
    .getValues()
    .flatMap((cells, i) => {
      const definition = decodeDefinition(cells[1]);
      if (!definition || definition.id !== cells[0]) return [];
      const fingerprints = cells
        .slice(FIXED)
        .map((c) => String(c ?? ''))
        .join('');
      const verified = verify(signedText(String(cells[1]), fingerprints), cells[2]);
      return [{ row: i + 2, record: { definition, cells: fingerprints, verified, signedByAnother: !verified && another(cells[2]) } }];
    });
}

/**
 * The spreadsheet's snapshots in row order, each `verified` or not for the current user. Two rows with one id
 * are both unverified: an editor may have copied an older signed row beside the current one.
 */
export function readSnapshots(book: Book = SpreadsheetApp.getActiveSpreadsheet(), hmac: Hmac = userHmac()): StoredSnapshot[] {
  const sheet = storeSheet(false, book);
  if (!sheet) return [];
  const scope = scopeOf(book);
  const records = readRows(
    sheet,
    (text, signature) => verifyRecord(hmac, scope, text, signature),
    (signature) => signedByAnother(hmac, signature),
  ).map((r) => r.record);
  const count = new Map<string, number>();
  for (const r of records) count.set(r.definition.id, (count.get(r.definition.id) ?? 0) + 1);
  return records.map((r) => (count.get(r.definition.id)! > 1 ? { ...r, verified: false, signedByAnother: false } : r));
}

/** Whether a block of a sheet (1-based, inclusive) overlaps a snapshot table on it: values inserted from the API. */
export function overlapsSnapshot(
  sheetName: string,
  block: { row: number; column: number; lastRow: number; lastColumn: number },
  book: Book = SpreadsheetApp.getActiveSpreadsheet(),
): boolean {
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

/**
 * Adds the snapshot's row, or rewrites it (found by id), signed by the current user; leftover chunk cells of
 * a larger record are cleared.
 */
export function saveSnapshot(record: SnapshotRecord, book: Book = SpreadsheetApp.getActiveSpreadsheet(), hmac: Hmac = userHmac()): void {
  const sheet = storeSheet(true, book)!;
  ensureHeader(sheet);
  const found = readRows(sheet, () => false).find((r) => r.record.definition.id === record.definition.id);
  const row = found?.row ?? Math.max(sheet.getLastRow(), 1) + 1;
  const definitionCell = JSON.stringify(record.definition);
  const signature = signRecord(hmac, scopeOf(book), signedText(definitionCell, record.cells));
  const cells = [record.definition.id, definitionCell, signature, ...chunks(record.cells)];
  ensureSize(sheet, row, cells.length);
  const width = Math.max(sheet.getLastColumn(), cells.length);
  const padded = Array.from({ length: width }, (_, i) => cells[i] ?? '');
  // Plain text: a definition or fingerprint must never be read as a number, date or formula.
  writePlainText(sheet.getRange(row, 1, 1, width), [padded]);
}
