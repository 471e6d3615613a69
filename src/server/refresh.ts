// The "Refresh data" menu item: every add-in formula in the spreadsheet fetches fresh values.

import { InputError } from '../core/errors';
import { plural } from '../core/product';
import type { FormulaRefreshReport } from '../shared/rpc';
import { findAddinFormulas, type FormulaCell } from '../core/formulas/names';
import { formulasReadingMetrics } from '../core/formulas/reads-metrics';
import { isUuid } from '../core/validate/uuid';
import { startNewCacheGeneration } from '../gas/document-settings';

/**
 * Sheets re-runs a custom function only when its arguments change, and our cache would answer
 * it anyway. So: start a new cache generation (every cache key includes it, so nothing cached
 * before counts), then clear and rewrite each add-in formula, which makes Sheets run it again.
 */
export function refreshAllFormulas(): number {
  startNewCacheGeneration();
  return rewriteFormulas((formulas) => findAddinFormulas(formulas));
}

/** Most metric ids one call accepts: an export writes a few dozen at most. */
const MAX_METRIC_IDS = 500;

/**
 * Rewrites only the formulas that read these metrics' series (see formulasReadingMetrics for which),
 * so Sheets runs them again. It does not drop any cache: the writer did that when the API confirmed
 * the write (dropCachedSeries), and a formula run again reads past the dropped entries.
 */
export function refreshFormulasFor(metricIds: unknown): number {
  if (!Array.isArray(metricIds) || metricIds.length > MAX_METRIC_IDS || !metricIds.every((id) => isUuid(id))) {
    throw new InputError(`The metric ids must be a list of at most ${MAX_METRIC_IDS} ids.`);
  }
  const ids = metricIds as string[];
  return rewriteFormulas((formulas, values) => formulasReadingMetrics(formulas, ids, (row, column) => values[row - 1]?.[column - 1]));
}

/** refreshFormulasFor, in the sentence the exporter shows after an export. */
export function refreshFormulasReport(metricIds: string[]): FormulaRefreshReport {
  const formulas = refreshFormulasFor(metricIds);
  const message = formulas === 0 ? 'No formula here reads those metrics.' : `${plural(formulas, 'formula')} refreshed: they now show the values the API holds.`;
  return { formulas, message };
}

function rewriteFormulas(pick: (formulas: string[][], values: unknown[][]) => FormulaCell[]): number {
  const spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
  const pending: Array<{ range: GoogleAppsScript.Spreadsheet.Range; formula: string }> = [];
  for (const sheet of spreadsheet.getSheets()) {
    const data = sheet.getDataRange();
    // getDataRange starts at A1, so a reference's row and column index the grid as they are.
    const formulas = data.getFormulas();
    const values = formulas.some((row) => row.some((formula) => formula !== '')) ? data.getValues() : [];
    for (const cell of pick(formulas, values)) {
      pending.push({ range: sheet.getRange(data.getRow() + cell.row - 1, data.getColumn() + cell.column - 1), formula: cell.formula });
    }
  }
  if (pending.length === 0) return 0;
  for (const { range } of pending) range.clearContent();
  SpreadsheetApp.flush();
  for (const { range, formula } of pending) range.setFormula(formula);
  SpreadsheetApp.flush();
  return pending.length;
}
