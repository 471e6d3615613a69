// The portfolio audit's typed boundary: what is loaded from the API, the sheet model, the snapshot, and the
// push state and report. Type aliases (not interfaces) so the RPC layer can check them against Json; the two
// that hold Dates (AuditSheetModel.values and AuditSheetRead) say so and stay on the server.

import type { JobProgressBase } from '../jobs/progress';
import type { WaveJobState } from '../jobs/wave-step';

/** A property as the audit needs it. `autoCalculated` is decided by name (src/core/portfolio/auto-calculated.ts). */
export type AuditProperty = {
  id: string;
  name: string;
  /** As the API sends it: number, date, boolean, select, multiselect, string, text, url, rich_text, or a newer one. */
  dataType: string;
  autoCalculated: boolean;
};

/** One option of a select or multiselect property. */
export type AuditOption = { id: string; label: string };

export type AuditProfile = { id: string; name: string };

/** A stored value, trimmed to the API's `value` and the selected option ids. */
export type AuditStoredValue = {
  value: string | number | string[] | null;
  /** select: zero or one id; multiselect: any; other types: none. */
  optionIds: string[];
};

/** What write-back needs to know about the fund. */
export type AuditSchema = {
  companyId: string;
  /** Custom properties in the API's order, then the auto-calculated ones. */
  properties: AuditProperty[];
  /** By property id (select and multiselect), in display order. */
  options: Record<string, AuditOption[]>;
};

/** Everything an audit is built from. */
export type AuditData = AuditSchema & {
  /** In the API's (creation) order. */
  profiles: AuditProfile[];
  /** values[profileId][propertyId]; a property without a stored value is absent. */
  values: Record<string, Record<string, AuditStoredValue>>;
};

/**
 * A cell as Range.setValues() takes it and Range.getValues() gives it back: text, number, boolean,
 * a Date (date columns only, midnight in the spreadsheet's time zone), or '' for blank.
 */
export type AuditCell = string | number | boolean | Date;

/** A block of the sheet, 1-based, with its A1 notation. */
export type GridRange = { row: number; column: number; numRows: number; numColumns: number; a1: string };

/** Filled cells of all cells; share is filled / total (0..1), null when there is nothing to fill. */
export type Completeness = { filled: number; total: number; share: number | null };

export type AuditColumnSummary = Completeness &
  Pick<AuditProperty, 'name' | 'dataType' | 'autoCalculated'> & {
    propertyId: string;
    /** 1-based sheet column and its letter. */
    column: number;
    letter: string;
    /** Option labels in display order; empty for other types. */
    labels: string[];
  };

/** One profile row of the audit sheet; its completeness counts the custom (editable) properties only. */
export type AuditRowSummary = Completeness & { profileId: string; name: string; row: number };

/**
 * Where everything is, 1-based. The grid starts at A1 of its own sheet:
 *
 *   row 1 (hidden)   marker | #name   | property ids …          | #filled | #total | #share
 *   row 2 (header)   Profile id | Company | property names …    | Filled  | Of     | Complete
 *   rows 3..         profile id | name    | values …            | per-company completeness
 *   (one blank row)
 *   3 summary rows   #filled / #total / #share | Filled / Of / Complete | per-property completeness
 */
export type AuditLayout = {
  idRow: number;
  headerRow: number;
  firstProfileRow: number;
  /** Equals headerRow when the fund has no profiles. */
  lastProfileRow: number;
  idColumn: number;
  nameColumn: number;
  firstPropertyColumn: number;
  /** Equals nameColumn when the fund has no properties. */
  lastPropertyColumn: number;
  /** The first auto-calculated column (they come last); null when there is none. */
  firstAutoColumn: number | null;
  /** Per-company completeness, inside the filter so it sorts with its rows. */
  summaryColumns: { filled: number; total: number; share: number };
  /** Per-property completeness, outside the filter. */
  summaryRows: { filled: number; total: number; share: number };
  /** Size of model.values. */
  rows: number;
  columns: number;
};

/** A data validation rule for SpreadsheetApp.newDataValidation(). */
export type AuditValidation =
  /**
   * list (select): requireValueInList(labels, true), setAllowInvalid(false), setHelpText(helpText).
   * multiselect: the same dropdown with setAllowInvalid(true): Sheets' list rule holds one item per cell,
   * so several labels ("B2B, SaaS") are typed, and such a cell shows the warning marker whose text is helpText.
   * listFromRange: the same dropdown for more than 500 labels, which Sheets refuses in a list rule: the server
   * writes the labels down one column of a hidden sheet and builds requireValueInRange(thatColumn, true).
   */
  | { kind: 'list' | 'listFromRange'; propertyId: string; range: GridRange; labels: string[]; allowInvalid: boolean; helpText: string }
  /**
   * boolean: requireCheckbox(). Never Range.insertCheckboxes(): it sets every cell to FALSE, which would
   * turn each blank into a change to "false".
   */
  | { kind: 'checkbox'; range: GridRange };

/** Everything the server does besides setValues, in this order. */
export type AuditFormatting = {
  /**
   * Applied before setValues, so '@' (plain text) on the ids, names and text-like columns keeps API text
   * such as "=IMPORTXML(…)" or "2024-01-01" from becoming a formula or a date.
   */
  numberFormats: Array<{ range: GridRange; format: string }>;
  /**
   * Date properties' cells: no format before setValues, so each date takes the one Sheets gives a date (as a
   * formula's dates show); after it, a date cell whose format shows no date gets ISO (sheet-io's settleDateFormats).
   */
  dateColumns?: GridRange[];
  hiddenRows: number[];
  hiddenColumns: number[];
  frozenRows: number;
  frozenColumns: number;
  bold: GridRange[];
  validations: AuditValidation[];
  /** Auto-calculated columns, grey: write-back skips them whatever is typed there. */
  readOnly: { ranges: GridRange[]; background: string };
  /**
   * A whenCellEmpty() conditional format over the editable cells, so a cell stops being highlighted the
   * moment it is filled; null without profiles or custom properties.
   */
  blankHighlight: { range: GridRange; background: string } | null;
  /** Header row to last profile row, id column to last summary column, so ids sort with their rows. */
  filter: GridRange;
};

/** The JSON-safe part of the model. */
export type AuditSummary = {
  layout: AuditLayout;
  columns: AuditColumnSummary[];
  profiles: AuditRowSummary[];
  /** Over the editable cells. */
  overall: Completeness;
  /** Blank editable cells, row by row. */
  blanks: Array<{ row: number; column: number }>;
  /** Values longer than a cell holds, written cut with a visible mark (sheet-limits.ts); `length` is the full value's. */
  cut: Array<{ profileId: string; name: string; propertyId: string; propertyName: string; row: number; column: number; length: number }>;
  formatting: AuditFormatting;
};

/**
 * What write-back compares against: the cells as the audit wrote them, ids once, then one string of keys
 * (encodeKey) per profile. About 15-19 KB for 50 companies × 25 properties with their names (see serializeSnapshot).
 */
export type AuditSnapshot = {
  v: 1;
  companyId: string;
  profiles: string[];
  /** In the order of the keys within a row. */
  properties: string[];
  /**
   * profileNames[i]: the name the sheet's name column showed beside profiles[i] at build; propertyNames[i]: the
   * header row's text above properties[i] (an auto-calculated one ends in " (auto)"). Signed with the rest, so a
   * push sends a row's values only to the company whose name the row shows (id-places.ts). Absent in audits
   * built before they were recorded: such an audit is refused, to be built again.
   */
  profileNames?: string[];
  propertyNames?: string[];
  /** rows[profile] = the keys of that profile's cells joined with '|'. */
  rows: string[];
  /**
   * Cells the audit wrote cut, as "profileId/propertyId": never sent, whatever was typed there, since the
   * sheet never held the whole value. Absent when none.
   */
  cut?: string[];
};

/** The audit sheet to write: `values` (from A1, for one setValues) holds Dates, so it stays on the server. */
export type AuditSheetModel = {
  values: AuditCell[][];
  summary: AuditSummary;
  snapshot: AuditSnapshot;
};

/** One (profile, property) cell read back. */
export type AuditSheetCell = { profileId: string; propertyId: string; row: number; column: number; value: unknown };

/** The audit sheet as read back, wherever its rows and columns were moved. Server-side only: cells hold Dates. */
export type AuditSheetRead = {
  companyId: string;
  /** Rows that carry a profile id, in sheet order. */
  rows: Array<{ profileId: string; name: string; row: number }>;
  /** `header`: the header row's text above the column, as shown (the row under the hidden id row). */
  columns: Array<{ propertyId: string; column: number; header: string }>;
  cells: AuditSheetCell[];
  /** Rows below the header with something in them but no profile id: not part of the audit, so never sent. */
  ignoredRows: number[];
};

/** The body of PUT /portfolio_property_values less the two ids. */
export type AuditWrite = { value: string } | { portfolio_property_option_id: string | null } | { portfolio_property_option_ids: string[] };

/**
 * What happened to one compared cell.
 * - created (201) / updated (200): confirmed by the API.
 * - unchanged: the same as when the audit was built (or equivalent, like labels in another case), not sent.
 * - skipped: deliberately not sent (an auto-calculated property; a profile or property the audit did not have).
 * - failed: refused, by validation before sending or by the API; has a reason.
 * - conflict: not sent, because the server's value changed since the audit was built (conflicts.ts).
 * - pending: not confirmed yet; sent by the next step or on resume.
 */
export const AUDIT_CELL_OUTCOMES = ['created', 'updated', 'unchanged', 'skipped', 'failed', 'conflict', 'pending'] as const;

export type AuditCellOutcome = (typeof AUDIT_CELL_OUTCOMES)[number];

/** A cell someone changed on the server since the audit was built, as the report shows it (labels for options). */
export type AuditConflict = {
  /** What the audit held; null when the snapshot keeps only a fingerprint of it (values over 16 characters). */
  atBuild: string | null;
  /** What the server holds now. */
  server: string;
};

/** One cell that differs from the snapshot. Unchanged cells are only counted, to keep the state small. */
export type AuditPushItem = {
  /** Indexes into AuditPushState.profiles and .properties. */
  profile: number;
  property: number;
  /** 1-based sheet position when read. */
  row: number;
  column: number;
  /** The cell as shown, cut short, for the report. */
  shown: string;
  /** The cell's snapshot key, so a confirmed cell refreshes the snapshot. */
  key: string;
  outcome: Exclude<AuditCellOutcome, 'unchanged'>;
  /** Kept while pending. */
  write?: AuditWrite;
  /** Whether it was to be sent at all (the progress bar counts these). */
  planned: boolean;
  /** Why it was skipped or failed: lower-case, no final period, so it reads after "failed: ". */
  reason?: string;
  /** A conflict's two values. */
  conflict?: AuditConflict;
  /** The server's value read just before the wave sent it (for the Pushes sheet); not kept between steps. */
  was?: string;
};

/** Everything a push needs between steps: JSON-safe, stored by the server. */
export type AuditPushState = WaveJobState & {
  version: 1;
  companyId: string;
  profiles: AuditProfile[];
  properties: Array<Omit<AuditProperty, 'autoCalculated'>>;
  /** Distinct (profile, property) cells read from the sheet; the report's totals add up to it. */
  cellsCompared: number;
  unchanged: number;
  items: AuditPushItem[];
  ignoredRows: number[];
  /** requests: PUT requests asked of the client (its own retries not counted). */
  counters: WaveJobState['counters'] & { requests: number };
  /** The explicit second push of conflicts (Overwrite these cells): sent without comparing with the server. */
  overwrite?: true;
};

export type AuditPushProgress = JobProgressBase & {
  /** Cells to send that have a final outcome, of all cells to send. */
  cellsDone: number;
  cellsTotal: number;
  /** Time this step spent waiting for the rate limit inside the client. */
  waitedForRateLimitMs?: number;
};

export type AuditPushTotals = Record<AuditCellOutcome, number>;

export type AuditPushReportItem = Pick<AuditPushItem, 'row' | 'column' | 'outcome'> & {
  /** A1 notation of the cell when it was read, like D7. */
  cell: string;
  profileId: string;
  profileName: string;
  propertyId: string;
  propertyName: string;
  /** The cell as it was shown. */
  value: string;
  reason: string | null;
  /** A conflict's value at build and on the server now. */
  conflict?: AuditConflict;
};

/** A confirmed cell's new snapshot key: applySnapshotUpdates makes a second push send nothing. */
export type AuditSnapshotUpdate = { profileId: string; propertyId: string; key: string };

export type AuditPushReport = {
  status: AuditPushState['status'];
  cellsCompared: number;
  /** Adds up to cellsCompared. */
  totals: AuditPushTotals;
  /** One sentence, like "1,250 cells compared: 3 created, 2 updated, 1,243 unchanged, 2 failed." */
  summary: string;
  /** Every cell that differed from the snapshot, in sheet order. */
  items: AuditPushReportItem[];
  /** What was not compared at all (rows without a profile id). */
  notes: string[];
  problem: string | null;
  /** Only confirmed cells. */
  snapshotUpdates: AuditSnapshotUpdate[];
};
