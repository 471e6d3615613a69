// Build audit as a job: a large fund's reads outgrow one rate window (500 companies ×
// 100 properties take about 2,100 pages, four windows of 500 requests), so they run in steps like a push,
// each page read once, and the sheet is written once every page is in.

import type { ApiClient } from '../api/client';
import type { AuditList, PageRead } from '../api/resources/portfolio';
import type { PortfolioCompanyProfile, PortfolioProperty, PortfolioPropertyOption, PortfolioPropertyValue } from '../api/types';
import { countOf } from '../../shared/words';
import { classifyFailure, waveEffect, worseFailure, type Failure } from '../jobs/classify-failure';
import { cloneJob, resumeWaveJob } from '../jobs/job-state';
import { jobProgress, type JobProgressBase } from '../jobs/progress';
import { runWaveStep, type WaveFailureEffect, type WaveJobState, type WaveStepOptions } from '../jobs/wave-step';
import { requireUuid } from '../validate/uuid';
import { auditDataOf, auditReadsOf } from './load-audit-data';
import type { AuditData } from './types';
import { AUDIT_BUILD_WAVE_PAGES, MAX_STEPS_WITHOUT_PROGRESS } from '../pacing';

/** Where the pages read are kept between steps: megabytes of them would not fit the job's state. */
export interface AuditPageSink {
  /** Keeps pages just read; a page written again (a step killed before its checkpoint) replaces the earlier copy. */
  put(pages: ReadonlyArray<{ list: string; page: number; items: unknown[] }>): void;
  /** The items of each named list, its pages in order; an absent list has none. */
  read(lists: readonly string[]): Record<string, unknown[]>;
}

/**
 * The build's state, small whatever the fund: for each list its key and, once page 1 has told the
 * page count, one character per page ('1' read, '0' not yet). About 60 bytes a list: 30 KB for 500 profiles.
 */
export type AuditBuildState = WaveJobState & {
  v: 1;
  companyId: string;
  counters: WaveJobState['counters'] & { requests: number; pagesRead: number };
  lists: Array<{ k: string; p: string }>;
  /** The values and options lists have been added (the profiles and properties lists were complete). */
  planned: boolean;
};

export type AuditBuildProgress = JobProgressBase & {
  /** Pages read, of all pages known so far (a list whose page 1 has not come counts as one page). */
  pagesRead: number;
  pagesTotal: number;
  /** False until the profiles and properties are read: the total grows once they name the values to read. */
  totalKnown: boolean;
  waitedForRateLimitMs?: number;
};

const PROFILES = 'profiles';
const PROPERTIES = 'properties';

export function newAuditBuildState(companyId: string): AuditBuildState {
  return {
    v: 1,
    companyId: requireUuid(companyId, "The fund's company id"),
    status: 'running',
    counters: { steps: 0, stepsWithoutProgress: 0, rateLimitWaitMs: 0, retryWaitMs: 0, requests: 0, pagesRead: 0 },
    lists: [
      { k: PROFILES, p: '' },
      { k: PROPERTIES, p: '' },
    ],
    planned: false,
  };
}

function listOf(state: AuditBuildState, key: string): AuditList {
  if (key === PROFILES || key === PROPERTIES) return { kind: key, companyId: state.companyId };
  const [kind, id = ''] = key.split(':');
  if (kind === 'values') return { kind, profileId: id };
  if (kind === 'options') return { kind, propertyId: id };
  throw new Error(`The audit build names an unknown list "${key}".`);
}

const listComplete = (list: { p: string }): boolean => list.p !== '' && !list.p.includes('0');

export function isAuditBuildComplete(state: AuditBuildState): boolean {
  return state.planned && state.lists.every(listComplete);
}

/** Pages not read yet, page 1 first of every list (it tells the count), in the order of the lists. */
function pendingPages(state: AuditBuildState, limit: number): Array<{ key: string; page: number }> {
  const pending: Array<{ key: string; page: number }> = [];
  for (const list of state.lists) {
    if (pending.length >= limit) break;
    if (list.p === '') pending.push({ key: list.k, page: 1 });
    else for (let i = 0; i < list.p.length && pending.length < limit; i++) if (list.p[i] === '0') pending.push({ key: list.k, page: i + 1 });
  }
  return pending;
}

/** What a page keeps of an item: only what auditDataOf reads. */
function compact(key: string, items: unknown[]): unknown[] {
  if (key === PROFILES) return (items as PortfolioCompanyProfile[]).map(({ id, name }) => ({ id, name }));
  if (key === PROPERTIES) return (items as PortfolioProperty[]).map(({ id, name, data_type }) => ({ id, name, data_type }));
  if (key.startsWith('options:')) return (items as PortfolioPropertyOption[]).map(({ id, label }) => ({ id, label }));
  return (items as PortfolioPropertyValue[]).map((item) => ({
    portfolio_property_id: item.portfolio_property_id,
    value: item.value ?? null,
    ...(item.portfolio_property_option_id ? { portfolio_property_option_id: item.portfolio_property_option_id } : {}),
    ...(item.portfolio_property_option_ids ? { portfolio_property_option_ids: item.portfolio_property_option_ids } : {}),
  }));
}

/** Once the profiles and the properties are in, adds the lists they call for. */
function plan(state: AuditBuildState, sink: AuditPageSink): void {
  if (state.planned || !state.lists.slice(0, 2).every(listComplete)) return;
  const read = sink.read([PROFILES, PROPERTIES]);
  const { profileIds, optionPropertyIds } = auditReadsOf((read[PROFILES] ?? []) as PortfolioCompanyProfile[], (read[PROPERTIES] ?? []) as PortfolioProperty[]);
  state.lists.push(...profileIds.map((id) => ({ k: `values:${id}`, p: '' })), ...optionPropertyIds.map((id) => ({ k: `options:${id}`, p: '' })));
  state.planned = true;
}

function readWave(state: AuditBuildState, waveSize: number, client: ApiClient, sink: AuditPageSink): { progressed: boolean; failure?: Failure } {
  const wave = pendingPages(state, waveSize);
  state.counters.requests += wave.length;
  let answers: PageRead[];
  try {
    answers = client.portfolio.readListPages(wave.map(({ key, page }) => ({ list: listOf(state, key), page })));
  } catch (error) {
    return { progressed: false, failure: classifyFailure(error, 'build') };
  }
  const read: Array<{ list: string; page: number; items: unknown[]; totalPages: number }> = [];
  let failure: Failure | undefined;
  wave.forEach(({ key, page }, i) => {
    const answer = answers[i];
    if (answer?.ok) read.push({ list: key, page, items: compact(key, answer.items), totalPages: answer.totalPages });
    else failure = worseFailure(failure, classifyFailure(answer ? answer.error : new Error('The client returned no page.'), 'build'));
  });
  // The pages first, then the state that says they are kept: a step killed between the two reads them again.
  if (read.length > 0) sink.put(read);
  const byKey = new Map(state.lists.map((list) => [list.k, list]));
  for (const { list: key, page, totalPages } of read) {
    const list = byKey.get(key)!;
    if (list.p === '') list.p = '0'.repeat(totalPages);
    list.p = `${list.p.slice(0, page - 1)}1${list.p.slice(page)}`;
    state.counters.pagesRead++;
  }
  plan(state, sink);
  return { progressed: read.length > 0, failure };
}

/**
 * A failed read: the rate limit and a lost connection or 5xx wait for a later step; a refusal (the fund or
 * a profile gone, no access) or a rejected token pause the build with the reason: an audit missing a
 * page would show blanks that are not blank.
 */
function effectOf(failure: Failure): WaveFailureEffect {
  return failure.kind === 'refused' ? { kind: 'pause', message: `The API refused a read of the audit: ${failure.reason}` } : waveEffect(failure);
}

/** Runs one step of reads on a copy of `state`. */
export function runAuditBuildStep(
  state: AuditBuildState,
  client: ApiClient,
  options: WaveStepOptions<AuditBuildState> & { sink: AuditPageSink },
): { state: AuditBuildState; progress: AuditBuildProgress } {
  const { sink } = options;
  return runWaveStep(cloneJob(state), client, options, {
    waveSize: AUDIT_BUILD_WAVE_PAGES,
    maxStepsWithoutProgress: MAX_STEPS_WITHOUT_PROGRESS,
    isComplete: isAuditBuildComplete,
    wave: (job, waveSize) => readWave(job, waveSize, client, sink),
    effectOf,
    progress: auditBuildProgress,
    stormSentence: (job, minutes) => {
      const left = pendingPages(job, Number.POSITIVE_INFINITY).length;
      return `The API refused every request for ${minutes} minutes because of its rate limit, so the build paused with ${countOf(left, 'page')} left to read. Resume reads only those once the API accepts requests again.`;
    },
  });
}

export function auditBuildProgress(state: AuditBuildState, nowMs: number): AuditBuildProgress {
  const pagesTotal = state.lists.reduce((sum, list) => sum + Math.max(1, list.p.length), 0);
  return jobProgress(state, nowMs, {
    pagesRead: state.counters.pagesRead,
    pagesTotal: Math.max(pagesTotal, state.counters.pagesRead),
    totalKnown: state.planned && state.lists.every((list) => list.p !== ''),
  });
}

export function resumeAuditBuild(state: AuditBuildState): AuditBuildState {
  return resumeWaveJob(state, isAuditBuildComplete);
}

/** The audit's data from every page read; only once isAuditBuildComplete. */
export function auditDataFromSink(state: AuditBuildState, sink: AuditPageSink): AuditData {
  if (!isAuditBuildComplete(state)) throw new Error('The audit build has pages left to read.');
  const keys = state.lists.map((list) => list.k);
  const read = sink.read(keys);
  const of = (prefix: string) => keys.filter((key) => key.startsWith(prefix)).map((key) => read[key] ?? []);
  return auditDataOf(state.companyId, {
    profiles: (read[PROFILES] ?? []) as PortfolioCompanyProfile[],
    properties: (read[PROPERTIES] ?? []) as PortfolioProperty[],
    values: of('values:') as PortfolioPropertyValue[][],
    options: of('options:') as PortfolioPropertyOption[][],
  });
}
