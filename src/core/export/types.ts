// The range exporter's typed boundary: JSON-safe records (no Dates, no class instances) that cross
// google.script.run and are stored in CacheService between the steps of one export.

import type { Metric } from '../api/types';
import type { JobProgressBase } from '../jobs/progress';
import type { JobStatus, RateLimitState } from '../jobs/rate-limit-state';
import type { WaveJobState } from '../jobs/wave-step';

export type ExportLayout = 'long' | 'wide';

/** What the user chose in the sidebar. Type aliases, not interfaces, so the RPC layer can check them against Json. */
export type ExportSpec = {
  /** long: a date column and a value column for one metric; wide: a date column and one column per metric. */
  layout: ExportLayout;
  /** The metric of the long layout's value column; the wide layout names its metrics in the header row. */
  metricId?: string;
  /** The first row of the range holds headers, not data (the wide layout requires it). */
  hasHeaderRow: boolean;
  /** Blank values are skipped (the default) rather than failed: the upsert cannot blank a data point. */
  skipBlanks: boolean;
  /** Several rows for one date of one metric: fail them all, or keep the last in sheet order. */
  duplicates: 'reject' | 'last_wins';
  /** A date that is not the start of its metric's period: fail it, or move it to the period start with a note. */
  offPeriod: 'reject' | 'normalise';
  /** Read the metric's existing points first and send only what differs. */
  onlyChanged: boolean;
};

/**
 * What happened to one input item.
 *
 * - created / updated: confirmed by the API, and the existing points read first (onlyChanged) say which.
 * - written: confirmed by the API, but not known to be new or updated: existing points were not read
 *   (onlyChanged off), and the upsert's answer does not say which it did.
 * - unchanged: the API already holds this value for this date (onlyChanged), so it was not sent.
 * - skipped: deliberately not sent (a blank value, a duplicate the user let the last row win); has a reason.
 * - failed: refused, by validation or by the API; has a reason.
 * - pending: not confirmed yet (the export is running, was cancelled, or is paused); it is sent on resume.
 */
export type RowOutcome = 'created' | 'updated' | 'written' | 'unchanged' | 'skipped' | 'failed' | 'pending';

export const ROW_OUTCOMES: readonly RowOutcome[] = ['created', 'updated', 'written', 'unchanged', 'skipped', 'failed', 'pending'];

/**
 * A metric as name resolution, period and unit checks need it: the API's Metric, or the sidebar's summary
 * of one. Its unit decides what a percent-formatted cell sends (see percent.ts).
 */
export type MetricRef = Pick<Metric, 'id' | 'name' | 'frequency' | 'unit'>;

/**
 * The cells of the range, as Range.getValues() returns them (numbers, strings, booleans, Date objects, '' for
 * blank). Server-side only: it holds Dates, so it never crosses google.script.run.
 */
export type RangeInput = {
  values: ReadonlyArray<ReadonlyArray<unknown>>;
  /** Range.getDisplayValues(), when read: the preview shows what the user sees beside what will be sent. */
  displayValues?: ReadonlyArray<ReadonlyArray<string>>;
  /**
   * Range.getNumberFormats(): a cell showing "12%" holds 0.12, and only its format says the analyst meant
   * 12 percentage points. Without it no number cell is read as a percentage.
   */
  numberFormats?: ReadonlyArray<ReadonlyArray<string>>;
  /** Sheet row and column (1-based) of the range's top-left cell, so reasons name rows as the sheet numbers them. */
  origin?: SheetPosition;
};

export type SheetPosition = { row: number; column: number };

export type ExportStatus = JobStatus;

/**
 * One input item. Long layout: one data row. Wide layout: one (row, metric column) cell.
 * Rows whose every cell is blank are not input, so they are not items (the report counts them apart).
 */
export type ExportItemState = {
  /** 1-based row offset within the range (the header row, if any, is row 1). */
  row: number;
  /** 1-based column offset within the range of the value cell. */
  column: number;
  /** Index into ExportState.metrics; null when the column names no usable metric. */
  metric: number | null;
  /** YYYY-MM-DD as it will be (or was) sent, once read. */
  date?: string;
  /** Exact decimal text as it will be (or was) sent, once read. */
  value?: string;
  outcome: RowOutcome;
  /** What a confirmed send makes of a pending item: created/updated after a diff, written without one. */
  planned?: 'created' | 'updated' | 'written';
  /** Why it was skipped or failed: lower-case, no final period, so it reads after "failed: ". */
  reason?: string;
  /** Something the user should know about a sent item, such as a date moved to its period start. */
  note?: string;
};

export type ExportMetricState = {
  id: string;
  name: string;
  frequency: string;
  /** diff: its existing points are still to be read (onlyChanged); send: its batches are planned; stopped: refused. */
  phase: 'diff' | 'send' | 'stopped';
};

/** A value column of the range and the metric it resolved to, for the preview. */
export type ExportColumnState = {
  column: number;
  /** The header cell, trimmed (the long layout shows the metric id here). */
  header: string;
  metric: number | null;
  /** Why the column cannot be exported; every item of the column failed with it. */
  error?: string;
};

/** At most MAX_UPSERT_ITEMS items of one metric, sent as one PUT. */
export type ExportBatchState = {
  metric: number;
  /** Indexes into ExportState.items, in sheet order. */
  items: number[];
  /** confirmed batches are never sent again; not_sent: its metric was stopped first, or Apps Script refused to send it. */
  status: 'pending' | 'confirmed' | 'failed' | 'not_sent';
};

export type ExportCounters = WaveJobState['counters'] & {
  /** PUT requests asked of the client (its own retries not counted). */
  upserts: number;
  /** Reads of existing points (one paginated list per metric). */
  reads: number;
};

/** Everything an export needs between steps (see compact.ts for what is stored of it). */
export type ExportState = RateLimitState & {
  version: 1;
  spec: ExportSpec;
  /** Hash of the spec and the validated items: a resume compares it with a fresh read to see whether the sheet changed. */
  fingerprint: string;
  origin: SheetPosition;
  /** Rows in the range, header included: the status column has this many entries. */
  rowCount: number;
  /** Data rows with at least one non-blank cell. */
  rowsRead: number;
  /** Data rows with nothing in them: not input, so not items. */
  emptyRows: number;
  columns: ExportColumnState[];
  metrics: ExportMetricState[];
  items: ExportItemState[];
  batches: ExportBatchState[];
  counters: ExportCounters;
};

export type ExportTotals = Record<RowOutcome, number>;

/** One item in the report, as a person reads it. */
export type ExportReportItem = {
  row: number;
  column: number;
  /** The value cell in A1 notation, like C14. */
  cell: string;
  metricId: string | null;
  metricName: string | null;
  date: string | null;
  value: string | null;
  outcome: RowOutcome;
  reason: string | null;
  note: string | null;
};

/** What the report and the preview both say of what was read. */
type ExportRead = {
  layout: ExportLayout;
  rowsRead: number;
  /** Items read: rows (long) or cells (wide); the totals add up to it. */
  itemsRead: number;
  emptyRows: number;
};

export type ExportReport = ExportRead & {
  status: ExportStatus;
  totals: ExportTotals;
  /** One sentence, like "1,000 rows read: 940 created, 50 updated, 10 skipped." */
  summary: string;
  items: ExportReportItem[];
  /** One text per range row (header and empty rows included), to write beside the range. */
  statusColumn: string[];
  problem: string | null;
};

export type ExportProgress = JobProgressBase & {
  /** Items with a final outcome (everything but pending). */
  itemsDone: number;
  itemsTotal: number;
  batchesDone: number;
  batchesTotal: number;
  /** Time this step spent waiting for the rate limit inside the client. */
  waitedForRateLimitMs?: number;
};

/** An item as the preview shows it: the date and value cells as the sheet displays them (getDisplayValues), beside what is sent. */
type ExportPreviewItem = ExportReportItem & { shownDate: string | null; shownValue: string | null };

/** What the sidebar shows before anything is sent. */
export type ExportPreview = ExportRead & {
  toSend: number;
  /**
   * With "only what changed", once the stored points were read: the counts the export will report, as
   * unchanged, created and updated. Null when not compared (the option off, or the reads cut short).
   */
  compared: { unchanged: number; toCreate: number; toUpdate: number; notCompared: number } | null;
  skipped: number;
  failed: number;
  /** Why the stored points could not all be read, when they could not. */
  problem: string | null;
  columns: Array<{
    /** The column's letter in the sheet. */
    letter: string;
    header: string;
    metricId: string | null;
    metricName: string | null;
    frequency: string | null;
    error: string | null;
  }>;
  /** The first items in sheet order, with what each cell shows beside what will be sent. */
  sample: ExportPreviewItem[];
  /** The first skipped or failed items, so problems show even when the sample is clean. */
  problems: ExportPreviewItem[];
  summary: string;
};
