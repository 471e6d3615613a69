// The portfolio audit: build the sheet from the API, then push the edited cells back, step by step.

import { InputError } from '../core/errors';
import {
  applySnapshotUpdates,
  auditPushProgress,
  buildAuditModel,
  buildAuditPushReport,
  cellName,
  cancelAuditPush,
  loadAuditData,
  loadAuditSchema,
  parseSnapshot,
  prepareAuditPush,
  readAuditSheet,
  resumeAuditPush,
  runAuditPushStep,
  sameUnconfirmedCells,
  serializeSnapshot,
  type AuditData,
  type AuditPushProgress,
  type AuditPushState,
} from '../core/audit';
import { countOf } from '../core/export/places';
import { needsProbe } from '../core/jobs/wave-step';
import { WaitLog } from '../core/export';
import { requireUuid } from '../core/validate/uuid';
import { readSheetValues, writeAuditSheet } from '../gas/audit-sheet';
import { loadSnapshot, saveSnapshot, stageAuditStore } from '../gas/audit-store';
import { clearJobCancel, forgetJob, jobCancelRequested, loadJob, newJobId, publishJobProgress, readJobProgress, rememberJob, requestJobCancel, saveJob, stepRunning, unfinishedJobs, whileStepRuns } from '../gas/job-store';
import { appsScriptDateFormatter, spreadsheetTimeZone } from '../gas/spreadsheet-dates';
import type { AuditBuildReport, AuditPushHandle, AuditPushOutcome } from '../shared/rpc';
import { createClientForExecution } from './api-factory';

export const AUDIT_SHEET = 'Portfolio audit';
const STEP_BUDGET_MS = 20_000;
const STEP_MARGIN_MS = 5_000;
const JOB = 'audit-push';

type StoredPush = { sheetName: string; state: AuditPushState };

export function buildAudit(companyId: string): AuditBuildReport {
  const id = requireUuid(companyId, 'The fund\'s company id');
  const client = createClientForExecution({ maxTotalWaitMs: 120_000 });
  return writeAudit(loadAuditData(client, id));
}

/** Writes the audit sheet and its store from what was read (by buildAudit, or by the build job's steps). */
export function writeAudit(data: AuditData): AuditBuildReport {
  const model = buildAuditModel(data, { timeZone: spreadsheetTimeZone(), formatDate: appsScriptDateFormatter });
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

function prepare(sheetName: string): AuditPushState {
  const values = readSheetValues(sheetName);
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

function load(pushId: string): StoredPush {
  const stored = loadJob<StoredPush>(JOB, pushId);
  if (!stored) throw new InputError('This push is no longer stored (pushes can be resumed for six hours). Push again: unchanged cells are not sent.');
  return stored;
}

export function startPush(sheetName: string | null): AuditPushHandle {
  const name = sheetName ?? AUDIT_SHEET;
  const stored: StoredPush = { sheetName: name, state: prepare(name) };
  const pushId = newJobId();
  // A push with nothing to send is finished at once, and leaves nothing stored.
  if (stored.state.status !== 'done') {
    saveJob(JOB, pushId, stored);
    rememberJob(JOB, pushId, Date.now());
  }
  return handle(pushId, stored);
}

export function continuePush(pushId: string): AuditPushHandle {
  const stored = load(pushId);
  if (stored.state.status === 'running') {
    whileStepRuns(JOB, pushId, () => {
      const deadline = Date.now() + STEP_BUDGET_MS;
      const waits = new WaitLog();
      const client = createClientForExecution({ deadline, onWait: waits.onWait, noRateLimitRetries: needsProbe(stored.state) });
      stored.state = runAuditPushStep(stored.state, client, {
        deadline,
        marginMs: STEP_MARGIN_MS,
        waitLog: waits,
        shouldStop: () => jobCancelRequested(JOB, pushId),
        onCheckpoint: (state) => {
          saveJob(JOB, pushId, { ...stored, state });
          recordConfirmed(stored.sheetName, state);
          publishJobProgress(JOB, pushId, auditPushProgress(state, Date.now()));
        },
      }).state;
      recordConfirmed(stored.sheetName, stored.state);
      // A finished push leaves nothing behind; a cancelled or paused one stays for Resume.
      if (stored.state.status === 'done') {
        forgetJob(JOB, pushId);
      } else {
        saveJob(JOB, pushId, stored);
        publishJobProgress(JOB, pushId, auditPushProgress(stored.state, Date.now()));
      }
    });
  }
  return handle(pushId, stored);
}

/** What the push's running step last published (after each of its waves), for the bar while the step runs. */
export function liveProgress(pushId: string): AuditPushProgress | null {
  return readJobProgress<AuditPushProgress>(JOB, pushId);
}

/**
 * Marks the push cancelled. A step running meanwhile sees the mark before its next group of requests and
 * saves the cancelled state itself: saving here the state read before its last checkpoint would undo that
 * checkpoint, so the state is left as it is and the sidebar asks again once the step has answered.
 */
export function cancelPush(pushId: string): AuditPushHandle {
  requestJobCancel(JOB, pushId);
  const stored = load(pushId);
  if (stepRunning(JOB, pushId)) return handle(pushId, stored);
  stored.state = cancelAuditPush(stored.state);
  saveJob(JOB, pushId, stored);
  return handle(pushId, stored);
}

/** Resumes with the cells not confirmed, if the sheet still holds what was being pushed. */
export function resumePush(pushId: string): AuditPushHandle {
  const stored = load(pushId);
  if (!sameUnconfirmedCells(stored.state, prepare(stored.sheetName))) {
    throw new InputError('The audit sheet changed since this push started. Push again: cells already stored are not sent twice.');
  }
  clearJobCancel(JOB, pushId);
  stored.state = resumeAuditPush(stored.state);
  if (stored.state.status === 'done') {
    forgetJob(JOB, pushId);
  } else {
    saveJob(JOB, pushId, stored);
    rememberJob(JOB, pushId, Date.now());
  }
  return handle(pushId, stored);
}

/** Pushes of this spreadsheet from the last six hours that did not finish (cancelled, paused, or left running) and have no step running now. */
export function unfinishedPushes(): AuditPushHandle[] {
  return unfinishedJobs<StoredPush>(JOB, Date.now()).map(({ id, stored }) => handle(id, stored));
}
