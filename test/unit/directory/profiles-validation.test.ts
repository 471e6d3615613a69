// Profiles: every row is read and checked before anything is sent, each refusal with a reason the user can act on.

import { InputError } from '../../../src/core/errors';
import { buildProfilesImportReport, prepareProfilesImport, type ProfilesImportState } from '../../../src/core/directory/profiles-import';
import { ACME, BETA, EXISTING, FUND, JANE, profile } from './directory-fixtures';

const HEADER = ['Name', 'Website', 'Currency', 'Primary contact id', 'Fiscal year end month', 'Profile id'];

function prepare(rows: unknown[][], header: unknown[] = HEADER, existing = EXISTING): ProfilesImportState {
  return prepareProfilesImport({ range: { values: [header, ...rows], origin: { row: 3, column: 2 } }, companyId: FUND, existingProfiles: existing });
}

/** The plan of the only data row. */
function one(row: unknown[]): ProfilesImportState['rows'][number] {
  const [planned] = prepare([row]).rows;
  return planned!;
}

describe('reading the header row', () => {
  it('matches headers without regard to case, spacing, underscores or aliases', () => {
    const state = prepare(
      [['Gamma', 'gamma.example', 'usd', '', 'fye', '']],
      ['NAME', 'website_url', ' Currency ', 'Primary Contact:', 'FYE-month', 'ID', 'Created at'],
    );
    expect(state.ignoredColumns).toEqual(['Created at']);
    expect(state.idColumn).toEqual({ column: 6, header: 'Profile id', isNew: false });
    expect(state.rows[0]).toMatchObject({
      outcome: 'failed',
      reason: 'the fiscal year end month "fye" is not a month: give a number from 1 to 12 or an English month name',
    });
  });

  it('reads the URL alias and reports that ids go into a new column when the range has no id column', () => {
    const state = prepare([['Gamma', 'https://gamma.example']], ['Name', 'URL']);
    expect(state.idColumn).toEqual({ column: 3, header: 'Profile id', isNew: true });
    expect(state.statusColumn).toEqual({ column: 4, header: 'Import status', isNew: true });
    expect(state.rows[0]).toMatchObject({ outcome: 'pending', action: 'create', writeId: true });
  });

  it('refuses a range without a Name column, saying what the first row must hold', () => {
    expect(() => prepare([['Gamma']], ['Company'])).toThrow(InputError);
    expect(() => prepare([['Gamma']], ['Company'])).toThrow(
      'A profile import reads the first row of the range as headers naming the columns, and needs a "Name" column; the first row holds "Company". ' +
        'Recognised headers: Name, Website, Currency, Primary contact id, Fiscal year end month, Profile id.',
    );
  });

  it('refuses two columns for one field, naming them as the sheet does', () => {
    expect(() => prepare([['a', 'b', 'c']], ['Name', 'Website', 'url'])).toThrow('Columns C and D both give the website: keep one of them.');
  });

  it("does not count rows that are empty in the import's columns, even with an old status beside them", () => {
    const state = prepare([['Gamma'], ['', '', '', '', '', '', 'created'], []], [...HEADER, 'Import status']);
    expect(state).toMatchObject({ rowsRead: 1, emptyRows: 2, statusColumn: { column: 7, isNew: false } });
  });
});

describe('checking each field', () => {
  it.each([
    ['', 'the name is empty: every profile needs one'],
    ['-', 'the name cannot be cleared: every profile needs one'],
    [true, 'the name is the boolean TRUE, not text'],
    ['#REF!', 'the name cell B4 shows the error #REF!'],
    ['Loading...', 'the name cell B4 shows "Loading…" (a custom function is still calculating): wait until it shows its value, then run this again'],
  ])('refuses the name %p', (name, reason) => {
    expect(one([name, 'https://x.example'])).toMatchObject({ outcome: 'failed', reason });
  });

  it.each([
    ['ftp://files.example', 'the website "ftp://files.example" is not a web address: it must start with http:// or https://'],
    ['mailto:jane@x.example', 'the website "mailto:jane@x.example" is not a web address: it must start with http:// or https://'],
    ['not a url', 'the website "not a url" is not a web address like https://example.com'],
    ['https://', 'the website "https://" has no host'],
    ['https://acme .example', 'the website "https://acme .example" holds characters a URL cannot (spaces, quotes, accents): percent-encode them'],
    ['https://bad_host.example', 'the website "https://bad_host.example" has no valid host name (like example.com)'],
    ['https://acme.example:99999', 'the website "https://acme.example:99999" has an invalid port'],
    [42, 'the website is the number 42, not a web address'],
  ])('refuses the website %p', (website, reason) => {
    expect(one(['Gamma', website])).toMatchObject({ outcome: 'failed', reason });
  });

  it('accepts an http(s) URL as it is, lowers an upper-case scheme, and adds https:// to a bare host with a note', () => {
    expect(one(['Gamma', 'http://gamma.example/about?x=1']).body).toMatchObject({ website_url: 'http://gamma.example/about?x=1' });
    expect(one(['Gamma', 'HTTPS://gamma.example']).body).toMatchObject({ website_url: 'https://gamma.example' });
    expect(one(['Gamma', 'https://[::1]:8080/']).body).toMatchObject({ website_url: 'https://[::1]:8080/' });
    expect(one(['Gamma', 'www.gamma.example'])).toMatchObject({ body: { website_url: 'https://www.gamma.example' }, notes: ['https:// added to the website'] });
    expect(one(['Gamma', 'gamma.example:8080/x']).body).toMatchObject({ website_url: 'https://gamma.example:8080/x' });
  });

  it.each([
    ['US', 'the currency "US" in D4 is not an ISO 4217 code: give three letters, like USD or EUR'],
    ['$', 'the currency "$" in D4 is not an ISO 4217 code: give three letters, like USD or EUR'],
    ['US D', 'the currency "US D" in D4 is not an ISO 4217 code: give three letters, like USD or EUR'],
    [840, 'the currency in D4 is the number 840: give the three-letter code, like USD or EUR'],
    ['USS', 'the currency "USS" in D4 is not an ISO 4217 code in use: correct it to a current code, like USD, EUR or GBP'],
    ['xts', 'the currency "xts" in D4 is not an ISO 4217 code in use: correct it to a current code, like USD, EUR or GBP'],
    ['HRK', 'the currency "HRK" in D4 was withdrawn from ISO 4217: use EUR, which replaced it'],
    ['ang', 'the currency "ang" in D4 was withdrawn from ISO 4217: use XCG, which replaced it'],
  ])('refuses the currency %p, naming its cell', (currency, reason) => {
    expect(one(['Gamma', '', currency])).toMatchObject({ outcome: 'failed', reason });
  });

  it('names the cell of the row and column the currency is in', () => {
    const state = prepare(
      [
        ['Gamma', '', '', 'EUR'],
        ['Delta', '', '', 'EUX'],
      ],
      ['Name', 'Profile id', 'Website', 'Currency'],
    );
    expect(state.rows[0]).toMatchObject({ outcome: 'pending', body: { currency: 'EUR' } });
    expect(state.rows[1]!.reason).toBe('the currency "EUX" in E5 is not an ISO 4217 code in use: correct it to a current code, like USD, EUR or GBP');
  });

  it.each(['USD', 'EUR', 'GBP', 'JPY', 'CHF', 'XCG', 'ZWG', 'SLE', 'VES', 'XOF'])('accepts the code in use %p', (code) => {
    expect(one(['Gamma', '', code])).toMatchObject({ outcome: 'pending', body: { currency: code } });
  });

  it('upper-cases a lower-case currency and says so in a note', () => {
    const planned = one(['Gamma', '', ' eur ']);
    expect(planned).toMatchObject({ body: { currency: 'EUR' }, notes: ['currency "eur" upper-cased to EUR'] });
    expect(buildProfilesImportReport(prepare([['Gamma', '', 'eur']])).rows[0]!.note).toBe('to be created; currency "eur" upper-cased to EUR');
  });

  it.each([
    [3, 3],
    ['3', 3],
    ['03', 3],
    ['3.0', 3],
    [12, 12],
    ['March', 3],
    ['mar', 3],
    ['Sept.', 9],
    ['DECEMBER', 12],
  ])('reads the fiscal year end month %p as %i', (month, expected) => {
    expect(one(['Gamma', '', '', '', month]).body).toMatchObject({ fiscal_year_end_month: expected });
  });

  it.each([
    [0, 'the fiscal year end month "0" is not a month number from 1 to 12'],
    [13, 'the fiscal year end month "13" is not a month number from 1 to 12'],
    [3.5, 'the fiscal year end month "3.5" is not a month number from 1 to 12'],
    ['3.5', 'the fiscal year end month "3.5" is not a month number from 1 to 12'],
    ['Marchember', 'the fiscal year end month "Marchember" is not a month: give a number from 1 to 12 or an English month name'],
    ['mars', 'the fiscal year end month "mars" is not a month: give a number from 1 to 12 or an English month name'],
    [new Date(Date.UTC(2024, 2, 1)), 'the fiscal year end month is a date cell: give a month number from 1 to 12 or an English month name'],
  ])('refuses the fiscal year end month %p', (month, reason) => {
    expect(one(['Gamma', '', '', '', month])).toMatchObject({ outcome: 'failed', reason });
  });

  it('takes the primary contact as an id, in lower case, and refuses anything else', () => {
    expect(one(['Gamma', '', '', ` ${JANE.toUpperCase()} `]).body).toMatchObject({ primary_contact_id: JANE });
    expect(one(['Gamma', '', '', 'jane@example.com'])).toMatchObject({
      outcome: 'failed',
      reason: 'the primary contact "jane@example.com" is not a contact id (ids look like 123e4567-e89b-12d3-a456-426614174000)',
    });
  });

  it('refuses an id cell that is not an id', () => {
    expect(one(['Gamma', '', '', '', '', 'acme'])).toMatchObject({
      outcome: 'failed',
      reason: 'the id cell holds "acme", which is not a profile id: clear it to match the profile by name, or to create it',
    });
  });

  it('lists every problem of a row at once', () => {
    expect(one(['', 'ftp://x.example', 'dollars', '', 13])).toMatchObject({
      outcome: 'failed',
      reason:
        'the name is empty: every profile needs one; the website "ftp://x.example" is not a web address: it must start with http:// or https://; ' +
        'the currency "dollars" in D4 is not an ISO 4217 code: give three letters, like USD or EUR; the fiscal year end month "13" is not a month number from 1 to 12',
    });
  });
});

describe('checking rows against each other and the fund', () => {
  it('sends the first row of a name that appears twice, compared without regard to case, and reports the later one as its duplicate', () => {
    const state = prepare([['Gamma'], ['Delta'], ['GAMMA ']]);
    expect(state.rows.map((row) => [row.outcome, row.reason])).toEqual([
      ['pending', undefined],
      ['pending', undefined],
      ['failed', 'duplicate of row 4 (the name "GAMMA"): a profile can appear once in an import'],
    ]);
  });

  it('fails an id that names no profile of the fund', () => {
    const stranger = '0a000000-0000-4000-8000-0000000000ff';
    expect(one(['Gamma', '', '', '', '', stranger])).toMatchObject({
      outcome: 'failed',
      reason: `no profile of this fund has the id ${stranger} (deleted, or of another fund?): clear the id cell to match the profile by name, or to create it`,
    });
  });

  it('fails a rename to the name of another profile of the fund', () => {
    expect(one(['beta bio', '', '', '', '', ACME])).toMatchObject({
      outcome: 'failed',
      reason: `another profile of this fund is already named "Beta Bio" (id ${BETA}): names are unique without regard to case`,
    });
  });

  it('fails two rows that reach the same profile, one by id and one by name', () => {
    const state = prepare([['Acme Robotics'], ['Acme Renamed', '', '', '', '', ACME]]);
    expect(state.rows.map((row) => row.reason)).toEqual([
      undefined,
      'duplicate of row 4, which updates the same profile "Acme Robotics": a profile can appear once in an import',
    ]);
  });

  it('fails a name that two existing profiles share, asking for the id', () => {
    const twins = [profile({ id: ACME, name: 'Twin' }), profile({ id: BETA, name: 'twin' })];
    expect(prepare([['TWIN']], HEADER, twins).rows[0]).toMatchObject({
      outcome: 'failed',
      reason: '2 profiles of this fund are named "TWIN": put the id of the one you mean in the id column',
    });
  });

  it('is done at once when no row can be sent', () => {
    const state = prepare([['', 'x']]);
    expect(state.status).toBe('done');
    expect(buildProfilesImportReport(state).summary).toBe('1 row read: 1 failed.');
  });
});
