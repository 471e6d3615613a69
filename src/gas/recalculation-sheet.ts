// What the sheet being recalculated is about to ask for: read by the custom function that fetches first.

import { metricIdsReadWhole, withoutStrings } from '../core/formulas/reads-metrics';

/**
 * Most cells of the calling sheet read to find its metric ids: getFormulas and getValues of a sheet
 * this size stay well under a second; a bigger sheet's cells fetch each metric on their own. Google
 * publishes no cost per cell read (*unverified*: the stricter, smaller bound).
 */
const MAX_SCANNED_CELLS = 50_000;

/**
 * The metric ids the calling cell's sheet reads whole. In a custom function the active range is the
 * calling cell, and it may read the spreadsheet ("read only (can use most get*() methods, but not
 * set*())", custom functions guide).
 */
export function readRecalculationMetricIds(): string[] {
  const sheet = SpreadsheetApp.getActiveRange().getSheet();
  const data = sheet.getDataRange();
  if (data.getNumRows() * data.getNumColumns() > MAX_SCANNED_CELLS) return [];
  const formulas = data.getFormulas();
  // getDataRange starts at A1, so a reference's row and column index the grid as they are.
  const values = formulas.some((row) => row.some((formula) => /[A-Z]\$?[0-9]/i.test(withoutStrings(formula)))) ? data.getValues() : [];
  return metricIdsReadWhole(formulas, (row, column) => values[row - 1]?.[column - 1]);
}
