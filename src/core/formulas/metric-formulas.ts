// METRIC_VALUES, METRIC_VALUE and METRIC_LATEST: data points as cells.

import { InputError } from '../api/errors';
import type { DataPoint, Metric } from '../api/types';
import { parseTableOptions, shapeSeries, toCell, type Cell } from '../sheets/metric-table';
import { MONTH_NAMES, parsePeriodLabel, periodStart, periodStartsInWords } from '../sheets/periods';
import { midnightIn, midnightMaker } from '../sheets/time-zone';
import { isIsoDate, toIsoDate } from '../validate/dates';
import { isBlank, optionalDate, readId, readIdList } from './arguments';
import { deadlineGuard, type FormulaContext } from './formula-context';
import { requireMetricAccess } from './formula-access';
import { findProfile } from './metric-directory';

export type SheetCell = Cell | Date | boolean;

/** The data points of the ids over the range, from the cache or else from the API (all pages). */
function loadPoints(ctx: FormulaContext, ids: readonly string[], start?: string, end?: string, excludeBlank = false): DataPoint[] {
  const key = `${ids.join(',')}|${start ?? ''}|${end ?? ''}|${excludeBlank ? 'x' : ''}`;
  return ctx.series.getOrLoad(key, () => {
    const client = ctx.client();
    return client.dataPoints.list(ids, { startDate: start, endDate: end, excludeBlank, beforeRemainingPages: deadlineGuard(client) });
  });
}

/** A metric's whole series, shared by every METRIC_VALUE and METRIC_LATEST cell of that metric. */
function loadWholeSeries(ctx: FormulaContext, metricId: string): Map<string, string | null> {
  const byDate = new Map<string, string | null>();
  for (const point of loadPoints(ctx, [metricId])) byDate.set(point.date, point.value ?? null);
  return byDate;
}

export function metricValues(ctx: FormulaContext, metricIdArg: unknown, startArg: unknown, endArg: unknown, optionsArg: unknown): SheetCell[][] {
  const ids = readIdList(metricIdArg, 'The metric id');
  const start = optionalDate(ctx, startArg, 'The start date');
  const end = optionalDate(ctx, endArg, 'The end date');
  if (start && end && start > end) throw new InputError(`The start date ${start} is after the end date ${end}.`);
  const options = parseTableOptions(optionsArg, { headers: ids.length > 1 });
  const unique = [...new Set(ids)];
  // Checked before any data point is read, even from the cache: the owner's list may have shrunk.
  const records = requireMetricAccess(ctx, unique);
  // Each metric is asked for once, however many of its columns the table has.
  const points = loadPoints(ctx, unique, start, end, options.excludeBlank);
  const names = options.headers ? ids.map((id) => records.get(id)?.name ?? id) : ids;
  const rows = shapeSeries(points, ids, names, options);
  const dataRows = options.headers ? rows.length - 1 : rows.length;
  if (dataRows === 0) {
    const range = start && end ? ` between ${start} and ${end}` : start ? ` from ${start} on` : end ? ` up to ${end}` : '';
    const message = `No data points${range}.`;
    // With headers the table keeps its header row, so formulas that refer to it still find it.
    return options.headers ? [rows[0]!, [message, ...ids.map(() => '')]] : [[message]];
  }
  const dateCell = midnightMaker(ctx.timeZone);
  return rows.map((row, i) => (options.headers && i === 0 ? row : [dateCell(row[0] as string), ...row.slice(1)]));
}

interface PeriodCell {
  start: string;
}

/** A period cell: a Date cell, or a label like 2024-03, 2024-Q1, FY2024, Q3 FY2024, FY2024 Q3 or FY24. */
function periodStartOf(ctx: FormulaContext, metric: Metric, period: unknown): PeriodCell {
  if (isBlank(period)) throw new InputError('The period is missing: give a date or a label like 2024-03, 2024-Q1, FY2024 or Q3 FY2024.');
  if (typeof period !== 'string') return { start: toIsoDate(period, 'The period', ctx.timeZone, ctx.formatDate) };
  const text = period.trim();
  if (isIsoDate(text)) return { start: text };
  if (!/FY/i.test(text)) return { start: parsePeriodLabel(text, null).start };
  let endMonth: number | null = null;
  if (metric.portfolio_company_profile_id) {
    endMonth = findProfile(ctx, metric.company_id, metric.portfolio_company_profile_id)?.fiscal_year_end_month ?? null;
  }
  const start = parsePeriodLabel(text, endMonth).start;
  // A fiscal year that does not end with a calendar quarter starts its quarters off the metric's own.
  const expected = periodStart(start, metric.frequency);
  if (expected !== undefined && expected !== start) {
    throw new InputError(
      `"${text}" starts on ${start}, as the fiscal year ends in ${MONTH_NAMES[(endMonth ?? 12) - 1]}, but "${metric.name}" is a ${metric.frequency} metric whose periods start on ${periodStartsInWords(metric.frequency)}: none starts there. Give the period's first date, or a calendar label like 2024-Q1.`,
    );
  }
  return { start };
}

function oneValue(ctx: FormulaContext, metricId: string, period: unknown): SheetCell {
  // The access check finds the metric's record in an allowed company's listing, or refuses.
  const metric = requireMetricAccess(ctx, [metricId]).get(metricId)!;
  const { start } = periodStartOf(ctx, metric, period);
  const series = loadWholeSeries(ctx, metricId);
  if (series.has(start)) return toCell(series.get(start), false) ?? '';
  // No point there: say so when the date cannot start a period of this metric, else leave it blank.
  const expected = periodStart(start, metric.frequency);
  if (expected && expected !== start) {
    throw new InputError(`${start} does not start a ${metric.frequency} period of "${metric.name}": its period starts on ${expected}.`);
  }
  return '';
}

/**
 * One value per metric and period. Either argument may also be a range: a column of ids against
 * a row of periods gives the whole grid from one formula.
 */
export function metricValue(ctx: FormulaContext, metricIdArg: unknown, periodArg: unknown): SheetCell | SheetCell[][] {
  const idRange = Array.isArray(metricIdArg);
  const periodRange = Array.isArray(periodArg);
  if (!idRange && !periodRange) return oneValue(ctx, readId(metricIdArg, 'The metric id'), periodArg);
  if (!idRange) {
    const id = readId(metricIdArg, 'The metric id');
    return (periodArg as unknown[][]).map((row) => row.map((period) => (isBlank(period) ? '' : oneValue(ctx, id, period))));
  }
  const ids = metricIdArg as unknown[][];
  if (!periodRange) return ids.map((row) => row.map((id) => (isBlank(id) ? '' : oneValue(ctx, readId(id, 'The metric id'), periodArg))));
  const periods = periodArg as unknown[][];
  if (ids.every((row) => row.length === 1) && periods.length === 1) {
    return ids.map(([id]) => periods[0]!.map((period) => (isBlank(id) || isBlank(period) ? '' : oneValue(ctx, readId(id, 'The metric id'), period))));
  }
  throw new InputError('With two ranges, give the metric ids as a column and the periods as a row.');
}

/** The latest non-blank value on or before a date (today by default); "with_date" returns the date too. */
export function metricLatest(ctx: FormulaContext, metricIdArg: unknown, asOfArg: unknown, optionsArg: unknown): SheetCell | SheetCell[][] {
  const id = readId(metricIdArg, 'The metric id');
  const asOf = optionalDate(ctx, asOfArg, 'The as-of date') ?? ctx.formatDate(new Date(ctx.now()), ctx.timeZone);
  const options = typeof optionsArg === 'string' ? optionsArg.toLowerCase().split(/[\s,;]+/).filter(Boolean) : [];
  for (const word of options) if (word !== 'with_date') throw new InputError(`Unknown option "${word}". Known option: with_date.`);
  requireMetricAccess(ctx, [id]);
  let latest: string | undefined;
  const series = loadWholeSeries(ctx, id);
  for (const [date, value] of series) {
    if (value !== null && value !== '' && date <= asOf && (latest === undefined || date > latest)) latest = date;
  }
  if (latest === undefined) return options.includes('with_date') ? [['', '']] : '';
  const value = toCell(series.get(latest), false) ?? '';
  return options.includes('with_date') ? [[midnightIn(latest, ctx.timeZone), value]] : value;
}
