// Contacts from a range: one POST /contacts per planned row, strictly one after another, resumable, with a report.

import type { ApiClient } from '../api/client';
import { buildImportReport, pendingReason, statusText, type RowDescriber } from './import-report';
import { cloneJob, runImportStep, settleInterrupted, type ImportStepOptions, type ImportStepResult, type RowResult, type RowSender } from './row-job';
import { CONTACT_ROW_OUTCOMES, MAYBE_CREATED_MARK, type ContactRowOutcome, type ContactRowState, type ContactsImportState } from './contacts-plan';
import type { ImportReport, RowWrite } from './types';
import { classifyFailure, type Failure } from '../jobs/classify-failure';

export { CONTACT_ID_HEADER, CONTACT_ROW_OUTCOMES, MAYBE_CREATED_MARK, prepareContactsImport, resolveLists } from './contacts-plan';
export type { ContactRowOutcome, ContactRowState, ContactsImportInput, ContactsImportState } from './contacts-plan';

export type ContactsImportReport = ImportReport<ContactRowOutcome>;
export type ContactsImportStepOptions = ImportStepOptions<ContactsImportState>;

const MAYBE_CREATED =
  `may have been created (no answer came back from the API); its id cell says "${MAYBE_CREATED_MARK}", so a re-run skips it: look for the contact in the app, then paste its id there, or clear the cell to create it`;

/**
 * Runs one step: pending rows in sheet order, one POST at a time (never together, so an interruption
 * leaves at most the one in flight unsettled), until none is left or the deadline nears. The state is
 * checkpointed before every POST and after every row; the server writes the row's id (or the "check"
 * mark) and status into the sheet at each checkpoint, so even an interrupted run leaves ids for what it
 * created. A POST is never sent twice: one that got no clear answer (a lost connection, a 5xx, or an
 * execution that died mid-request) makes its row `unknown` and pauses the import; a refusal (4xx) fails
 * its row with the API's message and the import goes on. The given state is not changed.
 */
export function runContactsImportStep(state: ContactsImportState, client: ApiClient, options: ContactsImportStepOptions): ImportStepResult<ContactsImportState> {
  return runImportStep(state, client, options, CONTACT_SENDER);
}

/** The report at any point: before sending (a preview), during, after, or after a cancel. */
export function buildContactsImportReport(state: ContactsImportState): ContactsImportReport {
  const settled = cloneJob(state);
  settleInterrupted(settled, CONTACT_SENDER);
  return buildImportReport(settled, CONTACT_DESCRIBER);
}

const CONTACT_SENDER: RowSender<ContactsImportState> = {
  isCreate: () => true,

  send(state, index, client): RowResult {
    const row = state.rows[index];
    if (!row?.body) return { go: true };
    try {
      const contact = client.contacts.create(row.body);
      row.outcome = 'created';
      row.contactId = contact.id;
      row.idText = contact.id;
      delete row.body;
      return { go: true };
    } catch (error) {
      return onFailure(state, row, classifyFailure(error, 'import'));
    }
  },

  interrupted(state, index) {
    const row = state.rows[index];
    if (row) markUnknown(row, `the import stopped while it was being sent, so it ${MAYBE_CREATED}`);
  },

  write(state, index): RowWrite {
    const row = state.rows[index]!;
    const reason = row.outcome === 'pending' ? pendingReason(state) : row.reason ?? null;
    return { row: row.row, sheetRow: state.origin.row + row.row - 1, idText: row.idText ?? null, status: statusText(row.outcome, reason, CONTACT_DESCRIBER.note(row)) };
  },
};

function onFailure(state: ContactsImportState, row: ContactRowState, failure: Failure): RowResult {
  switch (failure.kind) {
    case 'refused':
      row.outcome = 'failed';
      row.reason = failure.reason + refusalHint(failure);
      delete row.body;
      return { go: true };
    case 'wait':
      return { go: false, kind: 'wait', message: failure.message, ...(failure.retryAfterMs !== undefined ? { retryAfterMs: failure.retryAfterMs } : {}), ...(failure.outOfTime ? { outOfTime: true as const } : {}) };
    case 'stop':
      return { go: false, kind: 'pause', message: failure.message };
    case 'unknown': {
      markUnknown(row, MAYBE_CREATED);
      const place = `row ${state.origin.row + row.row - 1} (${row.email})`;
      // Paused rather than going on: if the connection is down, every next row would end unknown too.
      return { go: false, kind: 'pause', message: `${failure.message} The contact of ${place} may have been created: its id cell says "${MAYBE_CREATED_MARK}".` };
    }
  }
}

function markUnknown(row: ContactRowState, reason: string): void {
  row.outcome = 'unknown';
  row.idText = MAYBE_CREATED_MARK;
  row.reason = reason;
  delete row.body;
}

function refusalHint(failure: Extract<Failure, { kind: 'refused' }>): string {
  const { error } = failure;
  if (error?.status === 422 && error.field === 'email') return ': a contact with this email may already exist in this company';
  if (error?.status === 422 && error.field === 'contact_list_ids') return ': a contact list is not one of this company\'s';
  return '';
}

const CONTACT_DESCRIBER: RowDescriber<ContactRowState, ContactRowOutcome> = {
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
