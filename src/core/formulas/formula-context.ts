// What a custom function needs, handed in: the core's formulas know no Apps Script global.

import { InputError } from '../errors';
import type { ApiClient } from '../api/client';
import type { PaginationMeta } from '../api/types';
import { MAX_WAVE } from '../api/requester';
import type { RecordsCache } from '../series/records-cache';
import type { SeriesCache } from '../series/series-cache';
import type { DateFormatter } from '../validate/dates';

export interface FormulaContext {
  /** The spreadsheet's time zone: Date cells are read and written in it. */
  timeZone: string;
  formatDate: DateFormatter;
  /** Created on first use, so a cached answer needs no token or request. */
  client(): ApiClient;
  series: SeriesCache;
  records: RecordsCache;
  /** The company the user chose in settings, where a formula needs one it was not given. */
  defaultCompanyId: string | null;
  /** The companies formulas here may read, as the spreadsheet's owner decided (formula-access.ts); lower case. */
  readonly allowedCompanyIds: readonly string[];
  now(): number;
  /** The metric ids the calling cell's sheet reads whole (metricIdsReadWhole), read only before a fetch. */
  recalculationMetricIds?(): readonly string[];
}

/**
 * Throws before pages 2..N are fetched when they cannot arrive before the deadline: a clear error beats
 * Apps Script killing the formula at 30 s, and a partial table would be wrong.
 */
export function deadlineGuard(client: ApiClient): (meta: PaginationMeta, firstPageMs: number) => void {
  return (meta, firstPageMs) => {
    const waves = Math.ceil((meta.total_pages - 1) / MAX_WAVE);
    const estimateMs = waves * Math.max(firstPageMs, 100) * 1.5 + 500;
    if (estimateMs > client.remainingMs()) {
      throw new InputError(
        `This holds ${meta.total} records over ${meta.total_pages} pages, more than a formula can read within Apps Script's 30-second limit. Narrow the date range, or split it over several formulas.`,
      );
    }
  };
}
