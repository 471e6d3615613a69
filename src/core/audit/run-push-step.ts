// One step of a push: concurrent waves of PUT /portfolio_property_values until nothing is pending or time is nearly up.

import type { ApiClient } from '../api/client';
import type { ApiRequest, Settled } from '../api/requester';
import type { PortfolioPropertyValue } from '../api/types';
import { drainWaitsInto } from '../export/wait-log';
import { classifyPushFailure, worsePushFailure, type PushFailure } from './push-errors';
import { cloneAuditPushState, isPushComplete } from './write-back';
import type { AuditPushItem, AuditPushProgress, AuditPushState } from './types';
import type { WaveStepOptions } from '../jobs/step-options';

/** No wave starts with less than this left before the deadline: a wave of PUTs can take many seconds. */
export const PUSH_STEP_MARGIN_MS = 30_000;
/**
 * Cells sent together in one wave. Each wave is one sendAllSettled (which the requester paces under the
 * rate budget) followed by a checkpoint, so a killed step loses at most one wave's answers.
 */
export const DEFAULT_PUSH_WAVE_SIZE = 25;
/** Steps in a row that end on a temporary failure without progress before the push pauses. */
export const MAX_PUSH_STEPS_WITHOUT_PROGRESS = 3;

export type AuditPushStepOptions = WaveStepOptions<AuditPushState>;

export type AuditPushStepResult = { state: AuditPushState; progress: AuditPushProgress };

type PutAnswer = { portfolio_property_value: PortfolioPropertyValue };

/**
 * Runs one step: waves of pending cells, one PUT each, until none is pending or less than the margin is
 * left. 201 counts as created, 200 as updated. A refusal (400, 403, 422, …) fails its cell with the API's
 * message and the others go on; the rate limit, 5xx and lost connections leave cells pending for the next
 * step (after `notBefore` when the rate limit named a wait); a rejected token pauses the push. A
 * confirmed cell is never sent again. The given state is not changed.
 */
export function runAuditPushStep(state: AuditPushState, client: ApiClient, options: AuditPushStepOptions): AuditPushStepResult {
  const next = cloneAuditPushState(state);
  const now = options.now ?? (() => client.requester.now());
  if (next.status !== 'running' || (next.notBefore !== undefined && now() < next.notBefore)) {
    return { state: next, progress: auditPushProgress(next, now()) };
  }
  delete next.notBefore;
  delete next.problem;
  next.counters.steps++;

  const deadline = Math.min(options.deadline, now() + client.requester.remainingMs());
  const marginMs = options.marginMs ?? PUSH_STEP_MARGIN_MS;
  const waveSize = Math.max(1, Math.floor(options.waveSize ?? DEFAULT_PUSH_WAVE_SIZE));
  let progressed = false;
  let failure: PushFailure | undefined;
  let waitedForRateLimitMs = 0;

  while (!isPushComplete(next)) {
    if (options.shouldStop?.()) {
      next.status = 'cancelled';
      break;
    }
    if (now() + marginMs > deadline) break;
    const attempt = sendWave(next, waveSize, client);
    waitedForRateLimitMs += drainWaitsInto(next.counters, options.waitLog);
    progressed ||= attempt.progressed;
    options.onCheckpoint?.(next);
    if (attempt.failure) {
      failure = attempt.failure;
      break;
    }
  }

  if (failure) recordFailure(next, failure, now());
  if (progressed) next.counters.stepsWithoutProgress = 0;
  else if (failure?.kind === 'transient' && ++next.counters.stepsWithoutProgress >= MAX_PUSH_STEPS_WITHOUT_PROGRESS) next.status = 'paused';
  if (isPushComplete(next)) {
    next.status = 'done';
    delete next.notBefore;
  }
  const progress = auditPushProgress(next, now());
  if (waitedForRateLimitMs > 0) progress.waitedForRateLimitMs = waitedForRateLimitMs;
  return { state: next, progress };
}

/** What the progress bar shows: cells to send with a final outcome, and any wait the rate limit asked for. */
export function auditPushProgress(state: AuditPushState, nowMs: number): AuditPushProgress {
  const planned = state.items.filter((item) => item.planned);
  const progress: AuditPushProgress = {
    status: state.status,
    cellsDone: planned.filter((item) => item.outcome !== 'pending').length,
    cellsTotal: planned.length,
  };
  if (state.status === 'running' && state.notBefore !== undefined && state.notBefore > nowMs) progress.waitingForRateLimitMs = state.notBefore - nowMs;
  if (state.problem) progress.problem = state.problem;
  return progress;
}

/** The request PortfolioResource.upsertValue sends, body and all. */
export function upsertRequest(state: AuditPushState, item: AuditPushItem): ApiRequest {
  const propertyId = state.properties[item.property]?.id;
  const profileId = state.profiles[item.profile]?.id;
  if (!propertyId || !profileId || !item.write) throw new Error('A pending cell has no property, profile or value to send.');
  return {
    method: 'PUT',
    path: '/portfolio_property_values',
    body: { portfolio_property_value: { portfolio_property_id: propertyId, portfolio_company_profile_id: profileId, ...item.write } },
  };
}

function sendWave(state: AuditPushState, waveSize: number, client: ApiClient): { progressed: boolean; failure?: PushFailure } {
  const wave = state.items.filter((item) => item.outcome === 'pending').slice(0, waveSize);
  state.counters.requests += wave.length;
  let settled: Array<Settled<PutAnswer>>;
  try {
    settled = client.requester.sendAllSettled<PutAnswer>(wave.map((item) => upsertRequest(state, item)));
  } catch (error) {
    // The budget refused to wait that long (TimeBudgetError) before any answer: the whole wave is still pending.
    return { progressed: false, failure: classifyPushFailure(error) };
  }
  let progressed = false;
  let failure: PushFailure | undefined;
  wave.forEach((item, position) => {
    const result = settled[position];
    if (result?.ok) {
      item.outcome = result.result.status === 201 ? 'created' : 'updated';
      // Once confirmed, the body is history: dropping it keeps the stored state small.
      delete item.write;
      delete item.reason;
      progressed = true;
      return;
    }
    const classified = classifyPushFailure(result ? result.error : new Error('The client returned no outcome for a cell.'));
    if (classified.kind === 'cell') {
      item.outcome = 'failed';
      item.reason = classified.reason;
      delete item.write;
      progressed = true;
      return;
    }
    failure = worsePushFailure(failure, classified);
  });
  return failure ? { progressed, failure } : { progressed };
}

function recordFailure(state: AuditPushState, failure: PushFailure, nowMs: number): void {
  switch (failure.kind) {
    case 'wait':
      state.problem = failure.message;
      if (failure.retryAfterMs !== undefined) state.notBefore = nowMs + failure.retryAfterMs;
      return;
    case 'transient':
      state.problem = failure.message;
      return;
    case 'push':
      state.problem = failure.message;
      state.status = 'paused';
      return;
    case 'cell':
      return;
  }
}

