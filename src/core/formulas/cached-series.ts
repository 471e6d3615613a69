// Which cached series the add-in's formulas read, so "Refresh data" can compare what the cache held with
// a fresh read and list the values it replaces (the Changes sheet).

import { InputError } from '../errors';
import { parseTableOptions } from '../sheets/metric-table';
import { seriesKey, type SeriesRange } from '../series/series-cache';
import { isIsoDate } from '../validate/dates';
import { isUuid } from '../validate/uuid';
import { findAddinFormulas, type CellValueAt, type FormulaCell, type FormulaGrid } from './names';
import { metricIdsIn, SERIES_CALL } from './reads-metrics';

export interface CachedSeriesRead extends SeriesRange {
  /** The series cache key loadPoints uses (without the generation and epochs the cache adds). */
  key: string;
  /** The formulas that read it, 1-based in the grid. */
  cells: FormulaCell[];
}

/** METRIC_VALUES whose arguments are all text: the one form whose range key can be known from the text alone. */
const LITERAL_VALUES = /METRIC_VALUES\s*\(\s*"([^"]*)"(?:\s*,\s*"([^"]*)")?(?:\s*,\s*"([^"]*)")?(?:\s*,\s*"([^"]*)")?\s*\)/gi;

/**
 * The series the grid's formulas read that can be found in the cache: the whole series, with and without
 * sources, of every id a series formula names or holds in a single-cell reference; and the range of a
 * METRIC_VALUES whose arguments are all text (one reading them from cells or ranges is not found).
 */
export function cachedSeriesReads(formulas: FormulaGrid, valueAt: CellValueAt): CachedSeriesRead[] {
  const reads = new Map<string, CachedSeriesRead>();
  const add = (cell: FormulaCell, range: SeriesRange): void => {
    const key = seriesKey(range);
    const read = reads.get(key) ?? { ...range, key, cells: [] };
    if (!read.cells.includes(cell)) read.cells.push(cell);
    reads.set(key, read);
  };
  for (const cell of findAddinFormulas(formulas)) {
    if (!SERIES_CALL.test(cell.formula)) continue;
    for (const id of metricIdsIn(cell.formula, valueAt)) {
      for (const includeSource of [false, true]) add(cell, { ids: [id], excludeBlank: false, includeSource });
    }
    for (const match of cell.formula.matchAll(LITERAL_VALUES)) {
      const [, id, start, end, options] = match;
      if (!id || !isUuid(id.trim()) || (start && !isIsoDate(start)) || (end && !isIsoDate(end))) continue;
      try {
        const { excludeBlank, source } = parseTableOptions(options ?? '');
        add(cell, { ids: [id.trim().toLowerCase()], start: start || undefined, end: end || undefined, excludeBlank, includeSource: source });
      } catch (error) {
        // An unknown option makes the formula an error: it read no series.
        if (!(error instanceof InputError)) throw error;
      }
    }
  }
  return [...reads.values()];
}
