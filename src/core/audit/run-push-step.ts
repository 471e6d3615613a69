// One step of a push: concurrent waves of PUT /portfolio_property_values until nothing is pending or time is nearly up.

import type { ApiClient } from '../api/client';
import type { Settled } from '../api/requester';
import type { PortfolioPropertyValue, PortfolioPropertyValueInput } from '../api/types';
import { classifyFailure, waveEffect, worseFailure, type Failure } from '../jobs/classify-failure';
import { countOf } from '../../shared/words';
import { isPushComplete } from './write-back';
import { holdConflicts, type ConflictGuard, type JournaledItem } from './conflicts';
import type { AuditPushItem, AuditPushProgress, AuditPushState } from './types';
import { cloneJob } from '../jobs/job-state';
import { jobProgress } from '../jobs/progress';
import { runWaveStep, type WaveStepOptions } from '../jobs/wave-step';
import { AUDIT_PUSH_WAVE_CELLS, MAX_STEPS_WITHOUT_PROGRESS } from '../pacing';

export type AuditPushStepOptions = WaveStepOptions<AuditPushState> & {
  /**
   * Reads each wave's cells on the server before sending, for the value each replaces (the journal's), and
   * compares them with it (not for an overwrite push, which only reads); none: sent as they are.
   */
  guard?: ConflictGuard;
};

/**
 * Runs one step on a copy of `state`: waves of pending cells, one PUT each. 201 counts as created, 200 as
 * updated. A refusal (400, 403, 422, …) fails its cell with the API's message and the others go on; the rate
 * limit, 5xx and lost connections leave cells pending for a later step; a rejected token pauses the push.
 */
export function runAuditPushStep(
  state: AuditPushState,
  client: ApiClient,
  options: AuditPushStepOptions,
): { state: AuditPushState; progress: AuditPushProgress } {
  return runWaveStep(cloneJob(state), client, options, {
    waveSize: AUDIT_PUSH_WAVE_CELLS,
    maxStepsWithoutProgress: MAX_STEPS_WITHOUT_PROGRESS,
    isComplete: isPushComplete,
    wave: (job, waveSize) => sendWave(job, waveSize, client, options.guard),
    effectOf: waveEffect,
    progress: auditPushProgress,
    stormSentence: (job, minutes) => {
      const left = job.items.filter((item) => item.outcome === 'pending').length;
      return `The API refused every request for ${minutes} minutes because of its rate limit, so the push paused with ${countOf(left, 'cell')} left. Resume sends only those once the API accepts requests again.`;
    },
  });
}

/** What the progress bar shows. */
export function auditPushProgress(state: AuditPushState, nowMs: number): AuditPushProgress {
  const planned = state.items.filter((item) => item.planned);
  return jobProgress(state, nowMs, { cellsDone: planned.filter((item) => item.outcome !== 'pending').length, cellsTotal: planned.length });
}

/** What PortfolioResource.upsertValues sends for one pending cell. */
function upsertInput(state: AuditPushState, item: AuditPushItem): PortfolioPropertyValueInput {
  const propertyId = state.properties[item.property]?.id;
  const profileId = state.profiles[item.profile]?.id;
  if (!propertyId || !profileId || !item.write) throw new Error('A pending cell has no property, profile or value to send.');
  return { portfolio_property_id: propertyId, portfolio_company_profile_id: profileId, ...item.write };
}

function sendWave(state: AuditPushState, waveSize: number, client: ApiClient, guard: ConflictGuard | undefined): { progressed: boolean; failure?: Failure } {
  let wave = state.items.filter((item) => item.outcome === 'pending').slice(0, waveSize);
  if (guard) {
    try {
      wave = holdConflicts(state, wave, client, guard, !state.overwrite);
    } catch (error) {
      const classified = classifyFailure(error, 'push');
      if (classified.kind !== 'refused') return { progressed: false, failure: classified };
      // A cell whose server value cannot be read cannot be checked (nor its value before kept): not sent over what may be a colleague's change.
      for (const item of wave) {
        item.outcome = 'failed';
        item.reason = state.overwrite
          ? `the server's value could not be read, and the push keeps the value it replaces for Undo: ${classified.reason}`
          : `the server's value could not be read to check it was not changed since the audit was built: ${classified.reason}`;
        delete item.write;
      }
      return { progressed: true };
    }
    // Every cell of the wave was changed on the server: the API answered, and nothing is left to send.
    if (wave.length === 0) return { progressed: true };
  }
  state.counters.requests += wave.length;
  let settled: Array<Settled<PortfolioPropertyValue>>;
  try {
    settled = client.portfolio.upsertValues(wave.map((item) => upsertInput(state, item)));
  } catch (error) {
    // The budget refused to wait that long (RateLimitedError, OutOfTimeError) before any answer: the whole wave is still pending.
    return { progressed: false, failure: classifyFailure(error, 'push') };
  }
  let progressed = false;
  let failure: Failure | undefined;
  wave.forEach((item, position) => {
    const result = settled[position];
    if (result?.ok) {
      item.outcome = result.result.status === 201 ? 'created' : 'updated';
      // Once confirmed, the body is history: the step's journal takes it (`sent`), and no stored state keeps it.
      (item as JournaledItem).sent = item.write;
      delete item.write;
      delete item.reason;
      progressed = true;
      return;
    }
    const classified = classifyFailure(result ? result.error : new Error('The client returned no outcome for a cell.'), 'push');
    if (classified.kind === 'refused') {
      item.outcome = 'failed';
      item.reason = classified.reason;
      delete item.write;
      progressed = true;
      return;
    }
    failure = worseFailure(failure, classified);
  });
  return { progressed, failure };
}
