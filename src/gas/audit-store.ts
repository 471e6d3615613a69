// Where an audit keeps what its sheet cannot show: the snapshot write-back compares against, and the labels of
// dropdowns over 500 items, on one hidden sheet per audit sheet, named by that sheet's id. Not document
// properties: they hold 9 KB a value and 500 KB in all, and 500 companies × 100 properties of non-ASCII text
// need about 584 KB of snapshot; a sheet holds 50,000 characters a cell and reads back in one getValues.

import { auditSnapshotScope } from '../core/audit/audit-trust';
import { InputError } from '../core/errors';
import { signRecord, type SignatureScope } from '../core/trust/signed-record';
import { ensureSize, insertHiddenSheet } from './own-sheets';
import { writePlainText } from './sheet-io';
import { userHmac } from './user-signing-key';
import { PLAIN_TEXT_FORMAT } from '../core/sheets/cell-safety';
import { formatCount } from '../shared/words';

const STORE_PREFIX = 'Audit store ';
const STAGING_PREFIX = `${STORE_PREFIX}(new) `;
/** Older versions kept the snapshot in document property pieces under this prefix. */
const LEGACY_KEY = 'METRICS_AUDIT_SNAPSHOT';
/** Under a cell's 50,000 characters with room to spare. */
const PIECE = 45_000;
/** "Up to 10 million cells" per spreadsheet (Google Sheets help, "Files you can store in Google Drive"). */
const SPREADSHEET_MAX_CELLS = 10_000_000;
/**
 * Column A: snapshot pieces; B1: how many; B2: the builder's signature of the snapshot (core/audit/audit-trust),
 * without which a push refuses it; C onwards: one column of labels per long dropdown.
 */
const FIRST_LABEL_COLUMN = 3;

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

function spreadsheet(): GoogleAppsScript.Spreadsheet.Spreadsheet {
  return SpreadsheetApp.getActiveSpreadsheet();
}

function storeName(sheetId: number): string {
  return `${STORE_PREFIX}${sheetId}`;
}

/** The current user's signature of `text` as the snapshot of that audit sheet. */
function signSnapshot(auditSheetId: number, text: string): string {
  return signRecord(userHmac(), auditSnapshotScope(spreadsheet().getId(), auditSheetId), text);
}

/** The scope the snapshot of the audit sheet of that name is signed in (a sheet that is gone: one nothing verifies in). */
export function snapshotScope(sheetName: string): SignatureScope {
  return auditSnapshotScope(spreadsheet().getId(), spreadsheet().getSheetByName(sheetName)?.getSheetId() ?? -1);
}

/** Cuts text into pieces a cell holds, never between the two halves of a surrogate pair. */
export function snapshotPieces(text: string): string[] {
  const pieces: string[] = [];
  for (let start = 0; start < text.length; ) {
    let end = Math.min(text.length, start + PIECE);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
    pieces.push(text.slice(start, end));
    start = end;
  }
  return pieces.length > 0 ? pieces : [''];
}

/** A store written before the audit sheet: committed once the sheet is written, else discarded. */
type StagedAuditStore = {
  /** The column of labels a long dropdown reads; null for a property not staged. */
  labelsRange(propertyId: string): GoogleAppsScript.Spreadsheet.Range | null;
  /** Names the store after the written audit sheet, replacing its earlier store, and removes orphans. */
  commit(auditSheet: Sheet): void;
  discard(): void;
};

/**
 * Writes the snapshot and the long dropdowns' labels into a new hidden sheet before the audit sheet is
 * touched: a store that cannot be written fails the build while the earlier audit and its store are whole.
 */
export function stageAuditStore(
  text: string,
  labelLists: ReadonlyArray<{ propertyId: string; labels: readonly string[] }>,
  auditCells: number,
): StagedAuditStore {
  const pieces = snapshotPieces(text);
  const rows = Math.max(pieces.length, ...labelLists.map((list) => list.labels.length + 1), 2);
  const columns = FIRST_LABEL_COLUMN - 1 + labelLists.length;
  const book = spreadsheet();
  const used = book.getSheets().reduce((sum, sheet) => sum + sheet.getMaxRows() * sheet.getMaxColumns(), 0);
  const needed = Math.max(rows, 1000) * Math.max(columns, 26) + auditCells;
  if (used + needed > SPREADSHEET_MAX_CELLS) {
    throw new InputError(
      `The audit needs about ${formatCount(needed)} cells, and this spreadsheet already has ${formatCount(used)} of the 10,000,000 Sheets allows. Remove sheets you no longer need, or audit in a new spreadsheet.`,
    );
  }

  const sheet = insertHiddenSheet(`${STAGING_PREFIX}${Utilities.getUuid()}`, "Kept by Portfolio Metrics: the audit's original values. Edits here break Push.");
  try {
    ensureSize(sheet, rows, columns);
    // Plain text first, so a piece or a label starting with "=" or a digit stays the text it is.
    sheet.getRange(1, 1, sheet.getMaxRows(), columns).setNumberFormat(PLAIN_TEXT_FORMAT);
    writePieces(sheet, pieces, '', 0);
    const ranges = new Map<string, GoogleAppsScript.Spreadsheet.Range>();
    labelLists.forEach((list, index) => {
      const column = FIRST_LABEL_COLUMN + index;
      writePlainText(sheet.getRange(1, column), [[list.propertyId]]);
      const range = writePlainText(
        sheet.getRange(2, column, list.labels.length, 1),
        list.labels.map((label) => [label]),
      );
      ranges.set(list.propertyId, range);
    });
    return {
      labelsRange: (propertyId) => ranges.get(propertyId) ?? null,
      commit(auditSheet) {
        const name = storeName(auditSheet.getSheetId());
        const earlier = book.getSheetByName(name);
        if (earlier) book.deleteSheet(earlier);
        sheet.setName(name);
        // Signed for the sheet it now belongs to (its id was not known while staging).
        writePlainText(sheet.getRange(2, 2), [[signSnapshot(auditSheet.getSheetId(), text)]]);
        removeOrphans(auditSheet.getSheetId());
      },
      discard() {
        book.deleteSheet(sheet);
      },
    };
  } catch (error) {
    book.deleteSheet(sheet);
    throw error;
  }
}

/**
 * Column A from A1, the count in B1 and the signature in B2, in one setValues, so a reader never sees new
 * pieces under an old count or signature.
 */
function writePieces(sheet: Sheet, pieces: readonly string[], signature: string, previous: number): void {
  const rows = Math.max(pieces.length, previous, 2);
  ensureSize(sheet, rows);
  const values = Array.from({ length: rows }, (_, i) => [pieces[i] ?? '', i === 0 ? String(pieces.length) : i === 1 ? signature : '']);
  writePlainText(sheet.getRange(1, 1, rows, 2), values);
}

/** Stores of gone audit sheets or of failed builds, and legacy pieces of this sheet or of gone ones. */
function removeOrphans(currentSheetId: number): void {
  const book = spreadsheet();
  const ids = new Set(book.getSheets().map((sheet) => sheet.getSheetId()));
  for (const sheet of book.getSheets()) {
    const name = sheet.getName();
    if (name.startsWith(STAGING_PREFIX)) {
      book.deleteSheet(sheet);
      continue;
    }
    const id = name.startsWith(STORE_PREFIX) ? Number(name.slice(STORE_PREFIX.length)) : NaN;
    if (Number.isInteger(id) && !ids.has(id)) book.deleteSheet(sheet);
  }
  const props = PropertiesService.getDocumentProperties();
  for (const key of props.getKeys()) {
    const match = new RegExp(`^${LEGACY_KEY}_(\\d+)_`).exec(key);
    if (match && (Number(match[1]) === currentSheetId || !ids.has(Number(match[1])))) props.deleteProperty(key);
  }
}

function storeOf(sheetName: string): { audit: Sheet; store: Sheet | null } | null {
  const audit = spreadsheet().getSheetByName(sheetName);
  return audit ? { audit, store: spreadsheet().getSheetByName(storeName(audit.getSheetId())) } : null;
}

/**
 * Replaces the snapshot of an audit sheet (found by its id, so a renamed sheet keeps it), signed by the current
 * user: only a push that verified the snapshot as theirs saves one.
 */
export function saveSnapshot(sheetName: string, text: string): void {
  const found = storeOf(sheetName);
  if (!found?.store) return;
  const previous = Number(found.store.getRange(1, 2).getValue()) || 0;
  writePieces(found.store, snapshotPieces(text), signSnapshot(found.audit.getSheetId(), text), previous);
}

/** A snapshot as stored, with its signature (null when it has none: a legacy store). */
export type StoredSnapshot = { text: string; signature: string | null };

/** The snapshot of an audit sheet; null when it has none (or its store was damaged). Not verified: see audit-trust. */
export function loadSnapshot(sheetName: string): StoredSnapshot | null {
  const found = storeOf(sheetName);
  if (!found) return null;
  if (!found.store) {
    const legacy = loadLegacySnapshot(found.audit.getSheetId());
    return legacy === null ? null : { text: legacy, signature: null };
  }
  const count = Number(found.store.getRange(1, 2).getValue());
  if (!Number.isInteger(count) || count < 1 || count > found.store.getMaxRows()) return null;
  const text = found.store
    .getRange(1, 1, count, 1)
    .getValues()
    .map((row) => String(row[0]))
    .join('');
  const signature = found.store.getMaxRows() >= 2 ? String(found.store.getRange(2, 2).getValue()) : '';
  return { text, signature: signature || null };
}

/** An audit built by an older version, whose snapshot is in document properties: unsigned, so a push refuses it (build again). */
function loadLegacySnapshot(sheetId: number): string | null {
  const key = `${LEGACY_KEY}_${sheetId}`;
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
