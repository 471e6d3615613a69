// Scheduled refresh of snapshots on the built add-in: the runtime's time-driven trigger runs it as the user who
// scheduled it (not the owner, not whoever is at the keyboard), with no active spreadsheet (the add-in opens it
// by id), writes a restated value's Changes row, records a failure in the Changes sheet and the sidebar's
// schedule, keeps one trigger per user per document when rescheduled, and cancel removes it.

import { readFileSync } from 'node:fs';
import { DEMO_IDS } from '../../emulator/demo-data';
import type { GasRuntime } from '../../gas-runtime';
import type { InsertReport, SnapshotRefreshScheduleView } from '../../src/shared/rpc';
import { CODE_PATH } from '../support/built-bundle';
import { OWNER, ok, useStack, type Stack } from '../support/stack';

let stack: Stack;
useStack((started) => (stack = started));

const HOUR = 3_600_000;
const SCHEDULER = 'scheduler@example.com';
const SCHEDULER_TOKEN = 'scheduler-token-0123456789abcdef';
/** At the keyboard when the trigger fires: has no token, so any call spending their connection would fail. */
const BYSTANDER = 'bystander@example.com';
const HANDLER = 'runScheduledSnapshotRefresh';

interface Setup {
  rt: GasRuntime;
  revenue: string;
  schedulerId: string;
}

async function setup(): Promise<Setup> {
  const created = await stack.emulator.control.fixtures({
    users: [{ name: 'Scheduler', token: SCHEDULER_TOKEN, company_ids: [DEMO_IDS.fund] }],
    metrics: [{ company_id: DEMO_IDS.fund, name: 'Sched revenue', frequency: 'monthly', unit: 'USD' }],
  });
  const revenue = created.metrics[0]!.id;
  await stack.emulator.control.fixtures({
    data_points: ['2024-01-01', '2024-02-01', '2024-03-01'].map((date, i) => ({ metric_id: revenue, date, value: String(100 + i) })),
  });
  // The owner's token is unknown to the emulator: a run spending the owner's connection would fail.
  const rt = stack.runtime({ token: 'owner-token-unknown-to-the-emulator', activeUser: BYSTANDER, activeUserSettings: { token: null } });
  const props = rt.properties.user(SCHEDULER);
  props.setProperty('METRICS_API_BASE_URL', stack.emulator.url);
  props.setProperty('METRICS_API_TOKEN', SCHEDULER_TOKEN);
  props.setProperty('METRICS_DEFAULT_COMPANY_ID', DEMO_IDS.fund);
  const sheet = rt.spreadsheet.getSheetByName('Sheet1')!;
  rt.spreadsheet.setActiveRange(sheet.getRange('B2'));
  ok<InsertReport>(
    rt.callServer(
      'insertMetricValues',
      [{ companyId: DEMO_IDS.fund, metricIds: [revenue], startDate: '2024-01-01', endDate: '2024-03-31', mode: 'snapshot', headers: true }],
      { user: SCHEDULER },
    ),
  );
  return { rt, revenue, schedulerId: created.users[0]!.id };
}

function schedule(rt: GasRuntime, frequency: string, user = SCHEDULER): SnapshotRefreshScheduleView {
  return ok<SnapshotRefreshScheduleView>(rt.callServer('scheduleSnapshotRefresh', [frequency], { user }));
}

function scheduleOf(rt: GasRuntime, user = SCHEDULER): SnapshotRefreshScheduleView {
  return ok<SnapshotRefreshScheduleView>(rt.callServer('getSnapshotRefreshSchedule', [], { user }));
}

function changesRows(rt: GasRuntime): unknown[][] {
  const sheet = rt.spreadsheet.getSheetByName('Changes');
  return sheet ? sheet.getRange(2, 1, Math.max(sheet.getLastRow() - 1, 1), 9).getValues() : [];
}

describe('scheduled refresh of snapshots', () => {
  it('runs by the trigger as the scheduler, with their token, and appends the restated value', async () => {
    const s = await setup();
    const view = schedule(s.rt, 'hourly');
    expect(view.schedule).toMatchObject({ frequency: 'hourly', active: true, lastRun: null });
    expect(s.rt.triggers.list()).toEqual([expect.objectContaining({ handlerFunction: HANDLER, owner: SCHEDULER, documentId: s.rt.spreadsheet.getId() })]);

    await stack.emulator.control.fixtures({
      data_points: [{ metric_id: s.revenue, date: '2024-02-01', value: '155', source: { source_type: 'update_request', label: 'Restated' } }],
    });
    await stack.takeRequests();
    const runs = s.rt.triggers.advance(HOUR);
    expect(runs).toEqual([expect.objectContaining({ handlerFunction: HANDLER, user: SCHEDULER, ok: true })]);
    expect(runs[0]!.execution).toMatchObject({ kind: 'trigger', user: SCHEDULER, authMode: 'FULL', outcome: 'completed' });

    expect(s.rt.spreadsheet.getSheetByName('Sheet1')!.getRange('C3:C5').getValues()).toEqual([[100], [155], [102]]);
    expect(changesRows(s.rt).map((row) => row.slice(1))).toEqual([
      ['Sched revenue', '2024-02-01', 101, 155, 'update_request: Restated', 'Refresh snapshots (schedule)', 'Sheet1!B2:C5', ''],
    ]);
    // The emulator saw the scheduler's token only: not the owner's, not the bystander's.
    const requests = await stack.takeRequests();
    expect(requests.length).toBeGreaterThan(0);
    expect(requests.every((r) => r.userId === s.schedulerId && r.status === 200)).toBe(true);

    expect(scheduleOf(s.rt).schedule!.lastRun).toMatchObject({ status: 'ok' });
    // Another user sees no schedule of theirs: triggers are per user.
    expect(scheduleOf(s.rt, OWNER).schedule).toBeNull();
  });

  it("records a run whose token the API rejects in the Changes sheet and the sidebar's schedule", async () => {
    const s = await setup();
    schedule(s.rt, 'hourly');
    // As a revoked token is: the API answers 401 to it.
    s.rt.properties.user(SCHEDULER).setProperty('METRICS_API_TOKEN', 'revoked-token-0123456789abcdef');
    await stack.takeRequests();
    const runs = s.rt.triggers.advance(HOUR);
    // The handler records the failure rather than throw: an add-on's failed trigger tells no one.
    expect(runs).toEqual([expect.objectContaining({ user: SCHEDULER, ok: true })]);
    const requests = await stack.takeRequests();
    expect(requests.length).toBeGreaterThan(0);
    expect(requests.every((r) => r.status === 401)).toBe(true);

    const rows = changesRows(s.rt);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.slice(1, 8)).toEqual(['', '', '', '', '', 'Refresh snapshots (schedule)', 'Sheet1!B2:C5']);
    expect(rows[0]![8]).toMatch(/The API token was rejected/);
    // The table was left as it was.
    expect(s.rt.spreadsheet.getSheetByName('Sheet1')!.getRange('C3:C5').getValues()).toEqual([[100], [101], [102]]);

    const view = scheduleOf(s.rt);
    expect(view.schedule!.lastRun).toMatchObject({ status: 'failed', message: expect.stringMatching(/token was rejected/) });
    expect(view.message).toMatch(/failed/);
    // The trigger keeps its schedule.
    expect(s.rt.triggers.list()).toHaveLength(1);
  });

  it("takes the scheduler's own lock, never the script lock every user of the add-on shares, and says truly what it waited for", async () => {
    const s = await setup();
    schedule(s.rt, 'hourly');
    // Another user's run holds the script lock and their own lock for hours: a published add-on is one script for all its users.
    s.rt.locks.hold('script', { forMs: 3 * HOUR });
    s.rt.locks.hold('user', { user: OWNER, forMs: 3 * HOUR });
    await stack.emulator.control.fixtures({
      data_points: [{ metric_id: s.revenue, date: '2024-03-01', value: '177', source: { source_type: 'update_request', label: 'Restated' } }],
    });
    expect(s.rt.triggers.advance(HOUR)).toEqual([expect.objectContaining({ user: SCHEDULER, ok: true })]);
    expect(scheduleOf(s.rt).schedule!.lastRun).toMatchObject({ status: 'ok' });
    expect(s.rt.spreadsheet.getSheetByName('Sheet1')!.getRange('C3:C5').getValues()).toEqual([[100], [101], [177]]);

    // The scheduler's own lock, held elsewhere (another of their runs): the run waits for it, then says so.
    s.rt.locks.hold('user', { user: SCHEDULER, forMs: 3 * HOUR });
    await stack.takeRequests();
    expect(s.rt.triggers.advance(HOUR)).toEqual([expect.objectContaining({ user: SCHEDULER, ok: true })]);
    const lastRun = scheduleOf(s.rt).schedule!.lastRun!;
    expect(lastRun.status).toBe('failed');
    expect(lastRun.message).toMatch(/your own add-in work elsewhere .* held your lock, which a scheduled run takes for inserting or refreshing snapshots/);
    expect(lastRun.message).not.toMatch(/in this spreadsheet/);
    expect(await stack.takeRequests()).toEqual([]);
  });

  it('replaces the trigger when rescheduled (one per user per document), and cancel removes it', async () => {
    const s = await setup();
    schedule(s.rt, 'hourly');
    const [first] = s.rt.triggers.list();
    const daily = schedule(s.rt, 'daily');
    expect(daily.schedule).toMatchObject({ frequency: 'daily', active: true });
    const after = s.rt.triggers.list();
    expect(after).toHaveLength(1);
    expect(after[0]!.uniqueId).not.toBe(first!.uniqueId);
    expect(after[0]).toMatchObject({ owner: SCHEDULER, handlerFunction: HANDLER });
    // An hour on, the daily trigger has not run (its window is a day away).
    expect(s.rt.triggers.advance(HOUR)).toEqual([]);

    expect(s.rt.callServer('scheduleSnapshotRefresh', ['every minute'], { user: SCHEDULER })).toEqual({
      ok: false,
      error: 'Choose how often to refresh: hourly, daily or weekly.',
    });

    const cancelled = ok<SnapshotRefreshScheduleView>(s.rt.callServer('cancelSnapshotRefresh', [], { user: SCHEDULER }));
    expect(cancelled.schedule).toBeNull();
    expect(s.rt.triggers.list()).toEqual([]);
    expect(scheduleOf(s.rt).schedule).toBeNull();
    expect(s.rt.triggers.advance(7 * 24 * HOUR)).toEqual([]);
  });

  it('refuses a 21st scheduled spreadsheet ("Triggers: 20 / user / script"), naming where the other 20 are, and changes nothing', () => {
    // The built add-in plus one test-only global, to make the user's triggers of other spreadsheets.
    const code = `${readFileSync(CODE_PATH, 'utf8')}\nfunction testDeleteTrigger(uid) { ScriptApp.getProjectTriggers().filter(function (t) { return t.getUniqueId() === uid; }).forEach(function (t) { ScriptApp.deleteTrigger(t); }); }\nfunction testMakeTrigger() { return ScriptApp.newTrigger('${HANDLER}').timeBased().everyHours(1).create().getUniqueId(); }`;
    // Not as an add-on: the test's triggers all live in this one spreadsheet, which an add-on allows once per user.
    const rt = stack.runtime({ code, addOn: false, token: null, activeUser: SCHEDULER, activeUserSettings: {} });
    const props = rt.properties.user(SCHEDULER);
    const others = Array.from({ length: 20 }, (_, i) => `other-spreadsheet-${String(i).padStart(2, '0')}`);
    for (const spreadsheetId of others) {
      const triggerUid = rt.run('testMakeTrigger', [], { user: SCHEDULER }) as string;
      props.setProperty(
        `METRICS_SNAPSHOT_SCHEDULE_${spreadsheetId}`,
        JSON.stringify({ v: 1, spreadsheetId, frequency: 'hourly', triggerUid, scheduledAt: '2024-01-01T00:00:00.000Z', lastRun: null }),
      );
    }
    const before = props.getProperties();
    const answer = rt.callServer('scheduleSnapshotRefresh', ['daily'], { user: SCHEDULER }) as { ok: boolean; error?: string };
    expect(answer.ok).toBe(false);
    expect(answer.error).toMatch(
      /^You already have 20 scheduled refreshes, and Apps Script allows 20 triggers per user for this add-on \("Triggers: 20 \/ user \/ script", quotas page\), so none can be added here\. Turn one off/,
    );
    for (const id of others) expect(answer.error).toContain(`https://docs.google.com/spreadsheets/d/${id}`);
    expect(rt.triggers.list()).toHaveLength(20);
    expect(props.getProperties()).toEqual(before);

    // One turned off elsewhere (its trigger gone): this one can be scheduled.
    const firstUid = JSON.parse(before[`METRICS_SNAPSHOT_SCHEDULE_${others[0]}`]!).triggerUid as string;
    rt.run('testDeleteTrigger', [firstUid], { user: SCHEDULER });
    expect(schedule(rt, 'daily').schedule).toMatchObject({ frequency: 'daily', active: true });
  });
});
