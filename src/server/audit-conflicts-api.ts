// What the person chooses for the audit push's conflicts: overwrite them on purpose (a second push of only
// those cells, not compared with the server), or take the server's values into the sheet.

import { applySnapshotUpdates, cellName, compactNewPush, loadAuditSchema, readAuditSheet, serializeSnapshot, sheetFingerprint } from '../core/audit';
import { encodeKey } from '../core/audit/cell-values';
import { serverCell } from '../core/audit/conflicts';
import { storedValues } from '../core/audit/load-audit-data';
import { isPushComplete } from '../core/audit/write-back';
import type { AuditSnapshotUpdate } from '../core/audit/types';
import { InputError } from '../core/errors';
import { countOf } from '../shared/words';
import { requireUuid } from '../core/validate/uuid';
import { markConflictCells } from '../gas/audit-conflict-marks';
import { auditSheetFund, readSheetValues } from '../gas/audit-sheet';
import { writeValues } from '../gas/sheet-io';
import { loadSnapshot, saveSnapshot, snapshotScope } from '../gas/audit-store';
import { requireOwnAudit } from '../core/audit/audit-trust';
import { userHmac } from '../gas/user-signing-key';
import { appsScriptDateFormatter, spreadsheetTimeZone } from '../gas/spreadsheet-dates';
import type { AuditCellRef, AuditPushHandle, AuditTakeReport } from '../shared/rpc';
import { sidebarClient } from './api-factory';
import { AUDIT_SHEET, prepare, pushJob } from './audit-api';
import { startJob } from './jobs-api';

/** The cells named, as "profileId/propertyId" in lower case; refuses anything but ids. */
function chosenCells(cells: readonly AuditCellRef[]): Set<string> {
  if (!Array.isArray(cells) || cells.length === 0) throw new InputError("Name the cells to act on: the conflicts of a push's report.");
  return new Set(cells.map((cell) => `${requireUuid(cell.profileId, 'The profile id')}/${requireUuid(cell.propertyId, 'The property id')}`.toLowerCase()));
}

/**
 * The explicit second push of a push's conflicts: only those cells, as the sheet holds them now, sent without
 * comparing with the server (the person has seen both values and chosen theirs). A cell that no longer differs
 * from the audit (its server value was taken since) is not sent.
 */
export function startOverwrite(cells: AuditCellRef[], sheetName: string | null): AuditPushHandle {
  const name = sheetName ?? AUDIT_SHEET;
  const wanted = chosenCells(cells);
  const values = readSheetValues(name);
  const { state, read, schema } = prepare(name, values);
  state.items = state.items.filter((item) => wanted.has(`${state.profiles[item.profile]!.id}/${state.properties[item.property]!.id}`.toLowerCase()));
  // A named cell that no longer differs from the audit (its server value taken since) is compared, and unchanged.
  state.cellsCompared = new Set(read.cells.map((cell) => `${cell.profileId}/${cell.propertyId}`).filter((id) => wanted.has(id))).size;
  state.unchanged = state.cellsCompared - state.items.length;
  state.overwrite = true;
  state.status = isPushComplete(state) ? 'done' : 'running';
  const record = { sheetName: name, state: compactNewPush(state, read, sheetFingerprint(values!), schema) };
  return startJob(pushJob, { record, stored: { sheetName: name, state } });
}

/**
 * Writes the server's current values of the cells into the audit sheet, as the build writes them (labels for
 * options, dates as dates), and makes them the snapshot's: the next push sends nothing for them. One read of
 * the fund's properties and options and of the profiles' values.
 */
export function takeServerValues(cells: AuditCellRef[], sheetName: string | null): AuditTakeReport {
  const name = sheetName ?? AUDIT_SHEET;
  const wanted = chosenCells(cells);
  const values = readSheetValues(name);
  const kept = loadSnapshot(name);
  if (!values || !kept) throw new InputError(`There is no audit in "${name}": build the audit first.`);
  const read = readAuditSheet(values, auditSheetFund(name));
  // The snapshot and the marker are cells editors can rewrite: only the builder's own audit is read for the fund.
  const snapshot = requireOwnAudit(userHmac(), snapshotScope(name), kept, read, name);
  const targets = read.cells.filter((cell) => wanted.has(`${cell.profileId}/${cell.propertyId}`));
  if (targets.length === 0) throw new InputError(`None of these cells is in "${name}" any more: build the audit again to see the server's values.`);
  const client = sidebarClient();
  const schema = loadAuditSchema(client, snapshot.companyId);
  const profileIds = [...new Set(targets.map((cell) => cell.profileId))];
  const lists = client.portfolio.listValuesAndOptions(profileIds, []).values;
  const stored = new Map(profileIds.map((id, index) => [id, storedValues(lists[index] ?? [], schema.properties)]));
  const dates = { timeZone: spreadsheetTimeZone(), formatDate: appsScriptDateFormatter };
  const sheet = SpreadsheetApp.getActiveSpreadsheet().getSheetByName(name)!;
  const updates: AuditSnapshotUpdate[] = [];
  const written: AuditTakeReport['cells'] = [];
  for (const cell of targets) {
    const property = schema.properties.find((candidate) => candidate.id === cell.propertyId);
    if (!property) continue;
    const now = serverCell(stored.get(cell.profileId)?.[property.id], property, schema.options[property.id] ?? [], dates);
    writeValues(sheet.getRange(cell.row, cell.column), [[now.written]]);
    updates.push({ profileId: cell.profileId, propertyId: cell.propertyId, key: encodeKey(now.key) });
    written.push({ cell: cellName(cell.row, cell.column), value: now.shown });
  }
  saveSnapshot(name, serializeSnapshot(applySnapshotUpdates(snapshot, updates)));
  markConflictCells(
    name,
    targets.map((cell) => ({ row: cell.row, column: cell.column, note: null })),
  );
  return {
    message: `The sheet now shows the server's values of ${countOf(written.length, 'cell')}: the next push leaves ${written.length === 1 ? 'it' : 'them'} as ${written.length === 1 ? 'it is' : 'they are'}.`,
    cells: written,
  };
}
