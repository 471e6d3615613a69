// Snapshot tables: an insert records what it wrote (gas/snapshot-store.ts), and a refresh writes each again
// with the caller's own connection, refusing where a person typed, and appends what changed to Changes.
// The record lives in the document, so a refresh acts only on one the caller signed (core/trust) and reads
// only what the caller's formula access allows (core/snapshots/access): SECURITY.md, "What the document holds".

import { InputError, UntrustedRecordError, userSentence } from '../core/errors';
import type { ApiClient } from '../core/api/client';
import type { DataPoint, Metric } from '../core/api/types';
import { fingerprints, listCells } from '../core/formulas/freeze';
import { metricValuesCells } from '../core/formulas/metric-formulas';
import { fundDirectory, portfolioMetric, portfolioMetricUnits } from '../core/formulas/fund-functions';
import { namingAggregate } from '../core/formulas/fund-cells';
import type { FormulaContext } from '../core/formulas/formula-context';
import type { Aggregate } from '../core/sheets/period-aggregate';
import { countOf } from '../shared/words';
import { parseTableOptions } from '../core/sheets/metric-table';
import { metricTableFormats, portfolioGridFormats } from '../core/sheets/number-formats';
import { snapshotAccessProblem } from '../core/snapshots/access';
import { sourceText, type ChangeRow } from '../core/snapshots/changes';
import { readGrid, readTable, tableChanges, type SnapshotDefinition } from '../core/snapshots/snapshot';
import { isDateLike, isIsoDate } from '../core/validate/dates';
import { withDocumentLock } from '../gas/cache-and-lock';
import { appendChanges } from '../gas/changes-sheet';
import { ensureSize } from '../gas/own-sheets';
import { quoteSheetName, setTableFormats, typedCells, writeTable, writeValues, type CellAnchor, type TableFormats } from '../gas/sheet-io';
import { readSnapshots, saveSnapshot, type StoredSnapshot } from '../gas/snapshot-store';
import { appsScriptDateFormatter, spreadsheetTimeZone } from '../gas/spreadsheet-dates';
import { callerListCountsForFormulas } from '../gas/ownership';
import { addFormulaAccess, readFormulaAccess } from '../gas/user-settings';
import type { InsertReport, SnapshotRefreshOutcome, SnapshotRefreshReport, SnapshotSummary } from '../shared/rpc';
import { sidebarClient } from './api-factory';
import { createFormulaContext } from './formula-context';

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;
type Row = Array<string | number | boolean | Date | null>;
/** A scheduled refresh opens the spreadsheet by id: a time-driven trigger has no active one. */
type Book = GoogleAppsScript.Spreadsheet.Spreadsheet;
/** A snapshot's formula arguments: its definition but for where and when. */
type Arguments = Omit<SnapshotDefinition, 'v' | 'id' | 'sheetId' | 'range' | 'insertedAt' | 'refreshedAt'>;

/** Two refreshes (or an insert and a refresh) at once would each rewrite the store from what they read. */
const BUSY = 'inserting or refreshing snapshots';

/** Rows padded with '' to the longest, as one setValues needs. */
function rectangular(table: readonly (readonly unknown[])[]): Row[] {
  const width = Math.max(...table.map((row) => row.length));
  return table.map((row) => Array.from({ length: width }, (_, i) => (row[i] ?? '') as Row[number]));
}

/** The table METRIC_VALUES would show, shaped by the formula's own function, and its data rows' formats by each metric's unit. */
function buildTable(
  definition: Arguments,
  points: readonly DataPoint[],
  metrics: readonly Metric[],
  timeZone: string,
): { rows: Row[]; names: string[]; formats: TableFormats } {
  const byId = new Map(metrics.map((m) => [m.id, m] as const));
  const names = definition.metricIds.map((id) => byId.get(id)?.name ?? id);
  const options = parseTableOptions('', { headers: definition.options.headers });
  const cells = metricValuesCells(
    points,
    definition.metricIds,
    options.headers ? names : definition.metricIds,
    options,
    timeZone,
    definition.startDate ?? undefined,
    definition.endDate ?? undefined,
    appsScriptDateFormatter,
  );
  const rows = rectangular(cells);
  const headerRows = options.headers ? 1 : 0;
  const units = definition.metricIds.map((id) => byId.get(id)?.unit);
  return { rows, names, formats: { headerRows, rows: metricTableFormats(units, rows.length - headerRows) } };
}

/**
 * Records (signed by the caller) the table just written at `range` on the sheet, so that "Refresh snapshots"
 * writes it again, and adds its company to the caller's formula access here, which a refresh checks: the
 * caller chose to show that company's data in this spreadsheet. For the owner that is the list formulas read,
 * as a live formula's insert adds it; the returned sentence says so ('' when nothing changed for formulas).
 */
function recordSnapshot(sheetName: string, range: string, args: Arguments): string {
  const sheet = SpreadsheetApp.getActiveSpreadsheet().getSheetByName(sheetName)!;
  saveSnapshot({
    definition: { v: 1, id: Utilities.getUuid(), ...args, sheetId: sheet.getSheetId(), range, insertedAt: new Date().toISOString(), refreshedAt: null },
    cells: fingerprints(sheet.getRange(range).getValues()),
  });
  const added = addFormulaAccess(args.companyId);
  // In a Shared Drive file the caller's list counts only once they connected it; a snapshot does not connect it.
  return added && callerListCountsForFormulas() !== false ? ` Formulas in this spreadsheet may now read company ${args.companyId}'s data.` : '';
}

/**
 * "Snapshot of today's values" (arguments checked by insertMetricValues): the values METRIC_VALUES would show,
 * written at `anchor` (only into empty cells), and recorded so that "Refresh snapshots" can write them again.
 */
export function insertMetricSnapshot(
  anchor: CellAnchor,
  request: { metricIds: string[]; companyId: string; startDate?: string; endDate?: string; headers: boolean },
): InsertReport {
  const { metricIds, companyId, startDate, endDate, headers } = request;
  const api = sidebarClient();
  const points = api.dataPoints.list(metricIds, { startDate, endDate });
  if (points.length === 0) throw new InputError('These metrics have no data points in that range: nothing was written.');
  const args: Arguments = { kind: 'metric_values', companyId, metricIds, startDate: startDate ?? null, endDate: endDate ?? null, options: { headers } };
  // The listing names the columns and gives each metric's unit, so its values show as money, percent or number.
  const { rows, formats } = buildTable(args, points, api.metrics.list(companyId), spreadsheetTimeZone());
  return withDocumentLock(BUSY, () => {
    const range = writeTable(anchor, rows, formats);
    const access = recordSnapshot(anchor.sheetName, range, args);
    const dataRows = rows.length - (headers ? 1 : 0);
    const where = `${quoteSheetName(anchor.sheetName)}!${range}`;
    return {
      range: where,
      rows: dataRows,
      message: `Wrote ${countOf(dataRows, 'row')} of values to ${where}. "Refresh snapshots" in this tab writes them again with the values the API holds then.${access}`,
    };
  });
}

/**
 * A PORTFOLIO_METRIC grid's formats below its header, right of its company names: each company's values in its
 * metric's unit, over `periods` columns (its Unit column, text, keeps its own). The directory is the one the grid
 * itself just read (cached in `ctx`).
 */
export function portfolioTableFormats(ctx: FormulaContext, fundId: string, metricName: string, periods: number): TableFormats {
  return { headerRows: 1, leftColumns: 1, rows: portfolioGridFormats(portfolioMetricUnits(fundDirectory(ctx, fundId), metricName), periods) };
}

/** Records a PORTFOLIO_METRIC grid the Portfolio tab wrote at `range` (A1 on the anchor's sheet); the sentence as recordSnapshot's. */
export function recordPortfolioSnapshot(
  anchor: CellAnchor,
  range: string,
  choice: { fundId: string; metricName: string; periods: string[]; aggregate: Aggregate | null },
): string {
  return withDocumentLock(BUSY, () =>
    recordSnapshot(anchor.sheetName, range, {
      kind: 'portfolio_metric',
      companyId: choice.fundId,
      metricIds: [],
      startDate: null,
      endDate: null,
      options: { headers: true },
      metricName: choice.metricName,
      periods: choice.periods,
      ...(choice.aggregate ? { aggregate: choice.aggregate } : {}),
    }),
  );
}

function sheetById(id: number, book: Book = SpreadsheetApp.getActiveSpreadsheet()): Sheet | null {
  return book.getSheets().find((sheet) => sheet.getSheetId() === id) ?? null;
}

function where(definition: SnapshotDefinition, sheet: Sheet | null): string {
  return sheet ? `${quoteSheetName(sheet.getName())}!${definition.range}` : definition.range;
}

/** The spreadsheet's snapshots, in the order they were inserted; `verified` is false for one the caller's refresh refuses. */
export function listSnapshots(): SnapshotSummary[] {
  return readSnapshots().map(({ definition: d, verified }) => {
    const sheet = sheetById(d.sheetId);
    return {
      id: d.id,
      kind: d.kind,
      range: where(d, sheet),
      sheetExists: sheet !== null,
      companyId: d.companyId,
      metricIds: d.metricIds,
      startDate: d.startDate,
      endDate: d.endDate,
      headers: d.options.headers,
      metricName: d.metricName ?? null,
      periods: d.periods ?? [],
      insertedAt: d.insertedAt,
      refreshedAt: d.refreshedAt,
      verified,
    };
  });
}

interface RefreshContext {
  book: Book;
  origin: 'sidebar' | 'schedule';
  client: ApiClient;
  metricsOf: (companyId: string) => Metric[];
  /** The caller's formula access for this spreadsheet: what a refresh may read, whatever a definition says. */
  allowedCompanyIds: readonly string[];
  time: string;
  timeZone: string;
  /** Changes rows of the snapshots written so far. */
  changes: ChangeRow[];
}

/** The table as its formula would show it now (read fresh, as the caller), both tables read for comparing, and its rows' formats. */
function rebuild(d: SnapshotDefinition, oldValues: unknown[][], ctx: RefreshContext) {
  if (d.kind === 'portfolio_metric') {
    if (ctx.origin === 'schedule') {
      // Its function reads the cache generation and formula access from document properties, null in a time-driven trigger.
      throw new InputError(
        'A portfolio grid is refreshed from the sidebar only (Refresh snapshots): a scheduled refresh has no open document to read its settings from.',
      );
    }
    // The function itself, reading past the caches, as the caller, allowed what the caller's formula access allows.
    const fresh = createFormulaContext({ fundId: d.companyId, fresh: true, allowedCompanyIds: ctx.allowedCompanyIds });
    // A grid recorded before names carried their aggregate kept it apart: the name takes it, as the function reads it.
    const rows = rectangular(portfolioMetric(fresh, namingAggregate(d.metricName!, d.aggregate), [d.periods!], d.companyId));
    const periods = d.periods!.length;
    const formats = portfolioTableFormats(fresh, d.companyId, d.metricName!, periods);
    // The grid reads no sources: PORTFOLIO_METRIC does not show them. Only its period columns are compared: a grid
    // inserted before it had a Unit column gains one on its first refresh, and a unit is no value that changed.
    return { rows, before: readGrid(oldValues, d.metricName!, periods), after: readGrid(rows, d.metricName!, periods), names: [], sourceOf: () => '', formats };
  }
  // With sources for the Changes rows; the table itself shows values only.
  const points = ctx.client.dataPoints.list([...new Set(d.metricIds)], {
    startDate: d.startDate ?? undefined,
    endDate: d.endDate ?? undefined,
    includeSource: true,
  });
  const { rows, names, formats } = buildTable(d, points, ctx.metricsOf(d.companyId), ctx.timeZone);
  const sources = new Map(points.map((point) => [`${point.metric_id}|${point.date}`, sourceText(point.source)] as const));
  // A first-column cell as its period's first day; null for the "No data points" sentence.
  const periodOf = (cell: unknown) =>
    isDateLike(cell) ? appsScriptDateFormatter(cell, ctx.timeZone) : typeof cell === 'string' && isIsoDate(cell) ? cell : null;
  return {
    rows,
    names,
    formats,
    before: readTable(oldValues, d, periodOf),
    after: readTable(rows, d, periodOf),
    sourceOf: (column: number, period: string) => sources.get(`${d.metricIds[column]}|${period}`) ?? '',
  };
}

/** The refusal of a record the caller did not sign as it reads now: nothing of it is read, written or trusted. */
const NOT_SIGNED_REMEDY =
  'Left it as it was. Insert the snapshot again ("Snapshot of today\'s values") to refresh it with your connection; "Refresh snapshots" refreshes only snapshots you inserted, as you inserted them.';

function refreshOne(record: StoredSnapshot, ctx: RefreshContext): SnapshotRefreshOutcome {
  const d = record.definition;
  // Its sheet's name is looked up for the sentence only: nothing of an unverified definition is read, written or trusted.
  const sheet = sheetById(d.sheetId, ctx.book);
  const range = where(d, sheet);
  if (record.signedByAnother) {
    const message = `Left ${range} as it was: that snapshot was inserted by someone else, and "Refresh snapshots" refreshes only the snapshots you inserted (each person's refresh does theirs). Insert it again to refresh it with your connection.`;
    return { id: d.id, range, status: 'refused', changes: 0, cells: [], message, insertedByAnother: true };
  }
  if (!record.verified) {
    const message = new UntrustedRecordError(`The definition of the snapshot recorded at ${range}`, NOT_SIGNED_REMEDY).message;
    return { id: d.id, range, status: 'refused', changes: 0, cells: [], message };
  }
  const left = (status: 'refused' | 'failed', message: string, cells: string[] = []): SnapshotRefreshOutcome => ({
    id: d.id,
    range,
    status,
    changes: 0,
    cells,
    message,
  });
  if (!sheet) return left('failed', `The sheet of snapshot ${d.range} was deleted: there is nothing to refresh.`);
  const old = sheet.getRange(d.range);
  const oldValues = old.getValues();
  const typed = typedCells(old, record, oldValues);
  if (typed.length) {
    const one = typed.length === 1;
    return left(
      'refused',
      `Left ${range} as it was: ${listCells(typed)} changed since the snapshot was last written, and refreshing would overwrite ${one ? 'it' : 'them'}. Move what you typed elsewhere and clear ${one ? 'that cell' : 'those cells'} (or put back the snapshot's value${one ? '' : 's'}), then refresh again. If the table itself moved (rows or columns inserted before it), insert the snapshot again where it is now.`,
      typed,
    );
  }
  // Before any of its data is read; only allowed companies' listings are read to decide.
  const denied = snapshotAccessProblem(d, ctx.allowedCompanyIds, ctx.metricsOf);
  if (denied) {
    return left(
      'refused',
      `Left ${range} as it was: ${denied}. Insert the snapshot again to allow its company here (or, as the spreadsheet's owner, allow it in Settings › Formula access), then refresh.`,
    );
  }
  const { rows, before, after, names, sourceOf, formats } = rebuild(d, oldValues, ctx);
  const width = rows[0]!.length;
  const lastRow = old.getRow() + rows.length - 1;
  const lastColumn = old.getColumn() + width - 1;
  // A table that grew may only take cells that are empty now; past the grid's edge there are none (rows are added below).
  const grown: string[] = [];
  const inGrid = sheet.getRange(
    old.getRow(),
    old.getColumn(),
    Math.min(lastRow, sheet.getMaxRows()) - old.getRow() + 1,
    Math.min(lastColumn, sheet.getMaxColumns()) - old.getColumn() + 1,
  );
  const formulas = inGrid.getFormulas();
  inGrid.getValues().forEach((cells, i) =>
    cells.forEach((value, j) => {
      const r = inGrid.getRow() + i;
      const c = inGrid.getColumn() + j;
      const inOld = r <= old.getLastRow() && c <= old.getLastColumn();
      if (!inOld && (value !== '' || formulas[i]![j] !== '')) grown.push(sheet.getRange(r, c).getA1Notation());
    }),
  );
  if (grown.length) {
    const one = grown.length === 1;
    return left(
      'refused',
      `Left ${range} as it was: the table now has ${countOf(rows.length, 'row')} and ${countOf(width, 'column')}, and ${listCells(grown)} beside it ${one ? 'is' : 'are'} not empty. Move ${one ? 'that cell' : 'those cells'} out of the way, then refresh again.`,
      grown,
    );
  }
  ensureSize(sheet, lastRow, lastColumn);

  const written = sheet.getRange(old.getRow(), old.getColumn(), rows.length, width);
  const newRange = `${quoteSheetName(sheet.getName())}!${written.getA1Notation()}`;
  const changes = tableChanges(before, after, { names, time: ctx.time, refresh: `Refresh snapshots (${ctx.origin})`, range: newRange, sourceOf });
  // The old table's cells go first: a table that shrank leaves none of its old values behind.
  old.clearContent();
  // Metric names are API text: one reading "=…" stays text, as writeTable keeps it at insert.
  writeValues(written, rows);
  setTableFormats(written, formats);
  saveSnapshot({ definition: { ...d, range: written.getA1Notation(), refreshedAt: ctx.time }, cells: fingerprints(written.getValues()) }, ctx.book);
  ctx.changes.push(...changes);
  return {
    id: d.id,
    range: newRange,
    status: changes.length ? 'refreshed' : 'unchanged',
    changes: changes.length,
    cells: [],
    message: `Refreshed ${newRange}: ${changes.length ? `${countOf(changes.length, 'value')} changed` : 'no value changed'}.`,
  };
}

function reportMessage(outcomes: readonly SnapshotRefreshOutcome[], changes: number, changesSheet: string | null): string {
  if (outcomes.length === 0) return 'This spreadsheet has no snapshots to refresh. Insert one with "Snapshot of today\'s values".';
  const refreshed = outcomes.filter((o) => o.status === 'refreshed' || o.status === 'unchanged').length;
  const parts = [
    `Refreshed ${refreshed} of ${countOf(outcomes.length, 'snapshot')}; ${countOf(changes, 'value')} changed${changesSheet && changes ? ` (listed in "${changesSheet}")` : ''}.`,
  ];
  for (const o of outcomes) if (o.status === 'refused' || o.status === 'failed') parts.push(o.message);
  return parts.join(' ');
}

/**
 * Writes every snapshot again with the connection of whoever runs this (who clicked, or whose trigger runs)
 * and appends the values that changed to the Changes sheet. Never throws: each snapshot's failure is in its
 * outcome, and a failure before any (the lock, a missing token) is the report's `problem`. Failures are not
 * written to Changes here: the sidebar shows them; a scheduler records them.
 */
export function refreshAllSnapshots(origin: 'sidebar' | 'schedule', book: Book = SpreadsheetApp.getActiveSpreadsheet()): SnapshotRefreshReport {
  try {
    return withDocumentLock(BUSY, (held) => {
      const records = readSnapshots(book);
      const outcomes: SnapshotRefreshOutcome[] = [];
      const changes: ChangeRow[] = [];
      if (records.length) {
        const client = sidebarClient({ userLockHeld: held === 'user' });
        const listings = new Map<string, Metric[]>();
        const ctx: RefreshContext = {
          book,
          origin,
          client,
          metricsOf: (companyId) => listings.get(companyId) ?? (listings.set(companyId, client.metrics.list(companyId)), listings.get(companyId)!),
          allowedCompanyIds: readFormulaAccess(undefined, book.getId()),
          time: new Date().toISOString(),
          timeZone: spreadsheetTimeZone(book),
          changes,
        };
        for (const record of records) {
          try {
            outcomes.push(refreshOne(record, ctx));
          } catch (error) {
            const range = where(record.definition, sheetById(record.definition.sheetId, book));
            outcomes.push({
              id: record.definition.id,
              range,
              status: 'failed',
              changes: 0,
              cells: [],
              message: `Could not refresh ${range}: ${userSentence(error)}`,
            });
          }
        }
      }
      const changesSheet = appendChanges(changes, book);
      return { origin, outcomes, changes: changes.length, changesSheet, problem: null, message: reportMessage(outcomes, changes.length, changesSheet) };
    });
  } catch (error) {
    const problem = userSentence(error);
    return { origin, outcomes: [], changes: 0, changesSheet: null, problem, message: problem };
  }
}
