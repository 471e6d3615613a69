// Profiles and contacts imported from a range, one row at a time, step by step; each settled row's
// id and status are written into the sheet at once, so even an interrupted run leaves its ids.

import { importEntries } from './push-journal';
import { InputError } from '../core/errors';
import {
  buildContactsImportReport,
  buildProfilesImportReport,
  checkContactColumns,
  checkProfileColumns,
  requireKnownHeaders,
  importProgress,
  prepareContactsImport,
  prepareProfilesImport,
  profileFieldChanges,
  profileRenames,
  requireAcceptedRenames,
  resumeImport,
  runContactsImportStep,
  runProfilesImportStep,
  type ContactsImportState,
  type ImportColumnCheck,
  type ImportProgress,
  type ImportReport,
  type ProfileRename,
  type ProfilesImportState,
  type RowWrite,
  CONTACT_ID_HEADER,
  CONTACT_ROW_OUTCOMES,
  PROFILE_ROW_OUTCOMES,
  PROFILE_ID_HEADER,
  STATUS_HEADER as IMPORT_STATUS_HEADER,
} from '../core/directory';
import {
  compactContactsImport,
  compactNewContactsImport,
  compactNewProfilesImport,
  compactProfilesImport,
  expandContactsImport,
  expandProfilesImport,
  IMPORT_CODE_OUTCOMES,
  type CompactImport,
} from '../core/directory/compact-import';
import { jobProgress } from '../core/jobs/progress';
import { tallyOutcomes } from '../core/jobs/tally';
import { requireUuid } from '../core/validate/uuid';
import { addressOf, cellText, columnIsEmpty, readRange, writeText } from '../gas/sheet-io';
import type { ContactList, PortfolioCompanyProfile } from '../core/api/types';
import type { RangeInput } from '../core/directory/types';
import type { ImportHandle, ImportOutcome, ImportRequest } from '../shared/rpc';
import { sidebarClient } from './api-factory';
import { rereadKind, startJob, type RereadJob } from './jobs-api';
import { newlySettled, outcomeText } from '../core/jobs/push-log';

/** An import as it steps: its state, planned again from its range each time it is loaded. */
type StoredImport =
  | { kind: 'profiles'; request: ImportRequest; sheetName: string; state: ProfilesImportState }
  | { kind: 'contacts'; request: ImportRequest; sheetName: string; state: ContactsImportState };

type ImportState = StoredImport['state'];

/** An import as it is kept between steps: no copy of the rows (see core/directory/compact-import). */
type ImportRecord = Omit<StoredImport, 'state'> & { state: CompactImport };

const RANGE_CHANGED = 'The range changed since this import started. Run the import again: rows with ids are not created twice.';

function report(stored: StoredImport): ImportReport<string> {
  return stored.kind === 'profiles' ? buildProfilesImportReport(stored.state) : buildContactsImportReport(stored.state);
}

function outcome(stored: StoredImport): ImportOutcome {
  const built = report(stored);
  return {
    summary: built.summary,
    totals: built.totals,
    problems: built.rows
      .filter((row) => ['failed', 'conflict', 'existing', 'skipped', 'unknown'].includes(row.outcome))
      .slice(0, 50)
      .map((row) => ({ sheetRow: row.sheetRow, label: row.label, outcome: row.outcome, reason: row.reason })),
    problem: built.problem,
  };
}

/** A profile field's value as the Pushes sheet shows it: blank for none. */
function logValue(value: string | number | null): string | null {
  return value === null ? null : String(value);
}

/** Writes a row's id and status where the import said, as soon as the row settles. */
function writeRow(sheetName: string, { origin, idColumn, statusColumn }: ImportState, written: RowWrite): void {
  if (written.idText !== null) writeText(sheetName, written.sheetRow, origin.column + idColumn.column - 1, written.idText);
  writeText(sheetName, written.sheetRow, origin.column + statusColumn.column - 1, written.status);
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

/**
 * The import's preview: the headers of the range's first row it would read, those it would leave out (named,
 * so the person can choose), and for profiles the renames it would make, old → new, planned against the
 * fund's profiles as they are now (startImport sends only the renames the request carries back).
 */
export function checkImportColumns(request: ImportRequest): ImportColumnCheck {
  const { range } = rangeInput(withOwnColumns(request.range));
  const check = columnCheck(request, range);
  if (request.kind !== 'profiles' || range.values.length < 2) return check;
  const companyId = requireUuid(request.companyId, 'The company id');
  let renames: ProfileRename[];
  try {
    renames = profileRenames(prepareProfilesImport({ range, companyId, existingProfiles: sidebarClient().portfolio.listProfiles(companyId) }));
  } catch (error) {
    // A range that does not read as an import (no name column): startImport says why; there is no rename to show.
    if (error instanceof InputError) return { ...check, renames: [] };
    throw error;
  }
  return { ...check, renames };
}

function columnCheck(request: ImportRequest, range: RangeInput): ImportColumnCheck {
  const check = request.kind === 'profiles' ? checkProfileColumns : checkContactColumns;
  return check(range.values[0] ?? [], range.origin ?? { row: 1, column: 1 });
}

export function startImport(request: ImportRequest): ImportHandle {
  const companyId = requireUuid(request.companyId, 'The company id');
  request = { ...request, range: withOwnColumns(request.range) };
  const { sheetName, range } = rangeInput(request.range);
  if (range.values.length < 2) throw new InputError('Select a header row and at least one row to import.');
  // Before any request: a column left out must be the person's choice, not a surprise under a green summary.
  requireKnownHeaders(
    columnCheck(request, range),
    request.kind === 'profiles' ? 'The profile import' : 'The contact import',
    request.ignoreUnrecognisedColumns === true,
  );
  const client = sidebarClient();
  const job =
    request.kind === 'profiles'
      ? newProfilesImport(request, sheetName, range, client.portfolio.listProfiles(companyId))
      : newContactsImport(request, sheetName, range, client.contacts.listLists(companyId));
  const { row, column } = range.origin!;
  // New id and status columns go right of the range: never over someone's data.
  for (const target of [job.stored!.state.idColumn, job.stored!.state.statusColumn]) {
    if (target.isNew && !columnIsEmpty(sheetName, row, column + target.column - 1, range.values.length)) {
      throw new InputError(
        `The import writes a "${target.header}" column right of the range, but that column is not empty. Clear it, or add a "${target.header}" column to the range.`,
      );
    }
  }
  // An import with nothing to send is finished at once, and leaves nothing stored.
  return startJob(importJob, job);
}

/** A new profile import: its record keeps of the fund's profiles only those its rows matched. */
function newProfilesImport(
  request: ImportRequest,
  sheetName: string,
  range: RangeInput,
  existingProfiles: PortfolioCompanyProfile[],
): RereadJob<ImportRecord, StoredImport> {
  const state = prepareProfilesImport({ range, companyId: request.companyId, existingProfiles });
  // Checked against the profiles read just now, before anything is sent: a rename the preview did not show is refused.
  requireAcceptedRenames(state, request.renames ?? []);
  return {
    record: { kind: 'profiles', request, sheetName, state: compactNewProfilesImport(state, range, existingProfiles) },
    stored: { kind: 'profiles', request, sheetName, state },
  };
}

/** A new contact import: its record keeps of the company's lists only those its rows name. */
function newContactsImport(request: ImportRequest, sheetName: string, range: RangeInput, contactLists: ContactList[]): RereadJob<ImportRecord, StoredImport> {
  const state = prepareContactsImport({ range, companyId: request.companyId, contactLists });
  return {
    record: { kind: 'contacts', request, sheetName, state: compactNewContactsImport(state, range, contactLists) },
    stored: { kind: 'contacts', request, sheetName, state },
  };
}

function rangeInput(address: string): { sheetName: string; range: RangeInput } {
  const read = readRange(address);
  return { sheetName: read.sheetName, range: { values: read.values, displayValues: read.displayValues, origin: { row: read.row, column: read.column } } };
}

/** Imports as one kind of job (jobs-api). */
export const importJob = rereadKind<
  ImportRecord,
  StoredImport,
  ImportState,
  CompactImport,
  Pick<ImportHandle, 'importId' | 'kind' | 'range'>,
  ImportProgress,
  ImportOutcome
>({
  store: 'import',
  marginMs: 3_000,
  notStored: 'This import is no longer stored (imports can be resumed for six hours). Run it again: rows with ids are not created twice.',
  changed: RANGE_CHANGED,
  // An import stored by an earlier version kept its rows: not resumed (the sheet already has the ids it created).
  version: 2,
  rebuild: (record) => {
    const { range } = rangeInput(record.request.range);
    const { state, ...kept } = record;
    if (state.kind === 'profiles') {
      const expanded = expandProfilesImport(state, range);
      return expanded && { ...kept, kind: 'profiles', state: expanded };
    }
    const expanded = expandContactsImport(state, range);
    return expanded && { ...kept, kind: 'contacts', state: expanded };
  },
  // The new outcomes, over the parts kept from the start.
  compact: (stored, record) => {
    const kept = record.state;
    if (stored.kind === 'profiles' && kept.kind === 'profiles') return { ...record, state: compactProfilesImport(stored.state, kept) };
    if (stored.kind === 'contacts' && kept.kind === 'contacts') return { ...record, state: compactContactsImport(stored.state, kept) };
    throw new Error('An import changed its kind between steps.');
  },
  head: (importId, job) => ({ importId, kind: job.kind, range: job.request.range }),
  progress: (stored) => importProgress<ImportState['rows'][number]>(stored.state, Date.now()),
  outcome,
  resume: (state) => resumeImport<ImportState>(state),
  /** A step of the import: each settled row's id and status go into the sheet as it settles. */
  step: (stored, context) => {
    const options = {
      ...context,
      onCheckpoint: (state: ImportState, written: RowWrite | null): void => {
        context.checkpoint(state);
        if (written) writeRow(stored.sheetName, state, written);
      },
    };
    return stored.kind === 'profiles'
      ? runProfilesImportStep(stored.state, context.client, options).state
      : runContactsImportStep(stored.state, context.client, options).state;
  },
  /** An import's progress from its stored outcome codes alone, without reading its range. */
  recordProgress: (record) => {
    const outcomes = [...record.state.codes].map((code) => IMPORT_CODE_OUTCOMES[code] ?? 'pending');
    return jobProgress(record.state, Date.now(), { rowsDone: outcomes.filter((outcome) => outcome !== 'pending').length, rowsTotal: outcomes.length });
  },
  changedOutcome: (record) => ({
    summary: RANGE_CHANGED,
    totals: tallyOutcomes<string, string>(
      record.kind === 'profiles' ? PROFILE_ROW_OUTCOMES : CONTACT_ROW_OUTCOMES,
      record.state.codes,
      (code) => IMPORT_CODE_OUTCOMES[code] ?? 'pending',
    ),
    problems: [],
    problem: RANGE_CHANGED,
  }),
  stopped: writeAll,
  /**
   * Every row a step settled, for the Pushes sheet: what it created (its id) or why not; an updated profile's
   * fields one row each, with the value read just before the write (Old value) and the value written, and a
   * conflict's fields with the server's value then read and the value held back.
   */
  pushLog: (before, after) => {
    const time = new Date().toISOString();
    const kind = after.kind === 'profiles' ? ('Import profiles' as const) : ('Import contacts' as const);
    const reportAfter = report(after).rows;
    const settled = newlySettled(report(before).rows, reportAfter);
    return {
      rows: settled.flatMap((row) => {
        const base = { time, kind, period: '', cell: addressOf(after.sheetName, row.sheetRow, after.state.origin.column, 1, 1) };
        const outcomeOf = outcomeText(row.outcome, row.reason);
        const fields = after.kind === 'profiles' ? profileFieldChanges(after.state.rows[reportAfter.indexOf(row)]!) : [];
        if (fields.length === 0) return [{ ...base, what: row.label, oldValue: null, newValue: row.idText, outcome: outcomeOf }];
        return fields.map((field) => ({
          ...base,
          what: `${row.label} › ${field.label}`,
          oldValue: logValue(field.old),
          newValue: logValue(field.new),
          outcome: outcomeOf,
        }));
      }),
    };
  },
  journal: (before, after) => ({
    kind: after.kind === 'profiles' ? 'Import profiles' : 'Import contacts',
    companyId: after.request.companyId,
    entries: importEntries(before, after),
  }),
});
