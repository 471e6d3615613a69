// Which cached series the add-in's formulas read, so "Refresh data" can compare what the cache held with
// a fresh read and list the values it replaces (the Changes sheet). Pure: keys as loadPoints makes them.

import { InputError } from '../errors';
import { parseTableOptions } from '../sheets/metric-table';
import { isIsoDate } from '../validate/dates';
import { isUuid } from '../validate/uuid';
import { findAddinFormulas, type FormulaCell } from './names';
import { metricIdsIn, SERIES_CALL } from './reads-metrics';

export interface CachedSeriesRead {
  /** The series cache key loadPoints uses (without the generation and epochs the cache adds). */
  key: string;
  ids: string[];
  start?: string;
  end?: string;
  excludeBlank: boolean;
  includeSource: boolean;
  /** The formulas that read it, 1-based in the grid. */
  cells: FormulaCell[];
}

/** METRIC_VALUES whose arguments are all text: the one form whose range key can be known from the text alone. */
const LITERAL_VALUES = /METRIC_VALUES\s*\(\s*"([^"]*)"(?:\s*,\s*"([^"]*)")?(?:\s*,\s*"([^"]*)")?(?:\s*,\s*"([^"]*)")?\s*\)/gi;

/** loadPoints' key (see core/formulas/metric-formulas.ts). */
export function seriesKey(ids: readonly string[], start: string | undefined, end: string | undefined, excludeBlank: boolean, includeSource: boolean): string {
  return `${ids.join(',')}|${start ?? ''}|${end ?? ''}|${excludeBlank ? 'x' : ''}${includeSource ? '|s' : ''}`;
}

/**
 * The series the grid's formulas read that can be found in the cache: each metric's whole series (what
 * METRIC_VALUE and METRIC_LATEST share, and METRIC_SOURCE's with sources), for every id a series formula
 * names or reads from a single-cell reference on its sheet; and the range of a METRIC_VALUES whose
 * arguments are all text. A METRIC_VALUES reading its dates or ids from cells or ranges is not found.
 */
export function cachedSeriesReads(formulas: readonly (readonly string[])[], valueAt: (row: number, column: number) => unknown): CachedSeriesRead[] {
  const reads = new Map<string, CachedSeriesRead>();
  const add = (cell: FormulaCell, ids: string[], start: string | undefined, end: string | undefined, excludeBlank: boolean, includeSource: boolean): void => {
    const key = seriesKey(ids, start, end, excludeBlank, includeSource);
    const read = reads.get(key) ?? { key, ids, start, end, excludeBlank, includeSource, cells: [] };
    if (!read.cells.includes(cell)) read.cells.push(cell);
    reads.set(key, read);
  };
  for (const cell of findAddinFormulas(formulas)) {
    if (!SERIES_CALL.test(cell.formula)) continue;
    for (const id of metricIdsIn(cell.formula, valueAt)) {
      add(cell, [id], undefined, undefined, false, false);
      add(cell, [id], undefined, undefined, false, true);
    }
    for (const match of cell.formula.matchAll(LITERAL_VALUES)) {
      const [, id, start, end, options] = match;
      if (!id || !isUuid(id.trim())) continue;
      if ((start && !isIsoDate(start)) || (end && !isIsoDate(end))) continue;
      try {
        const parsed = parseTableOptions(options ?? '');
        add(cell, [id.trim().toLowerCase()], start || undefined, end || undefined, parsed.excludeBlank, parsed.source);
      } catch (error) {
        // An unknown option makes the formula an error: it read no series.
        if (!(error instanceof InputError)) throw error;
      }
    }
  }
  return [...reads.values()];
}
