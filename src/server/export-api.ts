// The range exporter's server functions: prepare from the sheet, then steps the sidebar drives,
// each well inside Apps Script's 6-minute limit, with the state saved after every wave.

import { InputError } from '../core/errors';
import {
  buildReport,
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
  type ExportPreview,
  type ExportProgress,
  type ExportReportItem,
  type ExportState,
  type MetricRef,
  type RowOutcome,
} from '../core/export';
import { isUuid, requireUuid } from '../core/validate/uuid';
import { stored } from '../core/journal/journal';
import { exportEntries } from './push-journal';
import { markExported, savePreviewApproval, takePreviewApproval, wasExported } from '../gas/export-store';
import { keepApprovals, restoreApprovals } from '../core/export/compare';
import { cloneJob } from '../core/jobs/job-state';
import { overlapsSnapshot } from '../gas/snapshot-store';
import { CODE_OUTCOMES, compactExport, expandExport, type CompactExportState } from '../core/export/compact';
import { ROW_OUTCOMES } from '../core/export/types';
import { tallyOutcomes } from '../core/jobs/tally';
import { dropCachedSeries } from '../gas/document-settings';
import { activeSelection, readRange, requireStatusColumnFree, writeStatusColumn, type RangeRead, type StatusColumnPlace } from '../gas/sheet-io';
import { appsScriptDateFormatter, spreadsheetTimeZone } from '../gas/spreadsheet-dates';
import type { ExportHandle, ExportOutcome, ExportRequest, ExportSelection } from '../shared/rpc';
import { createClientForExecution, sidebarClient } from './api-factory';
import { rereadKind, startJob, unfinishedJobs } from './jobs-api';
import { listMetricsKept } from './metric-listing';
import { portfolioCompanyLabels } from './metrics-api';
import { normalName } from '../core/formulas/fund-functions';
import { newlySettled, outcomeText } from '../core/jobs/push-log';

const PROBLEMS_SHOWN = 50;

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
    insertedFromApi: overlapsSnapshot(read.sheetName, {
      row: read.row,
      column: read.column,
      lastRow: read.row + read.values.length - 1,
      lastColumn: read.column + (read.values[0]?.length ?? 1) - 1,
    }),
  };
}

function listCompanyMetrics(companyId: string): MetricRef[] {
  const id = requireUuid(companyId, 'The company id');
  // The listing the sidebar fetched when the company was picked, kept for the cache period: the
  // selection's guess, the preview and the start would otherwise each fetch it again.
  return listMetricsKept(id, () => sidebarClient()).map(({ id, name, frequency, unit }) => ({ id, name, frequency, unit }));
}

/**
 * The metrics with their portfolio company's label (MetricRef.company) when the export sends to two metrics of one
 * name, two companies' "Net Burn" of a fund: the report, the Pushes sheet and the journal then tell them apart.
 * Only then is the fund's profile listing read (usually kept since the sidebar listed the metrics).
 */
function labelSharedNames(companyId: string, metrics: MetricRef[], used: ExportState['metrics']): MetricRef[] {
  // The fund formulas' reading of "one name": trimmed, any case.
  if (new Set(used.map((metric) => normalName(metric.name))).size === used.length) return metrics;
  const listing = listMetricsKept(companyId, () => sidebarClient());
  const labels = portfolioCompanyLabels(companyId, listing);
  const profileOf = new Map(listing.map((metric) => [metric.id.toLowerCase(), metric.portfolio_company_profile_id?.toLowerCase()]));
  return metrics.map((metric) => {
    const profile = profileOf.get(metric.id.toLowerCase());
    const company = profile ? labels.get(profile) : undefined;
    return company ? { ...metric, company } : metric;
  });
}

/** `compareFirst`: read the server's values before planning, typed data too (see prepareExport). */
function prepare(request: ExportRequest, metrics: readonly MetricRef[], read: RangeRead = readRange(request.range), compareFirst = false): ExportState {
  const spec = parseExportSpec(request.spec);
  if (read.values.length === 0) throw new InputError('The range is empty.');
  return prepareExport({
    range: { values: read.values, displayValues: read.displayValues, numberFormats: read.numberFormats, origin: { row: read.row, column: read.column } },
    spec,
    metrics,
    timeZone: spreadsheetTimeZone(),
    formatDate: appsScriptDateFormatter,
    compareFirst,
  });
}

/** Prepared, and prepared again with company labels when two metrics it sends to share a name (labelSharedNames). */
function labelled(request: ExportRequest, listed: MetricRef[], read: RangeRead, compareFirst: boolean): { metrics: MetricRef[]; state: ExportState } {
  const state = prepare(request, listed, read, compareFirst);
  const metrics = labelSharedNames(request.companyId, listed, state.metrics);
  return metrics === listed ? { metrics, state } : { metrics, state: prepare(request, metrics, read, compareFirst) };
}

/** A preview reads the stored points for this long at most: a person is waiting. */
const PREVIEW_READ_MS = 60_000;

export function preview(request: ExportRequest): ExportPreview {
  // One read for both: what the preview shows beside each value is the cell the value was read from.
  const read = readRange(request.range);
  // Every preview reads what the server holds for the metrics and dates it would write, typed data too: the
  // person sees what is created and what is overwritten, and the start finds what changed in between.
  const prepared = labelled(request, listCompanyMetrics(request.companyId), read, true).state;
  if (isComplete(prepared)) return previewExport(prepared, read.displayValues);
  const compared = readForComparison(prepared);
  // What the person is about to approve: the server's value shown for each item (or none where the reads
  // did not reach it), kept durably for the start (export-store).
  savePreviewApproval(
    request.range,
    compared.state.fingerprint,
    keepApprovals(compared.state.items.map((item) => (item.approved ? { ...item, approved: { ...item.approved, by: 'preview' as const } } : item))),
  );
  return previewExport(compared.state, read.displayValues, undefined, compared.problem ?? null);
}

/** The comparison reads (those of "only what changed"), for at most PREVIEW_READ_MS: a person is waiting. */
function readForComparison(state: ExportState): ReturnType<typeof readStoredPoints> {
  const deadline = Date.now() + PREVIEW_READ_MS;
  return readStoredPoints(state, createClientForExecution({ deadline, maxTotalWaitMs: PREVIEW_READ_MS }), deadline);
}

/** Outcomes of items the API confirmed storing. */
const STORED: ReadonlySet<RowOutcome> = new Set<RowOutcome>(['created', 'updated', 'written']);

/** How many items of each metric the API confirmed storing. */
function confirmedByMetric(state: ExportState): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of state.items) {
    if (item.metric !== null && STORED.has(item.outcome)) counts.set(state.metrics[item.metric]!.id, (counts.get(state.metrics[item.metric]!.id) ?? 0) + 1);
  }
  return counts;
}

interface StoredExport {
  request: ExportRequest;
  /** The company's metrics as read at the start: a resume re-reads the sheet, not the API. */
  metrics: MetricRef[];
  state: ExportState;
  statusRange: string | null;
  /** Why the status column could not be written when the export last stopped (the user typed into it). */
  statusProblem?: string;
}

/** What is kept between steps: the state without the rows' values (see compactExport). */
type ExportRecord = Omit<StoredExport, 'state'> & { state: CompactExportState };

/** An export as it steps: `fresh` is the range's read it was expanded from, `read` the one a start already made. */
type ExportRun = StoredExport & { fresh: ExportState; read?: RangeRead };

function outcomeOf(stored: StoredExport): ExportOutcome {
  const report = buildReport(stored.state);
  return {
    // Metrics with at least one value the API confirmed storing: their cached series are out of date.
    writtenMetricIds: [...confirmedByMetric(stored.state).keys()],
    rangeExportedBefore: wasExported(stored.request.range),
    summary: report.summary,
    totals: report.totals,
    itemsRead: report.itemsRead,
    problems: report.items.filter((item) => item.outcome === 'failed' || item.outcome === 'skipped').slice(0, PROBLEMS_SHOWN),
    problem: [report.problem, stored.statusProblem].filter((text): text is string => !!text).join(' ') || null,
    statusRange: stored.statusProblem ? null : stored.statusRange,
  };
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
function stopped(stored: ExportRun): void {
  markExported(stored.request.range);
  if (!stored.request.writeStatus) return;
  try {
    stored.statusRange = writeStatusColumn(
      statusPlace(stored.request, stored.read),
      buildReport(stored.state).statusColumn,
      STATUS_HEADER,
      stored.state.spec.hasHeaderRow,
    );
    delete stored.statusProblem;
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    stored.statusProblem = error.message;
  }
}

const RANGE_CHANGED =
  'The range changed since this export started, so it cannot be continued as it was: nothing more was sent. Start a new export; with "only what changed" on, rows already stored are not sent again.';

export function startExport(request: ExportRequest): ExportHandle {
  const listed = listCompanyMetrics(request.companyId);
  // One read of the range for the whole call: the rows to send, and the status column's place.
  const read = readRange(request.range);
  const { metrics, state: prepared } = labelled(request, listed, read, false);
  // Compare-and-set: nothing is read here. Every wave reads the values it replaces right before writing them
  // and writes only where the server still holds what the plan expects: what the preview of this very read
  // (same fingerprint) showed, kept durably (a lost cache loses nothing), else the export's own first read
  // ("only what changed"), else, for typed data no preview compared, only where no value would be lost.
  // Checked before anything is sent: an export must not end by refusing to report, or by overwriting data.
  // (Before the approval is taken, so a refused start leaves it for the next.)
  if (request.writeStatus) requireStatusColumnFree(statusPlace(request, read), STATUS_HEADER, prepared.spec.hasHeaderRow, 'nothing was sent');
  const state = cloneJob(prepared);
  restoreApprovals(state.items, takePreviewApproval(request.range, prepared.fingerprint));
  const stored: StoredExport = { request, metrics, state: isComplete(state) ? { ...state, status: 'done' } : state, statusRange: null };
  return startJob(exportJob, { record: { ...stored, state: compactExport(stored.state, prepared) }, stored: { ...stored, fresh: prepared, read } });
}

/** Exports as one kind of job (jobs-api). */
export const exportJob = rereadKind<
  ExportRecord,
  ExportRun,
  ExportState,
  CompactExportState,
  { exportId: string; range: string },
  ExportProgress,
  ExportOutcome
>({
  store: 'export',
  marginMs: 5_000,
  notStored:
    'This export is no longer stored (exports can be resumed for six hours). Start it again: with "only what changed", rows already sent are not sent twice.',
  changed: RANGE_CHANGED,
  version: 2,
  rebuild: (record) => {
    const fresh = prepare(record.request, record.metrics);
    const state = expandExport(fresh, record.state);
    return state && { ...record, state, fresh };
  },
  compact: ({ fresh, read, ...stored }) => ({ ...stored, state: compactExport(stored.state, fresh) }),
  head: (exportId, job) => ({ exportId, range: job.request.range }),
  progress: (stored) => exportProgress(stored.state, Date.now()),
  outcome: outcomeOf,
  resume: resumeExport,
  /** One step: waves of batches, and the cached series of every metric it stored something of dropped. */
  step: (stored, context) => {
    const { state } = runExportStep(stored.state, context.client, { ...context, onCheckpoint: context.checkpoint });
    // Dropped after every step that stored something, not only at the end: a sidebar closed midway
    // leaves the export unfinished, and formulas must not show what was there before its first steps.
    const before = confirmedByMetric(stored.state);
    dropCachedSeries([...confirmedByMetric(state)].filter(([id, count]) => count > (before.get(id) ?? 0)).map(([id]) => id));
    return state;
  },
  /** An export's progress from its stored outcome codes alone, without reading its range. */
  recordProgress: (record) => {
    const done = [...record.state.codes].filter((code) => (CODE_OUTCOMES[code] ?? 'pending') !== 'pending').length;
    const progress: ExportProgress = { status: record.state.status, itemsDone: done, itemsTotal: record.state.codes.length, batchesDone: 0, batchesTotal: 0 };
    if (record.state.problem) progress.problem = record.state.problem;
    return progress;
  },
  changedOutcome: (record) => ({
    summary: RANGE_CHANGED,
    totals: tallyOutcomes(ROW_OUTCOMES, record.state.codes, (code) => CODE_OUTCOMES[code] ?? 'pending'),
    itemsRead: record.state.codes.length,
    problems: [],
    problem: RANGE_CHANGED,
    statusRange: null,
    writtenMetricIds: [],
    rangeExportedBefore: wasExported(record.request.range),
  }),
  stopped,
  /** Every value a step settled, for the Pushes sheet, with the value an update replaced (the read just before it). */
  pushLog: (before, after) => {
    const time = new Date().toISOString();
    return {
      rows: settledItems(before, after).map(({ item, previous }) => ({
        time,
        kind: 'Export' as const,
        what: item.metricName ?? item.metricId ?? '',
        period: item.date ?? '',
        oldValue: item.outcome === 'updated' ? (previous ?? null) : null,
        newValue: item.value,
        outcome: outcomeText(item.outcome, item.reason),
        cell: `${sheetOf(after.request)}!${item.cell}`,
      })),
    };
  },
  // What it stored: what it did not send is in the Pushes sheet, and Undo has nothing to do with it.
  journal: (before, after) => ({ kind: 'Export', companyId: after.request.companyId, entries: exportEntries(before, after).filter(stored) }),
});

/** The range's sheet part, as the request names it (quoted when it must be). */
function sheetOf(request: ExportRequest): string {
  return request.range.slice(0, request.range.lastIndexOf('!'));
}

/** The report's items a step settled, each with the server's value it replaced when the comparison read one. */
function settledItems(before: ExportRun, after: ExportRun): Array<{ item: ExportReportItem; previous: string | null | undefined }> {
  const withPrevious = (run: ExportRun) =>
    buildReport(run.state).items.map((item, index) => ({ item, outcome: item.outcome, previous: run.state.items[index]!.previous }));
  return newlySettled(withPrevious(before), withPrevious(after));
}

/** The last export of this spreadsheet, if it did not finish. */
export function findUnfinished(): ExportHandle | null {
  return unfinishedJobs(exportJob).pop() ?? null;
}
