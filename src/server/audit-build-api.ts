// Build audit as a job: the fund's pages read in steps under the rate limit (progress, cancel, resume),
// kept on a hidden sheet between steps, and the audit sheet written once every page is in.

import { InputError, userSentence } from '../core/errors';
import {
  auditBuildProgress,
  auditDataFromSink,
  cancelAuditBuild,
  newAuditBuildState,
  resumeAuditBuild,
  runAuditBuildStep,
  type AuditBuildProgress,
  type AuditBuildState,
} from '../core/audit/build-job';
import { WaitLog } from '../core/export';
import { needsProbe } from '../core/jobs/wave-step';
import { openBuildSheet, removeBuildSheet } from '../gas/audit-build-sheet';
import { clearJobCancel, forgetJob, jobCancelRequested, loadJob, newJobId, publishJobProgress, readJobProgress, rememberJob, requestJobCancel, saveJob, stepRunning, unfinishedJobs, whileStepRuns } from '../gas/job-store';
import type { AuditBuildHandle, AuditBuildReport } from '../shared/rpc';
import { createClientForExecution } from './api-factory';
import { writeAudit } from './audit-api';

/** A step reads for this long, so the bar moves and a cancel is seen soon; the push's budget. */
const STEP_BUDGET_MS = 20_000;
/** No wave of reads starts with less than this left: a wave of 50 pages takes seconds. */
const STEP_MARGIN_MS = 5_000;
const JOB = 'audit-build';

type StoredBuild = { state: AuditBuildState };

function handle(buildId: string, state: AuditBuildState, report: AuditBuildReport | null = null): AuditBuildHandle {
  return { buildId, progress: auditBuildProgress(state, Date.now()), report };
}

function load(buildId: string): StoredBuild {
  const stored = loadJob<StoredBuild>(JOB, buildId);
  if (!stored) throw new InputError('This audit build is no longer stored (builds can be resumed for six hours). Build the audit again.');
  return stored;
}

/** Starts a build: nothing is read yet; continueAuditBuild reads. */
export function startBuild(companyId: string): AuditBuildHandle {
  const state = newAuditBuildState(companyId);
  const buildId = newJobId();
  openBuildSheet(buildId);
  saveJob<StoredBuild>(JOB, buildId, { state });
  rememberJob(JOB, buildId, Date.now());
  return handle(buildId, state);
}

/**
 * One step of reads; once every page is in, the same call writes the audit sheet (it is one setValues
 * and its formatting: seconds, well inside the execution's six minutes) and the build leaves nothing behind.
 */
export function continueBuild(buildId: string): AuditBuildHandle {
  const stored = load(buildId);
  if (stored.state.status !== 'running') return handle(buildId, stored.state);
  return whileStepRuns(JOB, buildId, () => {
    const sink = openBuildSheet(buildId);
    const deadline = Date.now() + STEP_BUDGET_MS;
    const waits = new WaitLog();
    const client = createClientForExecution({ deadline, onWait: waits.onWait, noRateLimitRetries: needsProbe(stored.state) });
    let state = runAuditBuildStep(stored.state, client, {
      deadline,
      marginMs: STEP_MARGIN_MS,
      waitLog: waits,
      sink,
      shouldStop: () => jobCancelRequested(JOB, buildId),
      onCheckpoint: (next) => {
        saveJob<StoredBuild>(JOB, buildId, { state: next });
        publishJobProgress(JOB, buildId, auditBuildProgress(next, Date.now()));
      },
    }).state;
    if (state.status === 'done') {
      let report: AuditBuildReport;
      try {
        report = writeAudit(auditDataFromSink(state, sink));
      } catch (error) {
        // Every page is kept: Resume writes the sheet again without reading anything.
        state = { ...state, status: 'paused', problem: `Every page was read, but the audit sheet could not be written: ${userSentence(error)}` };
        saveJob<StoredBuild>(JOB, buildId, { state });
        return handle(buildId, state);
      }
      removeBuildSheet(buildId);
      forgetJob(JOB, buildId);
      return handle(buildId, state, report);
    }
    saveJob<StoredBuild>(JOB, buildId, { state });
    publishJobProgress(JOB, buildId, auditBuildProgress(state, Date.now()));
    return handle(buildId, state);
  });
}

/** What the build's running step last published, for the bar while the step runs. */
export function liveBuildProgress(buildId: string): AuditBuildProgress | null {
  return readJobProgress<AuditBuildProgress>(JOB, buildId);
}

/** Marks the build cancelled; a running step sees the mark before its next wave and saves its own state (see cancelPush). */
export function cancelBuild(buildId: string): AuditBuildHandle {
  requestJobCancel(JOB, buildId);
  const stored = load(buildId);
  if (stepRunning(JOB, buildId)) return handle(buildId, stored.state);
  const state = cancelAuditBuild(stored.state);
  saveJob<StoredBuild>(JOB, buildId, { state });
  return handle(buildId, state);
}

/** Resumes a cancelled or paused build with the pages not read yet (the pages read stay on the build's sheet). */
export function resumeBuild(buildId: string): AuditBuildHandle {
  const stored = load(buildId);
  clearJobCancel(JOB, buildId);
  const state = resumeAuditBuild(stored.state);
  saveJob<StoredBuild>(JOB, buildId, { state });
  rememberJob(JOB, buildId, Date.now());
  return handle(buildId, state);
}

/** Builds of this spreadsheet from the last six hours that did not finish and have no step running now, for Resume. */
export function unfinishedBuilds(): AuditBuildHandle[] {
  return unfinishedJobs<StoredBuild>(JOB, Date.now()).map(({ id, stored }) => handle(id, stored.state));
}
