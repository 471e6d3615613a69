// Profiles: create with POST, update with PUT by id or by name, nothing sent for unchanged rows, POSTs never repeated.

import {
  buildProfilesImportReport,
  prepareProfilesImport,
  profileFieldChanges,
  profileRenames,
  requireAcceptedRenames,
  runProfilesImportStep,
  type ProfilesImportState,
} from '../../../src/core/directory/profiles-import';
import { resumeImport } from '../../../src/core/directory/import-job';
import type { PortfolioCompanyProfile } from '../../../src/core/api/types';
import type { Reply, Step } from '../../support/scripted-transport';
import { ACME, BETA, CheckpointLog, errorReply, EXISTING, FUND, harness, NEW_IDS, profile, ROW_MARGIN_MS, sentBodies } from './directory-fixtures';

const HEADER = ['Name', 'Website', 'Currency', 'Primary contact id', 'Fiscal year end month', 'Profile id'];
const COBALT = '0a000000-0000-4000-8000-000000000003';
const FUND_PROFILES = [...EXISTING, profile({ id: COBALT, name: 'Cobalt', currency: 'USD' })];

function prepare(rows: unknown[][], options: { header?: unknown[]; existing?: PortfolioCompanyProfile[] } = {}): ProfilesImportState {
  return prepareProfilesImport({
    range: { values: [options.header ?? HEADER, ...rows], origin: { row: 1, column: 1 } },
    companyId: FUND,
    existingProfiles: options.existing ?? FUND_PROFILES,
  });
}

const created = (id: string, name: string): Reply => ({ status: 201, body: { portfolio_company_profile: profile({ id, name }) } });
const updated = (id: string, name: string): Reply => ({ status: 200, body: { portfolio_company_profile: profile({ id, name }) } });
const post = (reply: Reply): Step => ({ match: 'POST /portfolio_company_profiles', reply });
const put = (id: string, reply: Reply): Step => ({ match: `PUT /portfolio_company_profiles/${id}`, reply });
/** The fund's profiles as a wave with updates reads them just before its writes. */
const listing = (profiles: PortfolioCompanyProfile[] = FUND_PROFILES): Step => ({
  match: `GET /portfolio_company_profiles?company_id=${FUND}&page=1`,
  reply: { status: 200, body: { portfolio_company_profiles: profiles, meta: { page: 1, total_pages: 1, total: profiles.length } } },
});

describe('creating and updating profiles', () => {
  it('creates new names with POST, updates by name and by id with PUT carrying only what changes, and sends nothing for an unchanged row', () => {
    const state = prepare([
      ['Gamma', 'gamma.example', 'eur', '', 'March', ''],
      ['Acme Robotics', 'https://acme.example', 'GBP', '', '-', ''],
      ['Beta Biosciences', '', '', '', '', BETA],
      ['Cobalt', '', 'USD', '', '', ''],
    ]);
    const log = new CheckpointLog<ProfilesImportState>();
    const { client, transport, deadline } = harness([
      listing(),
      post(created(NEW_IDS[0]!, 'Gamma')),
      put(ACME, updated(ACME, 'Acme Robotics')),
      put(BETA, updated(BETA, 'Beta Biosciences')),
    ]);
    const { state: done, progress } = runProfilesImportStep(state, client, { marginMs: ROW_MARGIN_MS, deadline, onCheckpoint: log.onCheckpoint });

    transport.assertDone();
    expect(sentBodies(transport, 'POST')).toEqual([
      {
        path: '/portfolio_company_profiles',
        body: {
          portfolio_company_profile: { name: 'Gamma', company_id: FUND, website_url: 'https://gamma.example', currency: 'EUR', fiscal_year_end_month: 3 },
        },
      },
    ]);
    expect(sentBodies(transport, 'PUT')).toEqual([
      // Left-out fields keep their value; the dash clears the month with an explicit null.
      {
        path: `/portfolio_company_profiles/${ACME}`,
        body: { portfolio_company_profile: { name: 'Acme Robotics', company_id: FUND, currency: 'GBP', fiscal_year_end_month: null } },
      },
      { path: `/portfolio_company_profiles/${BETA}`, body: { portfolio_company_profile: { name: 'Beta Biosciences', company_id: FUND } } },
    ]);
    expect(progress).toEqual({ status: 'done', rowsDone: 4, rowsTotal: 4 });
    expect(done.counters).toMatchObject({ steps: 1, requests: 3 });

    const report = buildProfilesImportReport(done);
    expect(report.rows.map((row) => [row.outcome, row.status, row.idText])).toEqual([
      ['created', 'created (https:// added to the website; currency "eur" upper-cased to EUR)', NEW_IDS[0]],
      ['updated', 'updated (matched by name; changed: currency, fiscal year end month)', ACME],
      ['updated', 'updated (changed: name; renamed from "Beta Bio")', null],
      ['unchanged', 'unchanged (matched by name)', COBALT],
    ]);
    expect(report.totals).toEqual({ created: 1, updated: 2, unchanged: 1, conflict: 0, failed: 0, pending: 0 });
    // Read once for the wave, before its first write; each update keeps what it replaced, as read then.
    expect(transport.sent.map((request) => request.method)).toEqual(['GET', 'POST', 'PUT', 'PUT']);
    expect(done.rows.map((row) => row.replaced)).toEqual([undefined, { currency: 'USD', fiscal_year_end_month: 12 }, { name: 'Beta Bio' }, undefined]);
    expect(report.summary).toBe('4 rows read: 1 created, 2 updated, 1 unchanged.');
    expect(report.statusTexts[0]).toBe('Import status');
    // The server writes each row's id and status as soon as the row is settled; before the POST it only saves the state.
    expect(log.writes.map((write) => [write.sheetRow, write.idText])).toEqual([
      [2, NEW_IDS[0]],
      [3, ACME],
      [4, null],
    ]);
    expect(log.saved[0]!.inFlight).toBe(0);
  });

  it('sends nothing when every row already matches its profile', () => {
    const state = prepare([
      ['Acme Robotics', 'https://acme.example', 'usd', '', 12],
      ['Beta Bio', '', 'EUR'],
    ]);
    expect(state.status).toBe('done');
    const { client, transport, deadline } = harness([]);
    const { state: done } = runProfilesImportStep(state, client, { marginMs: ROW_MARGIN_MS, deadline });
    expect(transport.sent).toHaveLength(0);
    expect(buildProfilesImportReport(done).summary).toBe('2 rows read: 2 unchanged.');
  });

  it('never renames a profile it matched by name: a difference of case or surrounding spaces is a match, not a change', () => {
    expect(prepare([['ACME ROBOTICS']]).rows[0]).toMatchObject({ outcome: 'unchanged', matchedBy: 'name', profileId: ACME });
    const [row] = prepare([[' acme robotics ', 'https://new.example']]).rows;
    expect(row).toMatchObject({
      action: 'update',
      matchedBy: 'name',
      profileId: ACME,
      changed: ['website'],
      body: { name: 'Acme Robotics', website_url: 'https://new.example' },
    });
  });

  it('matches names trimmed on the API side too, so two profiles that differ only by spaces make the row ambiguous', () => {
    const twins = [profile({ id: ACME, name: 'Cirrus Systems ' }), profile({ id: BETA, name: 'Cirrus Systems' })];
    expect(prepare([['Cirrus Systems', 'https://c.example']], { existing: twins }).rows[0]).toMatchObject({
      outcome: 'failed',
      reason: '2 profiles of this fund are named "Cirrus Systems": put the id of the one you mean in the id column',
    });
    const [one] = prepare([['cirrus systems']], { existing: [profile({ id: ACME, name: 'Cirrus Systems ' })] }).rows;
    expect(one).toMatchObject({ outcome: 'unchanged', matchedBy: 'name', profileId: ACME });
  });

  it("never renames by case or spaces when matched by id either: the server's name is kept, and nothing is sent when nothing else changed", () => {
    // The id written back after a match by name must not turn the next run's match by id into a rename.
    const [same] = prepare([['  ACME ROBOTICS ', '', '', '', '', ACME]]).rows;
    expect(same).toMatchObject({ outcome: 'unchanged', matchedBy: 'id', profileId: ACME });
    const [other] = prepare([['acme robotics', '', 'CHF', '', '', ACME]]).rows;
    expect(other).toMatchObject({ action: 'update', matchedBy: 'id', changed: ['currency'], body: { name: 'Acme Robotics', currency: 'CHF' } });
    expect(other!.renamedFrom).toBeUndefined();
  });

  it('renames a profile matched by its id, and lists the rename old → new for the preview', () => {
    const state = prepare([['Acme Robotics International', '', '', '', '', ACME]]);
    expect(state.rows[0]).toMatchObject({
      action: 'update',
      matchedBy: 'id',
      changed: ['name'],
      renamedFrom: 'Acme Robotics',
      body: { name: 'Acme Robotics International' },
    });
    expect(profileRenames(state)).toEqual([{ sheetRow: 2, profileId: ACME, from: 'Acme Robotics', to: 'Acme Robotics International' }]);
    expect(buildProfilesImportReport(state).rows[0]!.note).toBe('to update name; renamed from "Acme Robotics"');
  });

  it('refuses an import whose renames the preview did not show, before anything is sent', () => {
    const state = prepare([
      ['Acme Robotics International', '', '', '', '', ACME],
      ['Beta B', '', '', '', '', BETA],
    ]);
    expect(() => requireAcceptedRenames(state, [])).toThrow(
      'The profile import would rename 2 profiles: row 2: "Acme Robotics" → "Acme Robotics International" and row 3: "Beta Bio" → "Beta B". Nothing was sent. ' +
        "Import again to see the renames in the preview and confirm them, or put the profile's current name in the sheet to keep it.",
    );
    // A rename confirmed to another name, or from a name the server no longer holds, is not this one.
    const renames = profileRenames(state);
    expect(() => requireAcceptedRenames(state, [renames[0]!, { ...renames[1]!, to: 'Beta C' }])).toThrow(
      /would rename 1 profile: row 3: "Beta Bio" → "Beta B"\./,
    );
    expect(() => requireAcceptedRenames(state, renames)).not.toThrow();
  });

  it('writes ids into a new column when the range has none', () => {
    const state = prepare([['Gamma']], { header: ['Name'] });
    const { client, deadline } = harness([post(created(NEW_IDS[0]!, 'Gamma'))]);
    const report = buildProfilesImportReport(runProfilesImportStep(state, client, { marginMs: ROW_MARGIN_MS, deadline }).state);
    expect(report.idColumn).toEqual({ column: 2, header: 'Profile id', isNew: true });
    expect(report.statusColumn).toEqual({ column: 3, header: 'Import status', isNew: true });
    expect(report.rows[0]!.idText).toBe(NEW_IDS[0]);
  });
});

describe('failures on their rows', () => {
  it("reports the duplicate-name 422 on its row with the API's message, and goes on with the next row", () => {
    const state = prepare([['Zeta'], ['Eta']]);
    const { client, transport, deadline } = harness([
      post(errorReply(422, 'attribute_invalid', 'name', 'has already been taken')),
      post(created(NEW_IDS[1]!, 'Eta')),
    ]);
    const { state: done } = runProfilesImportStep(state, client, { marginMs: ROW_MARGIN_MS, deadline });

    transport.assertDone();
    const report = buildProfilesImportReport(done);
    expect(report.rows[0]).toMatchObject({
      outcome: 'failed',
      reason:
        'the API refused it: name has already been taken (HTTP 422): another profile of this fund has this name (names are compared without regard to case)',
      idText: null,
    });
    expect(report.rows[0]!.status).toBe(`failed: ${report.rows[0]!.reason}`);
    expect(report.rows[1]).toMatchObject({ outcome: 'created', idText: NEW_IDS[1] });
    expect(report.summary).toBe('2 rows read: 1 created, 1 failed.');
  });

  it('reports an id the API no longer knows (400 on field id) on its row', () => {
    const state = prepare([['Acme Robotics', '', 'CHF']]);
    const { client, deadline } = harness([listing(), put(ACME, errorReply(400, 'parameter_invalid', 'id', `names no portfolio company profile: ${ACME}`))]);
    const report = buildProfilesImportReport(runProfilesImportStep(state, client, { marginMs: ROW_MARGIN_MS, deadline }).state);
    expect(report.rows[0]!.reason).toBe(
      `the API refused it: id names no portfolio company profile: ${ACME} (HTTP 400): the profile no longer exists; clear the id cell to create it again`,
    );
  });

  it('never repeats a POST that lost its connection: the row fails saying it may exist, and the import pauses', () => {
    const state = prepare([['Gamma'], ['Delta']]);
    const { client, transport, deadline, clock } = harness([post('network-error')]);
    const { state: paused, progress } = runProfilesImportStep(state, client, { marginMs: ROW_MARGIN_MS, deadline });

    expect(transport.sent).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
    expect(progress).toMatchObject({ status: 'paused', rowsDone: 1, rowsTotal: 2 });
    const report = buildProfilesImportReport(paused);
    expect(report.rows[0]).toMatchObject({
      outcome: 'failed',
      reason:
        "may have been created (no answer came back from the API): check the fund's profiles before running the import again; a re-run matches it by name, so it would update it, not create it twice",
    });
    expect(report.problem).toBe(
      'Could not reach the API at api.test. Check the base URL in the add-in\'s settings and try again. The profile of row 2 ("Gamma") may have been created: check before resuming.',
    );
    expect(report.rows[1]!.status).toMatch(/^not sent: import paused \(Could not reach the API/);

    // Resuming goes on with the rest; Gamma is not sent again.
    const resumed = harness([post(created(NEW_IDS[1]!, 'Delta'))]);
    const { state: done } = runProfilesImportStep(resumeImport(paused), resumed.client, { marginMs: ROW_MARGIN_MS, deadline: resumed.deadline });
    resumed.transport.assertDone();
    expect(buildProfilesImportReport(done).totals).toEqual({ created: 1, updated: 0, unchanged: 0, conflict: 0, failed: 1, pending: 0 });

    // Had it been created, a re-run finds it by name: an update or nothing, never a second profile.
    const rerun = prepare([['Gamma'], ['Delta']], {
      existing: [...FUND_PROFILES, profile({ id: NEW_IDS[0]!, name: 'Gamma' }), profile({ id: NEW_IDS[1]!, name: 'Delta' })],
    });
    expect(rerun.rows.map((row) => [row.outcome, row.matchedBy])).toEqual([
      ['unchanged', 'name'],
      ['unchanged', 'name'],
    ]);
  });

  it('sends a PUT again after a lost connection, since an update is idempotent', () => {
    const state = prepare([['Acme Robotics', '', 'CHF']]);
    const { client, transport, deadline } = harness([listing(), put(ACME, 'network-error'), put(ACME, updated(ACME, 'Acme Robotics'))]);
    const { state: done } = runProfilesImportStep(state, client, { marginMs: ROW_MARGIN_MS, deadline });
    expect(sentBodies(transport, 'PUT')).toHaveLength(2);
    expect(done.rows[0]!.outcome).toBe('updated');
  });

  it('pauses on a rejected token with the row still pending, and sends it on resume', () => {
    const state = prepare([['Gamma']]);
    const first = harness([post(errorReply(401, 'unauthorized'))]);
    const { state: paused } = runProfilesImportStep(state, first.client, { marginMs: ROW_MARGIN_MS, deadline: first.deadline });
    expect(paused).toMatchObject({ status: 'paused', rows: [{ outcome: 'pending' }] });
    expect(paused.problem).toMatch(/^The API token was rejected/);

    const second = harness([post(created(NEW_IDS[0]!, 'Gamma'))]);
    const { state: done } = runProfilesImportStep(resumeImport(paused), second.client, { marginMs: ROW_MARGIN_MS, deadline: second.deadline });
    expect(done.rows[0]).toMatchObject({ outcome: 'created', profileId: NEW_IDS[0] });
  });

  it('marks a POST that was in flight when an execution died as maybe created, and does not send it again', () => {
    const log = new CheckpointLog<ProfilesImportState>();
    const state = prepare([['Gamma'], ['Delta']]);
    const killed = harness([post(created(NEW_IDS[0]!, 'Gamma'))]);
    runProfilesImportStep(state, killed.client, { marginMs: ROW_MARGIN_MS, deadline: killed.deadline, onCheckpoint: log.onCheckpoint });
    // The state saved just before the first POST is all a killed execution leaves behind.
    const saved = log.saved[0]!;
    expect(saved.inFlight).toBe(0);

    const next = harness([post(created(NEW_IDS[1]!, 'Delta'))]);
    const { state: done } = runProfilesImportStep(saved, next.client, { marginMs: ROW_MARGIN_MS, deadline: next.deadline });
    next.transport.assertDone();
    expect(sentBodies(next.transport, 'POST').map((sent) => (sent.body['portfolio_company_profile'] as { name: string }).name)).toEqual(['Delta']);
    expect(done.rows[0]!.reason).toMatch(/^the import stopped while it was being sent, so it may have been created/);
  });
});

describe('compared with the server just before the write', () => {
  const acmeNow = (changes: Partial<PortfolioCompanyProfile>): PortfolioCompanyProfile[] =>
    FUND_PROFILES.map((p) => (p.id === ACME ? { ...p, ...changes } : p));

  it('holds back a row whose field a colleague changed since the plan, with both values, and writes the others', () => {
    const state = prepare([
      ['Acme Robotics', 'https://acme-new.example'],
      ['Beta Bio', '', 'CHF'],
    ]);
    const { client, transport, deadline } = harness([
      listing(acmeNow({ website_url: 'https://acme-colleague.example' })),
      put(BETA, updated(BETA, 'Beta Bio')),
    ]);
    const log = new CheckpointLog<ProfilesImportState>();
    const { state: done } = runProfilesImportStep(state, client, { marginMs: ROW_MARGIN_MS, deadline, onCheckpoint: log.onCheckpoint });

    transport.assertDone();
    expect(sentBodies(transport, 'PUT').map((sent) => sent.path)).toEqual([`/portfolio_company_profiles/${BETA}`]);
    expect(done.rows[0]).toMatchObject({
      outcome: 'conflict',
      reason:
        'changed on the server since the import was planned (website: "https://acme.example" then, "https://acme-colleague.example" now), so the row was not written and that change is kept: import again to plan it against the server as it is now',
      conflicts: [{ field: 'website_url', then: 'https://acme.example', now: 'https://acme-colleague.example', typed: 'https://acme-new.example' }],
    });
    expect(done.rows[1]).toMatchObject({ outcome: 'updated', replaced: { currency: 'EUR' }, written: { currency: 'CHF' } });
    const report = buildProfilesImportReport(done);
    expect(report.summary).toBe('2 rows read: 1 updated, 1 conflict (changed on the server since the import was planned, so not written).');
    // The conflict's status goes into the sheet as soon as the read settles it.
    expect(log.writes[0]).toMatchObject({ sheetRow: 2, status: expect.stringMatching(/^conflict: changed on the server/) });
    expect(profileFieldChanges(done.rows[0]!)).toEqual([
      { field: 'website_url', label: 'website', old: 'https://acme-colleague.example', new: 'https://acme-new.example' },
    ]);
    expect(profileFieldChanges(done.rows[1]!)).toEqual([{ field: 'currency', label: 'currency', old: 'EUR', new: 'CHF' }]);
  });

  it("sends the server's name as it is now, so a colleague's rename is kept; leaves out a field that already holds the row's value", () => {
    const state = prepare([['Acme Robotics', 'https://acme-new.example', 'GBP']]);
    const { client, transport, deadline } = harness([
      listing(acmeNow({ name: 'Acme Robotics Group', currency: 'GBP' })),
      put(ACME, updated(ACME, 'Acme Robotics Group')),
    ]);
    const { state: done } = runProfilesImportStep(state, client, { marginMs: ROW_MARGIN_MS, deadline });
    expect(sentBodies(transport, 'PUT')).toEqual([
      {
        path: `/portfolio_company_profiles/${ACME}`,
        body: { portfolio_company_profile: { name: 'Acme Robotics Group', company_id: FUND, website_url: 'https://acme-new.example' } },
      },
    ]);
    expect(done.rows[0]).toMatchObject({ outcome: 'updated', changed: ['website'], replaced: { website_url: 'https://acme.example' } });
  });

  it('sends nothing for a row whose values a colleague already wrote, and fails a row whose profile was deleted', () => {
    const state = prepare([
      ['Acme Robotics', '', 'GBP'],
      ['Beta Bio', '', 'CHF'],
    ]);
    const { client, transport, deadline } = harness([
      listing([EXISTING[0]!, ...FUND_PROFILES.slice(2)].map((p) => (p.id === ACME ? { ...p, currency: 'GBP' } : p))),
    ]);
    const { state: done } = runProfilesImportStep(state, client, { marginMs: ROW_MARGIN_MS, deadline });
    transport.assertDone();
    expect(transport.sent.map((request) => request.method)).toEqual(['GET']);
    expect(done.rows.map((row) => [row.outcome, row.reason])).toEqual([
      ['unchanged', undefined],
      ['failed', 'the profile no longer exists on the server (deleted since the import was planned?): clear the id cell to create it again, or remove the row'],
    ]);
    expect(done.status).toBe('done');
  });

  it('reads once per wave, not once per row, and not at all for a wave of creations', () => {
    const names = Array.from({ length: 25 }, (_, i) => [`New ${i + 1}`]);
    const creations = prepare(names);
    const ids = Array.from({ length: 25 }, (_, i) => `0b000000-0000-4000-8000-0000000001${String(i).padStart(2, '0')}`);
    const made = harness(ids.map((id, i) => post(created(id, `New ${i + 1}`))));
    runProfilesImportStep(creations, made.client, { marginMs: ROW_MARGIN_MS, deadline: made.deadline });
    expect(made.transport.sent.filter((request) => request.method === 'GET')).toHaveLength(0);

    const many = Array.from({ length: 25 }, (_, i) => profile({ id: `0a000000-0000-4000-8000-0000000001${String(i).padStart(2, '0')}`, name: `Co ${i + 1}` }));
    const updates = prepare(
      many.map((p) => [p.name, '', 'USD']),
      { existing: many },
    );
    const sent = harness([listing(many), listing(many), ...many.map((p) => put(p.id, updated(p.id, p.name)))]);
    const { state: done } = runProfilesImportStep(updates, sent.client, { marginMs: ROW_MARGIN_MS, deadline: sent.deadline });
    sent.transport.assertDone();
    // Two waves (20 rows, then 5): one read before each.
    expect(sent.transport.sent.map((request) => request.method).join(' ')).toBe(['GET', ...Array(20).fill('PUT'), 'GET', ...Array(5).fill('PUT')].join(' '));
    expect(done.rows.every((row) => row.outcome === 'updated')).toBe(true);
  });

  it("fails the wave's updates, not sent unchecked, when the read is refused; a read with no answer pauses with nothing sent", () => {
    const state = prepare([['Acme Robotics', '', 'GBP']]);
    const refused = harness([{ match: `GET /portfolio_company_profiles?company_id=${FUND}&page=1`, reply: errorReply(403, 'forbidden') }]);
    const { state: failed } = runProfilesImportStep(state, refused.client, { marginMs: ROW_MARGIN_MS, deadline: refused.deadline });
    expect(failed.rows[0]).toMatchObject({
      outcome: 'failed',
      reason: expect.stringMatching(/^the fund's profiles could not be read to compare the row with the server just before writing it: /),
    });
    expect(refused.transport.sent.filter((request) => request.method === 'PUT')).toHaveLength(0);

    const lost = harness(
      Array.from({ length: 4 }, () => ({ match: `GET /portfolio_company_profiles?company_id=${FUND}&page=1`, reply: 'network-error' as const })),
    );
    const { state: paused } = runProfilesImportStep(state, lost.client, { marginMs: ROW_MARGIN_MS, deadline: lost.deadline });
    expect(paused).toMatchObject({ status: 'paused', rows: [{ outcome: 'pending' }] });
    expect(lost.transport.sent.filter((request) => request.method === 'PUT')).toHaveLength(0);
  });
});
