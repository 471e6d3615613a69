// The range exporter's typed boundary: JSON-safe records (no Dates) that cross google.script.run or are kept between steps.

import type { Metric } from '../api/types';
import type { JobProgressBase } from '../jobs/progress';
import type { RateLimitState } from '../jobs/rate-limit-state';
import type { WaveJobState } from '../jobs/wave-step';
import type { ApprovedValue } from './compare';

export type ExportLayout = 'long' | 'wide';

/** What the user chose in the sidebar. Type aliases, not interfaces, so the RPC layer can check them against Json. */
export type ExportSpec = {
  /** long: a date column and a value column for one metric; wide: a date column and one column per metric. */
  layout: ExportLayout;
  /** The long layout's metric (the wide layout's header row names its metrics). */
  metricId?: string;
  /** The first row of the range holds headers, not data (the wide layout requires it). */
  hasHeaderRow: boolean;
  /** Blank values are skipped (the default) rather than failed: the upsert cannot blank a data point. */
  skipBlanks: boolean;
  /** Several rows for one date of one metric: fail them all, or keep the last in sheet order. */
  duplicates: 'reject' | 'last_wins';
  /** A date that does not start its metric's period: fail it, or move it to the period start with a note. */
  offPeriod: 'reject' | 'normalise';
  /** Read the metric's existing points first and send only what differs. */
  onlyChanged: boolean;
  /**
   * "Do not overwrite values that differ": a date whose stored value differs from the sheet's is skipped,
   * not updated (a blank stored value is still filled). On, the points are read first even with onlyChanged
   * off. Absent: off.
   */
  keepDifferent?: boolean;
};

/**
 * What happened to one input item, confirmed by the API: created (the read just before the write found no
 * point), updated (it found another value), written (it found the same value, sent again: typed data);
 * unchanged: already stored, not sent;
 * skipped (a blank, a duplicate the last row wins) and failed have a reason; pending: not confirmed yet.
 */
export type RowOutcome = 'created' | 'updated' | 'written' | 'unchanged' | 'skipped' | 'failed' | 'pending';

export const ROW_OUTCOMES: readonly RowOutcome[] = ['created', 'updated', 'written', 'unchanged', 'skipped', 'failed', 'pending'];

/**
 * A metric as name resolution, period and unit checks need it; its unit decides what a percent cell sends.
 * `company`: the portfolio company's label for a fund's metric of one of its companies, so the Pushes sheet, the
 * journal and the report tell two companies' "Net Burn" apart (names still resolve by `name` alone).
 */
export type MetricRef = Pick<Metric, 'id' | 'name' | 'frequency' | 'unit'> & { company?: string };

/** The range as Range.getValues() returns it. Server-side only: it holds Dates. */
export type RangeInput = {
  values: ReadonlyArray<ReadonlyArray<unknown>>;
  /** Range.getDisplayValues(): the preview shows what the user sees beside what will be sent. */
  displayValues?: ReadonlyArray<ReadonlyArray<string>>;
  /**
   * Range.getNumberFormats(): a cell showing "12%" holds 0.12, and only its format says the analyst meant
   * 12 percentage points. Without it no number cell is read as a percentage.
   */
  numberFormats?: ReadonlyArray<ReadonlyArray<string>>;
  /** The range's top-left cell in the sheet, so reasons name rows as the sheet numbers them. */
  origin?: SheetPosition;
};

export type SheetPosition = { row: number; column: number };

/** One input item: a data row (long), or one metric cell of a row (wide). Blank rows are not items. */
export type ExportItemState = {
  /** 1-based offsets within the range of the value cell (the header row, if any, is row 1). */
  row: number;
  column: number;
  /** Index into ExportState.metrics; null when the column names no usable metric. */
  metric: number | null;
  /** YYYY-MM-DD and exact decimal text, as sent. */
  date?: string;
  value?: string;
  outcome: RowOutcome;
  /** What a confirmed send makes of a pending item, as the last comparison found it (written: the same value, or not compared yet). */
  planned?: 'created' | 'updated' | 'written';
  /**
   * The value the write replaces, as the read just before it found it (null: a blank; none: no point on that
   * date). Once the item is confirmed it is ALWAYS that read's value, never an earlier one: the Pushes sheet's
   * "Old value" and Undo take it from there.
   */
  previous?: string | null;
  /**
   * What the plan expects the server to hold for the date (compare.ts): what the preview showed, else what the
   * export's own first comparison read found. A write goes only while the server still holds it.
   */
  approved?: ApprovedValue;
  /**
   * Undo of an export only: the value the export wrote. A server holding another value is a conflict (someone
   * changed it since), not written over; `value` is then the value before the export, which Undo writes back.
   */
  expected?: string;
  /** Why it was skipped or failed: lower-case, no final period, so it reads after "failed: ". */
  reason?: string;
  /** Something the user should know about a sent item, such as a date moved to its period start. */
  note?: string;
};

export type ExportMetricState = Pick<MetricRef, 'id' | 'name' | 'frequency' | 'company'> & {
  /** diff: its existing points are still to be read (onlyChanged, keepDifferent, or a comparison of typed data); send: its batches are planned; stopped: refused. */
  phase: 'diff' | 'send' | 'stopped';
};

/** A value column of the range and the metric it resolved to, for the preview. */
export type ExportColumnState = {
  column: number;
  /** The header cell, trimmed (the long layout shows the metric id here). */
  header: string;
  metric: number | null;
  /** Why every item of the column failed. */
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
  /** Reads of existing points: "only what changed" chunks, and the reads right before each wave's writes (one paginated list per metric and date window). */
  reads: number;
};

/** Everything an export needs between steps (compact.ts: what is stored of it). */
export type ExportState = RateLimitState & {
  version: 1;
  spec: ExportSpec;
  /** Hash of the spec and the validated items: a resume compares it with a fresh read to see whether the sheet changed. */
  fingerprint: string;
  origin: SheetPosition;
  /** Rows in the range, header included: the status column has this many entries. */
  rowCount: number;
  /** Data rows with something in them, and those with nothing. */
  rowsRead: number;
  emptyRows: number;
  columns: ExportColumnState[];
  metrics: ExportMetricState[];
  items: ExportItemState[];
  batches: ExportBatchState[];
  counters: ExportCounters;
};

export type ExportTotals = Record<RowOutcome, number>;

/** One item in the report, as a person reads it. */
export type ExportReportItem = SheetPosition & {
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
  status: ExportState['status'];
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

/** An item with its date and value cells as the sheet displays them. */
type ExportPreviewItem = ExportReportItem & { shownDate: string | null; shownValue: string | null };

/** What the sidebar shows before anything is sent. */
export type ExportPreview = ExportRead & {
  toSend: number;
  /** Once the stored points were read (every preview reads them): what the export creates, overwrites and finds unchanged (with "only what changed" off, sent again); null for typed data not compared. */
  compared: { unchanged: number; toCreate: number; toUpdate: number; notCompared: number } | null;
  /** The updates that overwrite a value the server holds, old → new: the first 50 of `total`. */
  overwrites: { total: number; shown: Array<{ cell: string; old: string; new: string }> };
  skipped: number;
  failed: number;
  /** Why the stored points could not all be read. */
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
