// Contacts from a range: one POST /contacts per planned row, strictly one after another, resumable, with a report.

import type { ApiClient } from '../api/client';
import type { ApiError } from '../errors';
import { importReport, runImportStep, type ImportKind, type ImportStepOptions, type ImportStepResult } from './row-job';
import { CONTACT_ROW_OUTCOMES, MAYBE_CREATED_MARK, type ContactRowOutcome, type ContactRowState, type ContactsImportState } from './contacts-plan';
import type { ImportReport } from './types';

export { CONTACT_ID_HEADER, CONTACT_ROW_OUTCOMES, MAYBE_CREATED_MARK, prepareContactsImport, resolveLists } from './contacts-plan';
export type { ContactRowOutcome, ContactRowState, ContactsImportInput, ContactsImportState } from './contacts-plan';

export type ContactsImportReport = ImportReport<ContactRowOutcome>;
export type ContactsImportStepOptions = ImportStepOptions<ContactsImportState>;

const MAYBE_CREATED =
  `may have been created (no answer came back from the API); its id cell says "${MAYBE_CREATED_MARK}", so a re-run skips it: look for the contact in the app, then paste its id there, or clear the cell to create it`;

/**
 * One POST /contacts per row (see runImportStep). A POST is never sent twice: one that got no clear
 * answer makes its row `unknown` (its id cell gets the "check" mark) and pauses the import.
 */
export function runContactsImportStep(state: ContactsImportState, client: ApiClient, options: ContactsImportStepOptions): ImportStepResult<ContactsImportState> {
  return runImportStep(state, client, options, CONTACTS);
}

export function buildContactsImportReport(state: ContactsImportState): ContactsImportReport {
  return importReport(state, CONTACTS);
}

const CONTACTS: ImportKind<ContactRowState, ContactRowOutcome> = {
  isCreate: () => true,

  send(row, client) {
    if (!row.body) return;
    const contact = client.contacts.create(row.body);
    row.outcome = 'created';
    row.contactId = contact.id;
    row.idText = contact.id;
    delete row.body;
  },

  refused(row, failure) {
    row.outcome = 'failed';
    row.reason = failure.reason + refusalHint(failure.error);
    delete row.body;
  },

  unanswered(row, sheetRow) {
    markUnknown(row, MAYBE_CREATED);
    // Paused rather than going on: if the connection is down, every next row would end unknown too.
    return `The contact of row ${sheetRow} (${row.email}) may have been created: its id cell says "${MAYBE_CREATED_MARK}".`;
  },

  interrupted: (row) => markUnknown(row, `the import stopped while it was being sent, so it ${MAYBE_CREATED}`),

  outcomes: CONTACT_ROW_OUTCOMES,
  label: (row) => row.email,
  note(row) {
    if (!row.lists || (row.outcome !== 'created' && row.outcome !== 'pending')) return null;
    return `${row.outcome === 'pending' ? 'to join' : 'added to'} ${row.lists.join(', ')}`;
  },
  idText: (row) => row.idText ?? null,
  phrase(outcome, count) {
    if (outcome === 'unknown') return `${count} unknown (may have been created: check before clearing their id cells)`;
    return undefined;
  },
};

function markUnknown(row: ContactRowState, reason: string): void {
  row.outcome = 'unknown';
  row.idText = MAYBE_CREATED_MARK;
  row.reason = reason;
  delete row.body;
}

function refusalHint(error: ApiError | undefined): string {
  if (error?.status === 422 && error.field === 'email') return ': a contact with this email may already exist in this company';
  if (error?.status === 422 && error.field === 'contact_list_ids') return ': a contact list is not one of this company\'s';
  return '';
}
