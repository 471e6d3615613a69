// The range exporter's server functions: prepare from the sheet, then steps the sidebar drives,
// each well inside Apps Script's 6-minute limit, with the state saved after every wave.

import { InputError } from '../core/errors';
import {
  buildReport,
  cancelExport,
  exportProgress,
  guessLayout,
  isComplete,
  parseExportSpec,
  prepareExport,
  previewExport,
  readStoredPoints,
  resumeExport,
  runExportStep,
  STATUS_HEADER,
  WaitLog,
  type ExportPreview,
  type ExportProgress,
  type ExportState,
  type MetricRef,
  type RowOutcome,
} from '../core/export';
import { isUuid, requireUuid } from '../core/validate/uuid';
import { cancelRequested, clearCancel, forgetExport, latestExportId, loadExportRecord, markExported, newExportId, rememberExport, requestCancel, saveExport, saveExportRecord, savePreviewReads, takePreviewReads, wasExported, type StoredExport, type StoredExportRecord } from '../gas/export-store';
import { countOutcomes } from '../core/export/report';
import { needsProbe } from '../core/jobs/wave-step';
import { CODE_OUTCOMES, expandExport } from '../core/export/compact';
import { publishJobProgress, readJobProgress, stepRunning, whileStepRuns } from '../gas/job-store';
import { dropCachedSeries, readSeriesEpochs } from '../gas/document-settings';
import { activeSelection, readRange, requireStatusColumnFree, writeStatusColumn, type RangeRead, type StatusColumnPlace } from '../gas/sheet-io';
import { appsScriptDateFormatter, spreadsheetTimeZone } from '../gas/spreadsheet-dates';
import type { ExportHandle, ExportOutcome, ExportRequest, ExportSelection } from '../shared/rpc';
import { createClientForExecution } from './api-factory';
import { listMetricsKept } from './metric-listing';

/**
 * One step's budget. Far inside the 6-minute limit on purpose: a short step loses little if the sidebar
 * is closed. (The progress bar does not wait for it: the step publishes its progress after every wave.)
 */
const STEP_BUDGET_MS = 20_000;
/** No new wave starts in the step's last seconds. */
const STEP_MARGIN_MS = 5_000;
const PROBLEMS_SHOWN = 50;
/** The job-store kind whose step mark an export's steps set (its keys are the export store's `export…` keys). */
const STEP_KIND = 'export';

/**
 * Reads the active selection to pre-fill the exporter. The company's metrics are read only when the
 * guess needs them: two columns under a header row are wide if the header names one of them.
 */
export function readExportSelection(companyId: string): ExportSelection {
  const address = activeSelection();
  const read = readRange(address);
  // Without a company the guess goes by the shape alone: it only pre-fills the form,
  // and the preview shows what was read, so it must not stop the Export selection menu item.
  const guess = guessLayout(read.values, () => (isUuid(typeof companyId === 'string' ? companyId.trim() : companyId) ? listCompanyMetrics(companyId) : []));
  return {
    range: address,
    rows: read.values.length,
    columns: read.values[0]?.length ?? 0,
    layout: guess.layout,
    hasHeaderRow: guess.hasHeaderRow,
    previouslyExported: wasExported(address),
  };
}

function listCompanyMetrics(companyId: string): MetricRef[] {
  const id = requireUuid(companyId, 'The company id');
  // The listing the sidebar fetched when the company was picked, kept for the cache period: the
  // selection's guess, the preview and the start would otherwise each fetch it again.
  return listMetricsKept(id, () => createClientForExecution({ maxTotalWaitMs: 60_000 })).map(({ id, name, frequency, unit }) => ({ id, name, frequency, unit }));
}

function prepare(request: ExportRequest, metrics: readonly MetricRef[], read: RangeRead = readRange(request.range)): ExportState {
  const spec = parseExportSpec(request.spec);
  if (read.values.length === 0) throw new InputError('The range is empty.');
  return prepareExport({
    range: { values: read.values, displayValues: read.displayValues, numberFormats: read.numberFormats, origin: { row: read.row, column: read.column } },
    spec,
    metrics,
    timeZone: spreadsheetTimeZone(),
    formatDate: appsScriptDateFormatter,
  });
}

/** A preview reads the stored points for this long at most: a person is waiting. */
const PREVIEW_READ_MS = 60_000;

export function preview(request: ExportRequest): ExportPreview {
  // One read for both: what the preview shows beside each value is the cell the value was read from.
  const read = readRange(request.range);
  const prepared = prepare(request, listCompanyMetrics(request.companyId), read);
  if (!prepared.spec.onlyChanged || isComplete(prepared)) return previewExport(prepared, read.displayValues);
  // The epochs before the reads: a write during them then makes the export read again.
  const epochs = readSeriesEpochs();
  const deadline = Date.now() + PREVIEW_READ_MS;
  const compared = readStoredPoints(prepared, createClientForExecution({ deadline, maxTotalWaitMs: PREVIEW_READ_MS }), deadline);
  savePreviewReads(request.range, compared.state, epochs);
  return previewExport(compared.state, read.displayValues, undefined, compared.problem ?? null);
}

/** Outcomes of items the API confirmed storing. */
const STORED: ReadonlySet<RowOutcome> = new Set<RowOutcome>(['created', 'updated', 'written']);

/** Metrics with at least one value the API confirmed storing: their cached series are out of date. */
function writtenMetricIds(state: ExportState): string[] {
  return [...confirmedByMetric(state).keys()];
}

function outcomeOf(stored: StoredExport): ExportOutcome {
  const report = buildReport(stored.state);
  return {
    writtenMetricIds: writtenMetricIds(stored.state),
    rangeExportedBefore: wasExported(stored.request.range),
    summary: report.summary,
    totals: report.totals,
    itemsRead: report.itemsRead,
    problems: report.items.filter((item) => item.outcome === 'failed' || item.outcome === 'skipped').slice(0, PROBLEMS_SHOWN),
    problem: [report.problem, stored.statusProblem].filter((text): text is string => !!text).join(' ') || null,
    statusRange: stored.statusProblem ? null : stored.statusRange,
  };
}

function handle(exportId: string, stored: StoredExport): ExportHandle {
  const ended = stored.state.status !== 'running';
  return { exportId, range: stored.request.range, progress: exportProgress(stored.state, Date.now()), report: ended ? outcomeOf(stored) : null };
}

/** The column right of the request's range, over its rows: where its status column goes. */
function statusPlace(request: ExportRequest, read: RangeRead = readRange(request.range)): StatusColumnPlace {
  const width = read.values[0]?.length ?? 1;
  return { sheetName: read.sheetName, row: read.row, column: read.column + width, rows: read.values.length };
}

/**
 * Whenever an export stops (finished, cancelled, paused) its status column is written again, so the
 * column always says what the report says. A column the user has typed into since the start is left
 * alone, and the report says so.
 */
function stopped(exportId: string, stored: StoredExport, fresh: ExportState, read?: RangeRead): void {
  if (stored.state.status === 'running') return;
  markExported(stored.request.range);
  if (stored.request.writeStatus) {
    try {
      stored.statusRange = writeStatusColumn(statusPlace(stored.request, read), buildReport(stored.state).statusColumn, STATUS_HEADER, stored.state.spec.hasHeaderRow);
      delete stored.statusProblem;
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      stored.statusProblem = error.message;
    }
  }
  // A finished export leaves nothing behind; a cancelled or paused one stays for Resume.
  if (stored.state.status === 'done') forgetExport(exportId);
  else saveExport(exportId, stored, fresh);
}

const NOT_STORED = 'This export is no longer stored (exports can be resumed for six hours). Start it again: with "only what changed", rows already sent are not sent twice.';
const RANGE_CHANGED = 'The range changed since this export started, so it cannot be continued as it was: nothing more was sent. Start a new export; with "only what changed" on, rows already stored are not sent again.';

type Loaded = { stored: StoredExport; fresh: ExportState } | { changed: StoredExportRecord };

/**
 * The stored export with its rows read again from the sheet: the state keeps no copy of them. A range
 * whose read no longer has the export's fingerprint is not this export any more, and nothing of it is sent.
 */
function loadAny(exportId: string): Loaded {
  const record = loadExportRecord(exportId);
  if (!record) throw new InputError(NOT_STORED);
  const fresh = prepare(record.request, record.metrics);
  const state = expandExport(fresh, record.state);
  return state ? { stored: { ...record, state }, fresh } : { changed: record };
}

function load(exportId: string): { stored: StoredExport; fresh: ExportState } {
  const loaded = loadAny(exportId);
  if ('changed' in loaded) throw new InputError(RANGE_CHANGED);
  return loaded;
}

/** An export's progress from its stored outcome codes alone, without reading its range. */
function recordProgress(record: StoredExportRecord): ExportProgress {
  const done = [...record.state.codes].filter((code) => (CODE_OUTCOMES[code] ?? 'pending') !== 'pending').length;
  const progress: ExportProgress = { status: record.state.status, itemsDone: done, itemsTotal: record.state.codes.length, batchesDone: 0, batchesTotal: 0 };
  if (record.state.problem) progress.problem = record.state.problem;
  return progress;
}

/** An export whose range changed, told from its stored outcome codes alone. */
function changedHandle(exportId: string, record: StoredExportRecord): ExportHandle {
  const outcomes = [...record.state.codes].map((code) => CODE_OUTCOMES[code] ?? 'pending');
  return {
    exportId,
    range: record.request.range,
    progress: { ...recordProgress(record), problem: RANGE_CHANGED },
    report: record.state.status === 'running' ? null : {
      summary: RANGE_CHANGED,
      totals: countOutcomes(outcomes),
      itemsRead: outcomes.length,
      problems: [],
      problem: RANGE_CHANGED,
      statusRange: null,
      writtenMetricIds: [],
      rangeExportedBefore: wasExported(record.request.range),
    },
  };
}

export function startExport(request: ExportRequest): ExportHandle {
  const metrics = listCompanyMetrics(request.companyId);
  // One read of the range for the whole call: the rows to send, and the status column's place.
  const read = readRange(request.range);
  const prepared = prepare(request, metrics, read);
  // A preview of this very read (same fingerprint) moments ago compared it with what is stored already.
  const state = (prepared.spec.onlyChanged && takePreviewReads(request.range, prepared.fingerprint, readSeriesEpochs())) || prepared;
  // Checked before anything is sent: an export must not end by refusing to report, or by overwriting data.
  if (request.writeStatus) requireStatusColumnFree(statusPlace(request, read), STATUS_HEADER, state.spec.hasHeaderRow, 'nothing was sent');
  const exportId = newExportId();
  const stored: StoredExport = { request, metrics, state, statusRange: null };
  if (isComplete(state)) {
    stored.state = { ...state, status: 'done' };
    stopped(exportId, stored, prepared, read);
  } else {
    saveExport(exportId, stored, prepared);
    rememberExport(exportId);
  }
  return handle(exportId, stored);
}

export function continueExport(exportId: string): ExportHandle {
  return whileStepRuns(STEP_KIND, exportId, () => runStep(exportId));
}

function runStep(exportId: string): ExportHandle {
  const loaded = loadAny(exportId);
  if ('changed' in loaded) {
    // Reported, not sent: the export pauses, and its stored outcomes stay as they were.
    if (loaded.changed.state.status === 'running') {
      loaded.changed.state = { ...loaded.changed.state, status: 'paused', problem: RANGE_CHANGED };
      saveExportRecord(exportId, loaded.changed);
    }
    return changedHandle(exportId, loaded.changed);
  }
  const { stored, fresh } = loaded;
  if (stored.state.status !== 'running') return handle(exportId, stored);
  const deadline = Date.now() + STEP_BUDGET_MS;
  const waits = new WaitLog();
  const client = createClientForExecution({ deadline, onWait: waits.onWait, noRateLimitRetries: needsProbe(stored.state) });
  const { state } = runExportStep(stored.state, client, {
    deadline,
    marginMs: STEP_MARGIN_MS,
    waitLog: waits,
    shouldStop: () => cancelRequested(exportId),
    onCheckpoint: (checkpoint) => {
      saveExport(exportId, { ...stored, state: checkpoint }, fresh);
      publishJobProgress(STEP_KIND, exportId, exportProgress(checkpoint, Date.now()));
    },
  });
  // Dropped after every step that stored something, not only at the end: a sidebar closed midway
  // leaves the export unfinished, and formulas must not show what was there before its first steps.
  const before = confirmedByMetric(stored.state);
  const after = confirmedByMetric(state);
  stored.state = state;
  dropCachedSeries([...after].filter(([id, count]) => count > (before.get(id) ?? 0)).map(([id]) => id));
  if (state.status === 'running') saveExport(exportId, stored, fresh);
  else stopped(exportId, stored, fresh);
  const answer = handle(exportId, stored);
  if (state.status === 'running') publishJobProgress(STEP_KIND, exportId, answer.progress);
  return answer;
}

/** What the export's running step last published (after each of its waves), for the bar while the step runs. */
export function liveProgress(exportId: string): ExportProgress | null {
  return readJobProgress<ExportProgress>(STEP_KIND, exportId);
}

/** How many items of each metric the API confirmed storing. */
function confirmedByMetric(state: ExportState): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of state.items) {
    if (item.metric !== null && STORED.has(item.outcome)) counts.set(state.metrics[item.metric]!.id, (counts.get(state.metrics[item.metric]!.id) ?? 0) + 1);
  }
  return counts;
}

export function cancel(exportId: string): ExportHandle {
  requestCancel(exportId);
  // A step under way sees the cancel between waves and saves a newer state than this one, with its
  // status column: saving or writing this one meanwhile would show rows as unsent that it confirms.
  // Asked before the range is read again (which takes a while): the answer is then what the step last published.
  if (stepRunning(STEP_KIND, exportId)) {
    const record = loadExportRecord(exportId);
    if (!record) throw new InputError(NOT_STORED);
    return { exportId, range: record.request.range, progress: readJobProgress<ExportProgress>(STEP_KIND, exportId) ?? recordProgress(record), report: null };
  }
  const loaded = loadAny(exportId);
  if ('changed' in loaded) {
    if (loaded.changed.state.status !== 'done') {
      loaded.changed.state = { ...loaded.changed.state, status: 'cancelled' };
      saveExportRecord(exportId, loaded.changed);
    }
    return changedHandle(exportId, loaded.changed);
  }
  const { stored, fresh } = loaded;
  if (stepRunning(STEP_KIND, exportId)) return handle(exportId, stored);
  stored.state = cancelExport(stored.state);
  stopped(exportId, stored, fresh);
  return handle(exportId, stored);
}

/**
 * Continues a cancelled, paused or interrupted export with what was not confirmed. The range is read
 * again first: if the sheet changed since, resuming would send what the user no longer has.
 */
export function resume(exportId: string): ExportHandle {
  const { stored, fresh } = load(exportId);
  clearCancel(exportId);
  stored.state = resumeExport(stored.state);
  if (stored.state.status === 'done') {
    stopped(exportId, stored, fresh);
  } else {
    saveExport(exportId, stored, fresh);
    rememberExport(exportId);
  }
  return handle(exportId, stored);
}

export function findUnfinished(): ExportHandle | null {
  const exportId = latestExportId();
  if (!exportId) return null;
  const loaded = (() => {
    try {
      return loadAny(exportId);
    } catch (error) {
      // A range deleted or renamed since: nothing to offer.
      if (error instanceof InputError) return null;
      throw error;
    }
  })();
  if (!loaded) return null;
  if ('changed' in loaded) return loaded.changed.state.status === 'done' ? null : changedHandle(exportId, loaded.changed);
  return loaded.stored.state.status === 'done' ? null : handle(exportId, loaded.stored);
}
