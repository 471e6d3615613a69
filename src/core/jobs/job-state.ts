// What every resumable job (export, audit push, import) does to its state between steps.

import type { JobStatus, RateLimitState } from './rate-limit-state';

/** States are plain JSON, so a deep copy through JSON is exact; the caller's state is never changed. */
export function cloneJob<S>(state: S): S {
  return JSON.parse(JSON.stringify(state)) as S;
}

/**
 * Stops the job between steps; what is pending stays pending, so a resume sends only that. The person
 * cancelled: a pause's or a rate-limit wait's sentence no longer describes the job, so it goes (the report
 * would otherwise end a cancel with a rate-limit sentence, as an error). The backoff stays, so a resume
 * in a storm still starts with one probe.
 */
export function cancelJob<S extends { status: JobStatus; problem?: string }>(state: S): S {
  const next = cloneJob(state);
  if (next.status === 'running' || next.status === 'paused') {
    next.status = 'cancelled';
    delete next.problem;
  }
  return next;
}

/** Lets a cancelled or paused wave job run again; what was confirmed is never sent again. */
export function resumeWaveJob<S extends RateLimitState & { counters: { stepsWithoutProgress: number } }>(state: S, isComplete: (state: S) => boolean): S {
  const next = cloneJob(state);
  if (next.status === 'cancelled' || next.status === 'paused') {
    next.status = isComplete(next) ? 'done' : 'running';
    next.counters.stepsWithoutProgress = 0;
    delete next.problem;
    // The user's word that the API may accept requests again: the storm clock starts over (the backoff stays).
    delete next.rateLimitedSince;
  }
  return next;
}
