// "Refresh data" (every add-in formula fetches fresh values) and the exporter's refresh of the formulas it affected.

import type { ApiClient } from '../core/api/client';
import { InputError, userSentence } from '../core/errors';
import type { DataPoint, Metric } from '../core/api/types';
import { cachedSeriesReads, type CachedSeriesRead } from '../core/formulas/cached-series';
import { allowedAmongListed } from '../core/formulas/formula-access';
import { listCells } from '../core/formulas/freeze';
import { countOf } from '../shared/words';
import type { FormulaRefreshReport } from '../shared/rpc';
import { findAddinFormulas, type FormulaCell } from '../core/formulas/names';
import { formulasReadingMetrics } from '../core/formulas/reads-metrics';
import { toCell } from '../core/sheets/metric-table';
import { sourceText, type ChangeRow } from '../core/snapshots/changes';
import { isUuid } from '../core/validate/uuid';
import { appendChanges } from '../gas/changes-sheet';
import { readEarlierEpochs, startNewCacheGeneration } from '../gas/document-settings';
import type { FormulaContext } from '../core/formulas/formula-context';
import type { EarlierEpochs } from '../core/series/series-epochs';
import { quoteSheetName, writeOwnFormula } from '../gas/sheet-io';
import { sidebarClient } from './api-factory';
import { createFormulaContext } from './formula-context';

/**
 * "Refresh data". Sheets re-runs a custom function only when its arguments change, and our cache would answer
 * it anyway. So: start a new cache generation (every cache key includes it), then rewrite each add-in formula.
 *
 * Before that, each series the formulas read that this user's cache holds is read again; a cached value that
 * differs now gets a Changes row (a failed read, a failure row). The fresh read goes into the new generation's
 * cache, where the formulas find it (when the user is the owner, whose cache custom functions use).
 *
 * The formulas are text any editor may have typed, so a series is read again only when formula access allows
 * every one of its metrics here (the list in the clicker's properties for this spreadsheet: the owner's is the
 * one formulas use), and only from this spreadsheet's part of the cache (readCacheScope).
 */
export function refreshAllFormulasWithChanges(onStage: (stage: string) => void = () => undefined): { formulas: number; changes: number } {
  // One scan of the sheets serves the count, the comparison and the rewrite: nothing edits them in between.
  const sheets = sheetsWithFormulas();
  const count = sheets.reduce((sum, { formulas }) => sum + findAddinFormulas(formulas).length, 0);
  if (count > 0) onStage(`Refreshing ${countOf(count, 'formula')}…`);
  // Both read the generation that is about to end.
  const before = cachedSeriesBefore(sheets);
  const nameOf = before.length ? metricNames() : (id: string) => id;
  startNewCacheGeneration();
  if (before.length)
    onStage(
      `Refreshing ${countOf(count, 'formula')}: reading ${countOf(new Set(before.flatMap(({ read }) => read.ids)).size, 'metric')} again to compare with what the cells showed…`,
    );
  const rows = before.length ? compareWithFreshReads(before, nameOf) : [];
  if (count > 0) onStage(`Refreshing ${countOf(count, 'formula')}: writing them again, so Sheets recalculates them…`);
  const formulas = rewriteFormulas(findAddinFormulas, sheets);
  appendChanges(rows);
  return { formulas, changes: rows.filter((row) => row.kind === 'change').length };
}

/** The series the formulas read as the ending generation of this user's cache holds them, and where those formulas are. */
function cachedSeriesBefore(sheets: SheetWithFormulas[]): Array<{ read: CachedSeriesRead; points: DataPoint[]; where: string }> {
  const ctx = createFormulaContext();
  // Read only when the current epochs miss a series: one property call at most.
  let earlier: EarlierEpochs | undefined;
  const earlierEpochs = (): EarlierEpochs => (earlier ??= readEarlierEpochs());
  const byKey = new Map<string, { read: CachedSeriesRead; cells: string[] }>();
  for (const { sheet, formulas, valueAt } of sheets) {
    for (const read of cachedSeriesReads(formulas, valueAt)) {
      if (!byKey.has(read.key)) byKey.set(read.key, { read, cells: [] });
      byKey
        .get(read.key)!
        .cells.push(...read.cells.map((cell) => `${quoteSheetName(sheet.getName())}!${sheet.getRange(cell.row, cell.column).getA1Notation()}`));
    }
  }
  return [...byKey.values()].flatMap(({ read, cells }) => {
    // Checked against the listings the formulas' own checks cached (no request): a metric of a company not
    // allowed, or one whose listing is not cached, is left out, never let in; its formula runs again anyway.
    const allowed = new Set(allowedAmongListed(ctx, read.ids));
    if (!read.ids.every((id) => allowed.has(id.toLowerCase()))) return [];
    const points = ctx.series.get(read.key, read.ids) ?? shownBeforeDrop(ctx, earlierEpochs(), read);
    return points ? [{ read, points, where: listCells(cells) }] : [];
  });
}

/**
 * The series as the cells last showed it when a write (an export, the person's own included; an undo) dropped
 * it since and no formula has read it again: the entry under the newest earlier epoch that the cache still holds.
 * A formula that ran after the drop stored the current epoch's entry, which get() finds first.
 */
function shownBeforeDrop(ctx: FormulaContext, earlier: EarlierEpochs, read: CachedSeriesRead): DataPoint[] | null {
  if (read.ids.length !== 1) return null;
  const id = read.ids[0]!.toLowerCase();
  for (const epoch of [...(earlier[id] ?? [])].reverse()) {
    const points = ctx.series.getUnderEpochs(read.key, read.ids, { [id]: epoch });
    if (points) return points;
  }
  return null;
}

/** Metric names from the listings the formulas' access checks cached; the id otherwise. */
function metricNames(): (id: string) => string {
  const ctx = createFormulaContext();
  const names = new Map<string, string>();
  for (const companyId of ctx.allowedCompanyIds) {
    for (const metric of ctx.records.get<Metric[]>(`metrics:${companyId}:`) ?? []) names.set(metric.id, metric.name);
  }
  return (id) => names.get(id) ?? id;
}

function compareWithFreshReads(before: ReturnType<typeof cachedSeriesBefore>, nameOf: (id: string) => string): ChangeRow[] {
  const time = new Date().toISOString();
  const refresh = 'Refresh data';
  const rows: ChangeRow[] = [];
  // The new generation's cache, for the formulas that run again next.
  const fresh = createFormulaContext();
  const readNow = freshReader(before.map((b) => b.read));
  for (const { read, points, where } of before) {
    try {
      const now = readNow(read);
      // The shape the formula stores: without sources when it had none.
      fresh.series.put(read.key, read.includeSource ? now : now.map(({ source: _source, ...point }) => point), read.ids);
      const nowByKey = new Map(now.map((p) => [`${p.metric_id}|${p.date}`, p] as const));
      for (const old of points) {
        const point = nowByKey.get(`${old.metric_id}|${old.date}`);
        const oldValue = old.value ?? null;
        const newValue = point?.value ?? null;
        if ((oldValue ?? '') === (newValue ?? '')) continue;
        rows.push({
          kind: 'change',
          time,
          metric: nameOf(old.metric_id),
          period: old.date,
          oldValue: toCell(oldValue, false),
          newValue: toCell(newValue, false),
          source: newValue === null ? '' : sourceText(point?.source),
          refresh,
          range: where,
        });
      }
    } catch (error) {
      rows.push({ kind: 'failure', time, refresh, range: where, problem: `Could not compare the cached values with the API's: ${userSentence(error)}` });
    }
  }
  // A metric read by several formulas (a whole series and its sourced twin) reports each change once.
  const seen = new Set<string>();
  return rows.filter((row) => {
    const key = row.kind === 'change' ? `${row.metric}|${row.period}|${row.oldValue}|${row.newValue}` : `${row.range}|${row.problem}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * Reads the series again, with sources, so each row can say where its new value came from. Single-metric
 * reads of one window go together, 20 ids a request, as a recalculation's first cell fetches them: ten
 * metrics of two pages each cost the pages of their points together, not twenty requests. A failed batch
 * fails each of its reads; reads of several metrics go alone.
 */
function freshReader(reads: readonly CachedSeriesRead[]): (read: CachedSeriesRead) => DataPoint[] {
  let client: ApiClient | undefined;
  const api = () => (client ??= sidebarClient());
  const windowOf = (read: CachedSeriesRead) => `${read.start ?? ''}|${read.end ?? ''}|${read.excludeBlank}`;
  const listOf = (ids: readonly string[], read: CachedSeriesRead) =>
    api().dataPoints.list(ids, { startDate: read.start, endDate: read.end, excludeBlank: read.excludeBlank, includeSource: true });
  const batches = new Map<string, { ids: Set<string>; read: CachedSeriesRead; result?: DataPoint[] | { error: unknown } }>();
  for (const read of reads) {
    if (read.ids.length !== 1) continue;
    const batch = batches.get(windowOf(read)) ?? { ids: new Set<string>(), read };
    batch.ids.add(read.ids[0]!.toLowerCase());
    batches.set(windowOf(read), batch);
  }
  return (read) => {
    const batch = read.ids.length === 1 ? batches.get(windowOf(read)) : undefined;
    if (!batch) return listOf(read.ids, read);
    if (!batch.result) {
      try {
        batch.result = listOf([...batch.ids], batch.read);
      } catch (error) {
        batch.result = { error };
      }
    }
    if (!Array.isArray(batch.result)) throw batch.result.error;
    const id = read.ids[0]!.toLowerCase();
    return batch.result.filter((point) => point.metric_id.toLowerCase() === id);
  };
}

/** Most metric ids one call accepts: an export writes a few dozen at most. */
const MAX_METRIC_IDS = 500;

/**
 * Rewrites only the formulas that read these metrics' series, so Sheets runs them again. It drops no cache:
 * the writer did when the API confirmed the write (dropCachedSeries).
 */
export function refreshFormulasFor(metricIds: unknown): number {
  if (!Array.isArray(metricIds) || metricIds.length > MAX_METRIC_IDS || !metricIds.every((id) => isUuid(id))) {
    throw new InputError(`The metric ids must be a list of at most ${MAX_METRIC_IDS} ids.`);
  }
  return rewriteFormulas((formulas, valueAt) => formulasReadingMetrics(formulas, metricIds as string[], valueAt));
}

/** refreshFormulasFor, in the sentence the exporter shows after an export. */
export function refreshFormulasReport(metricIds: string[]): FormulaRefreshReport {
  const formulas = refreshFormulasFor(metricIds);
  const message =
    formulas === 0 ? 'No formula here reads those metrics.' : `${countOf(formulas, 'formula')} refreshed: they now show the values the API holds.`;
  return { formulas, message };
}

/** Each sheet that holds a formula, with its grids from A1 (getDataRange starts there), so a reference indexes them as it is. */
type SheetWithFormulas = { sheet: GoogleAppsScript.Spreadsheet.Sheet; formulas: string[][]; valueAt: (row: number, column: number) => unknown };

function sheetsWithFormulas(): SheetWithFormulas[] {
  return SpreadsheetApp.getActiveSpreadsheet()
    .getSheets()
    .flatMap((sheet) => {
      const data = sheet.getDataRange();
      const formulas = data.getFormulas();
      if (!formulas.some((row) => row.some((formula) => formula !== ''))) return [];
      const values = data.getValues();
      return [{ sheet, formulas, valueAt: (row: number, column: number) => values[row - 1]?.[column - 1] }];
    });
}

/** Clears the picked formulas and writes them again, which makes Sheets run them again. */
function rewriteFormulas(
  pick: (formulas: string[][], valueAt: (row: number, column: number) => unknown) => FormulaCell[],
  sheets = sheetsWithFormulas(),
): number {
  const pending = sheets.flatMap(({ sheet, formulas, valueAt }) =>
    pick(formulas, valueAt).map((cell) => ({ range: sheet.getRange(cell.row, cell.column), formula: cell.formula })),
  );
  if (pending.length === 0) return 0;
  for (const { range } of pending) range.clearContent();
  SpreadsheetApp.flush();
  for (const { range, formula } of pending) writeOwnFormula(range, formula);
  SpreadsheetApp.flush();
  return pending.length;
}
