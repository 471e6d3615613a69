// Sending a push: concurrent PUTs, 201 and 200 counted, refusals on their cells, the rate limit waited out, resume and cancel.

import { buildAuditPushReport } from '../../../src/core/audit/push-report';
import { applySnapshotUpdates, parseSnapshot, serializeSnapshot } from '../../../src/core/audit/snapshot';
import type { AuditPushState } from '../../../src/core/audit/types';
import { resumeAuditPush } from '../../../src/core/audit/write-back';
import { cancelJob } from '../../../src/core/jobs/job-state';
import { compactNewPush, compactPush, expandPush, sheetFingerprint } from '../../../src/core/audit/compact-push';
import { readAuditSheet } from '../../../src/core/audit/read-sheet';
import { intlDateFormatter } from '../../../src/core/validate/dates';
import { midnightIn } from '../../../src/core/sheets/time-zone';
import { FakeClock } from '../../support/scripted-transport';
import {
  client,
  created,
  edit,
  errorReply,
  FUND,
  fundModel,
  fundSchema,
  OPTION,
  preparePush,
  PROFILE,
  PROPERTY,
  putStep,
  readBack,
  sentBodies,
  SlowTransport,
  TZ,
  updated,
} from './audit-fixtures';

const model = fundModel();
const schema = fundSchema();

/** The sheet with eight edits: three of existing values, five of blank cells. */
function editedSheet(): unknown[][] {
  const values = readBack(model.values);
  edit(values, PROFILE.aurora, PROPERTY.sector, 'healthcare');
  edit(values, PROFILE.aurora, PROPERTY.tags, 'ai, Hardware, IoT, b2b');
  edit(values, PROFILE.aurora, PROPERTY.headquarters, 'Munich');
  edit(values, PROFILE.bluebird, PROPERTY.employees, 1250.5);
  edit(values, PROFILE.bluebird, PROPERTY.pitchDeck, 'https://bluebird.example.com/deck');
  edit(values, PROFILE.cobalt, PROPERTY.founded, midnightIn('2016-07-04', TZ));
  edit(values, PROFILE.cobalt, PROPERTY.boardSeat, true);
  edit(values, PROFILE.cobalt, PROPERTY.sector, 'Energy');
  return values;
}

const EXPECTED_BODIES = [
  { portfolio_property_id: PROPERTY.sector, portfolio_company_profile_id: PROFILE.aurora, portfolio_property_option_id: OPTION.healthcare },
  {
    portfolio_property_id: PROPERTY.tags,
    portfolio_company_profile_id: PROFILE.aurora,
    portfolio_property_option_ids: [OPTION.b2b, OPTION.hardwareIot, OPTION.ai],
  },
  { portfolio_property_id: PROPERTY.headquarters, portfolio_company_profile_id: PROFILE.aurora, value: 'Munich' },
  { portfolio_property_id: PROPERTY.employees, portfolio_company_profile_id: PROFILE.bluebird, value: '1250.5' },
  { portfolio_property_id: PROPERTY.pitchDeck, portfolio_company_profile_id: PROFILE.bluebird, value: 'https://bluebird.example.com/deck' },
  { portfolio_property_id: PROPERTY.sector, portfolio_company_profile_id: PROFILE.cobalt, portfolio_property_option_id: OPTION.energy },
  { portfolio_property_id: PROPERTY.founded, portfolio_company_profile_id: PROFILE.cobalt, value: '2016-07-04' },
  { portfolio_property_id: PROPERTY.boardSeat, portfolio_company_profile_id: PROFILE.cobalt, value: 'true' },
];

const EIGHT_ANSWERS = [updated, updated, updated, created, created, created, created, created].map((reply) => putStep(reply));

function expectAccountedFor(state: AuditPushState): void {
  const report = buildAuditPushReport(state);
  expect(Object.values(report.totals).reduce((a, b) => a + b, 0)).toBe(report.cellsCompared);
}

describe('pushing changes', () => {
  it('keeps each profile and property once in the job state, however many cells share it', () => {
    const state = preparePush(editedSheet(), model, schema);
    const profileIds = state.profiles.map((profile) => profile.id);
    const propertyIds = state.properties.map((property) => property.id);
    expect(new Set(profileIds).size).toBe(profileIds.length);
    expect(new Set(propertyIds).size).toBe(propertyIds.length);
    // Three companies had cells edited, aurora's three of them; sector was edited for two companies.
    expect(profileIds).toEqual(expect.arrayContaining([PROFILE.aurora, PROFILE.bluebird, PROFILE.cobalt]));
    expect(state.items.filter((item) => state.profiles[item.profile]!.id === PROFILE.aurora && item.planned)).toHaveLength(3);
    expect(state.items.filter((item) => state.properties[item.property]!.id === PROPERTY.sector && item.planned)).toHaveLength(2);
  });

  it('sends each changed cell once, concurrently, with exactly the body its type demands, and counts 201 and 200', () => {
    const { step, transport } = client(EIGHT_ANSWERS);
    const { state, progress } = step(preparePush(editedSheet(), model, schema));

    transport.assertDone();
    expect(transport.waves).toEqual([8]);
    expect(transport.sent.every((request) => request.method === 'PUT' && request.url === 'https://api.test/portfolio_property_values')).toBe(true);
    expect(sentBodies(transport)).toEqual(EXPECTED_BODIES);
    expect(progress).toEqual({ status: 'done', cellsDone: 8, cellsTotal: 8 });
    const report = buildAuditPushReport(state);
    expect(report.totals).toEqual({ created: 5, updated: 3, unchanged: 22, skipped: 0, failed: 0, conflict: 0, pending: 0 });
    expect(report.summary).toBe('30 cells compared: 5 created, 3 updated, 22 unchanged.');
    expect(report.items[0]).toEqual({
      cell: 'C3',
      row: 3,
      column: 3,
      profileId: PROFILE.aurora,
      profileName: 'Aurora Robotics',
      propertyId: PROPERTY.sector,
      propertyName: 'Sector',
      value: 'healthcare',
      outcome: 'updated',
      reason: null,
    });
    expectAccountedFor(state);
  });

  it('refreshes the snapshot from the report, so pushing the same sheet again sends nothing', () => {
    const sheet = editedSheet();
    const { step } = client(EIGHT_ANSWERS);
    const { state } = step(preparePush(sheet, model, schema));
    const report = buildAuditPushReport(state);
    expect(report.snapshotUpdates).toHaveLength(8);
    expect(report.snapshotUpdates[1]).toEqual({ profileId: PROFILE.aurora, propertyId: PROPERTY.tags, key: expect.stringMatching(/^#/) });

    const refreshed = parseSnapshot(serializeSnapshot(applySnapshotUpdates(model.snapshot, report.snapshotUpdates)));
    const again = preparePush(sheet, { ...model, snapshot: refreshed }, schema);
    expect(again).toMatchObject({ status: 'done', cellsCompared: 30, unchanged: 30, items: [] });
    const idle = client([]);
    idle.step(again);
    expect(idle.transport.sent).toHaveLength(0);
  });

  it("puts a 422 on its cell with the API's message, and a 403 and a 400 on theirs, while the other cells go on", () => {
    const { step, transport } = client([
      putStep(updated),
      putStep(errorReply(422, 'attribute_invalid', 'portfolio_property_option_ids', 'names no option of this property: x')),
      putStep(errorReply(403, 'forbidden')),
      putStep(created),
      putStep(errorReply(422, 'attribute_invalid', 'value', 'must be an http or https URL')),
      putStep(errorReply(400, 'parameter_invalid', 'portfolio_property_value', 'is missing')),
      putStep(created),
      putStep(created),
    ]);
    const { state } = step(preparePush(editedSheet(), model, schema));
    transport.assertDone();
    const report = buildAuditPushReport(state);
    expect(report.items.map((item) => [item.cell, item.outcome, item.reason])).toEqual([
      ['C3', 'updated', null],
      ['D3', 'failed', 'the API refused the options: names no option of this property: x'],
      ['H3', 'failed', "this API token has no access to this fund's property values (HTTP 403)"],
      ['E4', 'created', null],
      ['I4', 'failed', 'the API refused the value: must be an http or https URL'],
      ['C5', 'failed', 'the API refused the request (HTTP 400, field portfolio_property_value: is missing)'],
      ['F5', 'created', null],
      ['G5', 'created', null],
    ]);
    expect(report.summary).toBe('30 cells compared: 3 created, 1 updated, 22 unchanged, 4 failed.');
    // Failed cells keep their original key in the snapshot, so the next push tries them again.
    expect(report.snapshotUpdates.map((update) => update.propertyId)).toEqual([PROPERTY.sector, PROPERTY.employees, PROPERTY.founded, PROPERTY.boardSeat]);
    expect(state.status).toBe('done');
  });

  it('waits out a 429 for its Retry-After and sends the same cell again', () => {
    const values = readBack(model.values);
    edit(values, PROFILE.aurora, PROPERTY.headquarters, 'Munich');
    const { step, transport, clock } = client([putStep({ ...errorReply(429, 'rate_limit_exceeded'), headers: { 'retry-after': '3' } }), putStep(updated)]);
    const { state, progress } = step(preparePush(values, model, schema));
    transport.assertDone();
    expect(clock.sleeps).toEqual([3000]);
    expect(sentBodies(transport)).toEqual([
      { portfolio_property_id: PROPERTY.headquarters, portfolio_company_profile_id: PROFILE.aurora, value: 'Munich' },
      { portfolio_property_id: PROPERTY.headquarters, portfolio_company_profile_id: PROFILE.aurora, value: 'Munich' },
    ]);
    expect(progress).toMatchObject({ status: 'done', waitedForRateLimitMs: 3000 });
    expect(state.counters).toMatchObject({ requests: 1, rateLimitWaitMs: 3000 });
    expect(buildAuditPushReport(state).totals.updated).toBe(1);
  });

  it('leaves a cell pending when the rate limit asks for longer than the step has, and sends it after the wait', () => {
    const values = readBack(model.values);
    edit(values, PROFILE.aurora, PROPERTY.headquarters, 'Munich');
    const clock = new FakeClock(Date.UTC(2025, 0, 6, 9));
    const first = client([putStep({ ...errorReply(429, 'rate_limit_exceeded'), headers: { 'retry-after': '120' } })], { clock, deadlineMs: 60_000 });
    const { state: waiting, progress } = first.step(preparePush(values, model, schema), { marginMs: 10_000 });
    expect(progress).toMatchObject({ status: 'running', cellsDone: 0, cellsTotal: 1, waitingForRateLimitMs: 120_000 });
    expect(buildAuditPushReport(waiting).items[0]).toMatchObject({ outcome: 'pending', reason: 'not sent yet' });

    clock.advance(120_000);
    const later = client([putStep(created)], { clock });
    const { state: done } = later.step(waiting);
    expect(sentBodies(later.transport)).toHaveLength(1);
    expect(buildAuditPushReport(done).totals).toMatchObject({ created: 1, pending: 0 });
  });

  it('stops before the deadline and resumes with only the cells not confirmed', () => {
    const clock = new FakeClock(Date.UTC(2025, 0, 6, 9));
    // Each wave of one PUT takes 20 s; the step has 100 s and keeps 30 s spare, so it sends four.
    const first = client([], { clock, deadlineMs: 100_000, transport: new SlowTransport(EIGHT_ANSWERS.slice(0, 4), clock, 20_000) });
    const { state: partial, progress } = first.step(preparePush(editedSheet(), model, schema), { waveSize: 1 });
    first.transport.assertDone();
    expect(progress).toEqual({ status: 'running', cellsDone: 4, cellsTotal: 8 });

    const stored = JSON.parse(JSON.stringify(partial)) as AuditPushState;
    const second = client(EIGHT_ANSWERS.slice(4), { clock });
    const { state: done } = second.step(stored);
    second.transport.assertDone();
    expect(sentBodies(second.transport)).toEqual(EXPECTED_BODIES.slice(4));
    expect(buildAuditPushReport(done).totals).toMatchObject({ created: 5, updated: 3, pending: 0 });
  });

  it('cancels between waves: nothing more is sent, pending cells say so, and a resume sends only the rest', () => {
    const first = client(EIGHT_ANSWERS.slice(0, 3));
    let waves = 0;
    const { state: stopped } = first.step(preparePush(editedSheet(), model, schema), { waveSize: 3, shouldStop: () => waves++ >= 1 });
    expect(stopped.status).toBe('cancelled');
    const report = buildAuditPushReport(stopped);
    expect(report.totals).toMatchObject({ updated: 3, pending: 5 });
    expect(report.items[3]!.reason).toBe('not sent: push cancelled');
    expect(report.summary).toBe('30 cells compared: 3 updated, 22 unchanged, 5 not sent (push cancelled).');

    const idle = client([]);
    expect(idle.step(stopped).state.status).toBe('cancelled');
    expect(idle.transport.sent).toHaveLength(0);

    const resumed = client(EIGHT_ANSWERS.slice(3));
    const { state: done } = resumed.step(resumeAuditPush(stopped));
    expect(sentBodies(resumed.transport)).toEqual(EXPECTED_BODIES.slice(3));
    expect(done.status).toBe('done');
    expectAccountedFor(done);
  });

  it('cancels from outside between steps, keeping what was confirmed', () => {
    const cancelled = cancelJob(preparePush(editedSheet(), model, schema));
    expect(buildAuditPushReport(cancelled).totals).toMatchObject({ pending: 8 });
    expect(client([]).step(cancelled).state.status).toBe('cancelled');
  });

  it('checkpoints after every wave, so a step killed midway resumes without sending a cell twice', () => {
    const checkpoints: string[] = [];
    const killed = client(EIGHT_ANSWERS);
    killed.step(preparePush(editedSheet(), model, schema), { waveSize: 3, onCheckpoint: (state) => checkpoints.push(JSON.stringify(state)) });
    expect(checkpoints).toHaveLength(3);
    const saved = JSON.parse(checkpoints[0]!) as AuditPushState;
    const resumed = client(EIGHT_ANSWERS.slice(3));
    resumed.step(saved);
    expect(sentBodies(resumed.transport)).toEqual(EXPECTED_BODIES.slice(3));
  });

  it('pauses the whole push when the token is rejected, losing nothing', () => {
    const { step } = client([putStep(errorReply(401, 'unauthorized'))]);
    const values = readBack(model.values);
    edit(values, PROFILE.aurora, PROPERTY.headquarters, 'Munich');
    const { state, progress } = step(preparePush(values, model, schema));
    expect(state.status).toBe('paused');
    expect(progress.problem).toMatch(/^The API token was rejected\./);
    expect(buildAuditPushReport(state).items[0]).toMatchObject({
      outcome: 'pending',
      reason: expect.stringMatching(/^not sent: push paused \(The API token was rejected/),
    });
  });

  it('keeps cells pending through server errors, and pauses after three steps without progress', () => {
    const values = readBack(model.values);
    edit(values, PROFILE.aurora, PROPERTY.headquarters, 'Munich');
    let state = preparePush(values, model, schema);
    for (let attempt = 1; attempt <= 3; attempt++) {
      const unavailable = putStep({ status: 503, body: 'Service Unavailable' });
      const { state: next, progress } = client([unavailable, unavailable], { retry: { maxRetries: 1 } }).step(state);
      expect(next.items[0]!.outcome).toBe('pending');
      expect(progress.problem).toBe('The API had a temporary problem (HTTP 503). Try again in a minute.');
      expect(next.status).toBe(attempt < 3 ? 'running' : 'paused');
      state = next;
    }
  });

  it("stores a push without its cells' values and gets the same state back from the sheet (compact-push)", () => {
    const sheet = editedSheet();
    edit(sheet, PROFILE.aurora, PROPERTY.employees, 'many');
    const read = readAuditSheet(sheet, FUND);
    const original = preparePush(sheet, model, schema);
    expect(buildAuditPushReport(original).totals).toMatchObject({ pending: 8, failed: 1 });
    const compact = compactNewPush(original, read, sheetFingerprint(sheet), schema);
    const text = JSON.stringify(compact);
    // No value, display text or key of a cell; of the options only the ones the pending writes name.
    for (const typed of ['Munich', 'bluebird.example.com', '1250.5', '2016-07-04']) expect(text).not.toContain(typed);
    expect(
      Object.values(compact.schema.options)
        .flat()
        .map((option) => option.id)
        .sort(),
    ).toEqual([OPTION.healthcare, OPTION.b2b, OPTION.hardwareIot, OPTION.ai, OPTION.energy].sort());
    expect(expandPush(compact, read, sheetFingerprint(sheet), { timeZone: TZ, formatDate: intlDateFormatter })).toEqual(original);

    // Three cells confirmed, then cancelled: what is stored brings back exactly that state, reasons and all.
    let waves = 0;
    const { state: partial } = client(EIGHT_ANSWERS.slice(0, 3)).step(original, { waveSize: 3, onCheckpoint: () => waves++, shouldStop: () => waves > 0 });
    expect(buildAuditPushReport(partial).totals).toMatchObject({ updated: 3, pending: 5, failed: 1 });
    const stored = compactPush(partial, compact);
    expect(stored.codes).toBe('UUfUppppp');
    // What a step keeps on its confirmed cells for the push's journal (the body sent) is not kept between steps.
    const withoutJournal = { ...partial, items: partial.items.map(({ sent: _sent, ...item }: (typeof partial.items)[number] & { sent?: unknown }) => item) };
    expect(expandPush(stored, readAuditSheet(sheet, FUND), sheetFingerprint(sheet), { timeZone: TZ, formatDate: intlDateFormatter })).toEqual(withoutJournal);

    // A sheet edited since is not the push's sheet: nothing of it is rebuilt to be sent.
    const changed = editedSheet();
    edit(changed, PROFILE.cobalt, PROPERTY.sector, 'Healthcare');
    expect(expandPush(stored, readAuditSheet(changed, FUND), sheetFingerprint(changed), { timeZone: TZ, formatDate: intlDateFormatter })).toBeNull();
  });

  it('does not change the state it was given', () => {
    const state = preparePush(editedSheet(), model, schema);
    const before = JSON.stringify(state);
    client(EIGHT_ANSWERS).step(state);
    expect(JSON.stringify(state)).toBe(before);
  });
});
