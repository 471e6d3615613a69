// The directory imports' typed boundary: JSON-safe records (no Dates, no class instances) that cross
// google.script.run and are stored between the steps of one import.

import type { SheetPosition } from '../export/types';
import type { JobProgressBase } from '../jobs/progress';
import type { JobStatus, RateLimitState } from '../jobs/rate-limit-state';
import type { WaveJobState } from '../jobs/wave-step';

export type { RangeInput, SheetPosition } from '../export/types';

/**
 * A column of the range, or one the server adds right of it. `column` is 1-based within the range;
 * a new column's is past the range's width, and its header goes into the range's first row.
 */
export type ColumnTarget = { column: number; header: string; isNew: boolean };

/** Every row of an import has an outcome; `pending` is the only one that is not final. */
export type ImportRowBase = {
  /** 1-based row offset within the range; the header row is row 1. */
  row: number;
  outcome: string;
  /** Why it failed, was skipped, or may have been created. */
  reason?: string;
};

export type ImportCounters = WaveJobState['counters'] & { requests: number };

/** A new import's counters (a stored one from before they were all kept gets the missing ones at 0). */
export function newImportCounters(): ImportCounters {
  return { steps: 0, requests: 0, stepsWithoutProgress: 0, rateLimitWaitMs: 0, retryWaitMs: 0 };
}

/** What every import keeps between steps, whatever its rows are. */
export type ImportJob<Row extends ImportRowBase> = Pick<RateLimitState, 'retry' | 'rateLimitedSince' | 'notBefore' | 'problem'> & {
  /** `paused`: a problem stopped it (token rejected, a lost connection after a write); resumable, as `cancelled` is. */
  status: JobStatus;
  origin: SheetPosition;
  /** Rows in the range, header included: the status column has this many entries. */
  rowCount: number;
  width: number;
  /** Data rows with at least one non-blank cell: the rows of the report. */
  rowsRead: number;
  /** Data rows with nothing in them: not input, counted apart. */
  emptyRows: number;
  /** Headers the import did not recognise, left alone (like "Created at"). */
  ignoredColumns: string[];
  idColumn: ColumnTarget;
  /** An earlier "Import status" column of the range, or a new one. */
  statusColumn: ColumnTarget;
  rows: Row[];
  /**
   * requests: writes (POST or PUT) asked of the client, its own retries of a 429 not counted; the others are
   * every wave job's (WaveJobState).
   */
  counters: ImportCounters;
  /**
   * Index into `rows` of a POST that was about to be sent when the state was saved. If a step finds it
   * still set, the execution died mid-request: the row may have been created, and is marked so.
   */
  inFlight?: number;
};

/** A profile an import would rename: shown old → new in the preview, and sent only once confirmed there. */
export type ProfileRename = {
  sheetRow: number;
  profileId: string;
  /** The name on the server when the import was planned. */
  from: string;
  /** The name in the sheet. */
  to: string;
};

/** What the server writes for one row as soon as it is settled (onCheckpoint). */
export type RowWrite = Pick<ImportReportRow<string>, 'row' | 'sheetRow' | 'idText' | 'status'>;

/** `rowsDone`: rows with a final outcome; `waitedForRateLimitMs`: what the step waited for the rate limit. */
export type ImportProgress = JobProgressBase & { rowsDone: number; rowsTotal: number; waitedForRateLimitMs?: number };

/** One row of an import's report, as a person reads it. */
export type ImportReportRow<Outcome extends string> = {
  row: number;
  sheetRow: number;
  /** What names the row: the profile's name, the contact's email ('' when the cell is empty). */
  label: string;
  outcome: Outcome;
  /** Why it failed, was skipped, or is not final; lower-case, no final period. */
  reason: string | null;
  /** Something the user should know about a row that went through, like a currency upper-cased. */
  note: string | null;
  status: string;
  /** The text for the id column (an id, or the "check" marker), or null to leave the cell as it is. */
  idText: string | null;
};

export type ImportReport<Outcome extends string> = Pick<
  ImportJob<ImportRowBase>,
  'status' | 'rowsRead' | 'emptyRows' | 'idColumn' | 'statusColumn' | 'ignoredColumns'
> & {
  /** Adds up to rowsRead. */
  totals: Record<Outcome, number>;
  /** One sentence, like "12 rows read: 5 created, 3 updated, 2 unchanged, 2 failed." */
  summary: string;
  rows: Array<ImportReportRow<Outcome>>;
  /** One text per range row (header and empty rows included), for the status column. */
  statusTexts: string[];
  problem: string | null;
};
