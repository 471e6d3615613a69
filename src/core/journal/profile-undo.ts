// Undo of a profile import's updates: each field it changed on an existing profile gets the value it replaced
// back (PUT /portfolio_company_profiles/{id}), read first and compared with what the import wrote, so a field
// someone changed since is a conflict, kept. Steps in waves like every job (core/jobs/wave-step).

import type { ApiClient } from '../api/client';
import type { PortfolioCompanyProfile, PortfolioCompanyProfileInput } from '../api/types';
import { classifyFailure, waveEffect, worseFailure, type Failure } from '../jobs/classify-failure';
import { cloneJob } from '../jobs/job-state';
import { jobProgress } from '../jobs/progress';
import { UNDO_CONFLICT_REASON } from '../jobs/push-log';
import { runWaveStep, type WaveJobState, type WaveStepOptions } from '../jobs/wave-step';
import type { FieldValue } from './journal';
import type { AuditPushProgress } from '../audit/types';
import { UNDO_PROFILES_PER_WAVE } from '../pacing';

export type FieldUndoItem = {
  profileId: string;
  profileName: string;
  /** The API's field name, like website_url. */
  field: string;
  cell: string;
  /** What the import wrote, and the value it replaced (what Undo writes back). */
  written: FieldValue;
  value: FieldValue;
  outcome: 'pending' | 'updated' | 'unchanged' | 'conflict' | 'failed';
  reason?: string;
  /** A conflict's value on the server. */
  server?: FieldValue;
};

export type ProfileUndoState = WaveJobState & {
  version: 1;
  kind: 'profile-fields';
  companyId: string;
  items: FieldUndoItem[];
  counters: WaveJobState['counters'] & { requests: number };
};

export function isProfileUndo(state: object): state is ProfileUndoState {
  return (state as ProfileUndoState).kind === 'profile-fields';
}

export function prepareProfileUndo(companyId: string, items: ReadonlyArray<Omit<FieldUndoItem, 'outcome'>>): ProfileUndoState {
  const state: ProfileUndoState = {
    version: 1,
    kind: 'profile-fields',
    companyId,
    status: 'running',
    items: items.map((item) => ({ ...item, outcome: 'pending' })),
    counters: { steps: 0, stepsWithoutProgress: 0, requests: 0, rateLimitWaitMs: 0, retryWaitMs: 0 },
  };
  if (isProfileUndoComplete(state)) state.status = 'done';
  return state;
}

export function isProfileUndoComplete(state: ProfileUndoState): boolean {
  return !state.items.some((item) => item.outcome === 'pending');
}

/** Fields settled of all fields, as the audit push's bar counts cells. */
export function profileUndoProgress(state: ProfileUndoState, nowMs: number): AuditPushProgress {
  return jobProgress(state, nowMs, { cellsDone: state.items.filter((item) => item.outcome !== 'pending').length, cellsTotal: state.items.length });
}

function same(a: FieldValue | undefined, b: FieldValue | undefined): boolean {
  return String(a ?? '') === String(b ?? '');
}

function fieldOf(profile: PortfolioCompanyProfile, field: string): FieldValue {
  return (profile as unknown as Record<string, FieldValue | undefined>)[field] ?? null;
}

/** One wave: read the fund's profiles, compare each pending field with what the import wrote, PUT each profile's restores. */
function wave(state: ProfileUndoState, waveSize: number, client: ApiClient): { progressed: boolean; failure?: Failure } {
  const pending = state.items.filter((item) => item.outcome === 'pending');
  const profileIds = [...new Set(pending.map((item) => item.profileId))].slice(0, waveSize);
  let profiles: PortfolioCompanyProfile[];
  try {
    profiles = client.portfolio.listProfiles(state.companyId);
  } catch (error) {
    return { progressed: false, failure: classifyFailure(error, 'push') };
  }
  let progressed = false;
  let failure: Failure | undefined;
  for (const profileId of profileIds) {
    const items = pending.filter((item) => item.profileId === profileId);
    const profile = profiles.find((candidate) => candidate.id.toLowerCase() === profileId.toLowerCase());
    if (!profile) {
      for (const item of items) Object.assign(item, { outcome: 'failed', reason: 'the profile is no longer in the fund' });
      progressed = true;
      continue;
    }
    const toSend = items.filter((item) => {
      const now = fieldOf(profile, item.field);
      if (same(now, item.value)) item.outcome = 'unchanged';
      else if (!same(now, item.written)) Object.assign(item, { outcome: 'conflict', reason: UNDO_CONFLICT_REASON, server: now });
      return item.outcome === 'pending';
    });
    if (toSend.length < items.length) progressed = true;
    if (toSend.length === 0) continue;
    const body: PortfolioCompanyProfileInput = { name: profile.name, company_id: state.companyId };
    for (const item of toSend) (body as unknown as Record<string, FieldValue>)[item.field] = item.value;
    state.counters.requests++;
    try {
      client.portfolio.updateProfile(profile.id, body);
      for (const item of toSend) item.outcome = 'updated';
      progressed = true;
    } catch (error) {
      const classified = classifyFailure(error, 'push');
      if (classified.kind === 'refused') {
        for (const item of toSend) Object.assign(item, { outcome: 'failed', reason: classified.reason });
        progressed = true;
      } else {
        failure = worseFailure(failure, classified);
        break;
      }
    }
  }
  return { progressed, failure };
}

export function runProfileUndoStep(state: ProfileUndoState, client: ApiClient, options: WaveStepOptions<ProfileUndoState>): { state: ProfileUndoState } {
  return runWaveStep(cloneJob(state), client, options, {
    waveSize: UNDO_PROFILES_PER_WAVE,
    maxStepsWithoutProgress: 3,
    isComplete: isProfileUndoComplete,
    wave: (job, size) => wave(job, size, client),
    effectOf: waveEffect,
    progress: profileUndoProgress,
    stormSentence: (job, minutes) =>
      `The API refused every request for ${minutes} minutes because of its rate limit, so the undo paused with ${job.items.filter((item) => item.outcome === 'pending').length} fields left. Resume restores only those.`,
  });
}
