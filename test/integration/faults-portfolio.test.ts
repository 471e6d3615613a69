// The portfolio tools against the faults the real network has (429 storms, 5xx bursts, dropped
// connections) and the refusals the real service gives: every cell and row ends accounted for, nothing
// is lost or stored twice, and a refusal is reported on its row.

import { DEMO_IDS } from '../../emulator/demo-data';
import type { GasRuntime } from '../../gas-runtime';
import type { AuditPushHandle, ImportHandle } from '../../src/shared/rpc';
import { ok, useStack, waitOnBothClocks, type Stack } from '../support/stack';
import { editDemoHeadquarters } from '../support/audit-edits';

let stack: Stack;
useStack((started) => (stack = started));

type Faults = Parameters<Stack['emulator']['control']['faults']>[0];
type Waiting = { report: unknown; progress: { waitingForRateLimitMs?: number } };

/** Steps a job as the sidebar does, waiting out the rate limit on both clocks. */
async function drive<H extends Waiting>(rt: GasRuntime, first: H, next: (handle: H) => unknown): Promise<H> {
  let handle = first;
  for (let step = 0; !handle.report && step < 60; step++) {
    await waitOnBothClocks(stack, rt, handle.progress.waitingForRateLimitMs);
    handle = ok<H>(next(handle));
  }
  return handle;
}

async function pushWith(faults: Faults): Promise<{ rt: GasRuntime; done: AuditPushHandle; expected: Map<string, string> }> {
  const rt = stack.runtime({ fetchTimeoutMs: 1500 });
  ok(rt.callServer('buildAudit', [DEMO_IDS.fund]));
  const sheet = rt.spreadsheet.getSheetByName('Portfolio audit')!;
  const values = sheet.getDataRange().getValues();
  const state = await stack.emulator.control.state();
  const named = (name: string) => state.portfolio_properties.find((p) => p.company_id === DEMO_IDS.fund && p.name === name)!;
  const profiles = state.portfolio_company_profiles.filter((p) => p.company_id === DEMO_IDS.fund);
  const expected = new Map<string, string>();
  profiles.forEach((profile, index) => {
    const row = values.findIndex((r) => r[0] === profile.id) + 1;
    const edits: Array<[string, unknown, string]> = [
      ['Headquarters', `Harbour ${index}`, `Harbour ${index}`],
      ['Employees', 40 + index, String(40 + index)],
      ['Investment memo', `Memo ${index}\nsecond line`, `Memo ${index}\nsecond line`],
    ];
    for (const [name, cell, stored] of edits) {
      sheet.getRange(row, values[0]!.indexOf(named(name).id) + 1).setValue(cell);
      expected.set(`${profile.id}/${named(name).id}`, stored);
    }
  });
  const started = ok<AuditPushHandle>(rt.callServer('startAuditPush', [null]));
  // The faults start once the push is prepared, so that they hit the sending.
  await stack.emulator.control.faults(faults);
  const done = await drive(rt, started, (h) => rt.callServer('continueAuditPush', [h.pushId]));
  return { rt, done, expected };
}

async function expectStoredOnce(expected: Map<string, string>): Promise<void> {
  const after = await stack.emulator.control.state();
  for (const [key, value] of expected) {
    const [profileId, propertyId] = key.split('/');
    const stored = after.portfolio_property_values.filter((v) => v.portfolio_company_profile_id === profileId && v.portfolio_property_id === propertyId);
    expect([key, stored.map((v) => v.value)]).toEqual([key, [value]]);
  }
}

describe('the audit push', () => {
  it.each<[string, Faults]>([
    // 18 refusals: the first wave's read of the server's values (one request per company, 12 here), then probes
    // one per backoff interval (a longer storm pauses the push after 15 minutes: see job-storms.test.ts).
    ['a storm of 429s', { next429: 18 }],
    ['bursts of 503s', { failRate: 0.35, seed: 7 }],
    ['dropped connections', { dropRate: 0.25, seed: 9 }],
    ['all of them at once', { next429: 10, failRate: 0.2, dropRate: 0.15, seed: 13 }],
  ])('accounts for every cell through %s, each stored once', async (_, faults) => {
    const { done, expected } = await pushWith(faults);
    expect(done.progress).toMatchObject({ status: 'done', cellsDone: expected.size, cellsTotal: expected.size });
    const totals = done.report!.totals;
    expect(totals).toMatchObject({ failed: 0, pending: 0, skipped: 0 });
    expect(totals.created + totals.updated).toBe(expected.size);
    await expectStoredOnce(expected);
  });

  it('resumes a push cancelled in a 429 storm without a request before its first probe', async () => {
    const rt = stack.runtime();
    const { profiles, expected, cellOf } = await editDemoHeadquarters(stack, rt, (_, index) => `Calm harbour ${index}`);
    const started = ok<AuditPushHandle>(rt.callServer('startAuditPush', [null]));
    await stack.emulator.control.faults({ throttleForMs: 10 * 60_000 });
    const refused = ok<AuditPushHandle>(rt.callServer('continueAuditPush', [started.pushId]));
    expect(refused.progress).toMatchObject({ status: 'running', cellsDone: 0 });
    expect(ok<AuditPushHandle>(rt.callServer('cancelAuditPush', [started.pushId])).progress.status).toBe('cancelled');

    await stack.emulator.control.clearRequests();
    const resumed = ok<AuditPushHandle>(rt.callServer('resumeAuditPush', [started.pushId]));
    expect(resumed.progress.status).toBe('running');
    // The sheet is checked against its fingerprint, not by preparing the push again from the fund's schema.
    expect(await stack.emulator.control.requests()).toEqual([]);
    await waitOnBothClocks(stack, rt, resumed.progress.waitingForRateLimitMs);
    const probed = ok<AuditPushHandle>(rt.callServer('continueAuditPush', [started.pushId]));
    expect(probed.progress.status).toBe('running');
    // The probe is the wave's read of the server's value (conflicts.ts), before any PUT.
    expect((await stack.emulator.control.requests()).map((r) => [r.method, r.path, r.status])).toEqual([['GET', '/portfolio_property_values', 429]]);

    // An edit since the cancel is still caught, by the same fingerprint.
    ok(rt.callServer('cancelAuditPush', [started.pushId]));
    const cell = cellOf(profiles[0]!.id);
    cell.setValue('Edited meanwhile');
    expect(rt.callServer('resumeAuditPush', [started.pushId])).toMatchObject({ ok: false, error: expect.stringMatching(/audit sheet changed/) });
    cell.setValue('Calm harbour 0');

    await stack.emulator.control.faults({ throttleForMs: 0 });
    const done = await drive(rt, ok<AuditPushHandle>(rt.callServer('resumeAuditPush', [started.pushId])), (h) =>
      rt.callServer('continueAuditPush', [h.pushId]),
    );
    expect(done.progress).toMatchObject({ status: 'done', cellsDone: expected.size });
    await expectStoredOnce(expected);
  });

  it('pauses on a 503 storm that does not end, with every cell confirmed or still pending, and a resume finishes it', async () => {
    const { rt, done, expected } = await pushWith({ next5xx: 100_000 });
    expect(done.progress.status).toBe('paused');
    expect(done.report!.problem).toBe('The API had a temporary problem (HTTP 503). Try again in a minute.');
    const totals = done.report!.totals;
    expect(totals.pending + totals.created + totals.updated).toBe(expected.size);
    expect(totals.pending).toBeGreaterThan(0);
    await stack.emulator.control.faults({ reset: true });
    const resumed = await drive(rt, ok<AuditPushHandle>(rt.callServer('resumeAuditPush', [done.pushId])), (h) =>
      rt.callServer('continueAuditPush', [h.pushId]),
    );
    expect(resumed.progress).toMatchObject({ status: 'done', cellsDone: expected.size });
    expect(resumed.report!.totals).toMatchObject({ failed: 0, pending: 0 });
    await expectStoredOnce(expected);
  });
});

describe('the profile import', () => {
  async function importProfiles(rt: GasRuntime, rows: unknown[][], faults: Faults | null): Promise<ImportHandle> {
    const sheet = rt.spreadsheet.getSheetByName('Sheet1')!;
    sheet.getRange(1, 1, rows.length, rows[0]!.length).setValues(rows);
    const started = ok<ImportHandle>(rt.callServer('startImport', [{ kind: 'profiles', companyId: DEMO_IDS.fund, range: `Sheet1!A1:C${rows.length}` }]));
    if (faults) await stack.emulator.control.faults(faults);
    return drive(rt, started, (h) => rt.callServer('continueImport', [h.importId]));
  }

  it('reports the real service 422 for a duplicate name on its row, when the name was taken after the import was planned', async () => {
    const rt = stack.runtime();
    const sheet = rt.spreadsheet.getSheetByName('Sheet1')!;
    sheet.getRange('A1:C3').setValues([
      ['Name', 'Currency', 'Website'],
      ['Nimbus Data', 'USD', ''],
      ['Quasar Labs', 'EUR', 'quasar.example'],
    ]);
    const started = ok<ImportHandle>(rt.callServer('startImport', [{ kind: 'profiles', companyId: DEMO_IDS.fund, range: 'Sheet1!A1:C3' }]));
    // Someone else creates "Quasar Labs" between the planning and the sending.
    await stack.emulator.control.fixtures({ portfolio_company_profiles: [{ company_id: DEMO_IDS.fund, name: 'Quasar Labs' }] });
    const done = await drive(rt, started, (h) => rt.callServer('continueImport', [h.importId]));
    expect(done.report!.totals).toMatchObject({ created: 1, failed: 1, pending: 0 });
    expect(done.report!.problems).toEqual([expect.objectContaining({ sheetRow: 3, label: 'Quasar Labs', outcome: 'failed' })]);
    expect(done.report!.problems[0]!.reason).toMatch(/name has already been taken/i);
    const posts = (await stack.emulator.control.requests()).filter((r) => r.method === 'POST' && r.path === '/portfolio_company_profiles');
    expect(posts.map((r) => r.status).sort()).toEqual([201, 422]);
    expect(sheet.getRange('E3').getValue()).toMatch(/^failed: .*already been taken/i);
    const after = await stack.emulator.control.state();
    expect(after.portfolio_company_profiles.filter((p) => p.name === 'Quasar Labs')).toHaveLength(1);
  });

  it.each<[string, Faults]>([
    ['a storm of 429s', { next429: 12 }],
    ['bursts of 503s and dropped connections', { failRate: 0.3, dropRate: 0.2, seed: 21 }],
  ])('accounts for every row through %s, creating none twice', async (_, faults) => {
    const rt = stack.runtime({ fetchTimeoutMs: 1500 });
    const names = Array.from({ length: 8 }, (_, i) => `Faulty Co ${i}`);
    const done = await importProfiles(rt, [['Name', 'Currency', 'Website'], ...names.map((name, i) => [name, i % 2 ? 'EUR' : 'usd', ''])], faults);
    expect(['done', 'paused']).toContain(done.progress.status);
    const totals = done.report!.totals as Record<string, number>;
    expect(Object.values(totals).reduce((a, b) => a + b, 0)).toBe(names.length);
    const after = await stack.emulator.control.state();
    // A POST whose answer was lost is never repeated: each name is stored at most once, and every row
    // not confirmed says so (failed or to be checked), never silently.
    for (const name of names) expect(after.portfolio_company_profiles.filter((p) => p.name === name).length).toBeLessThanOrEqual(1);
    const stored = names.filter((name) => after.portfolio_company_profiles.some((p) => p.name === name)).length;
    expect(totals['created']).toBeLessThanOrEqual(stored);
    expect(totals['created']! + (totals['failed'] ?? 0) + (totals['unknown'] ?? 0) + (totals['pending'] ?? 0)).toBe(names.length);
  });
});
