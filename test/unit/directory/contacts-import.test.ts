// Contacts: one POST at a time, ids checkpointed as they come, nothing created twice on a re-run or a resume.

import { ChunkedCache } from '../../../src/core/cache/chunked-cache';
import {
  buildContactsImportReport,
  MAYBE_CREATED_MARK,
  prepareContactsImport,
  runContactsImportStep,
  type ContactsImportState,
} from '../../../src/core/directory/contacts-import';
import { resumeImport } from '../../../src/core/directory/import-job';
import { cancelJob } from '../../../src/core/jobs/job-state';
import type { Json } from '../../../src/shared/rpc';
import type { ContactNoteReport } from '../../../src/core/directory/contact-notes';
import type { ProfilesImportReport, ProfilesImportState } from '../../../src/core/directory/profiles-import';
import { MemoryCache } from '../../support/memory-cache';
import { FakeClock, type Reply, type Step } from '../../support/scripted-transport';
import { BOARD, CheckpointLog, errorReply, FUND, harness, INVESTORS, LISTS, NEW_IDS, ROW_MARGIN_MS, sentBodies, SlowTransport } from './directory-fixtures';

const HEADER = ['Email', 'First name', 'Last name', 'Title', 'Contact lists', 'Contact id'];

function prepare(rows: unknown[][]): ContactsImportState {
  return prepareContactsImport({ range: { values: [HEADER, ...rows], origin: { row: 1, column: 1 } }, companyId: FUND, contactLists: LISTS });
}

function created(id: string, email: string): Reply {
  return { status: 201, body: { contact: { id, email, company_id: FUND, first_name: null, last_name: null, title: null, contact_list_ids: [] } } };
}

const post = (reply: Reply): Step => ({ match: 'POST /contacts', reply });

/** Stores and reloads the state the way the server does between steps: JSON in chunked CacheService. */
function throughCache(state: ContactsImportState): ContactsImportState {
  const cache = new ChunkedCache(new MemoryCache(), () => 'g1');
  cache.put('contacts-import:1', JSON.stringify(state), 21600);
  return JSON.parse(cache.get('contacts-import:1') ?? 'null') as ContactsImportState;
}

/** The sheet as the server leaves it: the id column after writing every checkpoint's id. */
function applyWrites(rows: unknown[][], log: CheckpointLog<ContactsImportState>): unknown[][] {
  const next = rows.map((row) => [...row]);
  for (const write of log.writes) {
    if (write.idText !== null) next[write.row - 2]![5] = write.idText;
  }
  return next;
}

const ROWS: unknown[][] = [['ann@example.com', 'Ann', 'Lee', 'CFO', 'Investors'], ['bob@example.com', 'Bob', '', '', 'board; investors'], ['cy@example.com']];

describe('creating contacts', () => {
  it("lists the company's contact lists through the client and sends one POST per row, with list names resolved to ids", () => {
    const { client, transport, deadline } = harness([
      {
        match: `GET /contact_lists?company_id=${FUND}&page=1`,
        reply: { status: 200, body: { contact_lists: LISTS, meta: { page: 1, total_pages: 1, total: 3 } } },
      },
      post(created(NEW_IDS[0]!, 'ann@example.com')),
      post(created(NEW_IDS[1]!, 'bob@example.com')),
      post(created(NEW_IDS[2]!, 'cy@example.com')),
    ]);
    const state = prepareContactsImport({ range: { values: [HEADER, ...ROWS] }, companyId: FUND, contactLists: client.contacts.listLists(FUND) });
    const log = new CheckpointLog<ContactsImportState>();
    const { state: done, progress } = runContactsImportStep(state, client, { marginMs: ROW_MARGIN_MS, deadline, onCheckpoint: log.onCheckpoint });

    transport.assertDone();
    expect(transport.waves).toEqual([]);
    expect(sentBodies(transport, 'POST').map((sent) => sent.body)).toEqual([
      { contact: { email: 'ann@example.com', company_id: FUND, first_name: 'Ann', last_name: 'Lee', title: 'CFO', contact_list_ids: [INVESTORS] } },
      { contact: { email: 'bob@example.com', company_id: FUND, first_name: 'Bob', contact_list_ids: [BOARD, INVESTORS] } },
      { contact: { email: 'cy@example.com', company_id: FUND } },
    ]);
    expect(progress).toEqual({ status: 'done', rowsDone: 3, rowsTotal: 3 });
    // Saved before every POST (so a killed execution knows what was in flight) and after every row, with its id.
    expect(log.saved).toHaveLength(6);
    expect(log.writes).toEqual([
      { row: 2, sheetRow: 2, idText: NEW_IDS[0], status: 'created (added to Investors)' },
      { row: 3, sheetRow: 3, idText: NEW_IDS[1], status: 'created (added to Board, Investors)' },
      { row: 4, sheetRow: 4, idText: NEW_IDS[2], status: 'created' },
    ]);
    const report = buildContactsImportReport(done);
    expect(report.summary).toBe('3 rows read: 3 created.');
    expect(report.statusTexts).toEqual(['Import status', 'created (added to Investors)', 'created (added to Board, Investors)', 'created']);
  });

  it('creates nothing twice on a re-run: rows whose ids were written back are skipped', () => {
    const first = harness([
      post(created(NEW_IDS[0]!, 'ann@example.com')),
      post(created(NEW_IDS[1]!, 'bob@example.com')),
      post(created(NEW_IDS[2]!, 'cy@example.com')),
    ]);
    const log = new CheckpointLog<ContactsImportState>();
    runContactsImportStep(prepare(ROWS), first.client, { marginMs: ROW_MARGIN_MS, deadline: first.deadline, onCheckpoint: log.onCheckpoint });

    const sheet = applyWrites(ROWS, log);
    const rerun = prepare([...sheet, ['dee@example.com']]);
    const second = harness([post(created(NEW_IDS[3]!, 'dee@example.com'))]);
    const { state: done } = runContactsImportStep(rerun, second.client, { marginMs: ROW_MARGIN_MS, deadline: second.deadline });

    second.transport.assertDone();
    expect(sentBodies(second.transport, 'POST')).toHaveLength(1);
    const report = buildContactsImportReport(done);
    expect(report.totals).toEqual({ created: 1, existing: 0, skipped: 3, failed: 0, unknown: 0, pending: 0 });
    expect(report.summary).toBe('4 rows read: 1 created, 3 skipped.');
    expect(report.rows[0]!.status).toBe('skipped: already created (the row has a contact id)');
  });

  it('reports an email the API already has as existing (not failed), saying the API cannot update a contact, and goes on', () => {
    const { client, deadline } = harness([
      post(errorReply(422, 'attribute_invalid', 'email', 'has already been taken')),
      post(created(NEW_IDS[1]!, 'bob@example.com')),
      post(created(NEW_IDS[2]!, 'cy@example.com')),
    ]);
    const report = buildContactsImportReport(runContactsImportStep(prepare(ROWS), client, { marginMs: ROW_MARGIN_MS, deadline }).state);
    expect(report.rows[0]).toMatchObject({
      outcome: 'existing',
      reason:
        'a contact with this email already exists in this company; the API has no contact lookup or update, so a changed name, title or list of an existing contact cannot be updated through the API: change it in the web application',
      idText: null,
    });
    expect(report.totals).toMatchObject({ created: 2, existing: 1, failed: 0 });
    expect(report.summary).toBe('3 rows read: 2 created, 1 existing.');
  });

  it("fails any other 422 on the email with the API's message", () => {
    const { client, deadline } = harness([
      post(errorReply(422, 'attribute_invalid', 'email', 'is invalid')),
      post(created(NEW_IDS[1]!, 'bob@example.com')),
      post(created(NEW_IDS[2]!, 'cy@example.com')),
    ]);
    const report = buildContactsImportReport(runContactsImportStep(prepare(ROWS), client, { marginMs: ROW_MARGIN_MS, deadline }).state);
    expect(report.rows[0]).toMatchObject({
      outcome: 'failed',
      reason: 'the API refused it: email is invalid (HTTP 422): a contact with this email may already exist in this company',
    });
  });
});

describe('a POST without a clear answer', () => {
  it.each([
    ['a lost connection', 'network-error' as const, "Could not reach the API at api.test. Check the base URL in the add-in's settings and try again."],
    ['a 502', { status: 502, body: '<html>Bad Gateway</html>' }, 'The API had a temporary problem (HTTP 502). Try again in a minute.'],
  ])('is not retried after %s: the row is unknown, its id cell gets the check mark, and the import pauses', (_, reply, message) => {
    const log = new CheckpointLog<ContactsImportState>();
    const { client, transport, deadline, clock } = harness([post(created(NEW_IDS[0]!, 'ann@example.com')), post(reply as Reply)]);
    const { state: paused, progress } = runContactsImportStep(prepare(ROWS), client, { marginMs: ROW_MARGIN_MS, deadline, onCheckpoint: log.onCheckpoint });

    expect(sentBodies(transport, 'POST')).toHaveLength(2);
    expect(clock.sleeps).toEqual([]);
    expect(progress).toMatchObject({ status: 'paused', rowsDone: 2, rowsTotal: 3 });
    expect(log.writes[1]).toMatchObject({ sheetRow: 3, idText: MAYBE_CREATED_MARK });
    const report = buildContactsImportReport(paused);
    expect(report.rows[1]).toMatchObject({
      outcome: 'unknown',
      idText: 'check: may have been created',
      reason:
        'may have been created (no answer came back from the API); its id cell says "check: may have been created", so a re-run skips it: look for the contact in the app, then paste its id there, or clear the cell to create it',
    });
    expect(report.problem).toBe(`${message} The contact of row 3 (bob@example.com) may have been created: its id cell says "check: may have been created".`);
    expect(report.summary).toBe('3 rows read: 1 created, 1 unknown (may have been created: check before clearing their id cells), 1 not sent (import paused).');

    // A re-run from the sheet skips it until the user clears the mark.
    const rerun = prepare(applyWrites(ROWS, log));
    expect(rerun.rows.map((row) => row.outcome)).toEqual(['skipped', 'skipped', 'pending']);
  });
});

describe('interruptions', () => {
  it('stops before the deadline and resumes from the stored state with only the rows not created', () => {
    const clock = new FakeClock(Date.UTC(2025, 0, 6, 9));
    const rows = Array.from({ length: 10 }, (_, i) => [`person${i}@example.com`]);
    const reply = (i: number) => post(created(`0c100000-0000-4000-8000-00000000000${i}`, `person${i}@example.com`));
    // Each POST takes 20 s; the step has 100 s and starts no row with less than 15 s left, so it creates 5 and stops.
    const first = harness([], { clock, stepMs: 100_000, transport: new SlowTransport([0, 1, 2, 3, 4].map(reply), clock, 20_000) });
    const { state: partial, progress } = runContactsImportStep(prepare(rows), first.client, { marginMs: ROW_MARGIN_MS, deadline: first.deadline });
    first.transport.assertDone();
    expect(progress).toEqual({ status: 'running', rowsDone: 5, rowsTotal: 10 });
    expect(buildContactsImportReport(partial).rows[5]!.status).toBe('not sent yet');

    const second = harness([5, 6, 7, 8, 9].map(reply), { clock });
    const { state: done } = runContactsImportStep(throughCache(partial), second.client, { marginMs: ROW_MARGIN_MS, deadline: second.deadline });
    second.transport.assertDone();
    const emails = [...sentBodies(first.transport, 'POST'), ...sentBodies(second.transport, 'POST')].map(
      (sent) => (sent.body['contact'] as { email: string }).email,
    );
    expect(emails).toEqual(rows.map(([email]) => email));
    expect(done.status).toBe('done');
    expect(buildContactsImportReport(done).totals).toMatchObject({ created: 10, pending: 0 });
  });

  it('marks the row whose POST was in flight when the execution died as unknown, and resumes with the next', () => {
    const log = new CheckpointLog<ContactsImportState>();
    const killed = harness([
      post(created(NEW_IDS[0]!, 'ann@example.com')),
      post(created(NEW_IDS[1]!, 'bob@example.com')),
      post(created(NEW_IDS[2]!, 'cy@example.com')),
    ]);
    runContactsImportStep(prepare(ROWS), killed.client, { marginMs: ROW_MARGIN_MS, deadline: killed.deadline, onCheckpoint: log.onCheckpoint });
    // Saved after Ann was created and just before Bob's POST: the last thing a killed execution left.
    const saved = log.saved[2]!;
    expect(saved).toMatchObject({ inFlight: 1, rows: [{ outcome: 'created' }, { outcome: 'pending' }, { outcome: 'pending' }] });

    const resumedLog = new CheckpointLog<ContactsImportState>();
    const next = harness([post(created(NEW_IDS[2]!, 'cy@example.com'))]);
    const { state: done } = runContactsImportStep(throughCache(saved), next.client, {
      marginMs: ROW_MARGIN_MS,
      deadline: next.deadline,
      onCheckpoint: resumedLog.onCheckpoint,
    });
    next.transport.assertDone();
    expect(resumedLog.writes.map((write) => [write.sheetRow, write.idText])).toEqual([
      [3, MAYBE_CREATED_MARK],
      [4, NEW_IDS[2]],
    ]);
    expect(buildContactsImportReport(done).totals).toEqual({ created: 2, existing: 0, skipped: 0, failed: 0, unknown: 1, pending: 0 });
  });

  it('cancels between rows and resumes with the rest', () => {
    let stop = false;
    const first = harness([post(created(NEW_IDS[0]!, 'ann@example.com'))]);
    const { state: cancelled } = runContactsImportStep(prepare(ROWS), first.client, {
      marginMs: ROW_MARGIN_MS,
      deadline: first.deadline,
      shouldStop: () => stop,
      onCheckpoint: (_, written) => {
        if (written) stop = true;
      },
    });
    const report = buildContactsImportReport(cancelled);
    expect(report.status).toBe('cancelled');
    expect(report.summary).toBe('3 rows read: 1 created, 2 not sent (import cancelled).');
    expect(report.rows[1]!.status).toBe('not sent: import cancelled');

    const second = harness([post(created(NEW_IDS[1]!, 'bob@example.com')), post(created(NEW_IDS[2]!, 'cy@example.com'))]);
    const { state: done } = runContactsImportStep(resumeImport(cancelJob(cancelled)), second.client, { marginMs: ROW_MARGIN_MS, deadline: second.deadline });
    second.transport.assertDone();
    expect(done.status).toBe('done');
  });

  it('waits out the rate limit when it asks for longer than the step has, then sends the same row', () => {
    const clock = new FakeClock(Date.UTC(2025, 0, 6, 9));
    const first = harness([post({ ...errorReply(429, 'rate_limit_exceeded'), headers: { 'retry-after': '600' } })], { clock, stepMs: 60_000 });
    const { state: waiting, progress } = runContactsImportStep(prepare(ROWS.slice(0, 1)), first.client, { marginMs: ROW_MARGIN_MS, deadline: first.deadline });
    expect(progress).toMatchObject({ status: 'running', rowsDone: 0, waitingForRateLimitMs: 600_000 });
    expect(waiting.rows[0]!.outcome).toBe('pending');

    clock.advance(600_000);
    const later = harness([post(created(NEW_IDS[0]!, 'ann@example.com'))], { clock });
    expect(runContactsImportStep(waiting, later.client, { marginMs: ROW_MARGIN_MS, deadline: later.deadline }).state.status).toBe('done');
  });
});

describe('what crosses google.script.run', () => {
  it('is plain JSON: states and reports survive the trip and type-check against Json', () => {
    const { client, deadline } = harness([post(created(NEW_IDS[0]!, 'ann@example.com'))]);
    const { state, progress } = runContactsImportStep(prepare(ROWS.slice(0, 1)), client, { marginMs: ROW_MARGIN_MS, deadline });
    const report = buildContactsImportReport(state);
    // Compile-time: a Date or a class instance in any of these would fail here.
    const sent: Json[] = [state, report, progress];
    const others = (profiles: ProfilesImportState, profileReport: ProfilesImportReport, note: ContactNoteReport): Json[] => [profiles, profileReport, note];
    expect(others).toBeInstanceOf(Function);
    expect(JSON.parse(JSON.stringify(sent))).toEqual(sent);
  });
});
