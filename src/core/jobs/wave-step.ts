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
};

/**
 * What a failed wave means for the whole job: wait for the rate limit, try again next step (a transient
 * failure; too many steps of those in a row pause the job), pause until the user acts, or nothing more
 * (the wave already marked its own items).
 */
export type WaveFailureEffect =
  | { kind: 'wait'; retryAfterMs?: number; message: string }
  | { kind: 'transient'; message: string }
  | { kind: 'pause'; message: string }
  | { kind: 'none' };

export type WaveAttempt<F> = { progressed: boolean; failure?: F };

export type WaveJob<S, F, P> = {
  waveSize: number;
  maxStepsWithoutProgress: number;
  isComplete(state: S): boolean;
  /** Sends (or reads) one wave, changing the state in place. */
  wave(state: S, waveSize: number): WaveAttempt<F>;
  effectOf(failure: F): WaveFailureEffect;
  progress(state: S, nowMs: number): P;
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
  const marginMs = options.marginMs;
  const waveSize = Math.max(1, Math.floor(options.waveSize ?? job.waveSize));
  let progressed = false;
  let effect: WaveFailureEffect = { kind: 'none' };
  let waitedForRateLimitMs = 0;

  while (!job.isComplete(next)) {
    if (options.shouldStop?.()) {
      next.status = 'cancelled';
      break;
    }
    if (now() + marginMs > deadline) break;
    const attempt = job.wave(next, waveSize);
    waitedForRateLimitMs += drainWaitsInto(next.counters, options.waitLog);
    progressed ||= attempt.progressed;
    options.onCheckpoint?.(next);
    if (attempt.failure !== undefined) {
      effect = job.effectOf(attempt.failure);
      break;
    }
  }

  if (effect.kind !== 'none') next.problem = effect.message;
  if (effect.kind === 'wait' && effect.retryAfterMs !== undefined) next.notBefore = now() + effect.retryAfterMs;
  if (effect.kind === 'pause') next.status = 'paused';
  if (progressed) next.counters.stepsWithoutProgress = 0;
  else if (effect.kind === 'transient' && ++next.counters.stepsWithoutProgress >= job.maxStepsWithoutProgress) next.status = 'paused';
  if (job.isComplete(next)) {
    next.status = 'done';
    delete next.notBefore;
  }
  const progress = job.progress(next, now());
  if (waitedForRateLimitMs > 0) progress.waitedForRateLimitMs = waitedForRateLimitMs;
  return { state: next, progress };
}
