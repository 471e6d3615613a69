// The sidebar's server functions, each through serve(), and nothing else: ServerApi (src/shared/server-api.ts)
// is this module's type, and src/main.ts gives each export its top-level name (test/build/server-surface.test.ts).
// Scripts outside the project call these names: add functions, never rename one or change its shape.

import { InputError } from '../core/errors';
import type { JobKind, JobProgress } from '../shared/rpc';
import { activeSelection } from '../gas/sheet-io';
import { showPushLog } from '../gas/changes-sheet';
import * as undo from './undo-api';
import * as audit from './audit-api';
import * as auditBuild from './audit-build-api';
import * as auditConflicts from './audit-conflicts-api';
import * as exporter from './export-api';
import * as freeze from './freeze';
import * as importer from './import-api';
import * as installation from './installation-probes';
import * as jobs from './jobs-api';
import { insertMetricValues as insertValues } from './insert-values';
import * as metrics from './metrics-api';
import * as notes from './notes-api';
import * as grid from './portfolio-grid-api';
import { refreshFormulasReport } from './refresh';
import { serve } from './serve';
import * as settings from './settings-api';
import * as snapshots from './snapshots';
import * as snapshotSchedule from './snapshot-schedule';

// Settings

/** The settings as the page may see them (never the token). */
export const getSettings = serve([], settings.settingsForPage);

/** Saves a new token, base URL or default company; every field is checked before anything is saved. */
export const saveSettings = serve(['update'], settings.saveSettings);

/** Checks that the token and base URL work for a company: what the token sees, in one sentence. */
export const testConnection = serve(['companyId'], settings.testConnection);

export const getFormulaAccess = serve([], settings.formulaAccess);

/** Replaces the companies formulas in this spreadsheet may read (the owner only). */
export const setFormulaAccess = serve(['companyIds'], settings.setFormulaAccess);

// Metrics

export const listMetrics = serve(['companyId'], metrics.listMetrics);
export const createMetric = serve(['input'], metrics.createMetric);

/** Read-only: each metric's latest value with its source (include_source=true), for the metric browser. */
export const latestMetricValues = serve(['metricIds'], metrics.latestMetricValues);

export const insertMetricValues = serve(['request'], insertValues);

// Export. Every job (export, import, audit build and push) starts, then runs in steps well inside Apps Script's
// time limit; cancel stops it after the current wave (an import before its next row), and resume sends what was
// not confirmed (a build: the pages not read yet). The build's last step writes the sheet and answers its report.

/**
 * Reads the active selection to pre-fill the exporter. `company` is no id by serve's rule: a non-id only turns
 * off the guess from the company's metric names, so it never stops the Export selection menu item.
 */
export const readExportSelection = serve(['company'], exporter.readExportSelection);

/** What an export of a range would send, skip and refuse, before anything is sent. */
export const previewExport = serve(['request'], exporter.preview);

export const startExport = serve(['request'], exporter.startExport);
export const continueExport = serve(['exportId'], (exportId: string) => jobs.continueJob(exporter.exportJob, exportId));
export const cancelExport = serve(['exportId'], (exportId: string) => jobs.cancelJob(exporter.exportJob, exportId));
export const resumeExport = serve(['exportId'], (exportId: string) => jobs.resumeJob(exporter.exportJob, exportId));

/** The last export of this spreadsheet, if it did not finish. */
export const findUnfinishedExport = serve([], exporter.findUnfinished);

/** Rewrites the add-in formulas that read these metrics, so they show what an export wrote. */
export const refreshFormulasFor = serve(['metricIds'], refreshFormulasReport);

/** The address of the active selection, like Sheet1!A1:C20. */
export const activeRange = serve([], activeSelection);

// Import and notes

export const startImport = serve(['request'], importer.startImport);
export const continueImport = serve(['importId'], (importId: string) => jobs.continueJob(importer.importJob, importId));
export const cancelImport = serve(['importId'], (importId: string) => jobs.cancelJob(importer.importJob, importId));
export const resumeImport = serve(['importId'], (importId: string) => jobs.resumeJob(importer.importJob, importId));
export const listNoteTags = serve(['companyId'], notes.listNoteTags);
export const addNoteToSelectedContacts = serve(['request'], notes.addNoteToSelectedContacts);
export const insertPortfolioNotes = serve(['portfolioCompanyProfileId'], notes.insertPortfolioNotes);
/** The headers an import would read and those it would leave out, before it is started. */
export const checkImportColumns = serve(['request'], importer.checkImportColumns);

// Portfolio audit

export const buildAudit = serve(['fundCompanyId'], audit.buildAudit);

/** Starts building the audit as a job (a fund too large for one execution): continueAuditBuild reads it in steps. */
export const startAuditBuild = serve(['fundCompanyId'], auditBuild.startBuild);

export const continueAuditBuild = serve(['buildId'], (buildId: string) => jobs.continueJob(auditBuild.buildJob, buildId));
export const cancelAuditBuild = serve(['buildId'], (buildId: string) => jobs.cancelJob(auditBuild.buildJob, buildId));
export const resumeAuditBuild = serve(['buildId'], (buildId: string) => jobs.resumeJob(auditBuild.buildJob, buildId));

/** Compares the audit sheet (null: the default one) with its snapshot and prepares the push of changed cells. */
export const startAuditPush = serve(['sheetName'], audit.startPush);

export const continueAuditPush = serve(['pushId'], (pushId: string) => jobs.continueJob(audit.pushJob, pushId));
export const cancelAuditPush = serve(['pushId'], (pushId: string) => jobs.cancelJob(audit.pushJob, pushId));
export const resumeAuditPush = serve(['pushId'], (pushId: string) => jobs.resumeJob(audit.pushJob, pushId));
/** The push's conflicts overwritten on purpose (a push of only those cells), or the server's values taken into the sheet. */
export const startAuditOverwrite = serve(['cells', 'sheetName'], auditConflicts.startOverwrite);
export const takeServerAuditValues = serve(['cells', 'sheetName'], auditConflicts.takeServerValues);
/** The Pushes sheet (every value an export, audit push or import sent), brought to the front. */
export const openPushLog = serve([], () => showPushLog());
/** Undoes the last push of this spreadsheet as a job (continueUndo steps it); what the API cannot undo is listed. */
export const undoLastPush = serve([], undo.undoLastPush);
export const continueUndo = serve(['undoId'], (undoId: string) => jobs.continueJob(undo.undoJob, undoId));
export const cancelUndo = serve(['undoId'], (undoId: string) => jobs.cancelJob(undo.undoJob, undoId));
export const resumeUndo = serve(['undoId'], (undoId: string) => jobs.resumeJob(undo.undoJob, undoId));
/** The person's last pushes in this spreadsheet (newest first), each described for Undo's confirmation, from their journal. */
export const listUndoablePushes = serve([], undo.listUndoablePushes);
/** Undoes push `pushId` (one of listUndoablePushes') as a job, like undoLastPush. */
export const undoPush = serve(['pushId'], (pushId: string) => undo.undoPush(pushId));

export const findUnfinishedPortfolioJobs = serve([], () => ({
  pushes: jobs.unfinishedJobs(audit.pushJob),
  imports: jobs.unfinishedJobs(importer.importJob),
  builds: jobs.unfinishedJobs(auditBuild.buildJob),
  undos: jobs.unfinishedJobs(undo.undoJob),
}));

/**
 * Read-only: the progress a job's running step published after its last wave, so the page can move
 * the bar while the step runs; null when no step published lately (the step's own answer then says).
 */
export const getJobProgress = serve(['kind', 'jobId'], (kind: JobKind, jobId: string): JobProgress | null => {
  if (kind === 'export') return jobs.liveProgress(exporter.exportJob, jobId);
  if (kind === 'push') return jobs.liveProgress(audit.pushJob, jobId);
  if (kind === 'import') return jobs.liveProgress(importer.importJob, jobId);
  if (kind === 'build') return jobs.liveProgress(auditBuild.buildJob, jobId);
  if (kind === 'undo') return jobs.liveProgress(undo.undoJob, jobId);
  throw new InputError('The job kind must be "export", "push", "import", "build" or "undo".');
});

// Portfolio grids and Freeze

/** Read-only: the fund's distinct metric names, from the cached listings the PORTFOLIO_* functions read. */
export const listFundMetricNames = serve(['fundCompanyId'], grid.listFundMetricNames);

export const insertPortfolioGrid = serve(['request'], grid.insertPortfolioGrid);
export const buildCoverageSheet = serve(['request'], grid.buildCoverageSheet);

/** Writes the "Provenance" sheet: each fund model cell's value and its source (see docs/guide.md, "Fund model"). */
export const buildProvenanceSheet = serve(['request'], grid.buildProvenanceSheet);

/** Writes the fund model at the active cell as live PORTFOLIO_VALUE formulas (see docs/reference.md, "Insert a fund model"). */
export const insertFundModel = serve(['request'], grid.insertFundModel);

/** The selected add-in formulas become values, each frozen range with a note (see docs/reference.md, "Freeze and Make live"). */
export const freezeSelection = serve([], freeze.freezeSelection);

/** The frozen ranges the selection touches get their formulas back, unless a person typed into them since. */
export const thawSelection = serve([], freeze.thawSelection);

// Snapshots

/** Read-only: the spreadsheet's snapshot tables (the record kept in a hidden sheet). */
export const listSnapshots = serve([], snapshots.listSnapshots);

/** Writes every snapshot again with the caller's connection, refusing where a person typed; changed values go to the Changes sheet. */
export const refreshSnapshots = serve([], () => snapshots.refreshAllSnapshots('sidebar'));

/** Read-only: the caller's scheduled refresh of this spreadsheet's snapshots, with its last run. */
export const getSnapshotRefreshSchedule = serve([], snapshotSchedule.getSnapshotRefreshSchedule);

/** Schedules the caller's refresh ('hourly', 'daily' or 'weekly'), replacing their earlier one here. */
export const scheduleSnapshotRefresh = serve(['frequency'], (frequency: string) => snapshotSchedule.scheduleSnapshotRefresh(frequency));

export const cancelSnapshotRefresh = serve([], snapshotSchedule.cancelSnapshotRefresh);

// Installation check

/**
 * Checks what the add-in relies on here (docs/platform.md) and writes the report to the "Installation check" sheet;
 * with a progressId (the page's; null or absent for none), publishes each line as it is known for getInstallationCheckProgress.
 */
export const checkInstallation = serve(['progressId'], (progressId: string | null) => installation.checkInstallation(progressId ?? undefined));

/** The lines a running installation check has so far and the check it runs now; null before it starts. */
export const getInstallationCheckProgress = serve(['progressId'], (progressId: string) => installation.installationCheckProgress(progressId));
