// Contacts: emails, duplicates, list names and id cells checked before anything is sent.

import { InputError } from '../../../src/core/errors';
import { buildContactsImportReport, prepareContactsImport, type ContactsImportState } from '../../../src/core/directory/contacts-import';
import { emailProblem } from '../../../src/core/directory/email';
import { BOARD, FUND, INVESTORS, LISTS, NEW_IDS } from './directory-fixtures';

const HEADER = ['Email', 'First name', 'Last name', 'Title', 'Contact lists', 'Contact id'];

function prepare(rows: unknown[][], header: unknown[] = HEADER, lists = LISTS): ContactsImportState {
  return prepareContactsImport({ range: { values: [header, ...rows], origin: { row: 1, column: 1 } }, companyId: FUND, contactLists: lists });
}

function one(row: unknown[]): ContactsImportState['rows'][number] {
  return prepare([row]).rows[0]!;
}

describe('email addresses', () => {
  it.each(['jane@example.com', 'jane.doe+funds@mail.example.co.uk', "o'brien@example.ie", 'JANE@EXAMPLE.COM', 'x@sub-domain.example'])(
    'accepts %s',
    (address) => {
      expect(emailProblem(address)).toBeUndefined();
    },
  );

  it.each([
    ['jane.example.com', 'the email "jane.example.com" has no @'],
    ['jane@@example.com', 'the email "jane@@example.com" has more than one @'],
    ['jane@', 'the email "jane@" has no domain after the @'],
    ['@example.com', 'the email "@example.com" has nothing before the @'],
    ['jane doe@example.com', 'the email "jane doe@example.com" contains a space'],
    ['Jane <jane@example.com>', 'the email "Jane <jane@example.com>" is in angle brackets: give the address alone, like jane@example.com'],
    ['<jane@example.com>', 'the email "<jane@example.com>" is in angle brackets: give the address alone, like jane@example.com'],
    [
      'jane..doe@example.com',
      'the part before the @ in "jane..doe@example.com" is not valid (letters, digits and !#$%&\'*+/=?^_`{|}~- only, with dots between them)',
    ],
    ['.jane@example.com', 'the part before the @ in ".jane@example.com" is not valid (letters, digits and !#$%&\'*+/=?^_`{|}~- only, with dots between them)'],
    [
      '"jane"@example.com',
      'the part before the @ in ""jane"@example.com" is not valid (letters, digits and !#$%&\'*+/=?^_`{|}~- only, with dots between them)',
    ],
    ['jane@localhost', 'the domain of "jane@localhost" is not a domain name like example.com'],
    ['jane@-example.com', 'the domain of "jane@-example.com" is not a domain name like example.com'],
    ['jane@example..com', 'the domain of "jane@example..com" is not a domain name like example.com'],
    ['jane@[10.0.0.1]', 'the domain of "jane@[10.0.0.1]" is not a domain name like example.com'],
    ['jane@10.0.0.1', 'the domain of "jane@10.0.0.1" ends in a number, not a name like .com'],
    ['jöhn@example.com', 'the part before the @ in "jöhn@example.com" is not valid (letters, digits and !#$%&\'*+/=?^_`{|}~- only, with dots between them)'],
    [`${'a'.repeat(65)}@example.com`, `the part before the @ in "${'a'.repeat(60)}…" is longer than 64 characters`],
  ])('refuses %s', (address, reason) => {
    expect(emailProblem(address)).toBe(reason);
  });

  it('fails a row with an empty or non-text email', () => {
    expect(one(['', 'Jane'])).toMatchObject({ outcome: 'failed', reason: 'the email is empty: every contact needs one' });
    expect(one([42, 'Jane'])).toMatchObject({ outcome: 'failed', reason: 'the email "42" has no @' });
    expect(one(['#N/A', 'Jane'])).toMatchObject({ outcome: 'failed', reason: 'the email cell A2 shows the error #N/A' });
  });

  it('sends the first row of an email and reports a later one, compared without regard to case, as its duplicate', () => {
    const state = prepare([['jane@example.com'], ['joe@example.com'], ['JANE@example.com'], ['joe@EXAMPLE.com']]);
    expect(state.rows.map((row) => [row.outcome, row.reason])).toEqual([
      ['pending', undefined],
      ['pending', undefined],
      ['failed', 'duplicate of row 2 (the same email): each contact can be created once'],
      ['failed', 'duplicate of row 3 (the same email): each contact can be created once'],
    ]);
  });

  it('reports a row whose email a row created before (with an id) already has as its duplicate, sending neither', () => {
    const state = prepare([['jane@example.com'], ['joe@example.com'], ['jane@EXAMPLE.com', '', '', '', '', NEW_IDS[0]]]);
    expect(state.rows.map((row) => [row.outcome, row.reason])).toEqual([
      ['failed', 'duplicate of row 4 (the same email): each contact can be created once'],
      ['pending', undefined],
      ['skipped', 'already created (the row has a contact id)'],
    ]);
  });

  it('refuses a row with a cell still calculating ("Loading…") or showing an error, naming the cell, in any column', () => {
    expect(one(['jane@example.com', 'Loading...'])).toMatchObject({
      outcome: 'failed',
      reason: 'the first name cell B2 shows "Loading…" (a custom function is still calculating): wait until it shows its value, then run this again',
    });
    expect(one(['jane@example.com', 'Jane', 'Loading…'])).toMatchObject({
      outcome: 'failed',
      reason: expect.stringContaining('the last name cell C2 shows "Loading…"'),
    });
    expect(one(['jane@example.com', 'Jane', '', '', '#ERROR!'])).toMatchObject({
      outcome: 'failed',
      reason: 'the contact lists cell E2 shows the error #ERROR!',
    });
  });
});

describe('the request body', () => {
  it('sends the names and title as typed, trimmed, and leaves blank and dashed cells out', () => {
    expect(one([' jane@example.com ', ' Jane ', '-', 'CFO', ''])).toMatchObject({
      outcome: 'pending',
      body: { email: 'jane@example.com', company_id: FUND, first_name: 'Jane', title: 'CFO' },
    });
    expect(one(['jane@example.com']).body).toEqual({ email: 'jane@example.com', company_id: FUND });
  });

  it('reads headers in other spellings and ignores columns it does not know', () => {
    const state = prepare([['jane@example.com', 'Jane', 'Doe', 'x']], ['E-mail', 'first_name', 'Surname', 'Notes']);
    expect(state.ignoredColumns).toEqual(['Notes']);
    expect(state.idColumn).toEqual({ column: 5, header: 'Contact id', isNew: true });
    expect(state.rows[0]!.body).toEqual({ email: 'jane@example.com', company_id: FUND, first_name: 'Jane', last_name: 'Doe' });
  });

  it('refuses a range without an Email column', () => {
    expect(() => prepare([['Jane']], ['Name'])).toThrow(InputError);
  });
});

describe('contact lists by id or by name', () => {
  it('resolves names without regard to case and ids in any case, separated by commas or semicolons, each list once', () => {
    const row = one(['jane@example.com', '', '', '', `investors; ${BOARD.toUpperCase()}, Board`]);
    expect(row.body?.contact_list_ids).toEqual([INVESTORS, BOARD]);
    expect(buildContactsImportReport(prepare([['jane@example.com', '', '', '', 'investors;board']])).rows[0]!.note).toBe('to join Investors, Board');
  });

  it('matches a list whose name holds a comma as a whole before splitting', () => {
    const lists = [...LISTS, { id: NEW_IDS[0]!, name: 'Friends, Family', company_id: FUND }];
    expect(prepare([['jane@example.com', '', '', '', 'friends, family']], HEADER, lists).rows[0]!.body?.contact_list_ids).toEqual([NEW_IDS[0]]);
  });

  it('fails an unknown list name, listing the lists that exist', () => {
    expect(one(['jane@example.com', '', '', '', 'Investors, Advisors; Press'])).toMatchObject({
      outcome: 'failed',
      reason: 'no contact list is named "Advisors" or "Press"; the company\'s lists are Investors, Board and Newsletter',
    });
  });

  it("fails a list id that is not one of the company's lists", () => {
    const stranger = '0d000000-0000-4000-8000-0000000000ff';
    expect(one(['jane@example.com', '', '', '', stranger]).reason).toBe(
      `the contact list id ${stranger} is not a list of this company; the company's lists are Investors, Board and Newsletter`,
    );
  });

  it('asks for the id when two lists share a name, and says when the company has no lists', () => {
    const twins = [...LISTS, { id: NEW_IDS[0]!, name: 'board', company_id: FUND }];
    expect(prepare([['jane@example.com', '', '', '', 'Board']], HEADER, twins).rows[0]!.reason).toBe(
      `2 contact lists are named "Board": give the id of the one you mean (${BOARD}, ${NEW_IDS[0]})`,
    );
    expect(prepare([['jane@example.com', '', '', '', 'Board']], HEADER, []).rows[0]!.reason).toBe(
      'no contact list is named "Board"; the company has no contact lists',
    );
  });
});

describe('id cells', () => {
  it('skips rows created before and rows marked "check", and fails an id cell holding anything else', () => {
    const state = prepare([
      ['a@example.com', '', '', '', '', NEW_IDS[0]],
      ['b@example.com', '', '', '', '', 'check: may have been created'],
      ['c@example.com', '', '', '', '', 'n/a'],
      ['d@example.com'],
    ]);
    expect(state.rows.map((row) => [row.outcome, row.reason])).toEqual([
      ['skipped', 'already created (the row has a contact id)'],
      [
        'skipped',
        'a previous run may have created it (the id cell says "check: may have been created"): look for it in the app, then paste its id there, or clear the cell to create it',
      ],
      ['failed', 'the id cell holds "n/a", which is not a contact id: clear it to create the contact'],
      ['pending', undefined],
    ]);
  });
});
