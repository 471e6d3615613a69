// One step of a wave-by-wave job (export, audit push, audit build): waves until done, cancelled or out of
// time, a checkpoint after each, and what a failure does to the job. The jobs supply their waves.

import type { ApiClient } from '../api/client';
import type { SupportLog } from '../log/support-log';
import type { WaitLog } from './wait-log';
import { settleRateLimit, type RateLimitState } from './rate-limit-state';

/** What the server gives one step. */
export type WaveStepOptions<State> = {
  /**
   * When (ms since epoch) the step must have returned: far inside Apps Script's 6 minutes, so the progress
   * bar moves. Give the client the same deadline, so its own waits for the rate limit stop in time too.
   */
  deadline: number;
  /** No wave starts with less than this left before the deadline (a wave of PUTs can take seconds). */
  marginMs: number;
  waveSize?: number;
  /** The log whose `onWait` was given to the client, to report waits for the rate limit. */
  waitLog?: WaitLog;
  /** Checked between waves: true cancels (pressed in the sidebar while this step runs). */
  shouldStop?: () => boolean;
  /** Called after every wave with the state so far, so the server can save it: a killed step loses nothing. */
  onCheckpoint?: (state: State) => void;
  /** Told why a step stopped before its work was done (its kind, never the sentence), for support. */
  supportLog?: SupportLog;
};

/** What every wave-by-wave job keeps between steps. */
export type WaveJobState = RateLimitState & {
  counters: { steps: number; stepsWithoutProgress: number; rateLimitWaitMs: number; retryWaitMs: number };
};

/**
 * What a failed wave means for the whole job: wait for the rate limit, try again next step (too many
 * transient steps in a row pause the job), pause until the user acts, or nothing (the wave marked its items).
 */
export type WaveFailureEffect =
  /** outOfTime: the step's own time ran out (not the rate limit): no backoff, no storm. */
  | { kind: 'wait'; retryAfterMs?: number; message: string; outOfTime?: true }
  | { kind: 'transient'; message: string }
  | { kind: 'pause'; message: string }
  | { kind: 'none' };

export type WaveAttempt<F> = { progressed: boolean; failure?: F };

type WaveJob<S, F, P> = {
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
  const now = (): number => client.now();
  if (next.status !== 'running' || (next.notBefore !== undefined && now() < next.notBefore)) {
    return { state: next, progress: job.progress(next, now()) };
  }
  delete next.notBefore;
  delete next.problem;
  next.counters.steps++;

  const deadline = Math.min(options.deadline, now() + client.remainingMs());
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
    if (now() + options.marginMs > deadline) break;
    const attempt = job.wave(next, probing ? 1 : waveSize);
    probing = false;
    waitedForRateLimitMs += options.waitLog?.drainInto(next.counters) ?? 0;
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

  if (effect.kind !== 'none') {
    next.problem = effect.message;
    options.supportLog?.write({
      kind: 'step-stopped',
      effect: effect.kind,
      ...(effect.kind === 'wait' && effect.outOfTime && { outOfTime: true }),
      ...(effect.kind === 'wait' && effect.retryAfterMs !== undefined && { retryAfterMs: effect.retryAfterMs }),
    });
  } else if (next.status === 'cancelled') options.supportLog?.write({ kind: 'step-stopped', effect: 'cancelled' });
  if (effect.kind === 'pause') next.status = 'paused';
  if (progressed) next.counters.stepsWithoutProgress = 0;
  else if (effect.kind === 'transient' && ++next.counters.stepsWithoutProgress >= job.maxStepsWithoutProgress) next.status = 'paused';
  settleRateLimit(next, {
    wait: effect.kind === 'wait' ? effect : undefined,
    answered: progressed,
    stepStart,
    nowMs: now(),
    stormSentence: (minutes) => job.stormSentence(next, minutes),
  });
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
