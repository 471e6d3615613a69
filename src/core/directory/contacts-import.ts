// Contacts from a range: each row planned (create, skip or fail) before anything is sent, then one POST
// /contacts per row, strictly one after another, resumable, with a report.

import type { ApiClient } from '../api/client';
import type { ContactInput, ContactList } from '../api/types';
import { joinAnd, quote } from '../../shared/words';
import { isUuid, requireUuid } from '../validate/uuid';
import { cellText, isBlankCell, isClearMark, shown } from './cell-text';
import { emailProblem } from './email';
import { checkImportHeader, markDuplicates, newImportJob, readImportRows, type FieldColumn, type ImportColumnCheck } from './range-header';
import { importReport, runImportStep, type ImportKind, type ImportStepOptions, type ImportStepResult } from './import-job';
import type { ImportJob, ImportReport, RangeInput, SheetPosition } from './types';

/**
 * What happened to one row.
 * - created: confirmed by the API; its id is written into the id column.
 * - skipped: the id cell already holds an id (created before) or the "check" mark; nothing sent.
 * - existing: the API already has a contact with this email in this company (it refused it as taken).
 * - failed: refused by validation or by the API; has a reason.
 * - unknown: sent, but no answer came back: it may have been created. The id column gets the "check" mark.
 * - pending: not sent yet.
 */
export type ContactRowOutcome = 'created' | 'existing' | 'skipped' | 'failed' | 'unknown' | 'pending';

export const CONTACT_ROW_OUTCOMES: readonly ContactRowOutcome[] = ['created', 'existing', 'skipped', 'failed', 'unknown', 'pending'];

/**
 * Why an existing contact's row is not an error, and why its other cells were not applied: the spec has
 * no GET or PUT of a contact (only POST /contacts), so the add-in can neither find it nor update it.
 */
const EXISTING =
  'a contact with this email already exists in this company; the API has no contact lookup or update, so a changed name, title or list of an existing contact cannot be updated through the API: change it in the web application';

/**
 * Written into the id cell of a row whose creation could not be confirmed (there is no GET /contacts
 * to check), so that a re-run skips it until the user pastes the contact's id there or clears the cell.
 * Any id cell starting with "check:" is read as this mark.
 */
export const MAYBE_CREATED_MARK = 'check: may have been created';

/** Heads the id column the server adds when the range has none (see newImportJob). */
export const CONTACT_ID_HEADER = 'Contact id';

type ContactRowState = {
  row: number;
  /** The address as typed (trimmed); '' when the cell is empty. */
  email: string;
  outcome: ContactRowOutcome;
  body?: ContactInput;
  contactId?: string;
  /** What the id column gets: the created id, or MAYBE_CREATED_MARK. */
  idText?: string;
  reason?: string;
  /** Names of the lists the contact joins, for the report. */
  lists?: string[];
};

export type ContactsImportState = ImportJob<ContactRowState> & { version: 1; kind: 'contacts'; companyId: string };

type ContactsImportInput = {
  range: RangeInput;
  companyId: string;
  /** The company's lists, from client.contacts.listLists(companyId): list names resolve through them. */
  contactLists: readonly ContactList[];
};

type ContactColumn = 'email' | 'firstName' | 'lastName' | 'title' | 'lists' | 'id';

/** Aliases are normalised headers: "E-mail" is "e mail"; "first_name" and "First-name" are "first name". */
const CONTACT_COLUMNS: ReadonlyArray<FieldColumn<ContactColumn>> = [
  { key: 'email', aliases: ['email', 'email address', 'e mail', 'e mail address'], required: true },
  { key: 'firstName', aliases: ['first name', 'firstname', 'given name'] },
  { key: 'lastName', aliases: ['last name', 'lastname', 'surname', 'family name'] },
  { key: 'title', aliases: ['title', 'job title'] },
  { key: 'lists', aliases: ['contact lists', 'contact list', 'lists', 'list', 'contact list ids', 'contact list id'] },
  { key: 'id', aliases: ['contact id', 'id'] },
];

/** What a contact import reads of this header row, and what it would leave out. */
export function checkContactColumns(header: readonly unknown[], origin: SheetPosition): ImportColumnCheck {
  return checkImportHeader(header, CONTACT_COLUMNS, origin);
}

/** At most this many list names are quoted in a reason, so one row cannot flood the report. */
const MAX_NAMES_SHOWN = 25;

type ReadRow = {
  row: number;
  email: string;
  /** Why the row is not sent at all (its id cell): decided before anything else is checked. */
  skip?: string;
  problems: string[];
  body?: ContactInput;
  lists: string[];
};

/**
 * Plans every row; nothing is sent. A row whose id cell is filled is skipped: it was created before (the
 * id was written back) or may have been (the "check" mark), so re-running an import creates nothing
 * twice. Every other row is checked whole, all its problems listed at once.
 */
export function prepareContactsImport(input: ContactsImportInput): ContactsImportState {
  const companyId = requireUuid(input.companyId, 'The company id');
  const table = readImportRows(input.range, CONTACT_COLUMNS, 'A contact import', (row, cell) => readRow(row, cell, companyId, input.contactLists));
  const { rows: read, origin } = table;
  // Emails compare without regard to case, as the API's uniqueness does. A row created before (its id cell
  // is filled) comes first, then the first row in sheet order is sent; any other is a duplicate of it.
  markDuplicates(
    [...read.filter((row) => row.skip), ...read.filter((row) => !row.skip)],
    origin,
    (row) => (row.email.includes('@') ? row.email.toLowerCase() : undefined),
    (_, first) => `duplicate of ${first} (the same email): each contact can be created once`,
  );

  const rows = read.map(planRow);
  return { version: 1, kind: 'contacts', companyId, ...newImportJob(table, input.range, rows, CONTACT_ID_HEADER) };
}

function readRow(row: number, cell: (key: ContactColumn) => unknown, companyId: string, lists: readonly ContactList[]): ReadRow {
  const emailCell = cell('email');
  const emailText = isBlankCell(emailCell) ? { text: '' } : cellText(emailCell, 'email');
  const email = 'text' in emailText ? emailText.text : '';
  const read: ReadRow = { row, email, problems: [], lists: [] };

  const skip = skipReason(cell('id'));
  if (skip) return { ...read, ...skip };

  const problem = 'reason' in emailText ? emailText.reason : email === '' ? 'the email is empty: every contact needs one' : emailProblem(email);
  if (problem) read.problems.push(problem);
  const body: ContactInput = { email, company_id: companyId };
  const optional: Array<[ContactColumn, 'first_name' | 'last_name' | 'title', string]> = [
    ['firstName', 'first_name', 'first name'],
    ['lastName', 'last_name', 'last name'],
    ['title', 'title', 'title'],
  ];
  for (const [key, field, what] of optional) {
    const value = cell(key);
    // A dash means "none" here as in the profile import; on creation that is the same as blank.
    if (isBlankCell(value) || isClearMark(value)) continue;
    const text = cellText(value, what);
    if ('reason' in text) read.problems.push(text.reason);
    else body[field] = text.text;
  }
  const resolved = resolveLists(cell('lists'), lists);
  if ('reason' in resolved) read.problems.push(resolved.reason);
  else if (resolved.ids.length > 0) {
    body.contact_list_ids = resolved.ids;
    read.lists = resolved.names;
  }
  return { ...read, body };
}

/** A filled id cell means the row is not sent: skipped when it holds an id or the mark, failed otherwise. */
function skipReason(idCell: unknown): { skip: string } | { problems: string[] } | undefined {
  if (isBlankCell(idCell)) return undefined;
  const text = typeof idCell === 'string' ? idCell.trim() : idCell;
  if (isUuid(text)) return { skip: 'already created (the row has a contact id)' };
  if (typeof text === 'string' && /^check:/i.test(text)) {
    return {
      skip: `a previous run may have created it (the id cell says ${quote(text)}): look for it in the app, then paste its id there, or clear the cell to create it`,
    };
  }
  return { problems: [`the id cell holds ${shown(idCell)}, which is not a contact id: clear it to create the contact`] };
}

/**
 * Lists by id or by name (without regard to case), several separated by commas or semicolons. A cell
 * that is exactly one list's name matches it whole first, so a name with a comma in it still works.
 */
function resolveLists(cell: unknown, lists: readonly ContactList[]): { ids: string[]; names: string[] } | { reason: string } {
  if (isBlankCell(cell) || isClearMark(cell)) return { ids: [], names: [] };
  const text = cellText(cell, 'contact lists');
  if ('reason' in text) return text;
  const named = (name: string) => lists.filter((list) => list.name.trim().toLowerCase() === name.toLowerCase());
  const whole = named(text.text);
  const [wholeMatch] = whole;
  if (wholeMatch && whole.length === 1) return { ids: [wholeMatch.id.toLowerCase()], names: [wholeMatch.name] };

  const ids: string[] = [];
  const names: string[] = [];
  const unknownNames: string[] = [];
  const problems: string[] = [];
  let unknownId = false;
  for (const token of text.text
    .split(/[,;\n]/)
    .map((part) => part.trim())
    .filter((part) => part !== '')) {
    // Passed as unknown: isUuid's type guard would otherwise narrow a non-id string to never below.
    if (isUuid(token as unknown)) {
      const list = lists.find((candidate) => candidate.id.toLowerCase() === token.toLowerCase());
      if (list) add(list);
      else {
        unknownId = true;
        problems.push(`the contact list id ${token.toLowerCase()} is not a list of this company`);
      }
      continue;
    }
    const matches = named(token);
    const [only] = matches;
    if (only && matches.length === 1) add(only);
    else if (matches.length > 1)
      problems.push(
        `${matches.length} contact lists are named ${quote(token)}: give the id of the one you mean (${matches.map((list) => list.id).join(', ')})`,
      );
    else unknownNames.push(quote(token));
  }
  if (unknownNames.length > 0) {
    problems.unshift(`no contact list is named ${joinAnd(unknownNames, { word: 'or' })}`);
  }
  // Naming what exists turns "no such list" into a typo the user can see.
  if (unknownNames.length > 0 || unknownId) problems.push(existingLists(lists));
  if (problems.length > 0) return { reason: problems.join('; ') };
  return { ids, names };

  function add(list: ContactList): void {
    const id = list.id.toLowerCase();
    if (ids.includes(id)) return;
    ids.push(id);
    names.push(list.name);
  }
}

/** "the company's lists are Board, Investors and Newsletter", cut short past MAX_NAMES_SHOWN. */
function existingLists(lists: readonly ContactList[]): string {
  if (lists.length === 0) return 'the company has no contact lists';
  return `the company's lists are ${joinAnd(
    lists.map((list) => list.name),
    { limit: MAX_NAMES_SHOWN },
  )}`;
}

function planRow(read: ReadRow): ContactRowState {
  const base = { row: read.row, email: read.email };
  if (read.skip) return { ...base, outcome: 'skipped', reason: read.skip };
  if (read.problems.length > 0 || !read.body) return { ...base, outcome: 'failed', reason: read.problems.join('; ') };
  return { ...base, outcome: 'pending', body: read.body, ...(read.lists.length > 0 ? { lists: read.lists } : {}) };
}

const MAYBE_CREATED = `may have been created (no answer came back from the API); its id cell says "${MAYBE_CREATED_MARK}", so a re-run skips it: look for the contact in the app, then paste its id there, or clear the cell to create it`;

/**
 * One POST /contacts per row (see runImportStep). A POST is never sent twice: one that got no clear
 * answer makes its row `unknown` (its id cell gets the "check" mark) and pauses the import.
 */
export function runContactsImportStep(
  state: ContactsImportState,
  client: ApiClient,
  options: ImportStepOptions<ContactsImportState>,
): ImportStepResult<ContactsImportState> {
  return runImportStep(state, client, options, CONTACTS);
}

export function buildContactsImportReport(state: ContactsImportState): ImportReport<ContactRowOutcome> {
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

  fail(row, reason) {
    row.outcome = 'failed';
    row.reason = reason;
    delete row.body;
  },

  refused(row, error) {
    // The API names the taken email on the email field ("has already been taken"); any other refusal of it fails the row.
    if (error.status !== 422 || error.field !== 'email' || !/taken|exists/i.test(error.apiMessage ?? '')) return false;
    row.outcome = 'existing';
    row.reason = EXISTING;
    delete row.body;
    return true;
  },

  refusalHints: {
    '422 email': ': a contact with this email may already exist in this company',
    '422 contact_list_ids': ": a contact list is not one of this company's",
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
