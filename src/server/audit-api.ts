// The portfolio audit: build the sheet from the API, then push the edited cells back, step by step.

import { InputError } from '../core/errors';
import {
  applySnapshotUpdates,
  auditPushProgress,
  buildAuditModel,
  buildAuditPushReport,
  cellName,
  loadAuditData,
  loadAuditSchema,
  parseSnapshot,
  prepareAuditPush,
  readAuditSheet,
  resumeAuditPush,
  runAuditPushStep,
  serializeSnapshot,
  compactNewPush,
  compactPush,
  expandPush,
  sheetFingerprint,
  PUSH_CODES,
  type CompactPushState,
  type AuditData,
  type AuditPushProgress,
  type AuditPushState,
} from '../core/audit';
import { countOf } from '../shared/words';
import { AUDIT_CELL_OUTCOMES, type AuditSchema, type AuditSheetRead } from '../core/audit/types';
import { fundLabel, requireOwnAudit } from '../core/audit/audit-trust';
import { misplacedIds } from '../core/audit/id-places';
import { jobProgress } from '../core/jobs/progress';
import { tallyOutcomes } from '../core/jobs/tally';
import { requireUuid } from '../core/validate/uuid';
import { auditSheetFund, readSheetValues, writeAuditSheet } from '../gas/audit-sheet';
import { loadSnapshot, saveSnapshot, snapshotScope, stageAuditStore } from '../gas/audit-store';
import { userHmac } from '../gas/user-signing-key';
import { verifyRecord } from '../core/trust/signed-record';
import { appsScriptDateFormatter, spreadsheetTimeZone } from '../gas/spreadsheet-dates';
import { conflictGuard, markConflictCells } from '../gas/audit-conflict-marks';
import { conflictNote } from '../core/audit/conflicts';
import { newlySettled, outcomeText } from '../core/jobs/push-log';
import type { AuditBuildReport, AuditPushHandle, AuditPushOutcome } from '../shared/rpc';
import { createClientForExecution, sidebarClient } from './api-factory';
import { rereadKind, startJob } from './jobs-api';
import { auditCellLogFields, rememberAuditCells } from './push-journal';

export const AUDIT_SHEET = 'Portfolio audit';

/** A push as it steps: its state, rebuilt from the sheet each time it is loaded. */
type StoredPush = { sheetName: string; state: AuditPushState };

/** A push as it is kept between steps: no copy of the cells (see compactPush). */
type PushRecord = { sheetName: string; state: CompactPushState };

const SHEET_CHANGED = 'The audit sheet changed since this push started. Push again: cells already stored are not sent twice.';

export function buildAudit(companyId: string): AuditBuildReport {
  const id = requireUuid(companyId, "The fund's company id");
  const client = createClientForExecution({ maxTotalWaitMs: 120_000 });
  return writeAudit(loadAuditData(client, id));
}

/** Writes the audit sheet and its store from what was read (by buildAudit, or by the build job's steps). */
export function writeAudit(data: AuditData): AuditBuildReport {
  const model = buildAuditModel(data, { timeZone: spreadsheetTimeZone(), formatDate: appsScriptDateFormatter });
  // The store first: if it cannot be written, the earlier audit and its snapshot are still whole.
  const longLists = model.summary.formatting.validations.flatMap((rule) =>
    rule.kind === 'listFromRange' ? [{ propertyId: rule.propertyId, labels: rule.labels }] : [],
  );
  const store = stageAuditStore(serializeSnapshot(model.snapshot), longLists, model.summary.layout.rows * model.summary.layout.columns);
  let sheet: GoogleAppsScript.Spreadsheet.Sheet;
  try {
    sheet = writeAuditSheet(AUDIT_SHEET, model, store.labelsRange);
  } catch (error) {
    store.discard();
    throw error;
  }
  store.commit(sheet);
  const { summary } = model;
  const share = summary.overall.share === null ? 'nothing to fill' : `${Math.round(summary.overall.share * 100)}% complete`;
  const cut = summary.cut.map((cell) => ({ cell: cellName(cell.row, cell.column), company: cell.name, property: cell.propertyName, length: cell.length }));
  const cutNote =
    cut.length === 0
      ? ''
      : ` ${countOf(cut.length, 'value')} longer than a cell holds (50,000 characters) ${cut.length === 1 ? 'is' : 'are'} shown cut, marked "[cut: …]", and never pushed: edit ${cut.length === 1 ? 'it' : 'them'} in the app.`;
  return {
    sheetName: AUDIT_SHEET,
    profiles: summary.profiles.length,
    properties: summary.columns.length,
    overall: summary.overall,
    blanks: summary.blanks.length,
    cut,
    message: `Built "${AUDIT_SHEET}": ${countOf(summary.profiles.length, 'company', 'companies')} × ${countOf(summary.columns.length, 'property', 'properties')}, ${share} (${countOf(summary.blanks.length, 'blank cell')} highlighted).${cutNote}`,
  };
}

export function prepare(sheetName: string, values: unknown[][] | null): { state: AuditPushState; read: AuditSheetRead; schema: AuditSchema } {
  const stored = loadSnapshot(sheetName);
  if (!values || !stored) throw new InputError(`There is no audit in "${sheetName}" to push: build the audit first.`);
  const read = readAuditSheet(values, auditSheetFund(sheetName));
  // Before any request: the marker, the hidden ids and the store are cells editors can rewrite, so nothing an editor wrote there is trusted; each
  // row's and column's id must sit beside the name the snapshot recorded for it (the overwrite push comes here too).
  const snapshot = requireOwnAudit(userHmac(), snapshotScope(sheetName), stored, read, sheetName);
  const schema = loadAuditSchema(sidebarClient(), snapshot.companyId);
  return { state: prepareAuditPush({ read, snapshot, schema, timeZone: spreadsheetTimeZone(), formatDate: appsScriptDateFormatter }), read, schema };
}

/**
 * Whether every hidden id of `read` sits beside the name the audit's snapshot recorded for it. A store that is
 * gone or no longer verifies is left to the step's conflict guard, which refuses it with its own sentence.
 */
function idsInPlace(sheetName: string, read: AuditSheetRead): boolean {
  const stored = loadSnapshot(sheetName);
  if (!stored || !verifyRecord(userHmac(), snapshotScope(sheetName), stored.text, stored.signature)) return true;
  return misplacedIds(read, parseSnapshot(stored.text))?.length === 0;
}

function outcome(stored: StoredPush): AuditPushOutcome {
  const report = buildAuditPushReport(stored.state);
  return {
    summary: `${capitalised(fundLabel(stored.state.companyId))}: ${report.summary}`,
    totals: report.totals,
    problems: report.items.filter((item) => item.outcome === 'failed' || item.outcome === 'skipped').slice(0, 50),
    notes: report.notes,
    problem: report.problem,
    conflicts: report.items.filter((item) => item.outcome === 'conflict'),
  };
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * The snapshot takes every confirmed cell as soon as it is confirmed (at each checkpoint, not only when the
 * push ends), so a fresh push after a cancel, a pause or a closed sidebar sends only what was not
 * confirmed, a rebuilt audit shows what was pushed, and a second push sends nothing. Applying an update
 * twice is harmless; the properties are written only when something changed.
 */
function recordConfirmed(sheetName: string, state: AuditPushState): void {
  const updates = buildAuditPushReport(state).snapshotUpdates;
  if (updates.length === 0) return;
  const stored = loadSnapshot(sheetName);
  // Re-signed only as this user signed it: a store rewritten since the push started stays refused, never laundered.
  if (!stored || !verifyRecord(userHmac(), snapshotScope(sheetName), stored.text, stored.signature)) return;
  const next = serializeSnapshot(applySnapshotUpdates(parseSnapshot(stored.text), updates));
  if (next !== stored.text) saveSnapshot(sheetName, next);
}

/** Audit pushes as one kind of job (jobs-api). */
export const pushJob = rereadKind<
  PushRecord,
  StoredPush,
  AuditPushState,
  CompactPushState,
  Pick<AuditPushHandle, 'pushId' | 'sheetName' | 'fund'>,
  AuditPushProgress,
  AuditPushOutcome
>({
  store: 'audit-push',
  marginMs: 5_000,
  notStored: 'This push is no longer stored (pushes can be resumed for six hours). Push again: unchanged cells are not sent.',
  changed: SHEET_CHANGED,
  // A push stored by an earlier version kept its cells' values: not resumed (the snapshot already has what it confirmed).
  version: 2,
  rebuild: (record) => {
    const values = readSheetValues(record.sheetName);
    if (!values) return null;
    let read: AuditSheetRead;
    try {
      read = readAuditSheet(values, auditSheetFund(record.sheetName));
    } catch (error) {
      // The sheet's hidden id row is gone: not the push's sheet.
      if (error instanceof InputError) return null;
      throw error;
    }
    const state = expandPush(record.state, read, sheetFingerprint(values), { timeZone: spreadsheetTimeZone(), formatDate: appsScriptDateFormatter });
    // Every step loads the push again, so the ids' places are checked just before its writes too: a sheet whose
    // ids no longer sit beside their names (or a snapshot no longer the user's) is not this push's any more.
    return state && idsInPlace(record.sheetName, read) ? { sheetName: record.sheetName, state } : null;
  },
  compact: (stored, record) => ({ ...record, state: compactPush(stored.state, record.state) }),
  head: (pushId, job) => ({ pushId, sheetName: job.sheetName, fund: fundLabel(job.state.companyId) }),
  progress: (stored) => auditPushProgress(stored.state, Date.now()),
  outcome,
  resume: resumeAuditPush,
  /** A push step: each checkpoint also gives the snapshot the cells it confirmed. */
  step: (stored, context) => {
    const { state } = runAuditPushStep(stored.state, context.client, {
      ...context,
      guard: conflictGuard(stored.sheetName),
      onCheckpoint: (next) => {
        context.checkpoint(next);
        recordConfirmed(stored.sheetName, next);
      },
    });
    recordConfirmed(stored.sheetName, state);
    rememberAuditCells(context.id, stored.sheetName, stored.state, state);
    return state;
  },
  /** A push's progress from its stored outcome codes alone, without reading its sheet. */
  recordProgress: (record) => {
    const planned = [...record.state.codes].map((code) => PUSH_CODES[code]).filter((code) => code?.planned);
    return jobProgress(record.state, Date.now(), { cellsDone: planned.filter((code) => code!.outcome !== 'pending').length, cellsTotal: planned.length });
  },
  changedOutcome: (record) => ({
    summary: SHEET_CHANGED,
    totals: { ...tallyOutcomes(AUDIT_CELL_OUTCOMES, record.state.codes, (code) => PUSH_CODES[code]?.outcome ?? 'pending'), unchanged: record.state.unchanged },
    problems: [],
    notes: [],
    problem: SHEET_CHANGED,
    conflicts: [],
  }),
  /** Every cell a step sent or held back, with the server's value before it when the wave read it. */
  pushLog: (before, { sheetName, state }) => {
    const time = new Date().toISOString();
    return {
      rows: newlySettled(before.state.items, state.items)
        .filter((item) => item.planned)
        .map((item) => ({
          time,
          kind: state.overwrite ? 'Audit overwrite' : 'Audit push',
          ...auditCellLogFields(sheetName, state, item),
          outcome: outcomeText(item.outcome, item.outcome === 'created' || item.outcome === 'updated' ? null : item.reason),
        })),
    };
  },
  /** Conflicts get a note in the sheet; an overwrite clears the notes of the cells it stored. */
  stopped: ({ sheetName, state }) =>
    markConflictCells(
      sheetName,
      state.items.flatMap((item): Array<{ row: number; column: number; note: string | null }> => {
        if (item.conflict) return [{ row: item.row, column: item.column, note: conflictNote(item.conflict, item.shown) }];
        if (state.overwrite && (item.outcome === 'created' || item.outcome === 'updated')) return [{ row: item.row, column: item.column, note: null }];
        return [];
      }),
    ),
});

export function startPush(sheetName: string | null): AuditPushHandle {
  const name = sheetName ?? AUDIT_SHEET;
  // A push with nothing to send is finished at once, and leaves nothing stored.
  const values = readSheetValues(name);
  const { state, read, schema } = prepare(name, values);
  const record: PushRecord = { sheetName: name, state: compactNewPush(state, read, sheetFingerprint(values!), schema) };
  return startJob(pushJob, { record, stored: { sheetName: name, state } });
}
