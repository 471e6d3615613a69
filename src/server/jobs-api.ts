// Starts, steps, cancels, resumes and lists the step-by-step jobs of every kind (export, audit push,
// import) over one store (gas/job-store). A kind says only how to load, save and describe its job and how
// to run one step of it; what happens around the step (the step mark, the cancel mark, a checkpoint after
// every wave, a finished job leaving nothing behind, the probe after a 429) is written here once.

import type { ApiClient } from '../core/api/client';
import { InputError } from '../core/errors';
import type { SupportLog } from '../core/log/support-log';
import { consoleSupportLog } from '../gas/support-log';
import { WaitLog } from '../core/jobs/wait-log';
import { cancelJob as cancelled } from '../core/jobs/job-state';
import { needsProbe, type RateLimitState } from '../core/jobs/rate-limit-state';
import {
  clearJobCancel,
  forgetJob,
  jobCancelRequested,
  loadJob,
  newJobId,
  publishJobProgress,
  readJobProgress,
  rememberedJobs,
  rememberJob,
  requestJobCancel,
  saveJob,
  stepRunning,
  whileStepRuns,
} from '../gas/job-store';
import { createClientForExecution } from './api-factory';
import { appendPushLog } from '../gas/changes-sheet';
import type { PushKind, PushLogRow } from '../core/jobs/push-log';
import { appendJournal } from '../gas/journal-sheet';
import type { JournalEntry } from '../core/journal/journal';
import { STEP_BUDGET_MS } from '../core/pacing';

/** What a kind's step is given: its client, its time, and the checkpoint to call after every wave. */
type StepContext<J> = {
  /** The job's id (a kind that keeps something beside the store, like the build's sheet, finds it by it). */
  id: string;
  client: ApiClient;
  deadline: number;
  marginMs: number;
  waitLog: WaitLog;
  shouldStop: () => boolean;
  /** Saves the job and publishes its progress: a killed step loses nothing saved before. */
  checkpoint: (job: J) => void;
  /** Where the step says why it stopped early (core/log), beside the start and end this engine writes. */
  supportLog: SupportLog;
};

/**
 * One kind of job. J is what the kind loads (its stored record, read again from the sheet where the
 * record keeps no copy of it), S the state inside it, H the handle the page gets, P the progress.
 */
export interface JobKind<J, S extends RateLimitState, H, P> {
  /** The job store's kind: the keys of its state, cancel mark and step mark. */
  store: string;
  /** No new wave starts in the step's last this-many milliseconds. */
  marginMs: number;
  /** The sentence when the job is no longer stored. */
  notStored: string;
  /** The job as stored, ready to step; null when it is no longer stored. */
  load(id: string): J | null;
  save(id: string, job: J): void;
  state(job: J): S;
  withState(job: J, state: S): J;
  handle(id: string, job: J): H;
  progress(job: J): P;
  /** Lets a cancelled or paused job run again (the state's own rule of what is left). */
  resumeState(state: S): S;
  step(job: J, context: StepContext<J>): J;
  /** Refuses (InputError) a job that cannot step as it was started; may pause it and return its handle instead. */
  beforeStep?(id: string, job: J): H | null;
  /** Refuses (InputError) to resume a job whose sheet no longer holds what it was sending. */
  checkResume?(job: J): void;
  /** Whenever the job stops (finished, cancelled, paused): what the kind writes into the sheet. */
  stopped?(id: string, job: J): void;
  /** The handle while another execution's step runs, without reading what that step is changing. */
  whileRunning?(id: string): H;
}

function requireJob<J, S extends RateLimitState, H, P>(kind: JobKind<J, S, H, P>, id: string): J {
  const job = kind.load(id);
  if (job === null) throw new InputError(kind.notStored);
  return job;
}

/** A stopped job: the kind's sheet writes, then gone when finished, kept for Resume otherwise. */
function stop<J, S extends RateLimitState, H, P>(kind: JobKind<J, S, H, P>, id: string, job: J): void {
  kind.stopped?.(id, job);
  if (kind.state(job).status === 'done') forgetJob(kind.store, id);
  else kind.save(id, job);
}

/**
 * Keeps a new or resumed job for its next steps and offers it for six hours, and returns its handle. One
 * that does not run (a new job with nothing to send) stops at once.
 */
export function startJob<J, S extends RateLimitState, H, P>(kind: JobKind<J, S, H, P>, job: J, id: string = newJobId()): H {
  if (kind.state(job).status === 'running') {
    kind.save(id, job);
    rememberJob(kind.store, id, Date.now());
  } else {
    stop(kind, id, job);
  }
  return kind.handle(id, job);
}

/** One step, under the job's step mark: two sidebars never send the same items. */
export function continueJob<J, S extends RateLimitState, H, P>(kind: JobKind<J, S, H, P>, id: string): H {
  return whileStepRuns(kind.store, id, () => {
    let job = requireJob(kind, id);
    if (kind.state(job).status !== 'running') return kind.handle(id, job);
    const refused = kind.beforeStep?.(id, job);
    if (refused) return refused;
    const startedAt = Date.now();
    const deadline = startedAt + STEP_BUDGET_MS;
    consoleSupportLog.write({ kind: 'step-start', job: kind.store, jobId: id });
    const waitLog = new WaitLog();
    // After a 429 the step opens with one probe: its client leaves 429s to the job.
    const client = createClientForExecution({ deadline, onWait: waitLog.onWait, noRateLimitRetries: needsProbe(kind.state(job)) });
    const checkpoint = (next: J): void => {
      kind.save(id, next);
      publishJobProgress(kind.store, id, kind.progress(next));
    };
    const shouldStop = (): boolean => jobCancelRequested(kind.store, id);
    job = kind.step(job, { id, client, deadline, marginMs: kind.marginMs, waitLog, shouldStop, checkpoint, supportLog: consoleSupportLog });
    const { status, notBefore } = kind.state(job);
    if (status === 'running') checkpoint(job);
    else stop(kind, id, job);
    const ended = Date.now();
    consoleSupportLog.write({
      kind: 'step-end',
      job: kind.store,
      jobId: id,
      status,
      ms: ended - startedAt,
      ...(notBefore !== undefined && notBefore > ended && { notBeforeMs: notBefore - ended }),
    });
    return kind.handle(id, job);
  });
}

/**
 * Marks the job cancelled. A step running meanwhile sees the mark before its next group of requests and
 * saves the cancelled state itself: saving here the state read before its last checkpoint would undo that
 * checkpoint, so the state is left as it is and the sidebar asks again once the step has answered.
 */
export function cancelJob<J, S extends RateLimitState, H, P>(kind: JobKind<J, S, H, P>, id: string): H {
  requestJobCancel(kind.store, id);
  if (stepRunning(kind.store, id)) return kind.whileRunning?.(id) ?? kind.handle(id, requireJob(kind, id));
  const job = requireJob(kind, id);
  if (kind.state(job).status === 'done') return kind.handle(id, job);
  const next = kind.withState(job, cancelled(kind.state(job)));
  stop(kind, id, next);
  return kind.handle(id, next);
}

/** Continues a cancelled, paused or interrupted job with what was not confirmed. */
export function resumeJob<J, S extends RateLimitState, H, P>(kind: JobKind<J, S, H, P>, id: string): H {
  const job = requireJob(kind, id);
  kind.checkResume?.(job);
  clearJobCancel(kind.store, id);
  return startJob(kind, kind.withState(job, kind.resumeState(kind.state(job))), id);
}

/**
 * Jobs of one kind of this spreadsheet from the last six hours that did not finish (cancelled, paused,
 * or left running) and have no step running now, oldest first. One whose sheet is gone is not offered.
 */
export function unfinishedJobs<J, S extends RateLimitState, H, P>(kind: JobKind<J, S, H, P>): H[] {
  const handles: H[] = [];
  for (const { kind: store, id } of rememberedJobs(Date.now())) {
    if (store !== kind.store || stepRunning(store, id)) continue;
    let job: J | null;
    try {
      job = kind.load(id);
    } catch (error) {
      // A range or sheet deleted or renamed since: nothing to offer.
      if (error instanceof InputError) continue;
      throw error;
    }
    if (job !== null && kind.state(job).status !== 'done') handles.push(kind.handle(id, job));
  }
  return handles;
}

/** What the job's running step last published (after each of its waves), for the bar while the step runs. */
export function liveProgress<J, S extends RateLimitState, H, P>(kind: JobKind<J, S, H, P>, id: string): P | null {
  return readJobProgress<P>(kind.store, id);
}

/**
 * A job whose stored record keeps no copy of what it sends, rebuilt from its sheet on every load: `stored` is
 * that rebuilt job, null when the sheet no longer matches the record (it is not this job any more: nothing of
 * it is sent). The export, the audit push and the import are such kinds.
 */
export type RereadJob<R, X> = { record: R; stored: X | null };

/** What a kind of RereadJob supplies: the rebuilt job's side and the record's side. */
interface RereadSpec<
  R extends { state: C },
  X extends { state: S },
  S extends RateLimitState,
  C extends RateLimitState & { version: number; codes: string },
  Head,
  P,
  O,
> extends Pick<JobKind<RereadJob<R, X>, S | C, Head, P>, 'store' | 'marginMs' | 'notStored'> {
  /** Why a job whose sheet changed pauses and is not resumed. */
  changed: string;
  /** The record's version this code reads: older records kept what they sent, and are no longer stored. */
  version: C['version'];
  /** The job read again from its sheet; null when the sheet no longer has the record's fingerprint. */
  rebuild(record: R): X | null;
  /** The record to keep for a stepped job: its new outcomes, over the parts kept from its start. */
  compact(stored: X, record: R): R;
  /** What every handle of the job carries besides its progress and report: its id and where it is. */
  head(id: string, job: R | X): Head;
  progress(stored: X): P;
  outcome(stored: X): O;
  resume(state: S): S;
  /** One step; its checkpoint takes the state after every wave (or row). */
  step(stored: X, context: StepContext<S>): S;
  /** The record alone (the sheet changed): its progress and report, from its stored outcome codes. */
  recordProgress(record: R): P;
  changedOutcome(record: R): O;
  /** Whenever the rebuilt job stops (finished, cancelled, paused): what the kind writes into the sheet. */
  stopped?(stored: X): void;
  /** The Pushes sheet's rows of what one step settled, `before` and `after` the step. */
  pushLog?(before: X, after: X): { rows: Array<Omit<PushLogRow, 'who' | 'push'>> };
  /** What one step wrote, for the push's journal (core/journal): Undo reads it back. */
  journal?(before: X, after: X): { kind: PushKind; companyId: string; entries: JournalEntry[] };
}

type RereadHandle<Head, P, O> = Head & { progress: P; report: O | null };

/** A RereadJob kind: what is the same for every such kind, around what the spec supplies. */
export function rereadKind<
  R extends { state: C },
  X extends { state: S },
  S extends RateLimitState,
  C extends RateLimitState & { version: number; codes: string },
  Head,
  P,
  O,
>(spec: RereadSpec<R, X, S, C, Head, P, O>): JobKind<RereadJob<R, X>, S | C, RereadHandle<Head, P, O>, P> {
  const loadRecord = (id: string): R | null => {
    const record = loadJob<R>(spec.store, id);
    return record?.state?.version === spec.version ? record : null;
  };
  // Only the record's compact state keeps its items' outcomes as codes.
  const isRebuilt = (state: S | C): state is S => !('codes' in state);
  const recordHandle = (id: string, record: R): RereadHandle<Head, P, O> => ({
    ...spec.head(id, record),
    progress: { ...spec.recordProgress(record), problem: spec.changed },
    report: record.state.status === 'running' ? null : spec.changedOutcome(record),
  });
  return {
    store: spec.store,
    marginMs: spec.marginMs,
    notStored: spec.notStored,
    load: (id) => {
      const record = loadRecord(id);
      return record && { record, stored: spec.rebuild(record) };
    },
    save: (id, job) => saveJob(spec.store, id, job.stored ? spec.compact(job.stored, job.record) : job.record),
    state: (job) => job.stored?.state ?? job.record.state,
    withState: (job, state) =>
      isRebuilt(state) && job.stored ? { ...job, stored: { ...job.stored, state } } : { ...job, record: { ...job.record, state: state as C } },
    handle: (id, job) =>
      job.stored
        ? { ...spec.head(id, job.stored), progress: spec.progress(job.stored), report: job.stored.state.status === 'running' ? null : spec.outcome(job.stored) }
        : recordHandle(id, job.record),
    progress: (job) => (job.stored ? spec.progress(job.stored) : spec.recordProgress(job.record)),
    resumeState: (state) => (isRebuilt(state) ? spec.resume(state) : state),
    step: (job, context) => {
      const { stored } = job;
      if (!stored) return job;
      const state = spec.step(stored, { ...context, checkpoint: (next) => context.checkpoint({ ...job, stored: { ...stored, state: next } }) });
      const next = { ...stored, state };
      if (spec.pushLog) {
        const { rows: settled } = spec.pushLog(stored, next);
        appendPushLog(settled.map((row) => ({ ...row, push: context.id })));
      }
      if (spec.journal) {
        const { kind, companyId, entries } = spec.journal(stored, next);
        if (entries.length > 0) appendJournal({ push: context.id, kind, companyId }, entries);
      }
      return { ...job, stored: next };
    },
    // Reported, not sent: the job pauses, and its stored outcomes stay as they were.
    beforeStep: (id, job) => {
      if (job.stored) return null;
      const record = { ...job.record, state: { ...job.record.state, status: 'paused' as const, problem: spec.changed } };
      saveJob(spec.store, id, record);
      return recordHandle(id, record);
    },
    // The sheet was read again on load: if it changed since, resuming would send what the user no longer has.
    checkResume: (job) => {
      if (!job.stored) throw new InputError(spec.changed);
    },
    stopped: (_id, job) => {
      if (job.stored) spec.stopped?.(job.stored);
    },
    // Asked before the sheet is read again (which takes a while): the answer is what the step last published.
    whileRunning: (id) => {
      const record = loadRecord(id);
      if (!record) throw new InputError(spec.notStored);
      return { ...spec.head(id, record), progress: readJobProgress<P>(spec.store, id) ?? spec.recordProgress(record), report: null };
    },
  };
}
