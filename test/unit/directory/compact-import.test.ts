// What an import stores between steps: no copy of its rows, only codes, created ids and
// the reasons a fresh plan would not give; planned again from the range, it is the import it was, and an
// edited range is not this import any more.

import {
  compactContactsImport,
  compactNewContactsImport,
  compactNewProfilesImport,
  compactProfilesImport,
  expandContactsImport,
  expandProfilesImport,
} from '../../../src/core/directory/compact-import';
import { buildContactsImportReport, MAYBE_CREATED_MARK, prepareContactsImport, type ContactsImportState } from '../../../src/core/directory/contacts-import';
import { buildProfilesImportReport, prepareProfilesImport, type ProfilesImportState } from '../../../src/core/directory/profiles-import';
import type { RangeInput } from '../../../src/core/directory/types';
import { ACME, BETA, EXISTING, FUND, LISTS, NEW_IDS, profile } from './directory-fixtures';

const CONTACT_HEADER = ['Email', 'First name', 'Contact lists', 'Contact id', 'Import status'];

function range(values: unknown[][]): RangeInput {
  return { values, displayValues: values.map((row) => row.map((cell) => String(cell ?? ''))), origin: { row: 1, column: 1 } };
}

const CONTACT_ROWS: unknown[][] = [
  CONTACT_HEADER,
  ['ann@example.com', 'Ann', 'Investors', '', ''],
  ['bob@example.com', 'Bob', 'Board', '', ''],
  ['cy@example.com', 'Cy', '', '', ''],
  ['not an email', 'Dee', '', '', ''],
  ['ed@example.com', 'Ed', '', NEW_IDS[8], ''],
  ['fay@example.com', 'Fay', '', '', ''],
];

/** The state after a step settled the first three rows: one created, one refused by the API, one in doubt. */
function contactsAfterAStep(): { start: ContactsImportState; state: ContactsImportState; sheet: unknown[][] } {
  const start = prepareContactsImport({ range: range(CONTACT_ROWS), companyId: FUND, contactLists: LISTS });
  const state = structuredClone(start);
  const [ann, bob, cy] = state.rows;
  Object.assign(ann!, { outcome: 'created', contactId: NEW_IDS[0], idText: NEW_IDS[0] });
  delete ann!.body;
  Object.assign(bob!, { outcome: 'failed', reason: 'the API refused it: email has already been taken' });
  delete bob!.body;
  Object.assign(cy!, { outcome: 'unknown', idText: MAYBE_CREATED_MARK, reason: 'may have been created' });
  delete cy!.body;
  state.counters = { ...state.counters, steps: 1, requests: 3 };
  state.status = 'paused';
  state.problem = 'The connection was lost.';
  // What the server wrote into the sheet meanwhile: ids and statuses.
  const sheet = CONTACT_ROWS.map((row) => [...row]);
  sheet[1]![3] = NEW_IDS[0];
  sheet[1]![4] = 'created';
  sheet[2]![4] = 'failed: the API refused it';
  sheet[3]![3] = MAYBE_CREATED_MARK;
  return { start, state, sheet };
}

describe('a compact contact import', () => {
  it('plans the range again into the state it stored, ids written since and all, and its report is the same', () => {
    const { start, state, sheet } = contactsAfterAStep();
    const kept = compactNewContactsImport(start, range(CONTACT_ROWS), LISTS);
    const stored = JSON.parse(JSON.stringify(compactContactsImport(state, kept))) as typeof kept;
    const text = JSON.stringify(stored);
    // No copy of the rows: neither an email nor a first name, and of the lists only those pending rows name.
    for (const word of ['ann@', 'bob@', 'fay@', 'Ann', 'Dee']) expect(text).not.toContain(word);
    expect(stored.lists.map(([, name]) => name)).toEqual(['Investors', 'Board']);
    const expanded = expandContactsImport(stored, range(sheet));
    expect(expanded).toEqual(state);
    expect(buildContactsImportReport(expanded!)).toEqual(buildContactsImportReport(state));
  });

  it('keeps each created UUID in 22 characters, 3 hex digits as 2 of 64, and plans it back whole', () => {
    // Ids whose digits take every value a group can: all zeros, all f, and a run through 0-f.
    const ids = ['00000000-0000-4000-8000-000000000000', 'ffffffff-ffff-4fff-bfff-ffffffffffff', '0123abcd-4567-4ef0-89ab-cdef01234567'];
    const digits = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const reference = (id: string): string =>
      (id.replace(/-/g, '').match(/.{1,3}/g) ?? []).map((group) => digits[parseInt(group, 16) >> 6]! + digits[parseInt(group, 16) & 63]!).join('');
    for (const id of ids) {
      const { start, state, sheet } = contactsAfterAStep();
      Object.assign(state.rows[0]!, { contactId: id, idText: id });
      sheet[1]![3] = id;
      const stored = compactContactsImport(state, compactNewContactsImport(start, range(CONTACT_ROWS), LISTS));
      expect(stored.ids).toEqual([reference(id)]);
      expect(stored.ids[0]).toHaveLength(22);
      expect(expandContactsImport(stored, range(sheet))!.rows[0]).toMatchObject({ contactId: id, idText: id });
    }
  });

  it('keeps ids that are not UUIDs as they are', () => {
    const { start, state, sheet } = contactsAfterAStep();
    Object.assign(state.rows[0]!, { contactId: 'c-42', idText: 'c-42' });
    sheet[1]![3] = 'c-42';
    const stored = compactContactsImport(state, compactNewContactsImport(start, range(CONTACT_ROWS), LISTS));
    expect(expandContactsImport(stored, range(sheet))!.rows[0]).toMatchObject({ contactId: 'c-42', idText: 'c-42' });
  });

  it('is not the import any more when an input cell was edited, but is when only its status column was', () => {
    const { start, state, sheet } = contactsAfterAStep();
    const stored = compactContactsImport(state, compactNewContactsImport(start, range(CONTACT_ROWS), LISTS));
    const statusEdited = sheet.map((row) => [...row]);
    statusEdited[5]![4] = 'something the user typed';
    expect(expandContactsImport(stored, range(statusEdited))).not.toBeNull();
    const emailEdited = sheet.map((row) => [...row]);
    emailEdited[6]![0] = 'fay@example.org';
    expect(expandContactsImport(stored, range(emailEdited))).toBeNull();
    const headerEdited = sheet.map((row) => [...row]);
    headerEdited[0]![0] = 'Mail';
    expect(expandContactsImport(stored, range(headerEdited))).toBeNull();
  });

  it('does not send a pending row whose id cell was filled in since: it is planned otherwise now', () => {
    const { start, state, sheet } = contactsAfterAStep();
    const stored = compactContactsImport(state, compactNewContactsImport(start, range(CONTACT_ROWS), LISTS));
    const idTyped = sheet.map((row) => [...row]);
    idTyped[6]![3] = NEW_IDS[7];
    expect(expandContactsImport(stored, range(idTyped))).toBeNull();
  });
});

const PROFILE_HEADER = ['Name', 'Website', 'Currency', 'Profile id'];
const COBALT = '0a000000-0000-4000-8000-000000000003';
const UNMATCHED = profile({ id: COBALT, name: 'Cobalt', currency: 'USD', website_url: 'https://cobalt.example' });
const PROFILE_ROWS: unknown[][] = [
  PROFILE_HEADER,
  ['Acme Robotics', 'https://acme.example/new', '', ''],
  ['Gamma', 'https://gamma.example', 'gbp', ''],
  ['Beta Bio', '', 'EUR', BETA],
  ['Delta', '', '', ''],
];

describe('a compact profile import', () => {
  it('keeps of the fund only the profiles its rows matched, and plans the updates against them again', () => {
    const start = prepareProfilesImport({ range: range(PROFILE_ROWS), companyId: FUND, existingProfiles: [...EXISTING, UNMATCHED] });
    expect(start.rows.map((row) => [row.outcome, row.action])).toEqual([
      ['pending', 'update'],
      ['pending', 'create'],
      ['unchanged', undefined],
      ['pending', 'create'],
    ]);
    const kept = compactNewProfilesImport(start, range(PROFILE_ROWS), [...EXISTING, UNMATCHED]);
    expect(kept.profiles.map(([id]) => id).sort()).toEqual([ACME, BETA]);

    // A step updated Acme (matched by name: its id went into the blank id cell) and created Gamma.
    const state: ProfilesImportState = structuredClone(start);
    Object.assign(state.rows[0]!, { outcome: 'updated' });
    delete state.rows[0]!.body;
    delete state.rows[0]!.action;
    // As the send drops them once confirmed (what the write was compared with).
    delete state.rows[0]!.expected;
    Object.assign(state.rows[1]!, { outcome: 'created', profileId: NEW_IDS[1] });
    delete state.rows[1]!.body;
    delete state.rows[1]!.action;
    state.counters = { ...state.counters, steps: 1, requests: 2 };
    const sheet = PROFILE_ROWS.map((row) => [...row]);
    sheet[1]![3] = ACME;
    sheet[2]![3] = NEW_IDS[1];

    const stored = JSON.parse(JSON.stringify(compactProfilesImport(state, kept))) as typeof kept;
    for (const word of ['Gamma', 'Delta', 'gamma.example', 'Cobalt']) expect(JSON.stringify(stored)).not.toContain(word);
    const expanded = expandProfilesImport(stored, range(sheet));
    expect(expanded).toEqual(state);
    // Still "matched by name; changed: website", though the id cell now names the profile.
    expect(buildProfilesImportReport(expanded!).statusTexts).toEqual(buildProfilesImportReport(state).statusTexts);
  });

  it('is not the import any more when a pending row now plans another write', () => {
    const start = prepareProfilesImport({ range: range(PROFILE_ROWS), companyId: FUND, existingProfiles: EXISTING });
    const stored = compactNewProfilesImport(start, range(PROFILE_ROWS), EXISTING);
    const idTyped = PROFILE_ROWS.map((row) => [...row]);
    idTyped[4]![3] = ACME;
    expect(expandProfilesImport(stored, range(idTyped))).toBeNull();
    expect(expandProfilesImport(stored, range(PROFILE_ROWS))).toEqual(start);
  });

  it('keeps a conflict as a conflict with its reason (both values), not pending, so Resume does not send it', () => {
    const start = prepareProfilesImport({ range: range(PROFILE_ROWS), companyId: FUND, existingProfiles: EXISTING });
    const kept = compactNewProfilesImport(start, range(PROFILE_ROWS), EXISTING);
    const state: ProfilesImportState = structuredClone(start);
    Object.assign(state.rows[0]!, {
      outcome: 'conflict',
      reason: 'changed on the server since the import was planned (website: "a" then, "b" now), so the row was not written',
    });
    delete state.rows[0]!.body;
    delete state.rows[0]!.action;
    delete state.rows[0]!.expected;
    delete state.rows[0]!.changed;
    const stored = JSON.parse(JSON.stringify(compactProfilesImport(state, kept))) as typeof kept;
    expect(stored.codes[0]).toBe('X');
    const expanded = expandProfilesImport(stored, range(PROFILE_ROWS))!;
    expect(expanded.rows[0]).toEqual(state.rows[0]);
    expect(buildProfilesImportReport(expanded).totals.conflict).toBe(1);
  });
});
