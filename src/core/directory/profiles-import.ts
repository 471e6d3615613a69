// Profiles from a range: each planned row sent as a POST (create) or PUT (update), one at a time, with a report.

import type { ApiClient } from '../api/client';
import { quote } from '../export/places';
import type { ApiError } from '../errors';
import { importReport, runImportStep, type ImportKind, type ImportStepOptions, type ImportStepResult } from './row-job';
import { PROFILE_ROW_OUTCOMES, type ProfileRowOutcome, type ProfileRowState, type ProfilesImportState } from './profiles-plan';
import type { ImportReport } from './types';

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
 * One POST (create) or PUT (update) per row (see runImportStep). A creation that got no clear answer
 * fails its row (see MAYBE_CREATED) and pauses the import so the user can look; an update that got none
 * stays pending and is sent again on resume (a PUT is idempotent).
 */
export function runProfilesImportStep(state: ProfilesImportState, client: ApiClient, options: ProfilesImportStepOptions): ImportStepResult<ProfilesImportState> {
  return runImportStep(state, client, options, PROFILES);
}

export function buildProfilesImportReport(state: ProfilesImportState): ProfilesImportReport {
  return importReport(state, PROFILES);
}

const PROFILES: ImportKind<ProfileRowState, ProfileRowOutcome> = {
  isCreate: (row) => row.action === 'create',

  send(row, client) {
    if (!row.body || !row.action) return;
    if (row.action === 'create') row.profileId = client.portfolio.createProfile(row.body).id;
    else client.portfolio.updateProfile(row.profileId ?? '', row.body);
    row.outcome = row.action === 'create' ? 'created' : 'updated';
    // Once confirmed, the request is history: dropping it keeps the stored state small.
    delete row.body;
    delete row.action;
  },

  refused: (row, failure) => fail(row, failure.reason + refusalHint(failure.error)),

  unanswered(row, sheetRow) {
    const place = `row ${sheetRow} (${quote(row.name)})`;
    if (row.action !== 'create') return `The update of ${place} was not confirmed; resuming sends it again.`;
    fail(row, MAYBE_CREATED);
    return `The profile of ${place} may have been created: check before resuming.`;
  },

  interrupted(row) {
    if (row.action === 'create') fail(row, `the import stopped while it was being sent, so it ${MAYBE_CREATED}`);
  },

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

/** What the API's refusal means for a profile, where a field says it. */
function refusalHint(error: ApiError | undefined): string {
  if (error?.status === 422 && error.field === 'name') return ': another profile of this fund has this name (names are compared without regard to case)';
  if (error?.status === 400 && error.field === 'id') return ': the profile no longer exists; clear the id cell to create it again';
  if (error?.status === 422 && error.field === 'primary_contact_id') return ': the primary contact must be a contact of this fund';
  return '';
}

function fail(row: ProfileRowState, reason: string): void {
  row.outcome = 'failed';
  row.reason = reason;
  delete row.body;
  delete row.action;
}
