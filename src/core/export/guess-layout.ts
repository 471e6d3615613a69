// Guesses how a selection is laid out, so "Use selection" pre-fills the exporter's form.

import { isDateLike } from '../validate/dates';
import { resolveHeader } from './read-range';
import type { ExportLayout, MetricRef } from './types';

type LayoutGuess = { layout: ExportLayout; hasHeaderRow: boolean };

/** Date cells and YYYY-MM-DD text read as dates. */
function looksLikeDate(cell: unknown): boolean {
  return isDateLike(cell) || (typeof cell === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(cell.trim()));
}

/**
 * The header row: the first row holds no date where the second does. More than two columns are wide; two
 * are long unless the second header names one of the company's metrics (the wide layout with one metric).
 * The metrics are loaded only for that case, since loading them costs a request.
 */
export function guessLayout(values: ReadonlyArray<ReadonlyArray<unknown>>, loadMetrics: () => readonly MetricRef[]): LayoutGuess {
  const first = values[0] ?? [];
  const second = values[1] ?? [];
  const columns = first.length;
  const hasHeaderRow = values.length > 1 && !looksLikeDate(first[0]) && looksLikeDate(second[0]);
  if (columns > 2) return { layout: 'wide', hasHeaderRow };
  if (columns === 2 && hasHeaderRow && namesMetric(first[1], loadMetrics)) return { layout: 'wide', hasHeaderRow };
  return { layout: 'long', hasHeaderRow };
}

/** Whether a header cell names one metric, as the wide layout would resolve it. */
function namesMetric(cell: unknown, loadMetrics: () => readonly MetricRef[]): boolean {
  if (typeof cell !== 'string' || cell.trim() === '') return false;
  return 'metric' in resolveHeader(cell.trim(), loadMetrics());
}
