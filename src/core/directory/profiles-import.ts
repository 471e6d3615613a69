// Profiles from a range: each planned row sent as a POST (create) or PUT (update), one at a time, with a report.

import type { ApiClient } from '../api/client';
import { quote } from '../export/places';
import { buildImportReport, statusText, pendingReason, type RowDescriber } from './import-report';
import { cloneJob, runImportStep, settleInterrupted, type ImportStepOptions, type ImportStepResult, type RowResult, type RowSender } from './row-job';
import { PROFILE_ROW_OUTCOMES, type ProfileRowOutcome, type ProfileRowState, type ProfilesImportState } from './profiles-plan';
import type { ImportReport, RowWrite } from './types';
import { classifyFailure, type Failure } from '../jobs/classify-failure';

export { prepareProfilesImport, PROFILE_ID_HEADER, PROFILE_ROW_OUTCOMES } from './profiles-plan';
export type { ProfileFieldName, ProfileRowOutcome, ProfileRowState, ProfilesImportInput, ProfilesImportState } from './profiles-plan';

export type ProfilesImportReport = ImportReport<ProfileRowOutcome>;
export type ProfilesImportStepOptions = ImportStepOptions<ProfilesImportState>;

/**
 * Why a POST that got no clear answer failed. A re-run matches the profile by its name, so it cannot
 * create it twice: at worst it updates the profile this run created.
 */
const MAYBE_CREATED =
  'may have been created (no answer came back from the API): check the fund\'s profiles before running the import again; a re-run matches it by name, so it would update it, not create it twice';

/**
 * Runs one step: pending rows in sheet order, one request at a time, until none is left or the
 * deadline nears. A POST is never sent twice: a creation that got no clear answer fails its row (see
 * MAYBE_CREATED) and pauses the import so the user can look; a PUT that got none stays pending and is
 * sent again on resume (it is idempotent). A refusal (4xx) fails its row with the API's message and
 * the import goes on. `onCheckpoint` gets every settled row's id and status, to write into the sheet
 * at once. The given state is not changed.
 */
export function runProfilesImportStep(state: ProfilesImportState, client: ApiClient, options: ProfilesImportStepOptions): ImportStepResult<ProfilesImportState> {
  return runImportStep(state, client, options, PROFILE_SENDER);
}

/** The report at any point: before sending (a preview), during, after, or after a cancel. */
export function buildProfilesImportReport(state: ProfilesImportState): ProfilesImportReport {
  const settled = cloneJob(state);
  settleInterrupted(settled, PROFILE_SENDER);
  return buildImportReport(settled, PROFILE_DESCRIBER);
}

const PROFILE_SENDER: RowSender<ProfilesImportState> = {
  isCreate: (state, index) => state.rows[index]?.action === 'create',

  send(state, index, client): RowResult {
    const row = state.rows[index];
    if (!row?.body || !row.action) return { go: true };
    try {
      if (row.action === 'create') {
        const created = client.portfolio.createProfile(row.body);
        row.profileId = created.id;
        settle(row, 'created');
      } else {
        client.portfolio.updateProfile(row.profileId ?? '', row.body);
        settle(row, 'updated');
      }
      return { go: true };
    } catch (error) {
      return onFailure(state, row, classifyFailure(error, 'import'));
    }
  },

  interrupted(state, index) {
    const row = state.rows[index];
    if (row?.action === 'create') fail(row, `the import stopped while it was being sent, so it ${MAYBE_CREATED}`);
  },

  write(state, index): RowWrite {
    const row = state.rows[index]!;
    return { row: row.row, sheetRow: state.origin.row + row.row - 1, idText: PROFILE_DESCRIBER.idText(row), status: rowStatus(state, row) };
  },
};

function onFailure(state: ProfilesImportState, row: ProfileRowState, failure: Failure): RowResult {
  const place = `row ${state.origin.row + row.row - 1} (${quote(row.name)})`;
  switch (failure.kind) {
    case 'refused':
      fail(row, failure.reason + refusalHint(failure));
      return { go: true };
    case 'wait':
      return { go: false, kind: 'wait', message: failure.message, ...(failure.retryAfterMs !== undefined ? { retryAfterMs: failure.retryAfterMs } : {}), ...(failure.outOfTime ? { outOfTime: true as const } : {}) };
    case 'stop':
      return { go: false, kind: 'pause', message: failure.message };
    case 'unknown':
      if (row.action === 'create') {
        fail(row, MAYBE_CREATED);
        return { go: false, kind: 'pause', message: `${failure.message} The profile of ${place} may have been created: check before resuming.` };
      }
      return { go: false, kind: 'pause', message: `${failure.message} The update of ${place} was not confirmed; resuming sends it again.` };
  }
}

/** What the API's refusal means for a profile, where a field says it. */
function refusalHint(failure: Extract<Failure, { kind: 'refused' }>): string {
  const { error } = failure;
  if (!error) return '';
  if (error.status === 422 && error.field === 'name') return ': another profile of this fund has this name (names are compared without regard to case)';
  if (error.status === 400 && error.field === 'id') return ': the profile no longer exists; clear the id cell to create it again';
  if (error.status === 422 && error.field === 'primary_contact_id') return ': the primary contact must be a contact of this fund';
  return '';
}

function settle(row: ProfileRowState, outcome: 'created' | 'updated'): void {
  row.outcome = outcome;
  // Once confirmed, the request is history: dropping it keeps the stored state small.
  delete row.body;
  delete row.action;
}

function fail(row: ProfileRowState, reason: string): void {
  row.outcome = 'failed';
  row.reason = reason;
  delete row.body;
  delete row.action;
}

const PROFILE_DESCRIBER: RowDescriber<ProfileRowState, ProfileRowOutcome> = {
  outcomes: PROFILE_ROW_OUTCOMES,
  label: (row) => row.name,
  note(row) {
    const parts: string[] = [];
    if (row.outcome === 'pending') parts.push(row.action === 'create' ? 'to be created' : `to update ${(row.changed ?? []).join(', ')}`);
    if (row.matchedBy === 'name') parts.push('matched by name');
    if (row.outcome === 'updated' && row.changed) parts.push(`changed: ${row.changed.join(', ')}`);
    if (row.outcome !== 'failed') parts.push(...(row.notes ?? []));
    return parts.length > 0 ? parts.join('; ') : null;
  },
  /** A profile's id goes back into an empty id cell once known, so the next run matches by id (and may rename). */
  idText: (row) => (row.writeId && row.profileId && row.outcome !== 'pending' && row.outcome !== 'failed' ? row.profileId : null),
};

function rowStatus(state: ProfilesImportState, row: ProfileRowState): string {
  const reason = row.outcome === 'pending' ? pendingReason(state) : row.reason ?? null;
  return statusText(row.outcome, reason, PROFILE_DESCRIBER.note(row));
}
