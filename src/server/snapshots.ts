// Snapshot tables: "Snapshot of today's values" records what it wrote (see gas/snapshot-store.ts), the
// sidebar lists the spreadsheet's snapshots, and a refresh writes each again in its range with the
// caller's own connection, refusing where a person typed, and appends what changed to the Changes sheet.

import { InputError, userSentence } from '../core/errors';
import type { ApiClient } from '../core/api/client';
import type { DataPoint, Metric } from '../core/api/types';
import { changedCells, fingerprints, listCells } from '../core/formulas/freeze';
import { metricValuesCells } from '../core/formulas/metric-formulas';
import { portfolioMetric } from '../core/formulas/portfolio-grid';
import { asSafeRows } from '../core/sheets/cell-safety';
import { parseTableOptions } from '../core/sheets/metric-table';
import { sourceCells } from '../core/sheets/source-cells';
import { sourceText, type ChangeRow } from '../core/snapshots/changes';
import { readGrid, readTable, tableChanges, type SnapshotDefinition, type SnapshotRecord, type TableReading } from '../core/snapshots/snapshot';
import { isIsoDate } from '../core/validate/dates';
import { requireUuid } from '../core/validate/uuid';
import { appendChanges } from '../gas/changes-sheet';
import { activeAnchor, quoteSheetName, writeTable, type CellAnchor } from '../gas/sheet-io';
import { readSnapshots, saveSnapshot } from '../gas/snapshot-store';
import { spreadsheetTimeZone } from '../gas/spreadsheet-dates';
import type { InsertReport, InsertRequest, SnapshotRefreshOutcome, SnapshotRefreshReport, SnapshotSummary } from '../shared/rpc';
import { createClientForExecution } from './api-factory';
import { createFormulaContext } from './formula-context';

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;
type Row = Array<string | number | boolean | Date | null>;
/** The active spreadsheet, or the one a scheduled refresh opened by id: a time-driven trigger has no active one. */
type Book = GoogleAppsScript.Spreadsheet.Spreadsheet;

/** Two refreshes (or an insert and a refresh) at once would each rewrite the store from what they read. */
const LOCK_WAIT_MS = 10_000;

function withDocumentLock<T>(body: () => T): T {
  // A time-driven trigger has no current document, so no document lock (gas-runtime README, "what a trigger
  // sees"): scheduled runs then exclude each other with the script lock. They do not exclude a sidebar
  // refresh of the same spreadsheet at that moment (see README, "Scheduled refresh").
  const lock = LockService.getDocumentLock() ?? LockService.getScriptLock();
  if (!lock.tryLock(LOCK_WAIT_MS)) throw new InputError('Someone else is inserting or refreshing snapshots in this spreadsheet. Try again in a moment.');
  try {
    return body();
  } finally {
    lock.releaseLock();
  }
}

function optionalIsoDate(value: string | null, what: string): string | null {
  if (value === null || value === '') return null;
  if (!isIsoDate(value)) throw new InputError(`${what} must be a date like 2024-01-31.`);
  return value;
}

function plural(n: number, singular: string): string {
  return `${n} ${n === 1 ? singular : `${singular}s`}`;
}

/** The table METRIC_VALUES would show for the definition, shaped by the formula's own function. */
function buildTable(definition: SnapshotDefinition, points: readonly DataPoint[], metrics: readonly Metric[], timeZone: string): { rows: Row[]; names: string[] } {
  const byId = new Map(metrics.map((m) => [m.id, m.name] as const));
  const names = definition.metricIds.map((id) => byId.get(id) ?? id);
  const options = parseTableOptions('', { headers: definition.options.headers });
  const cells = metricValuesCells(points, definition.metricIds, options.headers ? names : definition.metricIds, options, timeZone,
    definition.startDate ?? undefined, definition.endDate ?? undefined);
  const width = Math.max(...cells.map((row) => row.length));
  return { rows: cells.map((row) => Array.from({ length: width }, (_, i) => (row[i] ?? '') as Row[number])), names };
}

/**
 * "Snapshot of today's values": the values METRIC_VALUES would show, written at the active cell (only into
 * empty cells), and recorded so that "Refresh snapshots" can write them again.
 */
export function insertMetricSnapshot(request: InsertRequest): InsertReport {
  const ids = request.metricIds.map((id) => requireUuid(id, 'A metric id'));
  if (ids.length === 0) throw new InputError('Choose at least one metric.');
  const companyId = requireUuid(request.companyId, 'The company id');
  const startDate = optionalIsoDate(request.startDate, 'The start date');
  const endDate = optionalIsoDate(request.endDate, 'The end date');
  const anchor = activeAnchor();
  const api = createClientForExecution({ maxTotalWaitMs: 60_000 });
  const points = api.dataPoints.list(ids, { startDate: startDate ?? undefined, endDate: endDate ?? undefined });
  if (points.length === 0) throw new InputError('These metrics have no data points in that range: nothing was written.');
  const headers = request.headers || ids.length > 1;
  const sheet = SpreadsheetApp.getActiveSpreadsheet().getSheetByName(anchor.sheetName)!;
  const definition: SnapshotDefinition = {
    v: 1, id: Utilities.getUuid(), kind: 'metric_values', companyId, metricIds: ids, startDate, endDate, options: { headers },
    sheetId: sheet.getSheetId(), range: '', insertedAt: new Date().toISOString(), refreshedAt: null,
  };
  const { rows } = buildTable(definition, points, headers ? api.metrics.list(companyId) : [], spreadsheetTimeZone());
  return withDocumentLock(() => {
    const range = writeTable(anchor, rows, [0]);
    definition.range = range;
    saveSnapshot({ definition, cells: fingerprints(sheet.getRange(range).getValues()) });
    const dataRows = rows.length - (headers ? 1 : 0);
    return {
      range: `${quoteSheetName(anchor.sheetName)}!${range}`,
      rows: dataRows,
      message: `Wrote ${plural(dataRows, 'row')} of values to ${quoteSheetName(anchor.sheetName)}!${range}. "Refresh snapshots" in this tab writes them again with the values the API holds then.`,
    };
  });
}

/**
 * Records a PORTFOLIO_METRIC snapshot the Portfolio tab wrote at `range` (A1 on the anchor's sheet), so
 * that "Refresh snapshots" writes it again.
 */
export function recordPortfolioSnapshot(anchor: CellAnchor, range: string, choice: { fundId: string; metricName: string; periods: string[] }): void {
  const sheet = SpreadsheetApp.getActiveSpreadsheet().getSheetByName(anchor.sheetName)!;
  withDocumentLock(() => saveSnapshot({
    definition: {
      v: 1, id: Utilities.getUuid(), kind: 'portfolio_metric', companyId: choice.fundId, metricIds: [], startDate: null, endDate: null,
      options: { headers: true }, metricName: choice.metricName, periods: choice.periods,
      sheetId: sheet.getSheetId(), range, insertedAt: new Date().toISOString(), refreshedAt: null,
    },
    cells: fingerprints(sheet.getRange(range).getValues()),
  }));
}

function sheetById(id: number, book: Book = SpreadsheetApp.getActiveSpreadsheet()): Sheet | null {
  return book.getSheets().find((sheet) => sheet.getSheetId() === id) ?? null;
}

function where(definition: SnapshotDefinition, sheet: Sheet | null): string {
  return sheet ? `${quoteSheetName(sheet.getName())}!${definition.range}` : definition.range;
}

function summaryOf(record: SnapshotRecord): SnapshotSummary {
  const d = record.definition;
  const sheet = sheetById(d.sheetId);
  return {
    id: d.id, kind: d.kind, range: where(d, sheet), sheetExists: sheet !== null, companyId: d.companyId, metricIds: d.metricIds,
    startDate: d.startDate, endDate: d.endDate, headers: d.options.headers, metricName: d.metricName ?? null, periods: d.periods ?? [],
    insertedAt: d.insertedAt, refreshedAt: d.refreshedAt,
  };
}

/** The spreadsheet's snapshots, in the order they were inserted. */
export function listSnapshots(): SnapshotSummary[] {
  return readSnapshots().map(summaryOf);
}

function isDate(value: unknown): value is Date {
  // Dates from the Apps Script membrane are not always `instanceof Date` here.
  return Object.prototype.toString.call(value) === '[object Date]';
}

/** A first-column cell as its period's first day; null for the "No data points" sentence. */
function periodReader(timeZone: string): (cell: unknown) => string | null {
  return (cell) => {
    if (isDate(cell)) return Utilities.formatDate(cell, timeZone, 'yyyy-MM-dd');
    return typeof cell === 'string' && isIsoDate(cell) ? cell : null;
  };
}

function a1(sheet: Sheet, row: number, column: number): string {
  return sheet.getRange(row, column).getA1Notation();
}

interface RefreshContext {
  book: Book;
  origin: 'sidebar' | 'schedule';
  client: ApiClient;
  metricsOf: (companyId: string) => Metric[];
  time: string;
  refresh: string;
  timeZone: string;
}

interface Rebuilt {
  rows: Row[];
  before: TableReading;
  after: TableReading;
  names: string[];
  sourceOf: (column: number, period: string) => string;
  /** The first column holds dates (a METRIC_VALUES table). */
  dateColumn: boolean;
}

/** The snapshot's table as its formula would show it now, read fresh with the caller's connection, and both tables read for comparing. */
function rebuild(d: SnapshotDefinition, oldValues: unknown[][], ctx: RefreshContext, periodOf: (cell: unknown) => string | null): Rebuilt {
  if (d.kind === 'portfolio_metric') {
    if (ctx.origin === 'schedule') {
      // Its function reads the spreadsheet's cache generation and formula access, which live with the open
      // document: a time-driven trigger has none (document properties are null there).
      throw new InputError('A portfolio grid is refreshed from the sidebar only (Refresh snapshots): a scheduled refresh has no open document to read its settings from.');
    }
    // The PORTFOLIO_METRIC function itself, through a context that reads past the caches (and as the caller, for the fund).
    const fresh = createFormulaContext({ fundId: d.companyId, fresh: true });
    const table = portfolioMetric(fresh, d.metricName!, [d.periods!], d.companyId) as Row[];
    const width = Math.max(...table.map((row) => row.length));
    const rows = table.map((row) => Array.from({ length: width }, (_, i) => row[i] ?? ''));
    // The grid reads no sources: PORTFOLIO_METRIC does not show them.
    return { rows, before: readGrid(oldValues, d.metricName!), after: readGrid(rows, d.metricName!), names: [], sourceOf: () => '', dateColumn: false };
  }
  const unique = [...new Set(d.metricIds)];
  // With sources, so each Changes row can say where its new value came from; the table itself shows values only.
  const points = ctx.client.dataPoints.list(unique, { startDate: d.startDate ?? undefined, endDate: d.endDate ?? undefined, includeSource: true });
  const { rows, names } = buildTable(d, points, ctx.metricsOf(d.companyId), ctx.timeZone);
  const sources = new Map<string, string>();
  for (const point of points) {
    const [type, label] = sourceCells(point.source);
    sources.set(`${point.metric_id}|${point.date}`, sourceText(type, label));
  }
  return {
    rows, names, dateColumn: true,
    before: readTable(oldValues, d, periodOf), after: readTable(rows, d, periodOf),
    sourceOf: (column, period) => sources.get(`${d.metricIds[column]}|${period}`) ?? '',
  };
}

function refreshOne(record: SnapshotRecord, ctx: RefreshContext): { outcome: SnapshotRefreshOutcome; changes: ChangeRow[] } {
  const d = record.definition;
  const sheet = sheetById(d.sheetId, ctx.book);
  const range = where(d, sheet);
  const base = { id: d.id, range, changes: 0, cells: [] as string[] };
  if (!sheet) {
    return { outcome: { ...base, status: 'failed', message: `The sheet of snapshot ${d.range} was deleted: there is nothing to refresh.` }, changes: [] };
  }
  const old = sheet.getRange(d.range);
  const oldValues = old.getValues();
  const typed = changedCells(record, oldValues).map(({ row, column }) => a1(sheet, old.getRow() + row - 1, old.getColumn() + column - 1));
  if (typed.length) {
    return {
      outcome: {
        ...base, status: 'refused', cells: typed,
        message: `Left ${range} as it was: ${listCells(typed)} changed since the snapshot was last written, and refreshing would overwrite ${typed.length === 1 ? 'it' : 'them'}. Move what you typed elsewhere and clear ${typed.length === 1 ? 'that cell' : 'those cells'} (or put back the snapshot's value${typed.length === 1 ? '' : 's'}), then refresh again.`,
      },
      changes: [],
    };
  }
  const periodOf = periodReader(ctx.timeZone);
  const { rows, before, after, names, sourceOf, dateColumn } = rebuild(d, oldValues, ctx, periodOf);
  const width = rows[0]!.length;
  const lastRow = old.getRow() + rows.length - 1;
  const lastColumn = old.getColumn() + width - 1;
  // A table that grew may only take cells that are empty now; past the grid's edge there are none (rows are added below).
  const inOld = (r: number, c: number): boolean => r <= old.getLastRow() && c <= old.getLastColumn();
  const grown: string[] = [];
  const inGrid = sheet.getRange(old.getRow(), old.getColumn(), Math.min(lastRow, sheet.getMaxRows()) - old.getRow() + 1, Math.min(lastColumn, sheet.getMaxColumns()) - old.getColumn() + 1);
  const values = inGrid.getValues();
  const formulas = inGrid.getFormulas();
  values.forEach((cells, i) => cells.forEach((value, j) => {
    const r = inGrid.getRow() + i;
    const c = inGrid.getColumn() + j;
    if (!inOld(r, c) && (value !== '' || formulas[i]![j] !== '')) grown.push(a1(sheet, r, c));
  }));
  if (grown.length) {
    return {
      outcome: {
        ...base, status: 'refused', cells: grown,
        message: `Left ${range} as it was: the table now has ${plural(rows.length, 'row')} and ${plural(width, 'column')}, and ${listCells(grown)} beside it ${grown.length === 1 ? 'is' : 'are'} not empty. Move ${grown.length === 1 ? 'that cell' : 'those cells'} out of the way, then refresh again.`,
      },
      changes: [],
    };
  }
  if (lastRow > sheet.getMaxRows()) sheet.insertRowsAfter(sheet.getMaxRows(), lastRow - sheet.getMaxRows());
  if (lastColumn > sheet.getMaxColumns()) sheet.insertColumnsAfter(sheet.getMaxColumns(), lastColumn - sheet.getMaxColumns());

  const written = sheet.getRange(old.getRow(), old.getColumn(), rows.length, width);
  const changes = tableChanges(before, after, {
    names, time: ctx.time, refresh: ctx.refresh, range: `${quoteSheetName(sheet.getName())}!${written.getA1Notation()}`, sourceOf,
  });
  // The old table's cells go first: a table that shrank leaves none of its old values behind.
  old.clearContent();
  // Metric names are API text: one reading "=…" stays text, as writeTable keeps it at insert.
  written.setValues(asSafeRows(rows));
  if (dateColumn) sheet.getRange(written.getRow(), written.getColumn(), rows.length, 1).setNumberFormat('yyyy-mm-dd');
  const definition: SnapshotDefinition = { ...d, range: written.getA1Notation(), refreshedAt: ctx.time };
  saveSnapshot({ definition, cells: fingerprints(written.getValues()) }, ctx.book);
  const newRange = `${quoteSheetName(sheet.getName())}!${definition.range}`;
  return {
    outcome: {
      ...base, range: newRange, status: changes.length ? 'refreshed' : 'unchanged', changes: changes.length,
      message: changes.length ? `Refreshed ${newRange}: ${plural(changes.length, 'value')} changed.` : `Refreshed ${newRange}: no value changed.`,
    },
    changes,
  };
}

function reportMessage(outcomes: readonly SnapshotRefreshOutcome[], changes: number, changesSheet: string | null): string {
  if (outcomes.length === 0) return 'This spreadsheet has no snapshots to refresh. Insert one with "Snapshot of today\'s values".';
  const refreshed = outcomes.filter((o) => o.status === 'refreshed' || o.status === 'unchanged').length;
  const parts = [`Refreshed ${refreshed} of ${plural(outcomes.length, 'snapshot')}; ${plural(changes, 'value')} changed${changesSheet && changes ? ` (listed in "${changesSheet}")` : ''}.`];
  for (const o of outcomes) if (o.status === 'refused' || o.status === 'failed') parts.push(o.message);
  return parts.join(' ');
}

/**
 * Writes every snapshot of the spreadsheet again, with the connection of whoever runs this (the caller's
 * user properties: the person who clicked, or the user whose trigger runs it), and appends the values that
 * changed to the Changes sheet. Never throws: each snapshot's failure is in its outcome, and a failure
 * before any snapshot (the lock, a missing token) is the report's `problem`. Failures are not written to
 * the Changes sheet here: the sidebar shows them; a scheduler records them with appendChanges.
 */
export function refreshAllSnapshots(origin: 'sidebar' | 'schedule', book: Book = SpreadsheetApp.getActiveSpreadsheet()): SnapshotRefreshReport {
  const refresh = `Refresh snapshots (${origin})`;
  try {
    return withDocumentLock(() => {
      const records = readSnapshots(book);
      const outcomes: SnapshotRefreshOutcome[] = [];
      const changes: ChangeRow[] = [];
      if (records.length) {
        const client = createClientForExecution({ credentialsOf: 'caller', maxTotalWaitMs: 60_000 });
        const listings = new Map<string, Metric[]>();
        const ctx: RefreshContext = {
          book,
          origin,
          client,
          metricsOf: (companyId) => listings.get(companyId) ?? (listings.set(companyId, client.metrics.list(companyId)), listings.get(companyId)!),
          time: new Date().toISOString(),
          refresh,
          timeZone: spreadsheetTimeZone(book),
        };
        for (const record of records) {
          try {
            const one = refreshOne(record, ctx);
            outcomes.push(one.outcome);
            changes.push(...one.changes);
          } catch (error) {
            const sheet = sheetById(record.definition.sheetId, book);
            const range = where(record.definition, sheet);
            outcomes.push({ id: record.definition.id, range, status: 'failed', changes: 0, cells: [], message: `Could not refresh ${range}: ${userSentence(error)}` });
          }
        }
      }
      const changesSheet = appendChanges(changes, book);
      const total = changes.length;
      return { origin, outcomes, changes: total, changesSheet, problem: null, message: reportMessage(outcomes, total, changesSheet) };
    });
  } catch (error) {
    const problem = userSentence(error);
    return { origin, outcomes: [], changes: 0, changesSheet: null, problem, message: problem };
  }
}
