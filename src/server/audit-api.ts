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
  sameUnconfirmedCells,
  serializeSnapshot,
  type AuditPushProgress,
  type AuditPushState,
} from '../core/audit';
import { countOf } from '../core/export/places';
import { fnv1a64 } from '../core/cache/chunked-cache';
import { fingerprints } from '../core/formulas/freeze';
import { requireUuid } from '../core/validate/uuid';
import { readSheetValues, writeAuditSheet } from '../gas/audit-sheet';
import { loadSnapshot, saveSnapshot, stageAuditStore } from '../gas/audit-store';
import { appsScriptDateFormatter, spreadsheetTimeZone } from '../gas/spreadsheet-dates';
import type { AuditBuildReport, AuditPushHandle, AuditPushOutcome } from '../shared/rpc';
import { createClientForExecution } from './api-factory';
import { keptAsIs, startJob, type JobKind, type StepContext } from './jobs-api';

export const AUDIT_SHEET = 'Portfolio audit';

/**
 * `sheet`: a fingerprint of the audit sheet's values when the push was prepared, so a resume can tell the
 * sheet unchanged without preparing the push again (which reads the fund's schema: a request the rate
 * limit may refuse before the resumed push's first probe). Absent on pushes stored by earlier versions.
 */
type StoredPush = { sheetName: string; state: AuditPushState; sheet?: string };

/** The sheet's values as one short hash, each cell in the canonical form Freeze compares by. */
function sheetFingerprint(values: readonly (readonly unknown[])[] | null): string | null {
  return values ? fnv1a64(fingerprints(values)) : null;
}

export function buildAudit(companyId: string): AuditBuildReport {
  const id = requireUuid(companyId, 'The fund\'s company id');
  const client = createClientForExecution({ maxTotalWaitMs: 120_000 });
  const model = buildAuditModel(loadAuditData(client, id), { timeZone: spreadsheetTimeZone(), formatDate: appsScriptDateFormatter });
  // The store first: if it cannot be written, the earlier audit and its snapshot are still whole.
  const longLists = model.summary.formatting.validations.flatMap((rule) => (rule.kind === 'listFromRange' ? [{ propertyId: rule.propertyId, labels: rule.labels }] : []));
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
  const cutNote = cut.length === 0 ? '' : ` ${countOf(cut.length, 'value')} longer than a cell holds (50,000 characters) ${cut.length === 1 ? 'is' : 'are'} shown cut, marked "[cut: …]", and never pushed: edit ${cut.length === 1 ? 'it' : 'them'} in the app.`;
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

function prepare(sheetName: string, values = readSheetValues(sheetName)): AuditPushState {
  const snapshotText = loadSnapshot(sheetName);
  if (!values || !snapshotText) throw new InputError(`There is no audit in "${sheetName}" to push: build the audit first.`);
  const read = readAuditSheet(values);
  const snapshot = parseSnapshot(snapshotText);
  const schema = loadAuditSchema(createClientForExecution({ maxTotalWaitMs: 60_000 }), snapshot.companyId);
  return prepareAuditPush({ read, snapshot, schema, timeZone: spreadsheetTimeZone(), formatDate: appsScriptDateFormatter });
}

function outcome(stored: StoredPush): AuditPushOutcome {
  const report = buildAuditPushReport(stored.state);
  return {
    summary: report.summary,
    totals: report.totals,
    problems: report.items.filter((item) => item.outcome === 'failed' || item.outcome === 'skipped').slice(0, 50),
    notes: report.notes,
    problem: report.problem,
  };
}

function handle(pushId: string, stored: StoredPush): AuditPushHandle {
  const progress = auditPushProgress(stored.state, Date.now());
  return { pushId, sheetName: stored.sheetName, progress, report: stored.state.status === 'running' ? null : outcome(stored) };
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
  const text = loadSnapshot(sheetName);
  if (!text) return;
  const next = serializeSnapshot(applySnapshotUpdates(parseSnapshot(text), updates));
  if (next !== text) saveSnapshot(sheetName, next);
}

/** A push step: each checkpoint also gives the snapshot the cells it confirmed. */
function step(stored: StoredPush, { client, deadline, marginMs, waitLog, shouldStop, checkpoint }: StepContext<StoredPush>): StoredPush {
  const { state } = runAuditPushStep(stored.state, client, {
    deadline,
    marginMs,
    waitLog,
    shouldStop,
    onCheckpoint: (next) => {
      checkpoint({ ...stored, state: next });
      recordConfirmed(stored.sheetName, next);
    },
  });
  recordConfirmed(stored.sheetName, state);
  return { ...stored, state };
}

/** Audit pushes as one kind of job (jobs-api). */
export const pushJob: JobKind<StoredPush, AuditPushState, AuditPushHandle, AuditPushProgress> = {
  ...keptAsIs<StoredPush, AuditPushState>('audit-push'),
  marginMs: 5_000,
  notStored: 'This push is no longer stored (pushes can be resumed for six hours). Push again: unchanged cells are not sent.',
  handle,
  progress: (stored) => auditPushProgress(stored.state, Date.now()),
  resumeState: resumeAuditPush,
  step,
  // Resumes with the cells not confirmed, if the sheet still holds what was being pushed.
  checkResume: (stored) => {
    const values = readSheetValues(stored.sheetName);
    const same = stored.sheet !== undefined ? sheetFingerprint(values) === stored.sheet : sameUnconfirmedCells(stored.state, prepare(stored.sheetName, values));
    if (!same) {
      throw new InputError('The audit sheet changed since this push started. Push again: cells already stored are not sent twice.');
    }
  },
};

export function startPush(sheetName: string | null): AuditPushHandle {
  const name = sheetName ?? AUDIT_SHEET;
  // A push with nothing to send is finished at once, and leaves nothing stored.
  const values = readSheetValues(name);
  const sheet = sheetFingerprint(values);
  return startJob(pushJob, { sheetName: name, state: prepare(name, values), ...(sheet !== null ? { sheet } : {}) });
}
