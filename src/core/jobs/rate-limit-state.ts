// What every job keeps about the rate limit between steps: the backoff carried across steps, and the storm pause.

import { FIRST_BACKOFF_MS, MAX_BACKOFF_MS, RATE_LIMIT_STORM_MS } from '../pacing';
export { FIRST_BACKOFF_MS, MAX_BACKOFF_MS, RATE_LIMIT_STORM_MS };

/** cancelled: the user stopped it; paused: a problem the user must act on. Both are resumable. */
export type JobStatus = 'running' | 'done' | 'cancelled' | 'paused';

export type RateLimitState = {
  status: JobStatus;
  /** The last problem that stopped a step, as a sentence for the user. */
  problem?: string;
  /** Do not send before this time (ms since epoch): the rate limit asked us to wait. */
  notBefore?: number;
  /**
   * The rate limit's backoff, carried from step to step: set by a 429, cleared by any other answer. While
   * it is set a step opens with one request (the probe) and its client does not retry a 429 itself, so at
   * most one refused request falls in each backoff interval.
   */
  retry?: { backoffMs: number };
  /** When the API began refusing everything for the rate limit; cleared by any accepted request and by a resume. */
  rateLimitedSince?: number;
};

/** Whether the next step opens with a probe: its client must then leave 429s to the job (noRateLimitRetries). */
export function needsProbe(state: Pick<RateLimitState, 'retry' | 'status'>): boolean {
  return state.status === 'running' && state.retry !== undefined;
}

/** A step's last wait: outOfTime when the step's own time ran out, which is not the rate limit. */
type StepWait = { retryAfterMs?: number; outOfTime?: true };

/**
 * The end of a step, for the rate limit: a refusal sets (or grows) the backoff and the time before the
 * next step, an answer (`answered`: anything but a 429) clears them, and a storm pauses the job.
 */
export function settleRateLimit(
  state: RateLimitState,
  step: { wait: StepWait | undefined; answered: boolean; stepStart: number; nowMs: number; stormSentence: (minutes: number) => string },
): void {
  const { wait, answered, stepStart, nowMs } = step;
  if (answered) delete state.retry;
  const rateLimited = wait !== undefined && !wait.outOfTime;
  if (rateLimited) {
    // A wait the server named is its window's own: kept as it is. One we choose grows until a request succeeds.
    const backoffMs = state.retry ? Math.min(MAX_BACKOFF_MS, state.retry.backoffMs * 2) : Math.max(FIRST_BACKOFF_MS, wait.retryAfterMs ?? 0);
    state.retry = { backoffMs };
    state.notBefore = nowMs + (wait.retryAfterMs ?? backoffMs);
  } else if (wait?.retryAfterMs !== undefined) {
    state.notBefore = nowMs + wait.retryAfterMs;
  }
  // The storm starts at the first refusal after the last accepted request: inside this step when it
  // also accepted something, else no later than the step's start.
  if (rateLimited && state.status === 'running') {
    if (answered) state.rateLimitedSince = nowMs;
    else {
      state.rateLimitedSince ??= stepStart;
      if (nowMs - state.rateLimitedSince >= RATE_LIMIT_STORM_MS) {
        state.status = 'paused';
        state.problem = step.stormSentence(Math.round(RATE_LIMIT_STORM_MS / 60_000));
        delete state.notBefore;
        delete state.rateLimitedSince;
        // The backoff stays: Resume's first step opens with one probe, as every step after a 429 does.
      }
    }
  } else if (answered) {
    delete state.rateLimitedSince;
  }
  // A cancelled job keeps its backoff too, so a resume after a cancel during the storm also probes first.
  if (state.status === 'done') delete state.retry;
  if (state.status === 'done' || state.status === 'cancelled') delete state.rateLimitedSince;
}
