// Values a job restored on the server (Undo of an audit push), shown in the audit sheet: each in the cells found
// by their hidden ids, once those ids verify as sitting beside the names the signed snapshot recorded (the same
// check a push makes), written exactly as a fresh build would write them, and made the snapshot's, so the next
// push does not send them again.

import { applySnapshotUpdates, loadAuditSchema, readAuditSheet, serializeSnapshot } from '../core/audit';
import { requireOwnAudit } from '../core/audit/audit-trust';
import { auditCellOf } from '../core/audit/build-audit';
import { encodeKey, keyOfCell } from '../core/audit/cell-values';
import { storedValueOfWrite } from '../core/audit/cell-writes';
import { snapshotCells } from '../core/audit/snapshot';
import type { AuditCell, AuditSheetRead, AuditSnapshotUpdate, AuditWrite } from '../core/audit/types';
import { InputError } from '../core/errors';
import { auditSheetFund, readSheetValues, writeAuditCells } from '../gas/audit-sheet';
import { loadSnapshot, saveSnapshot, snapshotScope } from '../gas/audit-store';
import { appsScriptDateFormatter, spreadsheetTimeZone } from '../gas/spreadsheet-dates';
import { userHmac } from '../gas/user-signing-key';
import { sidebarClient } from './api-factory';

/** A value the API now holds for a (profile, property) cell: the body that was PUT (what Undo sent). */
export type RestoredAuditValue = { profileId: string; propertyId: string; value: AuditWrite };

/**
 * How many restored values the sheet now shows; how many have no cell there (the sheet is gone, is no audit
 * any more, or no longer has that row or column, or the property left the fund); and how many were left as the
 * person typed them since the push (their cell no longer shows what the snapshot holds): not overwritten, and
 * the next push reports them as conflicts with the restored value.
 */
export type RestoredAuditShown = { shown: number; notFound: number; leftAsTyped: number };

/**
 * Shows `cells` in the audit sheet `sheetName`. One read of the fund's properties and options (the labels a
 * select shows), none when nothing is to be shown. Throws an InputError whose sentence says what to do when the
 * audit is not the user's own (someone else built or changed it) or its hidden ids no longer sit beside their
 * names: then nothing is written, and the server keeps the restored values whatever the sheet shows.
 */
export function showRestoredAuditValues(sheetName: string, cells: ReadonlyArray<RestoredAuditValue>): RestoredAuditShown {
  const none = { shown: 0, notFound: cells.length, leftAsTyped: 0 };
  if (cells.length === 0) return none;
  const values = readSheetValues(sheetName);
  const kept = loadSnapshot(sheetName);
  if (!values || !kept) return none;
  let read: AuditSheetRead;
  try {
    read = readAuditSheet(values, auditSheetFund(sheetName));
  } catch (error) {
    // No hidden id row any more: the sheet is not an audit now, and none of its cells is a value's.
    if (error instanceof InputError) return none;
    throw error;
  }
  const snapshot = requireOwnAudit(userHmac(), snapshotScope(sheetName), kept, read, sheetName);
  const dates = { timeZone: spreadsheetTimeZone(), formatDate: appsScriptDateFormatter };
  const atBuild = snapshotCells(snapshot);
  const sheetCells = new Map<string, AuditSheetRead['cells']>();
  for (const cell of read.cells) {
    const id = `${cell.profileId}/${cell.propertyId}`;
    sheetCells.set(id, [...(sheetCells.get(id) ?? []), cell]);
  }
  const wanted = cells.map((cell) => ({ ...cell, id: `${cell.profileId}/${cell.propertyId}`.toLowerCase() }));
  if (!wanted.some((cell) => sheetCells.has(cell.id))) return none;

  const schema = loadAuditSchema(sidebarClient(), snapshot.companyId);
  const writes: Array<{ row: number; column: number; value: AuditCell }> = [];
  const updates: AuditSnapshotUpdate[] = [];
  const cut: string[] = [];
  const result = { shown: 0, notFound: 0, leftAsTyped: 0 };
  for (const cell of wanted) {
    const places = sheetCells.get(cell.id) ?? [];
    const property = schema.properties.find((candidate) => candidate.id === cell.propertyId.toLowerCase());
    if (places.length === 0 || !property) {
      result.notFound++;
      continue;
    }
    // A cell the person typed into since the push keeps what they typed: nothing entered is silently replaced.
    const stored = atBuild.keyOf(cell.profileId, cell.propertyId);
    const untouched = places.filter((place) => encodeKey(keyOfCell(place.value, dates.timeZone, dates.formatDate)) === stored);
    if (untouched.length < places.length) {
      result.leftAsTyped++;
      continue;
    }
    const shown = auditCellOf(storedValueOfWrite(cell.value), property, schema.options[property.id] ?? [], dates);
    for (const place of places) writes.push({ row: place.row, column: place.column, value: shown.written });
    updates.push({ profileId: cell.profileId, propertyId: cell.propertyId, key: encodeKey(keyOfCell(shown.logical, dates.timeZone, dates.formatDate)) });
    if (shown.cutFrom !== null) cut.push(`${cell.profileId}/${cell.propertyId}`.toLowerCase());
    result.shown++;
  }
  writeAuditCells(sheetName, writes);
  if (updates.length > 0) saveSnapshot(sheetName, serializeSnapshot(applySnapshotUpdates(snapshot, updates, cut)));
  return result;
}
