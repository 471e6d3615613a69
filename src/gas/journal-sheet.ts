// Where pushes keep their journals (core/journal): a hidden sheet of the spreadsheet, one row per record (what
// one step of one push settled), appended and never rewritten. Not the user's properties: a 10,000-value export
// must not fill the 500 KB store, and the journal travels with the spreadsheet it describes. A record's JSON is
// cut into cells of at most CHUNK characters (a cell holds 50,000), so no value is ever cut.
//
// Every editor can change that sheet, hidden or not, so each row is signed with the key of the user who wrote it
// (core/trust, purpose "journal", as snapshot-store signs its rows): a row reads back only for that user,
// unchanged, in this spreadsheet. Another user's rows are theirs (not counted); a row of this user's that does
// not verify is counted as altered and ignored.

import { ADDIN_NAME } from '../core/product';
import { packEntries, parseRecord, splitText, type JournalEntry, type JournalRecord, type PlacedRecord } from '../core/journal/journal';
import { signedByAnother, signRecord, verifyRecord, type Hmac, type SignatureScope } from '../core/trust/signed-record';
import { InputError } from '../core/errors';
import { ensureSize, insertSheetAtEnd } from './own-sheets';
import { writePlainText } from './sheet-io';
import { userHmac } from './user-signing-key';

export const JOURNAL_SHEET = `${ADDIN_NAME} journal`;
const HEADER = ['Push', 'Kind', 'Time', 'Part', 'Signature', 'Record (JSON, continued across the cells to its right)'];
/** Columns before the record's chunks. */
const FIXED = 5;
/** One cell's share of a record, under the 50,000 characters a cell holds. */
const CHUNK = 49_000;
/** A record's entries are packed up to about this much JSON, so one row stays a few dozen cells wide. */
const RECORD_CHARS = 20 * CHUNK;
const LOCK_WAIT_MS = 10_000;

type Book = GoogleAppsScript.Spreadsheet.Spreadsheet;
type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

function scopeOf(book: Book): SignatureScope {
  return { purpose: 'journal', spreadsheetId: book.getId() };
}

function journalSheet(book: Book, create: boolean): Sheet | null {
  const existing = book.getSheetByName(JOURNAL_SHEET);
  if (existing) {
    if (existing.getRange(1, 1).getValue() !== HEADER[0])
      throw new InputError(`The sheet "${JOURNAL_SHEET}" is not ${ADDIN_NAME}'s journal of pushes. Rename it, then try again.`);
    return existing;
  }
  if (!create) return null;
  // Made without moving the person's selection (insertSheet activates the new sheet): the next export reads it.
  const sheet = insertSheetAtEnd(book, JOURNAL_SHEET);
  sheet.hideSheet();
  sheet.protect().setDescription(`${ADDIN_NAME}: what each push wrote and replaced, signed, for Undo. Edited rows are ignored.`).setWarningOnly(true);
  writePlainText(sheet.getRange(1, 1, 1, HEADER.length), [HEADER]);
  return sheet;
}

/**
 * Two executions appending at once must not write the same row: the document's lock, where there is one. Not
 * had in time, the record is appended all the same: a step's writes are made, and a journal without them would
 * restore nothing of them, while a record overwritten by another leaves a gap that Undo reports (incomplete).
 */
function underLock<T>(work: () => T): T {
  const lock = LockService.getDocumentLock();
  if (!lock?.tryLock(LOCK_WAIT_MS)) return work();
  try {
    return work();
  } finally {
    lock.releaseLock();
  }
}

/**
 * Appends one step's entries to push `push`'s journal, signed by the current user, in as many records as their
 * size needs. `entries` may be empty for a record that only marks a start (an undo's). Nothing else is read.
 */
export function appendJournal(
  head: Omit<JournalRecord, 'v' | 'seq' | 'entries' | 'time'>,
  entries: readonly JournalEntry[],
  book: Book = SpreadsheetApp.getActiveSpreadsheet(),
  hmac: Hmac = userHmac(),
): void {
  const packs = entries.length > 0 ? packEntries(entries, RECORD_CHARS) : [[]];
  underLock(() => {
    const sheet = journalSheet(book, true)!;
    const last = sheet.getLastRow();
    // The part numbers continue the push's: one missing on reading is a row someone removed or altered.
    const pushes =
      last < 2
        ? []
        : sheet
            .getRange(2, 1, last - 1, 1)
            .getValues()
            .map((row) => String(row[0]));
    const seq = pushes.filter((id) => id === head.push).length;
    const time = new Date().toISOString();
    const rows = packs.map((pack, index) => {
      const record: JournalRecord = { v: 1, ...head, time, seq: seq + index, entries: pack };
      const text = JSON.stringify(record);
      return [head.push, head.kind, time, String(seq + index), signRecord(hmac, scopeOf(book), text), ...splitText(text, CHUNK)];
    });
    const width = Math.max(...rows.map((row) => row.length));
    const first = Math.max(last, 1) + 1;
    ensureSize(sheet, first + rows.length - 1, width);
    // Plain text: a value reading "=…" or "2024-03-01" stays the text it is.
    writePlainText(
      sheet.getRange(first, 1, rows.length, width),
      rows.map((row) => Array.from({ length: width }, (_, i) => row[i] ?? '')),
    );
  });
}

/** What reading the journal found: the current user's records that verified, and how many of theirs did not. */
export type JournalRead = { records: PlacedRecord[]; altered: number };

/** Every record of the current user that verifies, with its row; rows another user signed are skipped, not counted. */
export function readJournal(book: Book = SpreadsheetApp.getActiveSpreadsheet(), hmac: Hmac = userHmac()): JournalRead {
  const sheet = journalSheet(book, false);
  if (!sheet || sheet.getLastRow() < 2) return { records: [], altered: 0 };
  const scope = scopeOf(book);
  const read: JournalRead = { records: [], altered: 0 };
  sheet
    .getRange(2, 1, sheet.getLastRow() - 1, Math.max(sheet.getLastColumn(), FIXED + 1))
    .getValues()
    .forEach((cells, index) => {
      if (cells.every((cell) => cell === '' || cell === null)) return;
      const text = cells
        .slice(FIXED)
        .map((cell) => String(cell ?? ''))
        .join('');
      const record = verifyRecord(hmac, scope, text, cells[4]) ? parseRecord(text) : null;
      if (record) read.records.push({ record, row: index + 2 });
      else if (!signedByAnother(hmac, cells[4])) read.altered++;
    });
  return read;
}

/** A record's time as the person reads it, in the spreadsheet's time zone: "2024-03-01 10:00". */
export function journalTime(iso: string, book: Book = SpreadsheetApp.getActiveSpreadsheet()): string {
  return Utilities.formatDate(new Date(iso), book.getSpreadsheetTimeZone(), 'yyyy-MM-dd HH:mm');
}
