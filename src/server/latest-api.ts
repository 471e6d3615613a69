// The metric browser's latest values: include_source=true reads, 20 metrics to a request.

import { InputError } from '../core/errors';
import { addDays } from '../core/sheets/periods';
import { LATEST_LOOKBACK_DAYS, latestValues } from '../core/series/latest-values';
import { requireUuid } from '../core/validate/uuid';
import { appsScriptDateFormatter, spreadsheetTimeZone } from '../gas/spreadsheet-dates';
import type { LatestValue } from '../shared/rpc';
import { sidebarClient } from './api-factory';

/**
 * Not through the formulas' series cache: that cache is the spreadsheet owner's and keyed by formula
 * ranges, while this runs as whoever opened the sidebar, once per "Load". Latest means on or before
 * today in the spreadsheet's time zone, as METRIC_LATEST reads it.
 */
export function latestMetricValues(metricIds: string[]): LatestValue[] {
  const api = sidebarClient();
  if (!Array.isArray(metricIds)) throw new InputError('Give the metric ids as a list.');
  const ids = [...new Set(metricIds.map((id) => requireUuid(id, 'A metric id')))];
  if (ids.length === 0) return [];
  const today = appsScriptDateFormatter(new Date(), spreadsheetTimeZone());
  const options = { endDate: today, excludeBlank: true, includeSource: true };
  const recent = api.dataPoints.list(ids, { ...options, startDate: addDays(today, -LATEST_LOOKBACK_DAYS) });
  const found = new Set(recent.map((point) => point.metric_id));
  const older = ids.filter((id) => !found.has(id));
  const points = older.length ? [...recent, ...api.dataPoints.list(older, options)] : recent;
  return latestValues(points, ids);
}
