// One step of a push: concurrent waves of PUT /portfolio_property_values until nothing is pending or time is nearly up.

import type { ApiClient } from '../api/client';
import { TimeBudgetError } from '../api/errors';
import type { ApiRequest, Settled } from '../api/requester';
import { countOf } from '../export/places';
import type { PortfolioPropertyValue } from '../api/types';
import { classifyPushFailure, worsePushFailure, type PushFailure } from './push-errors';
import { cloneAuditPushState, isPushComplete } from './write-back';
import type { AuditPushItem, AuditPushProgress, AuditPushState } from './types';
import type { WaveStepOptions } from '../jobs/step-options';
import { runWaveStep, type WaveFailureEffect } from '../jobs/wave-step';

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

/** A push failure, told apart (as the export's are) when it is the step's own time running out, not the rate limit. */
type WaveFailure = PushFailure | { kind: 'wait'; message: string; outOfTime: true };

/** The requester's refusal to start a request without time for its round trip names no wait: that is not the rate limit. */
function outOfTime(error: unknown): boolean {
  return error instanceof TimeBudgetError && error.retryAfterSeconds === undefined;
}

function classify(error: unknown): WaveFailure {
  const failure = classifyPushFailure(error);
  return failure.kind === 'wait' && outOfTime(error) ? { kind: 'wait', message: failure.message, outOfTime: true } : failure;
}

/**
 * Runs one step: waves of pending cells, one PUT each, until none is pending or less than the margin is
 * left. 201 counts as created, 200 as updated. A refusal (400, 403, 422, …) fails its cell with the API's
 * message and the others go on; the rate limit, 5xx and lost connections leave cells pending for the next
 * step (after `notBefore` when the rate limit named a wait); a rejected token pauses the push. A
 * confirmed cell is never sent again. The given state is not changed.
 */
export function runAuditPushStep(state: AuditPushState, client: ApiClient, options: AuditPushStepOptions): AuditPushStepResult {
  return runWaveStep(cloneAuditPushState(state), client, options, {
    marginMs: PUSH_STEP_MARGIN_MS,
    waveSize: DEFAULT_PUSH_WAVE_SIZE,
    maxStepsWithoutProgress: MAX_PUSH_STEPS_WITHOUT_PROGRESS,
    isComplete: isPushComplete,
    wave: (job, waveSize) => sendWave(job, waveSize, client),
    effectOf: (failure: WaveFailure): WaveFailureEffect => (failure.kind === 'push' ? { kind: 'pause', message: failure.message } : failure.kind === 'cell' ? { kind: 'none' } : failure),
    progress: auditPushProgress,
    stormSentence: (job, minutes) => {
      const left = job.items.filter((item) => item.outcome === 'pending').length;
      return `The API refused every request for ${minutes} minutes because of its rate limit, so the push paused with ${countOf(left, 'cell')} left. Resume sends only those once the API accepts requests again.`;
    },
  });
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

function sendWave(state: AuditPushState, waveSize: number, client: ApiClient): { progressed: boolean; failure?: WaveFailure } {
  const wave = state.items.filter((item) => item.outcome === 'pending').slice(0, waveSize);
  state.counters.requests += wave.length;
  let settled: Array<Settled<PutAnswer>>;
  try {
    settled = client.requester.sendAllSettled<PutAnswer>(wave.map((item) => upsertRequest(state, item)));
  } catch (error) {
    // The budget refused to wait that long (TimeBudgetError) before any answer: the whole wave is still pending.
    return { progressed: false, failure: classify(error) };
  }
  let progressed = false;
  let failure: PushFailure | undefined;
  let allOutOfTime = true;
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
    const error = result ? result.error : new Error('The client returned no outcome for a cell.');
    const classified = classifyPushFailure(error);
    if (classified.kind === 'cell') {
      item.outcome = 'failed';
      item.reason = classified.reason;
      delete item.write;
      progressed = true;
      return;
    }
    allOutOfTime &&= outOfTime(error);
    failure = worsePushFailure(failure, classified);
  });
  if (failure?.kind === 'wait' && allOutOfTime) return { progressed, failure: { kind: 'wait', message: failure.message, outOfTime: true } };
  return failure ? { progressed, failure } : { progressed };
}

