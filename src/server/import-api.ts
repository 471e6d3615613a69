// Profiles and contacts imported from a range, one row at a time, step by step; each settled row's
// id and status are written into the sheet at once, so even an interrupted run leaves its ids.

import { InputError } from '../core/errors';
import {
  buildContactsImportReport,
  buildProfilesImportReport,
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
import { requireUuid } from '../core/validate/uuid';
import { addressOf, cellText, columnIsEmpty, readRange, writeText } from '../gas/sheet-io';
import type { ImportHandle, ImportOutcome, ImportRequest } from '../shared/rpc';
import { createClientForExecution } from './api-factory';
import { keptAsIs, startJob, type JobKind, type StepContext } from './jobs-api';

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
  // An import with nothing to send is finished at once, and leaves nothing stored.
  return startJob(importJob, stored);
}

/** A step of the import: each settled row's id and status go into the sheet as it settles. */
function step(stored: StoredImport, { client, deadline, marginMs, shouldStop, checkpoint }: StepContext<StoredImport>): StoredImport {
  const save = (next: StoredImport, written: RowWrite | null): void => {
    checkpoint(next);
    if (written) writeRow(next, written);
  };
  const options = { deadline, marginMs, shouldStop };
  return stored.kind === 'profiles'
    ? { ...stored, state: runProfilesImportStep(stored.state, client, { ...options, onCheckpoint: (state, written) => save({ ...stored, state }, written) }).state }
    : { ...stored, state: runContactsImportStep(stored.state, client, { ...options, onCheckpoint: (state, written) => save({ ...stored, state }, written) }).state };
}

type ImportState = StoredImport['state'];

/** Imports as one kind of job (jobs-api). */
export const importJob: JobKind<StoredImport, ImportState, ImportHandle, ImportProgress> = {
  ...keptAsIs<StoredImport, ImportState>('import'),
  marginMs: 3_000,
  notStored: 'This import is no longer stored (imports can be resumed for six hours). Run it again: rows with ids are not created twice.',
  handle,
  progress: progressOf,
  resumeState: (state) => resumeImport<ImportState>(state),
  step,
  stopped: (_id, stored) => writeAll(stored),
};
