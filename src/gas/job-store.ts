// Step-driven jobs (exports, imports, audit pushes) wait between steps in the user's cache, for six hours.

import { InputError } from '../core/errors';
import { ChunkedCache } from '../core/cache/chunked-cache';
import { userCache, userMutex } from './cache-and-lock';

const SIX_HOURS = 6 * 60 * 60;
/** Apps Script ends any execution after six minutes, so a step's running mark outlives no step. */
const LONGEST_EXECUTION_SECONDS = 6 * 60;
/** Jobs remembered per spreadsheet: enough for a morning's pushes and imports, small enough for one cache value. */
const REMEMBERED_JOBS = 20;

/** A job of this spreadsheet the sidebar may offer to resume. */
export type RememberedJob = { kind: string; id: string; startedAt: number };

function cache(): ChunkedCache {
  return new ChunkedCache(userCache(), () => Utilities.getUuid().slice(0, 8));
}

function indexKey(): string {
  return `portfolio-jobs:${SpreadsheetApp.getActiveSpreadsheet().getId()}`;
}

export function newJobId(): string {
  return Utilities.getUuid();
}

export function loadJob<T>(kind: string, id: string): T | null {
  const text = cache().get(`${kind}:${id}`);
  return text ? (JSON.parse(text) as T) : null;
}

export function saveJob<T>(kind: string, id: string, job: T): void {
  cache().put(`${kind}:${id}`, JSON.stringify(job), SIX_HOURS);
}

/** A cancel pressed while a step runs is seen by that step before its next group of requests. */
export function requestJobCancel(kind: string, id: string): void {
  userCache().put(`${kind}-cancel:${id}`, '1', SIX_HOURS);
}

export function jobCancelRequested(kind: string, id: string): boolean {
  return userCache().get(`${kind}-cancel:${id}`) === '1';
}

export function clearJobCancel(kind: string, id: string): void {
  userCache().remove(`${kind}-cancel:${id}`);
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
  const mark = `${kind}-step:${id}`;
  // Checked and set under the user's lock: two sidebars driving one job would send its rows twice
  // (a POST of an import cannot be taken back).
  const claimed = userMutex().withLock(() => {
    if (userCache().get(mark) === '1') return false;
    userCache().put(mark, '1', LONGEST_EXECUTION_SECONDS);
    return true;
  });
  if (!claimed) {
    const what = { export: 'export', 'audit-push': 'push', import: 'import' }[kind] ?? 'job';
    throw new InputError(`This ${what} is already running from another sidebar or window. Follow it there, or cancel it there and resume it here.`);
  }
  try {
    return step();
  } finally {
    userCache().remove(mark);
  }
}

export function stepRunning(kind: string, id: string): boolean {
  return userCache().get(`${kind}-step:${id}`) === '1';
}

/** Remembers (again) a job of this spreadsheet, so the sidebar can offer it when it opens, for six hours. */
export function rememberJob(kind: string, id: string, nowMs: number): void {
  const others = rememberedJobs(nowMs).filter((job) => !(job.kind === kind && job.id === id));
  const jobs = [...others, { kind, id, startedAt: nowMs }].slice(-REMEMBERED_JOBS);
  userCache().put(indexKey(), JSON.stringify(jobs), SIX_HOURS);
}

/** Jobs of this spreadsheet remembered in the last six hours, oldest first; each may have ended since. */
export function rememberedJobs(nowMs: number): RememberedJob[] {
  const text = userCache().get(indexKey());
  if (!text) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  return parsed.filter((job): job is RememberedJob => typeof job === 'object' && job !== null
    && typeof (job as RememberedJob).kind === 'string' && typeof (job as RememberedJob).id === 'string'
    && typeof (job as RememberedJob).startedAt === 'number' && nowMs - (job as RememberedJob).startedAt < SIX_HOURS * 1000);
}

/**
 * Jobs of one kind remembered in the last six hours that did not finish (cancelled, paused, or left
 * running) and have no step running now, with their stored state.
 */
export function unfinishedJobs<T extends { state: { status: string } }>(kind: string, nowMs: number): Array<{ id: string; stored: T }> {
  const unfinished: Array<{ id: string; stored: T }> = [];
  for (const job of rememberedJobs(nowMs)) {
    if (job.kind !== kind || stepRunning(kind, job.id)) continue;
    const stored = loadJob<T>(kind, job.id);
    if (stored && stored.state.status !== 'done') unfinished.push({ id: job.id, stored });
  }
  return unfinished;
}
