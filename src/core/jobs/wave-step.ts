// One step of a wave-by-wave job (an export, an audit push): waves until done, cancelled or out of time,
// a checkpoint after each, and what a failure does to the job. The jobs supply their waves.

import type { ApiClient } from '../api/client';
import { drainWaitsInto } from '../export/wait-log';
import type { WaveStepOptions } from './step-options';

/** What every wave-by-wave job keeps between steps. */
export type WaveJobState = {
  status: 'running' | 'done' | 'cancelled' | 'paused';
  problem?: string;
  notBefore?: number;
  counters: { steps: number; stepsWithoutProgress: number; rateLimitWaitMs: number; retryWaitMs: number };
  /**
   * The rate limit's backoff, carried from step to step (each may run in another execution): set by a
   * refusal for the rate limit, cleared by the first request the API answers otherwise. While it is set a
   * step opens with one request (the probe) and its client does not retry a 429 itself, so at most one
   * refused request falls in each backoff interval.
   */
  retry?: { backoffMs: number };
  /**
   * When the API began refusing everything for the rate limit (ms since epoch): the first step since
   * the last accepted request that ended waiting for it. Cleared by any accepted request and by a resume.
   */
  rateLimitedSince?: number;
};

/** First backoff of our own after a refusal that named no wait; doubled after each refused probe. */
export const FIRST_BACKOFF_MS = 4_000;
/** The backoff grows no further than the API's rate window (5 minutes): by then the window has turned. */
export const MAX_BACKOFF_MS = 5 * 60_000;
/**
 * An API that accepts nothing for this long pauses the job: three of its 5-minute rate windows, so a
 * limit shared with other clients has had time to free up, and a storm that will not end stops costing
 * the user a sidebar left open (the Apps Script quota for UrlFetch counts every refused call too).
 */
export const RATE_LIMIT_STORM_MS = 15 * 60_000;

/** Whether the next step opens with a probe: its client must then leave 429s to the job (noRateLimitRetries). */
export function needsProbe(state: Pick<WaveJobState, 'retry' | 'status'>): boolean {
  return state.status === 'running' && state.retry !== undefined;
}

/**
 * What a failed wave means for the whole job: wait for the rate limit, try again next step (a transient
 * failure; too many steps of those in a row pause the job), pause until the user acts, or nothing more
 * (the wave already marked its own items).
 */
export type WaveFailureEffect =
  /** outOfTime: the step's own time ran out (not the rate limit): no backoff, no storm. */
  | { kind: 'wait'; retryAfterMs?: number; message: string; outOfTime?: true }
  | { kind: 'transient'; message: string }
  | { kind: 'pause'; message: string }
  | { kind: 'none' };

export type WaveAttempt<F> = { progressed: boolean; failure?: F };

export type WaveJob<S, F, P> = {
  marginMs: number;
  waveSize: number;
  maxStepsWithoutProgress: number;
  isComplete(state: S): boolean;
  /** Sends (or reads) one wave, changing the state in place. */
  wave(state: S, waveSize: number): WaveAttempt<F>;
  effectOf(failure: F): WaveFailureEffect;
  progress(state: S, nowMs: number): P;
  /** The sentence of a job paused by a 429 storm, naming what is left for Resume to send. */
  stormSentence(state: S, stormMinutes: number): string;
};

/** Runs one step on `next` (a copy the caller made), and returns it with the progress to show. */
export function runWaveStep<S extends WaveJobState, F, P extends { waitedForRateLimitMs?: number }>(
  next: S,
  client: ApiClient,
  options: WaveStepOptions<S>,
  job: WaveJob<S, F, P>,
): { state: S; progress: P } {
  const now = options.now ?? (() => client.requester.now());
  if (next.status !== 'running' || (next.notBefore !== undefined && now() < next.notBefore)) {
    return { state: next, progress: job.progress(next, now()) };
  }
  delete next.notBefore;
  delete next.problem;
  next.counters.steps++;

  const deadline = Math.min(options.deadline, now() + client.requester.remainingMs());
  const marginMs = options.marginMs ?? job.marginMs;
  const waveSize = Math.max(1, Math.floor(options.waveSize ?? job.waveSize));
  const stepStart = now();
  let progressed = false;
  let effect: WaveFailureEffect = { kind: 'none' };
  let waitedForRateLimitMs = 0;
  // After a 429 the first wave of a step is one request: a whole wave would meet a whole wave of refusals.
  let probing = next.retry !== undefined;

  while (!job.isComplete(next)) {
    if (options.shouldStop?.()) {
      next.status = 'cancelled';
      break;
    }
    if (now() + marginMs > deadline) break;
    const attempt = job.wave(next, probing ? 1 : waveSize);
    probing = false;
    waitedForRateLimitMs += drainWaitsInto(next.counters, options.waitLog);
    if (attempt.progressed) {
      // The API answered something other than the rate limit: its window is open again.
      progressed = true;
      delete next.retry;
    }
    options.onCheckpoint?.(next);
    if (attempt.failure !== undefined) {
      effect = job.effectOf(attempt.failure);
      break;
    }
  }

  if (effect.kind !== 'none') next.problem = effect.message;
  const rateLimited = effect.kind === 'wait' && !effect.outOfTime;
  if (effect.kind === 'wait' && rateLimited) {
    // A wait the server named is its window's own: kept as it is. One we choose grows until a request succeeds.
    const backoffMs = next.retry ? Math.min(MAX_BACKOFF_MS, next.retry.backoffMs * 2) : Math.max(FIRST_BACKOFF_MS, effect.retryAfterMs ?? 0);
    next.retry = { backoffMs };
    next.notBefore = now() + (effect.retryAfterMs ?? backoffMs);
  } else if (effect.kind === 'wait' && effect.retryAfterMs !== undefined) {
    next.notBefore = now() + effect.retryAfterMs;
  }
  if (effect.kind === 'pause') next.status = 'paused';
  if (progressed) next.counters.stepsWithoutProgress = 0;
  else if (effect.kind === 'transient' && ++next.counters.stepsWithoutProgress >= job.maxStepsWithoutProgress) next.status = 'paused';
  // The storm starts at the first refusal after the last accepted request: inside this step when it
  // also accepted something, else no later than the step's start.
  if (rateLimited && next.status === 'running') {
    if (progressed) next.rateLimitedSince = now();
    else {
      next.rateLimitedSince ??= stepStart;
      if (now() - next.rateLimitedSince >= RATE_LIMIT_STORM_MS) {
        next.status = 'paused';
        next.problem = job.stormSentence(next, Math.round(RATE_LIMIT_STORM_MS / 60_000));
        delete next.notBefore;
        delete next.rateLimitedSince;
        delete next.retry;
      }
    }
  } else if (progressed) {
    delete next.rateLimitedSince;
  }
  if (job.isComplete(next)) {
    next.status = 'done';
    delete next.notBefore;
    delete next.retry;
    delete next.rateLimitedSince;
  }
  const progress = job.progress(next, now());
  if (waitedForRateLimitMs > 0) progress.waitedForRateLimitMs = waitedForRateLimitMs;
  return { state: next, progress };
}
