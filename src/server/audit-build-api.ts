// Build audit as a job of jobs-api: the fund's pages read in steps under the rate limit (progress, cancel,
// resume), kept on a hidden sheet between steps, and the audit sheet written once every page is in.

import { userSentence } from '../core/errors';
import {
  auditBuildProgress,
  auditDataFromSink,
  newAuditBuildState,
  resumeAuditBuild,
  runAuditBuildStep,
  type AuditBuildProgress,
  type AuditBuildState,
} from '../core/audit/build-job';
import { openBuildSheet, removeBuildSheet } from '../gas/audit-build-sheet';
import { loadJob, newJobId, saveJob } from '../gas/job-store';
import type { AuditBuildHandle, AuditBuildReport } from '../shared/rpc';
import { writeAudit } from './audit-api';
import { startJob, type JobKind } from './jobs-api';

/**
 * What is stored between steps is the state (which pages of which lists are read); the pages themselves
 * wait on the build's hidden sheet. The report exists only in the step that writes the audit sheet, the
 * step after which the finished build is forgotten.
 */
type BuildJob = { state: AuditBuildState; report?: AuditBuildReport };

export const buildJob: JobKind<BuildJob, AuditBuildState, AuditBuildHandle, AuditBuildProgress> = {
  store: 'audit-build',
  load: (id) => loadJob<BuildJob>('audit-build', id),
  save: (id, job) => saveJob('audit-build', id, job),
  state: (job) => job.state,
  withState: (job, state) => ({ ...job, state }),
  // No wave of reads starts with less than this left: a wave of 50 pages takes seconds.
  marginMs: 5_000,
  notStored: 'This audit build is no longer stored (builds can be resumed for six hours). Build the audit again.',
  handle: (buildId, job) => ({ buildId, progress: auditBuildProgress(job.state, Date.now()), report: job.report ?? null }),
  progress: (job) => auditBuildProgress(job.state, Date.now()),
  // A build paused after its last page (the sheet could not be written) runs again to write it: with no page
  // left, its next step only writes.
  resumeState: (state) => {
    const next = resumeAuditBuild(state);
    return next.status === 'done' ? { ...next, status: 'running' } : next;
  },
  /**
   * One step of reads; once every page is in, the same call writes the audit sheet (one setValues and its
   * formatting: seconds, well inside the execution's six minutes).
   */
  step: (job, context) => {
    const sink = openBuildSheet(context.id);
    const { state } = runAuditBuildStep(job.state, context.client, {
      ...context,
      sink,
      onCheckpoint: (next) => context.checkpoint({ state: next }),
    });
    if (state.status !== 'done') return { state };
    try {
      return { state, report: writeAudit(auditDataFromSink(state, sink)) };
    } catch (error) {
      // Every page is kept: Resume writes the sheet again without reading anything.
      return { state: { ...state, status: 'paused', problem: `Every page was read, but the audit sheet could not be written: ${userSentence(error)}` } };
    }
  },
  stopped: (buildId, job) => {
    if (job.state.status === 'done') removeBuildSheet(buildId);
  },
};

/** Starts a build: nothing is read yet; continueAuditBuild reads. */
export function startBuild(companyId: string): AuditBuildHandle {
  const buildId = newJobId();
  openBuildSheet(buildId);
  try {
    return startJob(buildJob, { state: newAuditBuildState(companyId) }, buildId);
  } catch (error) {
    // Not started (the job store has no room for it): its hidden sheet would be an orphan nothing removes.
    removeBuildSheet(buildId);
    throw error;
  }
}
