// Step-driven jobs (exports, imports, audit pushes) wait between steps in the user's properties, cut
// into pieces a property accepts, with a copy in the user's cache that may be lost at any time (so the property is the record, the cache a shortcut).

import { PiecedStore } from '../core/jobs/pieced-store';
import { jobCancelKey, jobStateKey, jobStepKey, JOBS_INDEX_KEY, makeJobStoreRoom, parseJobIndex, type JobIndexEntry } from '../core/jobs/store-budget';
import { InputError } from '../core/errors';
import { userCache, userMutex } from './cache-and-lock';

const SIX_HOURS = 6 * 60 * 60;
/** Apps Script ends any execution after six minutes, so a step's running mark outlives no step. */
const LONGEST_EXECUTION_SECONDS = 6 * 60;
/**
 * Jobs remembered for this user, all spreadsheets together: enough for a morning's pushes and imports. Their
 * bytes are bounded apart from their number: everything the store keeps stays within its budget
 * (core/jobs/store-budget.ts, 350 KB of the 500 KB the user's properties hold in all).
 */
const REMEMBERED_JOBS = 12;

/** A job of this spreadsheet the sidebar may offer to resume. */
type RememberedJob = { kind: string; id: string; startedAt: number };
type IndexEntry = JobIndexEntry;

function properties(): GoogleAppsScript.Properties.Properties {
  return PropertiesService.getUserProperties();
}

function store(): PiecedStore {
  return new PiecedStore(properties(), userCache(), () => Utilities.getUuid().slice(0, 8), SIX_HOURS);
}

const stateKey = jobStateKey;
const cancelKey = jobCancelKey;
const stepKey = jobStepKey;

export function spreadsheetId(): string {
  return SpreadsheetApp.getActiveSpreadsheet().getId();
}

export function newJobId(): string {
  return Utilities.getUuid();
}

export function loadJob<T>(kind: string, id: string): T | null {
  const text = store().get(stateKey(kind, id));
  return text ? (JSON.parse(text) as T) : null;
}

/**
 * Saves a job's state (or a record kept after one, like the last push), within the job store's budget: room is
 * made by dropping what no one can resume, then jobs left running; a new job that still does not fit is refused
 * with a sentence naming the paused jobs that hold the room (makeJobStoreRoom).
 */
export function saveJob<T>(kind: string, id: string, job: T): void {
  const key = stateKey(kind, id);
  // Only a job is refused, never a record: a record without a state is written from inside a step (the last push).
  const isJob = typeof (job as { state?: unknown } | null)?.state === 'object';
  const isNew = isJob && properties().getProperty(key) === null;
  store().put(key, JSON.stringify(job), (bytes) =>
    makeJobStoreRoom(properties(), { kind, id, bytes, isNew }, { nowMs: Date.now(), rememberMs: SIX_HOURS * 1000, spreadsheet: spreadsheetId() }),
  );
}

/**
 * A finished job leaves nothing behind: its state, cancel mark, step mark, published progress and
 * index entry all go. (Cancelled and paused jobs stay, for Resume, until they fall out of the index.)
 */
export function forgetJob(kind: string, id: string): void {
  store().remove(stateKey(kind, id));
  properties().deleteProperty(cancelKey(kind, id));
  properties().deleteProperty(stepKey(kind, id));
  userCache().remove(`${kind}-progress:${id}`);
  writeIndex(readIndex().filter((job) => !(job.kind === kind && job.id === id)));
}

/**
 * A cancel pressed while a step runs is seen by that step before its next group of requests. Kept in the
 * properties: a cancel lost with a cache entry would let the step send on.
 */
export function requestJobCancel(kind: string, id: string): void {
  properties().setProperty(cancelKey(kind, id), '1');
}

export function jobCancelRequested(kind: string, id: string): boolean {
  return properties().getProperty(cancelKey(kind, id)) === '1';
}

export function clearJobCancel(kind: string, id: string): void {
  properties().deleteProperty(cancelKey(kind, id));
}

/**
 * How long a step's published progress lives. A step publishes after every wave (each well under a
 * minute: UrlFetchApp gives up on a request after 60 s), so an entry older than this belongs to a step
 * that has ended; the page then has the step's own answer.
 */
const PROGRESS_TTL_SECONDS = 90;

/**
 * Publishes a running step's progress, for the page to read while the step has not answered yet
 * (readJobProgress). One small entry per job, rewritten after every wave: the page polls it, and the
 * job's state itself (large, chunked) is not what a poll should read.
 */
export function publishJobProgress<P>(kind: string, id: string, progress: P): void {
  userCache().put(`${kind}-progress:${id}`, JSON.stringify(progress), PROGRESS_TTL_SECONDS);
}

/** The progress the job's running step last published, or null when none is (no step ran lately). */
export function readJobProgress<P>(kind: string, id: string): P | null {
  const text = userCache().get(`${kind}-progress:${id}`);
  if (text === null) return null;
  try {
    return JSON.parse(text) as P;
  } catch {
    return null;
  }
}

/**
 * Runs one step of a job with a mark saying so. A cancel that arrives meanwhile must not save the state
 * it read (the step saves a newer one at its next checkpoint), and a job with a step running is not
 * offered for resuming.
 */
export function whileStepRuns<T>(kind: string, id: string, step: () => T): T {
  const mark = stepKey(kind, id);
  // Checked and set under the user's lock: two sidebars driving one job would send its rows twice
  // (a POST of an import cannot be taken back). Kept in the properties, so an evicted cache entry cannot
  // let a second step start; the mark holds its own end, as an execution killed mid-step never removes it.
  const claimed = userMutex().withLock(() => {
    if (stepRunning(kind, id)) return false;
    properties().setProperty(mark, String(Date.now() + LONGEST_EXECUTION_SECONDS * 1000));
    return true;
  });
  if (!claimed) {
    const what = { export: 'export', 'audit-push': 'push', import: 'import', 'audit-build': 'audit build' }[kind] ?? 'job';
    throw new InputError(`This ${what} is already running from another sidebar or window. Follow it there, or cancel it there and resume it here.`);
  }
  try {
    return step();
  } finally {
    properties().deleteProperty(mark);
  }
}

export function stepRunning(kind: string, id: string): boolean {
  const until = Number(properties().getProperty(stepKey(kind, id)) ?? '0');
  return until > Date.now();
}

function readIndex(): IndexEntry[] {
  return parseJobIndex(properties().getProperty(JOBS_INDEX_KEY));
}

function writeIndex(jobs: IndexEntry[]): void {
  if (jobs.length) properties().setProperty(JOBS_INDEX_KEY, JSON.stringify(jobs));
  else properties().deleteProperty(JOBS_INDEX_KEY);
}

/**
 * Remembers (again) a job of this spreadsheet, so the sidebar can offer it when it opens, for six hours.
 * Jobs older than that, or past the newest REMEMBERED_JOBS, are forgotten with their state: properties
 * do not expire by themselves.
 */
export function rememberJob(kind: string, id: string, nowMs: number): void {
  const spreadsheet = spreadsheetId();
  const all = readIndex().filter((job) => !(job.kind === kind && job.id === id));
  const kept = [...all, { kind, id, startedAt: nowMs, spreadsheet }];
  const live = kept.filter((job) => nowMs - job.startedAt < SIX_HOURS * 1000).slice(-REMEMBERED_JOBS);
  for (const gone of kept.filter((job) => !live.includes(job))) {
    store().remove(stateKey(gone.kind, gone.id));
    properties().deleteProperty(cancelKey(gone.kind, gone.id));
  }
  writeIndex(live);
}

/** Jobs of this spreadsheet remembered in the last six hours, oldest first; each may have ended since. */
export function rememberedJobs(nowMs: number): RememberedJob[] {
  const spreadsheet = spreadsheetId();
  return readIndex()
    .filter((job) => job.spreadsheet === spreadsheet && nowMs - job.startedAt < SIX_HOURS * 1000)
    .map(({ kind, id, startedAt }) => ({ kind, id, startedAt }));
}
