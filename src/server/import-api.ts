// Profiles and contacts imported from a range, one row at a time, step by step; each settled row's
// id and status are written into the sheet at once, so even an interrupted run leaves its ids.

import { InputError } from '../core/errors';
import {
  buildContactsImportReport,
  buildProfilesImportReport,
  cancelImport,
  importProgress,
  prepareContactsImport,
  prepareProfilesImport,
  resumeImport,
  runContactsImportStep,
  runProfilesImportStep,
  type ContactsImportState,
  type ImportProgress,
  type ImportReport,
  type ProfilesImportState,
  type RowWrite,
  CONTACT_ID_HEADER,
  PROFILE_ID_HEADER,
  STATUS_HEADER as IMPORT_STATUS_HEADER,
} from '../core/directory';
import { needsProbe } from '../core/jobs/rate-limit-state';
import { requireUuid } from '../core/validate/uuid';
import { clearJobCancel, forgetJob, jobCancelRequested, loadJob, newJobId, publishJobProgress, readJobProgress, rememberJob, requestJobCancel, saveJob, stepRunning, unfinishedJobs, whileStepRuns } from '../gas/job-store';
import { addressOf, cellText, columnIsEmpty, readRange, writeText } from '../gas/sheet-io';
import type { ImportHandle, ImportOutcome, ImportRequest } from '../shared/rpc';
import { createClientForExecution } from './api-factory';

const STEP_BUDGET_MS = 20_000;
const STEP_MARGIN_MS = 3_000;
const JOB = 'import';

type StoredImport =
  | { kind: 'profiles'; request: ImportRequest; sheetName: string; state: ProfilesImportState }
  | { kind: 'contacts'; request: ImportRequest; sheetName: string; state: ContactsImportState };

function report(stored: StoredImport): ImportReport<string> {
  return stored.kind === 'profiles' ? buildProfilesImportReport(stored.state) : buildContactsImportReport(stored.state);
}

function outcome(stored: StoredImport): ImportOutcome {
  const built = report(stored);
  return {
    summary: built.summary,
    totals: built.totals,
    problems: built.rows.filter((row) => ['failed', 'skipped', 'unknown'].includes(row.outcome)).slice(0, 50)
      .map((row) => ({ sheetRow: row.sheetRow, label: row.label, outcome: row.outcome, reason: row.reason })),
    problem: built.problem,
  };
}

function progressOf(stored: StoredImport): ImportProgress {
  return stored.kind === 'profiles' ? importProgress(stored.state, Date.now()) : importProgress(stored.state, Date.now());
}

function handle(importId: string, stored: StoredImport): ImportHandle {
  return { importId, kind: stored.kind, range: stored.request.range, progress: progressOf(stored), report: stored.state.status === 'running' ? null : outcome(stored) };
}

/** Writes a row's id and status where the import said, as soon as the row settles. */
function writeRow(stored: StoredImport, written: RowWrite): void {
  const { origin, idColumn, statusColumn } = stored.state;
  if (written.idText !== null) writeText(stored.sheetName, written.sheetRow, origin.column + idColumn.column - 1, written.idText);
  writeText(stored.sheetName, written.sheetRow, origin.column + statusColumn.column - 1, written.status);
}

/** Headers of the columns the import adds, and every row's final id and status, once it has ended. */
function writeAll(stored: StoredImport): void {
  const built = report(stored);
  const { origin } = stored.state;
  for (const target of [built.idColumn, built.statusColumn]) {
    if (target.isNew) writeText(stored.sheetName, origin.row, origin.column + target.column - 1, target.header);
  }
  built.statusTexts.forEach((text, i) => {
    if (i > 0 && text !== '') writeText(stored.sheetName, origin.row + i, origin.column + built.statusColumn.column - 1, text);
  });
  for (const row of built.rows) {
    if (row.idText !== null) writeText(stored.sheetName, row.sheetRow, origin.column + built.idColumn.column - 1, row.idText);
  }
}

/**
 * A re-run selects the same rows as before, but the id and status columns an earlier run added sit
 * right of them: take them in, so rows that already have ids are recognised and not created twice.
 */
function withOwnColumns(address: string): string {
  const read = readRange(address);
  const width = read.values[0]?.length ?? 0;
  const own = [PROFILE_ID_HEADER, CONTACT_ID_HEADER, IMPORT_STATUS_HEADER].map((h) => h.toLowerCase());
  let extra = 0;
  while (extra < 2 && own.includes(cellText(read.sheetName, read.row, read.column + width + extra).toLowerCase())) extra++;
  return extra ? addressOf(read.sheetName, read.row, read.column, read.values.length, width + extra) : address;
}

export function startImport(request: ImportRequest): ImportHandle {
  const companyId = requireUuid(request.companyId, 'The company id');
  request = { ...request, range: withOwnColumns(request.range) };
  const read = readRange(request.range);
  if (read.values.length < 2) throw new InputError('Select a header row and at least one row to import.');
  const range = { values: read.values, displayValues: read.displayValues, origin: { row: read.row, column: read.column } };
  const client = createClientForExecution({ maxTotalWaitMs: 60_000 });
  const stored: StoredImport = request.kind === 'profiles'
    ? { kind: 'profiles', request, sheetName: read.sheetName, state: prepareProfilesImport({ range, companyId, existingProfiles: client.portfolio.listProfiles(companyId) }) }
    : { kind: 'contacts', request, sheetName: read.sheetName, state: prepareContactsImport({ range, companyId, contactLists: client.contacts.listLists(companyId) }) };
  // New id and status columns go right of the range: never over someone's data.
  for (const target of [stored.state.idColumn, stored.state.statusColumn]) {
    if (target.isNew && !columnIsEmpty(read.sheetName, read.row, read.column + target.column - 1, read.values.length)) {
      throw new InputError(`The import writes a "${target.header}" column right of the range, but that column is not empty. Clear it, or add a "${target.header}" column to the range.`);
    }
  }
  const importId = newJobId();
  // An import with nothing to send is finished at once, and leaves nothing stored.
  if (stored.state.status !== 'done') {
    saveJob(JOB, importId, stored);
    rememberJob(JOB, importId, Date.now());
  }
  return handle(importId, stored);
}

function load(importId: string): StoredImport {
  const stored = loadJob<StoredImport>(JOB, importId);
  if (!stored) throw new InputError('This import is no longer stored (imports can be resumed for six hours). Run it again: rows with ids are not created twice.');
  return stored;
}

export function continueImport(importId: string): ImportHandle {
  const stored = load(importId);
  if (stored.state.status === 'running') {
    whileStepRuns(JOB, importId, () => {
      const deadline = Date.now() + STEP_BUDGET_MS;
      const client = createClientForExecution({ deadline, noRateLimitRetries: needsProbe(stored.state) });
      const base = { deadline, marginMs: STEP_MARGIN_MS, shouldStop: () => jobCancelRequested(JOB, importId) };
      const checkpoint = (next: StoredImport, written: RowWrite | null): void => {
        saveJob(JOB, importId, next);
        if (written) writeRow(next, written);
        publishJobProgress(JOB, importId, progressOf(next));
      };
      if (stored.kind === 'profiles') {
        stored.state = runProfilesImportStep(stored.state, client, { ...base, onCheckpoint: (state, written) => checkpoint({ ...stored, state }, written) }).state;
      } else {
        stored.state = runContactsImportStep(stored.state, client, { ...base, onCheckpoint: (state, written) => checkpoint({ ...stored, state }, written) }).state;
      }
      if (stored.state.status !== 'running') writeAll(stored);
      // A finished import leaves nothing behind; a cancelled or paused one stays for Resume.
      if (stored.state.status === 'done') {
        forgetJob(JOB, importId);
      } else {
        saveJob(JOB, importId, stored);
        publishJobProgress(JOB, importId, progressOf(stored));
      }
    });
  }
  return handle(importId, stored);
}

/** What the import's running step last published (after each of its rows), for the bar while the step runs. */
export function liveProgress(importId: string): ImportProgress | null {
  return readJobProgress<ImportProgress>(JOB, importId);
}

/**
 * Marks the import cancelled. A step running meanwhile sees the mark before its next row and saves the
 * cancelled state itself; saving here what was read before its last checkpoint would undo that row, so
 * the state is left as it is and the sidebar asks again once the step has answered.
 */
export function cancel(importId: string): ImportHandle {
  requestJobCancel(JOB, importId);
  const stored = load(importId);
  if (stepRunning(JOB, importId)) return handle(importId, stored);
  if (stored.kind === 'profiles') stored.state = cancelImport(stored.state);
  else stored.state = cancelImport(stored.state);
  saveJob(JOB, importId, stored);
  writeAll(stored);
  return handle(importId, stored);
}

export function resume(importId: string): ImportHandle {
  const stored = load(importId);
  clearJobCancel(JOB, importId);
  if (stored.kind === 'profiles') stored.state = resumeImport(stored.state);
  else stored.state = resumeImport(stored.state);
  if (stored.state.status === 'done') {
    forgetJob(JOB, importId);
  } else {
    saveJob(JOB, importId, stored);
    rememberJob(JOB, importId, Date.now());
  }
  return handle(importId, stored);
}

/** Imports of this spreadsheet from the last six hours that did not finish (cancelled, paused, or left running) and have no step running now. */
export function unfinishedImports(): ImportHandle[] {
  return unfinishedJobs<StoredImport>(JOB, Date.now()).map(({ id, stored }) => handle(id, stored));
}
