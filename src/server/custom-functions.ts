// The custom functions' bodies: read the arguments, call the API, shape cells, and fail with a sentence.

import { userMessage } from '../core/api/errors';
import { parseTableOptions, shapeSeries, type Cell } from '../core/sheets/metric-table';
import { toIsoDate } from '../core/validate/dates';
import { requireUuid } from '../core/validate/uuid';
import { appsScriptDateFormatter, spreadsheetTimeZone } from '../gas/spreadsheet-dates';
import { createClientForExecution } from './api-factory';

/** Apps Script stops a custom function at 30 s; API work must end well before, leaving time to return cells. */
const CUSTOM_FUNCTION_API_BUDGET_MS = 25_000;

/** Runs a custom function's body; any failure becomes an Error whose message the cell shows. */
function asCell<T>(body: () => T): T {
  try {
    return body();
  } catch (error) {
    throw new Error(userMessage(error));
  }
}

/** One id, or a range of ids (blank cells ignored), in the order given. */
function readMetricIds(input: unknown): string[] {
  const cells = Array.isArray(input) ? (input as unknown[][]).flat() : [input];
  const ids = cells.filter((cell) => cell !== '' && cell !== null && cell !== undefined).map((cell) => requireUuid(cell, 'The metric id'));
  if (ids.length === 0) throw new Error('Give a metric id, or a range of metric ids.');
  return [...new Set(ids)];
}

function optionalDate(value: unknown, what: string, timeZone: string): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  return toIsoDate(value, what, timeZone, appsScriptDateFormatter);
}

export function metricValues(metricId: unknown, startDate: unknown, endDate: unknown, options: unknown): Cell[][] {
  return asCell(() => {
    const started = Date.now();
    const ids = readMetricIds(metricId);
    const timeZone = spreadsheetTimeZone();
    const start = optionalDate(startDate, 'The start date', timeZone);
    const end = optionalDate(endDate, 'The end date', timeZone);
    const table = parseTableOptions(options, { headers: ids.length > 1 });
    const client = createClientForExecution({ deadline: started + CUSTOM_FUNCTION_API_BUDGET_MS });
    const points = client.dataPoints.list(ids, { startDate: start, endDate: end, excludeBlank: table.excludeBlank });
    const rows = shapeSeries(points, ids, ids, table);
    return rows.length ? rows : [['No data points in this range.']];
  });
}
