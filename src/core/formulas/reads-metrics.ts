// Which of the add-in's formulas read given metrics' series: the ones to rewrite after a write to them.

import { findAddinFormulas, type FormulaCell } from './names';

/** The functions that read data points; the others list records, which a data point write does not change. */
export const SERIES_CALL = /(^|[^A-Z0-9_.])(METRIC_VALUES|METRIC_VALUE|METRIC_LATEST|METRIC_SOURCE)\s*\(/i;

/**
 * A single-cell reference on the formula's own sheet (B2, $B$2). Not one that starts or ends a range
 * (B2:C3), names another sheet (Other!B2), or calls a function (LOG10().
 */
const CELL_REFERENCE = /(?<![A-Za-z0-9_!$.:'"])\$?([A-Z]{1,3})\$?([1-9][0-9]*)(?![A-Za-z0-9_(!:])/gi;

/** The formula with its string literals emptied: "A1" in quotes is text, not a reference. */
function withoutStrings(formula: string): string {
  return formula.replace(/"(?:[^"]|"")*"/g, '""');
}

function columnNumber(letters: string): number {
  return [...letters.toUpperCase()].reduce((n, letter) => n * 26 + letter.charCodeAt(0) - 64, 0);
}

/**
 * The formula cells of one sheet's grid that read one of `metricIds`: those whose text names an id,
 * and those whose single-cell references on the same sheet hold one (=METRIC_VALUE(A2, "2025-06") with
 * the id in A2). References to ranges, other sheets or named ranges are not followed, and a formula
 * that reads an id through them is left alone: Refresh data reaches it.
 * `valueAt(row, column)` is the 1-based cell's value in the same grid, or undefined outside it.
 */
export function formulasReadingMetrics(
  formulas: readonly (readonly string[])[],
  metricIds: readonly string[],
  valueAt: (row: number, column: number) => unknown,
): FormulaCell[] {
  const ids = new Set(metricIds.map((id) => id.trim().toLowerCase()).filter((id) => id !== ''));
  if (ids.size === 0) return [];
  const mentions = (text: string): boolean => [...ids].some((id) => text.toLowerCase().includes(id));
  return findAddinFormulas(formulas).filter(({ formula }) => {
    if (!SERIES_CALL.test(formula)) return false;
    if (mentions(formula)) return true;
    return referencedValues(formula, valueAt).some((value) => typeof value === 'string' && ids.has(value.trim().toLowerCase()));
  });
}

/** The functions that read a metric's whole series (the cache entry every cell of the metric shares). */
const WHOLE_SERIES_CALL = /(^|[^A-Z0-9_.])(METRIC_VALUE|METRIC_LATEST)\s*\(/i;
const UUID_IN_TEXT = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The metric ids that the grid's METRIC_VALUE and METRIC_LATEST formulas read whole, each once, lower
 * case, in sheet order (row by row): ids written in the formula's text, and ids in its single-cell
 * references on the same sheet (as formulasReadingMetrics follows them). What a recalculation of this
 * sheet is about to ask for, so the first cell that fetches can fetch them together. An id named
 * here that no formula reads costs a little data, never a value shown: every cell still checks access.
 */
export function metricIdsReadWhole(formulas: readonly (readonly string[])[], valueAt: (row: number, column: number) => unknown): string[] {
  const ids = new Set<string>();
  for (const { formula } of findAddinFormulas(formulas)) {
    if (!WHOLE_SERIES_CALL.test(formula)) continue;
    for (const match of formula.matchAll(UUID_IN_TEXT)) ids.add(match[0].toLowerCase());
    for (const value of referencedValues(formula, valueAt)) {
      if (typeof value === 'string' && UUID.test(value.trim())) ids.add(value.trim().toLowerCase());
    }
  }
  return [...ids];
}

/** The values of the single-cell references on the formula's own sheet (see CELL_REFERENCE), in order. */
export function referencedValues(formula: string, valueAt: (row: number, column: number) => unknown): unknown[] {
  return [...withoutStrings(formula).matchAll(CELL_REFERENCE)].map((match) => valueAt(Number(match[2]), columnNumber(match[1]!)));
}
