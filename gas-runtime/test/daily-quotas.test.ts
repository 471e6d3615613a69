// The daily quotas beside URL Fetch's (url-fetch-quota.test.ts): "Properties read/write 50,000 / day" and
// "Triggers total runtime 90 min / day" (consumer accounts), per user, reset 24 hours after the first use.

import { createGasRuntime } from '../index';
import { fixture } from './support/fixtures';

const OWNER = 'owner@example.com';
const EDITOR = 'editor@example.com';
const START = new Date('2024-03-04T10:00:00Z');
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const READS_REFUSED = 'Service invoked too many times for one day: properties.';
const WRITES_REFUSED = 'Service invoked too many times for one day: graphite property writes.';
const COMPUTER_TIME = 'Service using too much computer time for one day';

describe('the Properties read/write daily quota', () => {
  const runtime = (propertiesDailyQuota?: number) =>
    createGasRuntime({ code: fixture('services'), owner: OWNER, startTime: START, ...(propertiesDailyQuota === undefined ? {} : { propertiesDailyQuota }) });

  it('is 50,000 calls a day for a consumer account and 500,000 for Workspace', () => {
    expect(createGasRuntime({ code: '' }).quotas.properties.limit).toBe(50_000);
    const workspace = createGasRuntime({ code: '', account: 'workspace' });
    expect([workspace.quotas.properties.limit, workspace.quotas.urlFetch.limit, workspace.quotas.triggerRuntimeMs.limit]).toEqual([500_000, 100_000, 6 * HOUR]);
    expect(() => createGasRuntime({ code: '', account: 'business' as 'workspace' })).toThrow(/account must be/);
  });

  it("counts every call of every method of every store, not the test's own calls", () => {
    const rt = runtime();
    rt.properties.user(OWNER).setProperty('seeded', 'by the test');
    // Two setProperty (chained), setProperties, getProperties, deleteProperty, getKeys, two getProperty.
    rt.run('propertyRoundTrip');
    expect(rt.quotas.properties.used(OWNER)).toBe(8);
    // setProperty then getProperty on the user store: two more.
    rt.run('writeUserProperty', ['k', 'v']);
    expect(rt.quotas.properties.used(OWNER)).toBe(10);
  });

  it("charges a custom function's calls to the spreadsheet's owner, whoever recalculates, refused writes included", () => {
    const rt = runtime();
    rt.runCustomFunction('READ_TOKEN', [], { user: EDITOR });
    expect(() => rt.runCustomFunction('WRITE_TOKEN', ['x'], { user: EDITOR })).toThrow(/You do not have permission to call setProperty/);
    expect([rt.quotas.properties.used(OWNER), rt.quotas.properties.used(EDITOR)]).toEqual([2, 0]);
  });

  it("refuses every call past the quota, in every execution, with Apps Script's message, until 24 hours after the first call", () => {
    const rt = runtime(3);
    rt.properties.user(OWNER).setProperty('token', 't');
    rt.runCustomFunction('READ_TOKEN');
    rt.clock.advance(HOUR);
    rt.run('writeUserProperty', ['k', 'v']);
    expect(() => rt.runCustomFunction('READ_TOKEN')).toThrow(READS_REFUSED);
    expect(() => rt.run('writeUserProperty', ['k', 'w'])).toThrow(WRITES_REFUSED);
    // Another user's day is their own.
    expect(rt.run('readUserProperty', ['k'], { user: EDITOR })).toBeNull();
    // Executions take real time on the clock: 22 hours after the first call is safely inside its day.
    rt.clock.advance(21 * HOUR);
    expect(() => rt.runCustomFunction('READ_TOKEN')).toThrow(READS_REFUSED);
    rt.clock.advance(2 * HOUR);
    expect(rt.runCustomFunction('READ_TOKEN')).toBe('t');
    expect(rt.quotas.properties.used(OWNER)).toBe(1);
  });
});

describe("the triggers' total runtime daily quota", () => {
  const runtime = (triggerRuntimeDailyQuotaMs?: number) =>
    createGasRuntime({
      code: fixture('triggers'),
      owner: OWNER,
      startTime: START,
      ...(triggerRuntimeDailyQuotaMs === undefined ? {} : { triggerRuntimeDailyQuotaMs }),
    });
  const naps = (rt: ReturnType<typeof runtime>) => Number(rt.properties.script().getProperty('naps') ?? '0');

  it('is 90 minutes a day for a consumer account', () => {
    expect(createGasRuntime({ code: '' }).quotas.triggerRuntimeMs.limit).toBe(90 * MINUTE);
  });

  it("counts each run's time against its owner, stops the run that spends the rest, and refuses the next at its start", () => {
    const rt = runtime(10 * MINUTE);
    rt.properties.script().setProperty('napMs', String(4 * MINUTE));
    rt.run('scheduleHandler', ['napping'], { user: EDITOR });
    const [first, second] = rt.triggers.advance(2 * HOUR);
    expect(first).toMatchObject({ ok: true, user: EDITOR });
    expect(second).toMatchObject({ ok: true });
    expect(rt.quotas.triggerRuntimeMs.used(EDITOR)).toBeGreaterThanOrEqual(8 * MINUTE);
    // The third run has under 2 minutes left of the 10: it is stopped (at its next service call), with the quota's words.
    const [third] = rt.triggers.advance(HOUR);
    expect(third).toMatchObject({ ok: false, error: COMPUTER_TIME, execution: expect.objectContaining({ outcome: 'timed-out' }) });
    expect(naps(rt)).toBe(2);
    // Spent: the next run fails as it starts, running none of the handler.
    const [fourth] = rt.triggers.advance(HOUR);
    // Executions take real time on the clock, so a refused start may still last a millisecond on a loaded
    // machine: what proves the refusal came first is that no nap (4 minutes each) ran.
    expect(fourth).toMatchObject({ ok: false, error: COMPUTER_TIME, execution: expect.objectContaining({ outcome: 'failed' }) });
    expect(fourth!.execution.durationMs).toBeLessThan(MINUTE);
    expect(naps(rt)).toBe(2);
    // Run by hand (not a trigger) the same function still works, and counts nothing.
    rt.run('napping', [], { user: EDITOR });
    expect(naps(rt)).toBe(3);
    expect(rt.quotas.triggerRuntimeMs.used(OWNER)).toBe(0);
  });

  it('renews 24 hours after the first run', () => {
    const rt = runtime(5 * MINUTE);
    rt.properties.script().setProperty('napMs', String(6 * MINUTE));
    rt.run('scheduleHandler', ['napping']);
    const runs = rt.triggers.advance(24 * HOUR);
    expect(runs.map((run) => run.ok)).toEqual(runs.map(() => false));
    expect(runs[0]!.error).toBe(COMPUTER_TIME);
    expect(runs.filter((run) => run.execution.outcome === 'timed-out')).toHaveLength(1);
    rt.properties.script().setProperty('napMs', '0');
    const [next] = rt.triggers.advance(HOUR);
    expect(next).toMatchObject({ ok: true });
  });
});
