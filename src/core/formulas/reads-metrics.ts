// Which of the add-in's formulas read given metrics' series: the ones to rewrite after a write to them.

import { isUuid } from '../validate/uuid';
import { callOf, findAddinFormulas, type CellValueAt, type FormulaCell, type FormulaGrid } from './names';

/** The functions that read data points; the others list records, which a data point write does not change. */
export const SERIES_CALL = callOf(['METRIC_VALUES', 'METRIC_VALUE', 'METRIC_LATEST', 'METRIC_SOURCE']);
/** The functions that read a metric's whole series (the cache entry every cell of the metric shares). */
const WHOLE_SERIES_CALL = callOf(['METRIC_VALUE', 'METRIC_LATEST']);
const UUID_IN_TEXT = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/**
 * A single-cell reference on the formula's own sheet (B2, $B$2). Not one that starts or ends a range
 * (B2:C3), names another sheet (Other!B2), or calls a function (LOG10().
 */
const CELL_REFERENCE = /(?<![A-Za-z0-9_!$.:'"])\$?([A-Z]{1,3})\$?([1-9][0-9]*)(?![A-Za-z0-9_(!:])/gi;

/** The formula with its string literals emptied: "A1" in quotes is text, not a reference. */
export function withoutStrings(formula: string): string {
  return formula.replace(/"(?:[^"]|"")*"/g, '""');
}

function columnNumber(letters: string): number {
  return [...letters.toUpperCase()].reduce((n, letter) => n * 26 + letter.charCodeAt(0) - 64, 0);
}

/**
 * The formula cells of one sheet that read one of `metricIds`: by naming it, or through a single-cell
 * reference on the sheet that holds it. Ranges, other sheets and named ranges are not followed: Refresh
 * data reaches those formulas.
 */
export function formulasReadingMetrics(formulas: FormulaGrid, metricIds: readonly string[], valueAt: CellValueAt): FormulaCell[] {
  const ids = new Set(metricIds.map((id) => id.trim().toLowerCase()).filter((id) => id !== ''));
  if (ids.size === 0) return [];
  const mentions = (text: string): boolean => [...ids].some((id) => text.toLowerCase().includes(id));
  return findAddinFormulas(formulas).filter(({ formula }) => {
    if (!SERIES_CALL.test(formula)) return false;
    if (mentions(formula)) return true;
    return referencedValues(formula, valueAt).some((value) => typeof value === 'string' && ids.has(value.trim().toLowerCase()));
  });
}

/**
 * The metric ids the grid's METRIC_VALUE and METRIC_LATEST formulas read whole, each once, in sheet
 * order: what a recalculation of this sheet is about to ask for, so its first fetch can take them all.
 * An id here that no formula reads costs a little data, never a value shown: each cell checks access.
 */
export function metricIdsReadWhole(formulas: FormulaGrid, valueAt: CellValueAt): string[] {
  const calls = findAddinFormulas(formulas).filter(({ formula }) => WHOLE_SERIES_CALL.test(formula));
  return [...new Set(calls.flatMap(({ formula }) => metricIdsIn(formula, valueAt)))];
}

/** The ids a formula names in its text or holds in its single-cell references, lower case, each once. */
export function metricIdsIn(formula: string, valueAt: CellValueAt): string[] {
  const referenced = referencedValues(formula, valueAt).filter((value): value is string => typeof value === 'string' && isUuid(value.trim()));
  return [...new Set([...(formula.match(UUID_IN_TEXT) ?? []), ...referenced].map((id) => id.trim().toLowerCase()))];
}

/** The values of the formula's single-cell references (see CELL_REFERENCE), in order. */
function referencedValues(formula: string, valueAt: CellValueAt): unknown[] {
  return [...withoutStrings(formula).matchAll(CELL_REFERENCE)].map((match) => valueAt(Number(match[2]), columnNumber(match[1]!)));
}
