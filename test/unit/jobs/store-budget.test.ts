// The job store stays within its budget of the user's 500 KB property store: what no one can resume goes first,
// then jobs left running, never a paused or cancelled one; a new job is refused, naming the kept jobs, only when
// they hold the room; and the settings beside the jobs can always be saved.

import { utf8Bytes } from '../../../src/core/cache/chunked-cache';
import { InputError } from '../../../src/core/errors';
import { JOB_MAX_BYTES, PiecedStore, type PropertyStore } from '../../../src/core/jobs/pieced-store';
import {
  JOB_STORE_BUDGET_BYTES,
  JOBS_INDEX_KEY,
  jobStateKey,
  jobStepKey,
  jobStoreBytes,
  jobStoreUsage,
  makeJobStoreRoom,
  planJobStoreRoom,
  type JobIndexEntry,
} from '../../../src/core/jobs/store-budget';

const HOUR = 3_600_000;
const NOW = Date.UTC(2025, 0, 6, 12);
const SHEET = 'spreadsheet-1';
const context = { nowMs: NOW, rememberMs: 6 * HOUR, spreadsheet: SHEET };

/** A property store with Apps Script's limits (9 KB a value, 500 KB in all, key plus value in UTF-8), listable. */
class LimitedProperties implements PropertyStore {
  readonly values = new Map<string, string>();
  getProperty(key: string): string | null {
    return this.values.get(key) ?? null;
  }
  getProperties(): Record<string, string> {
    return Object.fromEntries(this.values);
  }
  setProperties(values: Record<string, string>): void {
    const next = new Map(this.values);
    for (const [key, value] of Object.entries(values)) {
      if (utf8Bytes(value) > 9 * 1024) throw new Error('Argument too large: value');
      next.set(key, value);
    }
    const total = [...next].reduce((sum, [key, value]) => sum + utf8Bytes(key) + utf8Bytes(value), 0);
    if (total > 500 * 1024) throw new Error('You have exceeded the property storage quota. Please remove some properties and try again.');
    for (const [key, value] of next) this.values.set(key, value);
  }
  deleteProperty(key: string): void {
    this.values.delete(key);
  }
  bytes(filter: (key: string) => boolean = () => true): number {
    return [...this.values].filter(([key]) => filter(key)).reduce((sum, [key, value]) => sum + utf8Bytes(key) + utf8Bytes(value), 0);
  }
}

let generation = 0;
/** The job store as gas/job-store.ts runs it over `properties`: every save makes room first. */
function jobStore(properties: LimitedProperties) {
  const pieced = new PiecedStore(properties, null, () => `g${String(++generation).padStart(7, '0')}`, 3600);
  const index = (): JobIndexEntry[] => JSON.parse(properties.getProperty(JOBS_INDEX_KEY) ?? '[]') as JobIndexEntry[];
  return {
    save(kind: string, id: string, job: unknown, startedAt = NOW, spreadsheet = SHEET) {
      const key = jobStateKey(kind, id);
      const isNew = typeof (job as { state?: unknown }).state === 'object' && properties.getProperty(key) === null;
      pieced.put(key, JSON.stringify(job), (bytes) => makeJobStoreRoom(properties, { kind, id, bytes, isNew }, context));
      if (typeof (job as { state?: unknown }).state === 'object' && !index().some((entry) => entry.kind === kind && entry.id === id)) {
        properties.setProperties({ [JOBS_INDEX_KEY]: JSON.stringify([...index(), { kind, id, startedAt, spreadsheet }]) });
      }
    },
    get: (kind: string, id: string) => pieced.get(jobStateKey(kind, id)),
  };
}

/** A job's state of about `kb` KB, half of it three bytes a character. */
function job(status: string, kb: number): { state: { status: string }; rows: string } {
  const half = Math.floor((kb * 1024) / 2);
  return { state: { status }, rows: '€'.repeat(Math.floor(half / 3)) + 'x'.repeat(half) };
}

describe('measuring the job store', () => {
  it('counts key plus value in UTF-8 bytes, each job with its pieces and marks, the index apart, settings not at all', () => {
    const properties = new LimitedProperties();
    const store = jobStore(properties);
    store.save('export', 'a', job('paused', 20));
    properties.setProperties({ [jobStepKey('export', 'a')]: String(NOW - 1), METRICS_API_TOKEN: 't'.repeat(3000) });
    const usage = jobStoreUsage(properties.getProperties(), context);
    expect(usage.jobs).toEqual([expect.objectContaining({ kind: 'export', id: 'a', class: 'kept', status: 'paused', startedAt: NOW, spreadsheet: SHEET })]);
    expect(usage.jobs[0]!.bytes).toBe(properties.bytes((key) => key.includes(':a')));
    expect(usage.jobs[0]!.bytes).toBeGreaterThan(20 * 1024);
    expect(usage.otherBytes).toBe(properties.bytes((key) => key === JOBS_INDEX_KEY));
    expect(jobStoreBytes(properties.getProperties())).toBe(usage.jobs[0]!.bytes + usage.otherBytes);
  });

  it('tells finished, expired, left-running, kept and running jobs apart', () => {
    const properties = new LimitedProperties();
    const store = jobStore(properties);
    store.save('export', 'done', job('done', 1));
    store.save('audit-push', 'old', job('paused', 1), NOW - 7 * HOUR);
    store.save('import', 'left', job('running', 1));
    store.save('export', 'paused', job('paused', 1));
    store.save('undo', 'cancelled', job('cancelled', 1));
    store.save('export', 'busy', job('running', 1));
    store.save('last-push', 'user', { pushId: 'p', rows: [] });
    properties.setProperties({ [jobStepKey('export', 'busy')]: String(NOW + 60_000) });
    const classes = Object.fromEntries(jobStoreUsage(properties.getProperties(), context).jobs.map((entry) => [entry.id, entry.class]));
    expect(classes).toEqual({ done: 'gone', old: 'gone', left: 'interrupted', paused: 'kept', cancelled: 'kept', busy: 'busy', user: 'gone' });
  });
});

describe('making room', () => {
  it("drops nothing while the write fits, and counts the job's old copy beside its new one (the write's peak)", () => {
    const properties = new LimitedProperties();
    const store = jobStore(properties);
    store.save('export', 'big', job('running', 150));
    const usage = jobStoreUsage(properties.getProperties(), context);
    const own = usage.jobs[0]!.bytes;
    expect(planJobStoreRoom(usage, { kind: 'export', id: 'big', bytes: own }, 2 * own + usage.otherBytes)).toEqual({
      fits: true,
      drop: [],
      replaceFirst: false,
    });
    // One byte less: the old copy goes first, and the rewrite fits.
    expect(planJobStoreRoom(usage, { kind: 'export', id: 'big', bytes: own }, 2 * own + usage.otherBytes - 1)).toEqual({
      fits: true,
      drop: [],
      replaceFirst: true,
    });
    // A new job of that size beside it: the job left running (no step now) makes room for it.
    expect(planJobStoreRoom(usage, { kind: 'export', id: 'other', bytes: own }, 2 * own + usage.otherBytes - 1)).toEqual({
      fits: true,
      drop: [usage.jobs[0]],
      replaceFirst: false,
    });
    // A new job larger than the budget alone: nothing kept holds the room, its own size is the problem.
    expect(planJobStoreRoom(usage, { kind: 'export', id: 'other', bytes: own }, own - 1)).toMatchObject({ fits: false, holding: [] });
  });

  it('drops what no one can resume first, oldest first, then jobs left running; never a paused, cancelled or running one', () => {
    const properties = new LimitedProperties();
    const store = jobStore(properties);
    store.save('import', 'left-early', job('running', 60), NOW - 3 * HOUR);
    store.save('export', 'paused', job('paused', 60), NOW - 5 * HOUR);
    store.save('undo', 'cancelled', job('cancelled', 60), NOW - 4 * HOUR);
    store.save('last-push', 'user', { pushId: 'p', rows: ['x'.repeat(50 * 1024)] });
    store.save('audit-push', 'expired', job('paused', 60), NOW - 7 * HOUR);
    store.save('import', 'left-late', job('running', 40), NOW - HOUR);
    expect(properties.bytes()).toBeGreaterThan(330 * 1024);

    store.save('export', 'new', job('running', 150));
    const left = jobStoreUsage(properties.getProperties(), context)
      .jobs.map((entry) => entry.id)
      .sort();
    // The last push and the expired job (no one can resume them) went, then the earlier job left running.
    expect(left).toEqual(['cancelled', 'left-late', 'new', 'paused']);
    expect(properties.bytes((key) => key.startsWith('job') || key === JOBS_INDEX_KEY)).toBeLessThanOrEqual(JOB_STORE_BUDGET_BYTES);
    expect(
      JSON.parse(properties.getProperty(JOBS_INDEX_KEY)!)
        .map((entry: JobIndexEntry) => entry.id)
        .sort(),
    ).toEqual(['cancelled', 'left-late', 'new', 'paused']);
    expect(store.get('export', 'new')).toBe(JSON.stringify(job('running', 150)));
  });

  it('refuses a new job when paused jobs hold the room, naming them and what to do, and changes nothing', () => {
    const properties = new LimitedProperties();
    const store = jobStore(properties);
    store.save('export', 'one', job('paused', 115), NOW - 40 * 60_000);
    store.save('audit-push', 'two', job('cancelled', 115), NOW - 90 * 60_000, 'spreadsheet-2');
    store.save('import', 'three', job('paused', 115), NOW - 10 * 60_000);
    const before = new Map(properties.values);
    let refusal: unknown;
    try {
      store.save('export', 'new', job('running', 10));
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(InputError);
    expect((refusal as Error).message).toMatch(
      /^This export was not started: the 350 KB your Apps Script properties keep for jobs are held by 3 jobs kept for Resume \(a paused export started 40 minutes ago \(1\d\d KB\), a cancelled audit push started 90 minutes ago in another spreadsheet \(1\d\d KB\) and a paused import started 10 minutes ago \(1\d\d KB\); 3\d\d KB together\), and this one needs 1\d KB more\. Resume them from the sidebar of their spreadsheet and let them finish, which frees their room; or, if you no longer need them, leave them: a job is dropped 6 hours after it started\. Then start this export again\.$/,
    );
    expect(properties.values).toEqual(before);
  });

  it('writes a job already stored (a checkpoint) or a record all the same: refusing it would lose what a step confirmed', () => {
    const properties = new LimitedProperties();
    const store = jobStore(properties);
    store.save('export', 'one', job('paused', 115));
    store.save('export', 'two', job('paused', 115));
    store.save('import', 'running', job('running', 100));
    expect(() => store.save('import', 'running', job('running', 110))).not.toThrow();
    expect(() => store.save('last-push', 'user', { pushId: 'p', rows: ['x'.repeat(5000)] })).not.toThrow();
    expect(
      jobStoreUsage(properties.getProperties(), context)
        .jobs.map((entry) => entry.id)
        .sort(),
    ).toEqual(['one', 'running', 'two', 'user']);
  });

  it('keeps room for the settings: two jobs of the largest size a job may keep, paused, then the token and settings still save', () => {
    const properties = new LimitedProperties();
    const store = jobStore(properties);
    store.save('export', 'one', job('paused', JOB_MAX_BYTES / 1024 - 1));
    store.save('audit-push', 'two', job('paused', JOB_MAX_BYTES / 1024 - 1));
    // Rewritten at a checkpoint: both copies are stored for a moment, and that peak fits too.
    store.save('audit-push', 'two', job('paused', JOB_MAX_BYTES / 1024 - 1));
    expect(() => store.save('import', 'new', job('running', 20))).toThrow(/held by 2 jobs kept for Resume/);
    expect(properties.bytes()).toBeLessThanOrEqual(JOB_STORE_BUDGET_BYTES);
    // What the settings keep beside the jobs: the token, the base URL, the signing key, formula access lists.
    expect(() =>
      properties.setProperties({ METRICS_API_TOKEN: 't'.repeat(4000), METRICS_API_BASE_URL: 'https://api.example.com', SIGNING_KEY: 'k'.repeat(64) }),
    ).not.toThrow();
    expect(() =>
      properties.setProperties(Object.fromEntries(Array.from({ length: 14 }, (_, i) => [`METRICS_FORMULA_ACCESS_${i}`, 'x'.repeat(9000)]))),
    ).not.toThrow();
  });
});
