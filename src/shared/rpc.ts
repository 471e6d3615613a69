// The surface between the sidebar and the server: names and JSON-safe types, shared by both sides.

import type { ExportLayout, ExportProgress, ExportReport, ExportReportItem, ExportSpec } from '../core/export';
import type { ContactNoteDraft, ImportProgress, ImportReportRow, ProfileRename } from '../core/directory';
import type { Metric, MetricInput } from '../core/api/types';
import type { AuditPushProgress, AuditPushReport, AuditPushReportItem, Completeness } from '../core/audit';
import type { JobKind as FailureJobKind } from '../core/jobs/classify-failure';
import type { AuditBuildProgress } from '../core/audit/build-job';
import type { CoverageSheetModel, GridChoice } from '../core/formulas/grid-builder';
import type { SnapshotDefinition } from '../core/snapshots/snapshot';
import type { ScheduledRun, SnapshotSchedule } from '../core/snapshots/schedule';
import type { InstallationCheck } from '../core/settings/installation-verdicts';

/**
 * What crosses google.script.run: Dates and class instances do not survive it, so the types refuse them.
 * RPC records are type aliases, not interfaces, so that they can be checked against this.
 */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json | undefined };

export type SettingsSummary = {
  tokenSet: boolean;
  /**
   * Always null: the page learns only that a token is set (SECURITY.md). Kept, with tokenHint, for scripts outside
   * that read the field; once they held characters of the token.
   */
  tokenLast4: null;
  /** Always null, as tokenLast4. */
  tokenHint: null;
  /** After a save that changed the token or the base URL: whether the API accepted the saved token, in one sentence. */
  connection?: { ok: boolean; message: string };
  baseUrl: string | null;
  defaultCompanyId: string | null;
  /** Whether the caller owns the spreadsheet; null when Apps Script does not say (Shared Drives, blank emails). */
  isOwner: boolean | null;
  /** For anyone but the known owner: whose connection formulas here use. */
  sharingNote: string | null;
};

/** Who connected a spreadsheet in a Shared Drive (no owner), for the Formula access panel. */
export type SharedDriveAccess = {
  connected: boolean;
  /** The connecting person's email; null when no one connected it, or Apps Script did not reveal it. */
  connectedBy: string | null;
  /** The caller connected it, or may connect it (no one has): they decide the list. */
  callerDecides: boolean;
  /** The panel's line in place of its own. */
  note: string;
};

/**
 * The companies whose data formulas in this spreadsheet may read (the owner's list; empty for a known non-owner, who
 * cannot read it). In a Shared Drive, `isOwner` is null and `sharedDrive` says who decides: the connecting person.
 */
export type FormulaAccess = Pick<SettingsSummary, 'isOwner'> & { companyIds: string[]; sharedDrive?: SharedDriveAccess };

/** `frequency` as the API sends it: daily, weekly, monthly, quarterly, or a newer value shown as it is. */
export type MetricSummary = Pick<Metric, 'id' | 'name' | 'frequency' | 'unit'> & {
  portfolioCompanyProfileId: string | null;
  /** The portfolio company's name, for a fund's metric of one (null for the company's own metrics, or when unknown). */
  portfolioCompanyName: string | null;
};

export type NewMetric = Pick<MetricInput, 'name' | 'frequency' | 'unit'> & { companyId: string };

export type InsertRequest = {
  /** The company the metrics belong to, for their names in the header row. */
  companyId: string;
  metricIds: string[];
  /** YYYY-MM-DD or null for no bound. */
  startDate: string | null;
  endDate: string | null;
  /** A live METRIC_VALUES formula, or the values as they are now. */
  mode: 'formula' | 'snapshot';
  headers: boolean;
};

export type InsertReport = {
  /** Where it was written, like Sheet1!B2:D40. */
  range: string;
  rows: number;
  message: string;
};

/** The active selection, read to pre-fill the exporter. */
export type ExportSelection = {
  /** Like Sheet1!A1:C20. */
  range: string;
  rows: number;
  columns: number;
  /** A guess: more than two columns are wide; two are long, unless the second header is a metric's id or exact name. */
  layout: ExportLayout;
  /** A guess: the first row holds text where the rest holds dates. */
  hasHeaderRow: boolean;
  /** This range was exported from this spreadsheet before: "only what changed" then defaults on. */
  previouslyExported: boolean;
  /**
   * The selection overlaps a snapshot table inserted from the API: its cells held what the API held, so an
   * edit there may meet a newer value on the server; "Do not overwrite values that differ" then defaults on.
   */
  insertedFromApi?: boolean;
};

export type ExportRequest = {
  companyId: string;
  /** Like Sheet1!A1:C20. */
  range: string;
  spec: ExportSpec;
  /** Write each row's outcome in a column beside the range when the export ends. */
  writeStatus: boolean;
};

/** Where a job stands, as the sidebar shows it: `report` once it has ended, been cancelled, or paused. */
type JobHandle<Progress, Report> = { progress: Progress; report: Report | null };

/** A job's report, without the per-item list (which stays on the server; an export's goes to the status column). */
type JobOutcome<Totals, Problem> = {
  summary: string;
  totals: Totals;
  /** The items that failed or were skipped (an export's first ones), with their reasons. */
  problems: Problem[];
  problem: string | null;
};

export type ExportHandle = JobHandle<ExportProgress, ExportOutcome> & { exportId: string; range: string };

export type ExportOutcome = JobOutcome<ExportReport['totals'], ExportReportItem> & {
  itemsRead: number;
  /** Where the status column was written, when it was. */
  statusRange: string | null;
  /** Metrics the API confirmed storing values of: formulas reading them can be refreshed (refreshFormulasFor). */
  writtenMetricIds: string[];
  /** Whether the store now remembers the range as exported: "only what changed" then defaults on. */
  rangeExportedBefore: boolean;
};

export type FormulaRefreshReport = {
  formulas: number;
  message: string;
};

export type ImportKind = 'profiles' | 'contacts';

export type ImportRequest = {
  kind: ImportKind;
  companyId: string;
  /** Like Sheet1!A1:F20, header row included. */
  range: string;
  /**
   * The person chose to import without the columns whose header is not recognised (checkImportColumns
   * names them); without it, a range with such a column is refused before anything is sent.
   */
  ignoreUnrecognisedColumns?: boolean;
  /**
   * The profile renames the preview (checkImportColumns) showed and the person confirmed; a profile import
   * that would rename any other profile, or to another name, is refused before anything is sent.
   */
  renames?: ProfileRename[];
};

/** What an import would read of a range's header row (checkImportColumns). */
export type { ImportColumnCheck } from '../core/directory';

/** Ids and statuses are written into the sheet as rows settle. */
export type ImportHandle = JobHandle<ImportProgress, ImportOutcome> & { importId: string; kind: ImportKind; range: string };

/** Its problems are the rows that failed, were skipped or are unknown. */
export type ImportOutcome = JobOutcome<Record<string, number>, Pick<ImportReportRow<string>, 'sheetRow' | 'label' | 'outcome' | 'reason'>>;

export type NoteTagSummary = { id: string; name: string };

export type ContactNoteRequest = Required<ContactNoteDraft>;

export type AuditBuildReport = {
  sheetName: string;
  profiles: number;
  properties: number;
  /** Filled custom cells of all custom cells. */
  overall: Completeness;
  blanks: number;
  /** Values longer than a cell holds, shown cut with a mark and never pushed; `length` is the full value's. */
  cut: Array<{ cell: string; company: string; property: string; length: number }>;
  message: string;
};

/** A build of the audit run as a job (startAuditBuild): `report` once the sheet is written. */
export type AuditBuildHandle = JobHandle<AuditBuildProgress, AuditBuildReport> & { buildId: string };

/** `fund` names the fund every cell goes to ("the fund c0000000-…"): the sidebar asks before the first step sends. */
export type AuditPushHandle = JobHandle<AuditPushProgress, AuditPushOutcome> & { pushId: string; sheetName: string; fund: string };

/** `conflicts`: every cell not sent because the server's value changed since the build, with both values. */
export type AuditPushOutcome = JobOutcome<AuditPushReport['totals'], AuditPushReportItem> & { notes: string[]; conflicts: AuditPushReportItem[] };

/** A (profile, property) cell of the audit, as a push's report names it: what Overwrite and Take the server's values act on. */
export type AuditCellRef = { profileId: string; propertyId: string };

/** A value a push stored that Undo does not restore, and why (the API has no delete, so Undo cannot take a created value back). */
export type NotUndoneValue = { what: string; period: string; cell: string; value: string; reason: string };

/**
 * Undo of the last push: the audit push's or the export's job, restoring the values before; `notUndone` lists
 * what the API cannot undo. An export's undo names each data point as profile = the metric, property = the period.
 */
export type UndoHandle = JobHandle<AuditPushProgress, UndoOutcome> & { undoId: string; pushId: string };

export type UndoOutcome = JobOutcome<AuditPushReport['totals'], AuditPushReportItem> & { notUndone: NotUndoneValue[] };

/**
 * One of the person's last pushes in this spreadsheet, as Undo offers it (listUndoablePushes): what it was,
 * when, how much it stored, and what Undo of it restores and cannot. `undoneBy`: the undo already started for it.
 */
export type UndoablePush = {
  pushId: string;
  /** The Pushes sheet's kind: "Export", "Audit push", "Audit overwrite", "Import profiles", "Import contacts". */
  kind: string;
  /** When it started, in the spreadsheet's time zone ("2024-03-01 10:00"). */
  started: string;
  /** Values (or records) it stored. */
  stored: number;
  /** What Undo would write back now, what it holds back (a later push wrote them again), finds sent unchanged, and cannot undo. */
  restorable: number;
  heldBack: number;
  nothingToUndo: number;
  cannotUndo: number;
  /** One sentence for the confirmation: kind, when, how many values, what it cannot undo. */
  description: string;
  undoneBy: string | null;
};

/** The person's last pushes here, newest first; `altered` says when rows of their journal were changed by someone else (ignored). */
export type UndoablePushes = { pushes: UndoablePush[]; altered: string | null };

/** What Take the server's values wrote into the audit sheet: each cell (A1) and the server's value it now shows. */
export type AuditTakeReport = { message: string; cells: Array<{ cell: string; value: string }> };

/** Jobs of this spreadsheet from the last six hours that did not finish, oldest first, to offer with Resume. */
export type UnfinishedPortfolioJobs = {
  pushes: AuditPushHandle[];
  imports: ImportHandle[];
  /** Audit builds cancelled, paused or left running (added with the build job; older callers ignore it). */
  builds: AuditBuildHandle[];
  /** Undos of a push cancelled, paused or left running (offered on the Portfolio tab, whichever push they undo). */
  undos: UndoHandle[];
};

/** The step-driven jobs whose running step publishes its progress (getJobProgress): the failure classifier's, and Undo (which steps as an audit push or an export). */
export type JobKind = FailureJobKind | 'undo';

/** A job's progress as its handle carries it. */
export type JobProgress = ExportProgress | AuditPushProgress | ImportProgress | AuditBuildProgress;

/** A metric's newest non-blank value and where it came from, for the metric browser. */
export type LatestValue = {
  metricId: string;
  /** YYYY-MM-DD; null when the metric has no value up to today. */
  date: string | null;
  /** The API's exact decimal text. */
  value: string | null;
  source: {
    /** As in METRIC_SOURCE's cells: "ai_inbox (review)" for a value an AI read, else the API's type. */
    type: string;
    label: string;
    /** The link into the web application, only when it is https. */
    link: string | null;
    review: boolean;
  } | null;
};

/**
 * The grid builder's insert at the active cell: a PORTFOLIO_METRIC (one metric name) or PORTFOLIO_COVERAGE (one
 * or more) formula, or its values now. Start and end are calendar labels like 2024-01, 2024-Q1 or 2024, both
 * included; null when the list of periods is given. `companyId` is the fund's.
 */
export type PortfolioGridRequest = Omit<GridChoice, 'fundId'> & { companyId: string; mode: 'formula' | 'snapshot' };

export type CoverageSheetRequest = Pick<PortfolioGridRequest, 'companyId' | 'metricNames'> & {
  startPeriod: string;
  endPeriod: string;
  aggregate?: GridChoice['aggregate'];
};

/**
 * Insert a fund model: companies down, periods across; `companyId` is the fund's. `formulas`: one =PORTFOLIO_VALUE
 * per block filling it ('block', the default when left out) or one per cell ('cell').
 */
export type FundModelRequest = Pick<PortfolioGridRequest, 'companyId' | 'metricNames' | 'periods' | 'startPeriod' | 'endPeriod' | 'aggregate'> & {
  formulas?: 'block' | 'cell';
};

/** The provenance sheet: the fund model's choice (names with their aggregates, periods); `companyId` is the fund's. */
export type ProvenanceSheetRequest = FundModelRequest;

/** Its rows are one per metric name, company and period, each with the value and its source. */
export type ProvenanceSheetReport = { sheetName: string; companies: number; metrics: number; periods: number; rows: number; message: string };

/** Its blanks are the company-metric-period cells with a null, empty or missing point (highlighted). */
export type CoverageSheetReport = Pick<CoverageSheetModel, 'companies' | 'metrics' | 'periods' | 'blanks'> & { sheetName: string; message: string };

/** What every sidebar function answers (src/server/serve.ts); ServerApi itself is in server-api.ts. */
export type RpcResult<T> = { ok: true; value: T } | { ok: false; error: string };

/** A snapshot table of this spreadsheet, as the sidebar lists it (see docs/reference.md, "Snapshot tables"). */
export type SnapshotSummary = Pick<SnapshotDefinition, 'id' | 'kind' | 'companyId' | 'metricIds' | 'startDate' | 'endDate' | 'insertedAt' | 'refreshedAt'> & {
  /** Like Sheet1!A1:C13, as last written; the bare range when its sheet was deleted. */
  range: string;
  sheetExists: boolean;
  headers: boolean;
  /** portfolio_metric: the metric's name and its period columns; null and [] for a METRIC_VALUES table. */
  metricName: string | null;
  periods: string[];
  /** False when the caller did not sign this definition as it reads now (inserted by someone else, or changed since): a refresh refuses it. */
  verified: boolean;
};

/**
 * One snapshot's refresh; refused: its definition does not verify for the caller, the caller's formula access
 * does not allow what it reads, a person typed into its cells, or a grown table needs cells that are not empty.
 */
export type SnapshotRefreshOutcome = {
  id: string;
  range: string;
  status: 'refreshed' | 'unchanged' | 'refused' | 'failed';
  /** Values that changed (rows appended to the Changes sheet). */
  changes: number;
  /** For a refusal: the cells in the way, like B5. */
  cells: string[];
  message: string;
  /** Refused as another person's snapshot (its signature names them): theirs to refresh, not a change to report. */
  insertedByAnother?: boolean;
};

/** What refreshAllSnapshots did, per snapshot; `problem` is a failure before any snapshot (the lock, a missing token). */
export type SnapshotRefreshReport = {
  origin: 'sidebar' | 'schedule';
  outcomes: SnapshotRefreshOutcome[];
  changes: number;
  /** The Changes sheet's name when rows were appended. */
  changesSheet: string | null;
  problem: string | null;
  message: string;
};

/**
 * The caller's scheduled refresh of this spreadsheet's snapshots (docs/reference.md, "Scheduled refresh"), null when none:
 * each user sees only their own, as a trigger runs as the person who made it.
 */
export type SnapshotRefreshScheduleView = {
  schedule:
    | (Pick<SnapshotSchedule, 'frequency' | 'scheduledAt'> & {
        /** False when the trigger is gone (removed on the Apps Script triggers page): nothing will run. */
        active: boolean;
        lastRun: Pick<ScheduledRun, 'at' | 'status' | 'message'> | null;
      })
    | null;
  message: string;
};

/** What Freeze did: the ranges now values (a formula's cell and its spilled result), those left live and why. */
export type FreezeReport = {
  frozen: Array<{ range: string; formula: string }>;
  left: Array<{ range: string; reason: string }>;
  message: string;
};

/** What Make live did: the ranges live again, and those left frozen with the cells a person typed into. */
export type ThawReport = {
  thawed: string[];
  refused: Array<{ range: string; cells: string[] }>;
  message: string;
};

/** "Check this installation": each check's status and what it means for the person; also written to `sheetName`. */
/** A running installation check: the lines it has so far, and the check it runs now (null once it writes its report). */
export type InstallationCheckProgress = { done: InstallationCheck[]; running: string | null };

export type InstallationReport = {
  /** ISO time of the check. */
  checkedAt: string;
  spreadsheetTimeZone: string;
  scriptTimeZone: string;
  checks: InstallationCheck[];
  /** One sentence over every check. */
  summary: string;
  sheetName: string;
};
