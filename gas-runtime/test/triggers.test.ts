import { createGasRuntime, ScriptError, TOO_MANY_TRIGGERS } from '../index';
import { fixture } from './support/fixtures';

// Monday 4 March 2024, 11:00 in Berlin (the fixtures' appsscript.json zone; UTC+1 until 31 March).
const START = new Date('2024-03-04T10:00:00Z');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

function runtime(options: { addOn?: boolean; oauthScopes?: string[] } = {}) {
  return createGasRuntime({ code: fixture('triggers'), startTime: START, owner: 'owner@example.com', activeUser: 'owner@example.com', ...options });
}

interface LoggedRun {
  user: string;
  token: string | null;
  full: boolean;
  uid: string;
  hour: number;
  minute: number;
  dayOfWeek: number;
  dayOfMonth: number;
  month: number;
  year: number;
  weekOfYear: number;
  timezone: string;
  now: number;
}

function loggedRuns(rt: ReturnType<typeof runtime>): LoggedRun[] {
  return JSON.parse(rt.properties.script().getProperty('runs') ?? '[]') as LoggedRun[];
}

describe('creating and listing time-driven triggers', () => {
  it('creates a clock trigger owned by the user at create() time, listed only for that user', () => {
    const rt = runtime();
    const created = rt.run('schedule', ['hours', 1], { user: 'analyst@example.com' }) as { id: string; handler: string; clock: boolean; sourceId: unknown };
    expect(created).toEqual({ id: expect.stringMatching(/^\d{19}$/), handler: 'refresh', clock: true, sourceId: null });
    expect(rt.triggers.list()).toEqual([
      expect.objectContaining({
        uniqueId: created.id,
        handlerFunction: 'refresh',
        owner: 'analyst@example.com',
        documentId: rt.spreadsheet.getId(),
        eventType: 'CLOCK',
      }),
    ]);
    expect(rt.run('listMine', [], { user: 'analyst@example.com' })).toEqual({ project: [created.id], here: [created.id] });
    // "A given account cannot see triggers installed from a second account."
    expect(rt.run('listMine', [], { user: 'owner@example.com' })).toEqual({ project: [], here: [] });
  });

  it('refuses a second time-driven trigger for the same user and document in an add-on, but not for another user', () => {
    const rt = runtime();
    rt.run('schedule', ['hours', 1]);
    expect(() => rt.run('schedule', ['days', 1])).toThrow(/one trigger of each type, per user, per document/);
    rt.run('schedule', ['days', 1], { user: 'analyst@example.com' });
    expect(rt.triggers.list().map((t) => t.owner)).toEqual(['owner@example.com', 'analyst@example.com']);
  });

  it('refuses everyMinutes in an add-on and accepts only 1, 5, 10, 15 or 30 minutes elsewhere', () => {
    expect(() => runtime().run('schedule', ['minutes', 30])).toThrow(/cannot run more frequently than once per hour/);
    expect(() => runtime().run('schedule', ['hours', 0])).toThrow('Invalid argument: n');
    expect(() => runtime().run('schedule', ['hours', 0.5])).toThrow('Invalid argument: n');
    const script = runtime({ addOn: false });
    expect(() => script.run('schedule', ['minutes', 2])).toThrow('Invalid argument: n must be 1, 5, 10, 15 or 30');
    script.run('schedule', ['minutes', 5]);
    expect(script.triggers.advance(HOUR).length).toBe(12);
  });

  it("refuses a user's 21st trigger with the platform message", () => {
    const rt = runtime({ addOn: false });
    for (let i = 0; i < 20; i++) rt.run('schedule', ['hours', 1]);
    expect(() => rt.run('schedule', ['hours', 1])).toThrow(TOO_MANY_TRIGGERS);
    rt.run('schedule', ['hours', 1], { user: 'analyst@example.com' });
    expect(rt.run('unscheduleAll')).toBe(20);
    rt.run('schedule', ['hours', 1]);
    expect(rt.triggers.list()).toHaveLength(2);
  });

  it('needs FULL authorization and the script.scriptapp scope', () => {
    expect(() => runtime().run('createFromSimpleTrigger', [], { authMode: 'LIMITED' })).toThrow(
      'You do not have permission to call ScriptApp.newTrigger. Required permissions: https://www.googleapis.com/auth/script.scriptapp',
    );
    const scoped = runtime({ oauthScopes: ['https://www.googleapis.com/auth/spreadsheets.currentonly'] });
    expect(() => scoped.run('createFromSimpleTrigger')).toThrow(/^Specified permissions are not sufficient to call ScriptApp\.newTrigger/);
    const granted = runtime({ oauthScopes: ['https://www.googleapis.com/auth/script.scriptapp', 'https://www.googleapis.com/auth/spreadsheets.currentonly'] });
    expect(granted.run('createFromSimpleTrigger')).toMatch(/^\d+$/);
  });

  it('keeps triggers on the host, so a concurrent sidebar call creates the same ones', async () => {
    const rt = runtime();
    try {
      const id = await rt.callServerAsync('scheduleHandler', ['refresh'], { user: 'analyst@example.com' });
      expect(rt.triggers.list()).toEqual([expect.objectContaining({ uniqueId: id, owner: 'analyst@example.com' })]);
      expect(rt.run('listMine', [], { user: 'analyst@example.com' })).toEqual({ project: [id], here: [id] });
    } finally {
      await rt.close();
    }
  });
});

describe('running time-driven triggers', () => {
  it("runs as the trigger's owner in FULL, with that owner's properties and the event object", () => {
    const rt = runtime();
    rt.properties.user('analyst@example.com').setProperty('TOKEN', 'analyst-token');
    rt.properties.user('owner@example.com').setProperty('TOKEN', 'owner-token');
    const { id } = rt.run('schedule', ['hours', 1], { user: 'analyst@example.com' }) as { id: string };
    expect(rt.runDueTriggers()).toEqual([]);
    rt.clock.advance(HOUR);
    const [run, ...others] = rt.runDueTriggers();
    expect(others).toEqual([]);
    expect(run).toEqual(
      expect.objectContaining({
        triggerUid: id,
        handlerFunction: 'refresh',
        user: 'analyst@example.com',
        ok: true,
        scheduledAt: rt.triggers.list()[0]!.createdAt + HOUR,
      }),
    );
    expect(run!.execution).toEqual(expect.objectContaining({ kind: 'trigger', authMode: 'FULL', user: 'analyst@example.com', outcome: 'completed' }));
    const [logged] = loggedRuns(rt);
    // Berlin wall clock of 12:00 UTC+1 on Monday 4 March 2024 (ISO week 10).
    expect(logged).toEqual(
      expect.objectContaining({
        user: 'analyst@example.com',
        token: 'analyst-token',
        full: true,
        uid: id,
        hour: 12,
        dayOfWeek: 1,
        dayOfMonth: 4,
        month: 3,
        year: 2024,
        weekOfYear: 10,
        timezone: 'Europe/Berlin',
      }),
    );
    expect(rt.properties.user('analyst@example.com').getProperty('ranAs')).toBe('analyst@example.com');
    expect(rt.properties.user('owner@example.com').getProperty('ranAs')).toBeNull();
  });

  it('runs an hourly trigger once an hour and a deleted one never again', () => {
    const rt = runtime();
    rt.run('schedule', ['hours', 2]);
    // Counted from when create() ran (the creating execution took some real time past START).
    const { createdAt } = rt.triggers.list()[0]!;
    const runs = rt.triggers.advance(createdAt + DAY - rt.clock.now());
    expect(runs.map((r) => r.scheduledAt - createdAt)).toEqual(Array.from({ length: 12 }, (_, i) => (i + 1) * 2 * HOUR));
    // The handler read the clock at its due time (plus the real time the run took).
    loggedRuns(rt).forEach((logged, i) => {
      expect(logged.now).toBeGreaterThanOrEqual(runs[i]!.scheduledAt);
      expect(logged.now).toBeLessThan(runs[i]!.scheduledAt + 5_000);
    });
    rt.run('unscheduleAll');
    expect(rt.triggers.advance(DAY)).toEqual([]);
  });

  it('collapses the runs missed during a clock jump into one', () => {
    const rt = runtime();
    rt.run('schedule', ['hours', 1]);
    const { createdAt } = rt.triggers.list()[0]!;
    rt.clock.advance(createdAt + 10 * HOUR + 1 - rt.clock.now());
    expect(rt.runDueTriggers()).toHaveLength(1);
    expect(rt.runDueTriggers()).toHaveLength(0);
    expect(rt.triggers.list()[0]!.nextRunAt).toBe(createdAt + 11 * HOUR);
  });

  it("runs a daily atHour trigger inside that hour of the script's zone, at the same minute each day", () => {
    const rt = runtime();
    rt.run('schedule', ['days', 1, { atHour: 5 }]);
    const runs = rt.triggers.advance(3 * DAY);
    expect(runs).toHaveLength(3);
    const logged = loggedRuns(rt);
    expect(logged.map((r) => [r.dayOfMonth, r.hour])).toEqual([
      [5, 5],
      [6, 5],
      [7, 5],
    ]);
    expect(new Set(logged.map((r) => r.minute)).size).toBe(1);
  });

  it('runs a weekly trigger on its weekday near its minute', () => {
    const rt = runtime();
    rt.run('schedule', ['weeks', 1, { weekDay: 'THURSDAY', atHour: 9, nearMinute: 30 }]);
    const runs = rt.triggers.advance(15 * DAY);
    const logged = loggedRuns(rt);
    expect(runs).toHaveLength(2);
    expect(logged.map((r) => [r.dayOfMonth, r.dayOfWeek])).toEqual([
      [7, 4],
      [14, 4],
    ]);
    for (const r of logged) expect(r.hour * 60 + r.minute).toBeGreaterThanOrEqual(9 * 60 + 15);
    for (const r of logged) expect(r.hour * 60 + r.minute).toBeLessThanOrEqual(9 * 60 + 45);
  });

  it('records a failing handler as a failed execution, without throwing, and keeps the trigger', () => {
    const rt = runtime();
    const id = rt.run('scheduleHandler', ['failing']) as string;
    const runs = rt.triggers.advance(2 * HOUR);
    expect(runs.map((r) => [r.ok, r.error])).toEqual([
      [false, `refresh failed for ${id}`],
      [false, `refresh failed for ${id}`],
    ]);
    expect(rt.executions.filter((e) => e.kind === 'trigger').map((e) => e.outcome)).toEqual(['failed', 'failed']);
    expect(rt.triggers.list()).toHaveLength(1);
  });

  it('records a missing handler as a failed execution', () => {
    const rt = runtime();
    rt.run('scheduleHandler', ['gone']);
    expect(rt.triggers.advance(HOUR).map((r) => r.error)).toEqual(['Script function not found: gone']);
  });

  it('ends a handler after 6 minutes', () => {
    const rt = runtime();
    rt.run('scheduleHandler', ['slow']);
    const [run] = rt.triggers.advance(HOUR);
    expect(run).toEqual(expect.objectContaining({ ok: false, error: 'Exceeded maximum execution time' }));
    expect(run!.execution.outcome).toBe('timed-out');
    expect(run!.execution.durationMs).toBeGreaterThan(6 * 60_000);
    // Ended by the first check after the limit: the 60 s sleep that crossed it, plus the loop's real running
    // time, which the virtual clock also counts (a bound of 7 min + 1 ms failed on a loaded machine).
    expect(run!.execution.durationMs).toBeLessThan(8 * 60_000);
  });

  it("leaves ScriptError to rt.run: a trigger run never throws the script's error", () => {
    const rt = runtime();
    expect(() => rt.run('failing', [{ triggerUid: 'x' }])).toThrow(ScriptError);
    rt.run('scheduleHandler', ['failing']);
    expect(() => rt.triggers.advance(HOUR)).not.toThrow();
  });
});

describe('what a time-driven trigger of an add-on sees', () => {
  function seen(rt: ReturnType<typeof runtime>) {
    rt.properties.user('owner@example.com').setProperty('SHEET_ID', rt.spreadsheet.getId());
    rt.run('scheduleHandler', ['whatATriggerSees']);
    const [run] = rt.triggers.advance(HOUR);
    expect(run!.ok).toBe(true);
    return JSON.parse(rt.properties.script().getProperty('seen')!) as Record<string, unknown>;
  }

  it('has no active spreadsheet, document properties or document lock, and opens the spreadsheet by id', () => {
    expect(seen(runtime())).toEqual({ active: null, activeSheet: null, documentProperties: null, documentLock: null, opened: 'Sheet1' });
  });

  it('cannot open it by id with spreadsheets.currentonly alone: openById needs the spreadsheets scope', () => {
    const scopes = ['https://www.googleapis.com/auth/script.scriptapp', 'https://www.googleapis.com/auth/spreadsheets.currentonly'];
    expect(seen(runtime({ oauthScopes: scopes })).opened).toMatch(/^Exception: Specified permissions are not sufficient to call SpreadsheetApp\.openById/);
    expect(seen(runtime({ oauthScopes: [...scopes, 'https://www.googleapis.com/auth/spreadsheets'] })).opened).toBe('Sheet1');
  });

  it('in a bound script (addOn: false) sees its container as before', () => {
    expect(seen(runtime({ addOn: false }))).toEqual({
      active: 'active',
      activeSheet: 'sheet',
      documentProperties: 'store',
      documentLock: 'lock',
      opened: 'Sheet1',
    });
  });
});
