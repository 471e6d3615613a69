// METRIC_VALUES, METRIC_VALUE, METRIC_LATEST and METRIC_SOURCE: data points as cells.

import { InputError } from '../errors';
import type { DataPoint, Metric } from '../api/types';
import { parseTableOptions, shapeSeries, toCell, type Cell, type TableOptions } from '../sheets/metric-table';
import { sourceCells } from '../sheets/source-cells';
import { aggregate, AGGREGATE_CHOICES, readAggregate, type Aggregate } from '../sheets/period-aggregate';
import {
  addDays,
  frequencyMonths,
  inferPeriods,
  MONTH_NAMES,
  parsePeriodLabel,
  periodLabel,
  yearAsLabel,
  periodStart,
  periodStartsInWords,
  periodStartsWithin,
  SPAN_MONTHS,
  type LabelledPeriod,
} from '../sheets/periods';
import { MAX_COMPANIONS, seriesKey } from '../series/series-cache';
import { midnightIn, midnightMaker } from '../sheets/time-zone';
import { isIsoDate, toIsoDate, type DateFormatter } from '../validate/dates';
import { argumentGrid, isBlank, optionalDate, readId, readIdList } from './arguments';
import { deadlineGuard, type FormulaContext } from './formula-context';
import { allowedAmongListed, requireMetricAccess } from './formula-access';
import { findProfile } from './metric-directory';

export type SheetCell = Cell | Date | boolean;

/**
 * The data points of the ids over the range, cached or else fetched (all pages). A series with sources
 * is cached apart, so cells that show none never pay for include_source's larger answers.
 */
export function loadPoints(
  ctx: FormulaContext,
  ids: readonly string[],
  start?: string,
  end?: string,
  excludeBlank = false,
  includeSource = false,
): DataPoint[] {
  return ctx.series.getOrLoad(
    seriesKey({ ids, start, end, excludeBlank, includeSource }),
    () => {
      const client = ctx.client();
      return client.dataPoints.list(ids, { startDate: start, endDate: end, excludeBlank, includeSource, beforeRemainingPages: deadlineGuard(client) });
    },
    ids,
  );
}

/** Each series' values by date, made once per points array (the cache hands every cell the same one). */
const byDateOf = new WeakMap<readonly DataPoint[], Map<string, string | null>>();

/**
 * Most pages (100 points each) a fetch of several metrics' whole series may take before it fetches its
 * own metric alone: 20 monthly metrics of 10 years are 24, and 30 pages are two round trips.
 */
export const MAX_PREFETCH_PAGES = 30;

/** Metrics a fetch of a whole series takes along: `ids()` is asked only on a miss, and must name only metrics the spreadsheet may read. */
export interface SeriesCompanions {
  ids(): readonly string[];
  /** Most of them one fetch takes (see MAX_COMPANIONS). */
  max: number;
}

/**
 * A metric's whole series, shared by its METRIC_VALUE, METRIC_LATEST and PORTFOLIO_VALUE cells. Its fetch
 * takes along `companions`, by default up to 19 metrics the sheet's other formulas read whole that the
 * listings already read allow: never unallowed data.
 */
export function loadWholeSeries(
  ctx: FormulaContext,
  metricId: string,
  companions: SeriesCompanions = { ids: () => sheetCompanions(ctx), max: MAX_COMPANIONS },
): Map<string, string | null> {
  const points = ctx.series.getOrLoadWhole(
    metricId,
    (ids) => {
      const client = ctx.client();
      const guard = deadlineGuard(client);
      return client.dataPoints.list(ids, {
        beforeRemainingPages: (meta, firstPageMs) => {
          if (ids.length > 1 && meta.total_pages > MAX_PREFETCH_PAGES) throw new InputError(`${meta.total_pages} pages are too many to fetch along.`);
          guard(meta, firstPageMs);
        },
      });
    },
    companions.ids,
    companions.max,
  );
  let byDate = byDateOf.get(points);
  if (!byDate) byDateOf.set(points, (byDate = new Map(points.map((point) => [point.date, point.value ?? null]))));
  return byDate;
}

/** The metric ids the calling cell's sheet reads whole, among those an allowed listing already read holds. */
function sheetCompanions(ctx: FormulaContext): string[] {
  const wanted = ctx.recalculationMetricIds?.() ?? [];
  return wanted.length === 0 ? [] : allowedAmongListed(ctx, wanted);
}

export function metricValues(ctx: FormulaContext, metricIdArg: unknown, startArg: unknown, endArg: unknown, optionsArg: unknown): SheetCell[][] {
  const ids = readIdList(metricIdArg, 'The metric id');
  const start = optionalDate(ctx, startArg, 'The start date');
  const end = optionalDate(ctx, endArg, 'The end date');
  if (start && end && start > end) throw new InputError(`The start date ${start} is after the end date ${end}.`);
  const options = parseTableOptions(optionsArg, { headers: ids.length > 1 });
  // Each metric is asked for once, however many of its columns the table has.
  const unique = [...new Set(ids)];
  // Checked before any data point is read, even from the cache: the owner's list may have shrunk.
  const records = requireMetricAccess(ctx, unique);
  const points = loadPoints(ctx, unique, start, end, options.excludeBlank, options.source);
  const names = options.headers ? ids.map((id) => records.get(id)?.name ?? id) : ids;
  return metricValuesCells(points, ids, names, options, ctx.timeZone, start, end, ctx.formatDate);
}

/** METRIC_VALUES' array from its points, shared with snapshots so they hold what the formula would show. */
export function metricValuesCells(
  points: readonly DataPoint[],
  ids: readonly string[],
  names: readonly string[],
  options: TableOptions,
  timeZone: string,
  start?: string,
  end?: string,
  /** Finds midnights where Intl does not know the zone (docs/platform.md). */
  formatDate?: DateFormatter,
): SheetCell[][] {
  const rows = shapeSeries(points, ids, names, options);
  const dataRows = options.headers ? rows.length - 1 : rows.length;
  if (dataRows === 0) {
    const range = start && end ? ` between ${start} and ${end}` : start ? ` from ${start} on` : end ? ` up to ${end}` : '';
    const message = `No data points${range}.`;
    // With headers the table keeps its header row, so formulas that refer to it still find it.
    return options.headers ? [rows[0]!, [message, ...rows[0]!.slice(1).map(() => '')]] : [[message]];
  }
  const dateCell = midnightMaker(timeZone, formatDate);
  return rows.map((row, i) => (options.headers && i === 0 ? row : [dateCell(row[0] as string), ...row.slice(1)]));
}

/** A period argument as read; `label` is as the person wrote it, for messages (undefined for a date). */
export type PeriodCell = LabelledPeriod & { label?: string };

/** A period cell: a Date cell, or a label like 2024-03, 2024-Q1, FY2024, Q3 FY2024, FY2024 Q3 or FY24. */
function readPeriod(ctx: FormulaContext, metric: Metric, periodCell: unknown): PeriodCell {
  const period = yearAsLabel(periodCell);
  if (isBlank(period)) throw new InputError('The period is missing: give a date or a label like 2024-03, 2024-Q1, FY2024 or Q3 FY2024.');
  const text = typeof period === 'string' ? period.trim() : toIsoDate(period, 'The period', ctx.timeZone, ctx.formatDate);
  if (typeof period !== 'string' || isIsoDate(text)) return { start: text, end: text, span: 'day', description: text };
  return { ...parsePeriodLabel(text, /FY/i.test(text) ? fiscalYearEndMonth(ctx, metric) : null), label: text };
}

function fiscalYearEndMonth(ctx: FormulaContext, metric: Metric): number | null {
  if (!metric.portfolio_company_profile_id) return null;
  return findProfile(ctx, metric.company_id, metric.portfolio_company_profile_id)?.fiscal_year_end_month ?? null;
}

/** A fiscal period must start where one of the metric's periods starts, or its periods do not fit inside it. */
function requireFiscalFit(ctx: FormulaContext, metric: Metric, period: PeriodCell): void {
  const expected = periodStart(period.start, metric.frequency);
  if (!period.fiscal || expected === undefined || expected === period.start) return;
  throw new InputError(
    `"${period.label}" starts on ${period.start}, as the fiscal year ends in ${MONTH_NAMES[(fiscalYearEndMonth(ctx, metric) ?? 12) - 1]}, but "${metric.name}" is a ${metric.frequency} metric whose periods start on ${periodStartsInWords(metric.frequency)}: none starts there. Give the period's first date, or a calendar label like 2024-Q1.`,
  );
}

/** A label of one period of this frequency inside `period`, for the error that suggests one. */
function ownLabelExample(period: PeriodCell, frequency: string): string {
  const first = periodStartsWithin(period.start, period.end, frequency)[0] ?? period.start;
  return periodLabel(first, frequency === 'monthly' ? 'month' : frequency === 'quarterly' ? 'quarter' : 'day');
}

/** For a date with no point: say so when the date cannot start a period of this metric, else it is simply blank. */
export function requirePeriodStart(metric: Metric, start: string): void {
  const expected = periodStart(start, metric.frequency);
  if (expected && expected !== start)
    throw new InputError(`${start} does not start a ${metric.frequency} period of "${metric.name}": its period starts on ${expected}.`);
}

/**
 * Whether `period` is one period of the metric (the point dated its start); false when it is longer.
 * Throws when a fiscal label does not fit the metric's periods, and, for a frequency the API does not
 * document, when the label holds (or its points' pattern allows) several points or an aggregate is
 * asked for: no aggregate can know which periods are missing, and a partial sum would look whole.
 */
function isOnePeriod(ctx: FormulaContext, metric: Metric, period: PeriodCell, datesOf: () => Iterable<string>, how: Aggregate | undefined): boolean {
  if (period.span === 'day') return true;
  const periodMonths = frequencyMonths(metric.frequency);
  if (periodMonths !== undefined) {
    if (SPAN_MONTHS[period.span] > periodMonths) return false;
    requireFiscalFit(ctx, metric, period);
    return true;
  }
  const dates = [...datesOf()].sort();
  const inferred = inferPeriods(dates);
  const inside = dates.filter((date) => date >= period.start && date <= period.end).length;
  let fitting = 0;
  if (inferred) for (let day = period.start; day <= period.end && fitting < 2; day = addDays(day, 1)) if (inferred.fits(day)) fitting++;
  if (Math.max(inside, fitting) <= 1 && !how) return true;
  const pattern = inferred ? ` (judging by its data its points fall on ${inferred.words})` : '';
  throw new InputError(
    `"${period.label}" is ${period.description}, and "${metric.name}" has the frequency "${metric.frequency}", which the add-in cannot divide periods by${pattern}. Give the date of one of its data points.`,
  );
}

/** The metric's periods a period argument covers: its one period (`one`), or the starts of its periods inside a longer one. */
export interface PeriodDates {
  period: PeriodCell;
  dates: string[];
  one: boolean;
}

/**
 * Reads a period argument for a metric and names the metric's periods it covers, as a value and its sources both
 * need them. `datesOf` (the series' dates) is asked only for a frequency the API does not document.
 */
export function periodDates(ctx: FormulaContext, metric: Metric, periodArg: unknown, how: Aggregate | undefined, datesOf: () => Iterable<string>): PeriodDates {
  const period = readPeriod(ctx, metric, periodArg);
  if (isOnePeriod(ctx, metric, period, datesOf, how)) return { period, dates: [period.start], one: true };
  // Weeks belong to the period they start in; every other frequency must tile the label's period,
  // which no aggregate can mend, so that is said first.
  if (metric.frequency !== 'weekly') requireFiscalFit(ctx, metric, period);
  return { period, dates: periodStartsWithin(period.start, period.end, metric.frequency), one: false };
}

/**
 * One value of an allowed metric for a period. `seriesOf` (its whole series by date) is called only once
 * the period has been read, so a label that cannot be read costs no request.
 */
export function valueOfMetric(
  ctx: FormulaContext,
  metric: Metric,
  periodArg: unknown,
  how: Aggregate | undefined,
  seriesOf: () => Map<string, string | null>,
): SheetCell {
  // Read once: after a fetch the cache hands back its own copy of the series, whose by-date map is built anew.
  let read: Map<string, string | null> | undefined;
  const whole = (): Map<string, string | null> => (read ??= seriesOf());
  const { period, dates, one } = periodDates(ctx, metric, periodArg, how, () => whole().keys());
  if (one) {
    // Any aggregate of one period is its value.
    const series = whole();
    if (series.has(period.start)) return toCell(series.get(period.start), false) ?? '';
    requirePeriodStart(metric, period.start);
    return '';
  }
  if (!how) {
    throw new AggregateNeededError(
      `"${period.label}" is ${period.description}, longer than one period of "${metric.name}", a ${metric.frequency} metric. Give an aggregate as the third argument to combine its ${metric.frequency} values: ${AGGREGATE_CHOICES}; or give a label of one ${metric.frequency} period, like ${ownLabelExample(period, metric.frequency)}.`,
      dates.length,
      metric.frequency,
    );
  }
  // The whole series holds every period inside the label's: no request beyond a single value's.
  const series = whole();
  return aggregate(
    how,
    dates.map((date) => ({ date, value: series.get(date) })),
  );
}

/** A period holding several of a metric's values, and no aggregate to combine them: the fund's cells say so as text. */
export class AggregateNeededError extends InputError {
  constructor(
    message: string,
    readonly values: number,
    readonly frequency: string,
  ) {
    super(message);
  }
}

/**
 * One value per metric and period. Either argument may also be a range: a column of ids against
 * a row of periods gives the whole grid from one formula, the aggregate applied to every cell.
 */
export function metricValue(ctx: FormulaContext, metricIdArg: unknown, periodArg: unknown, aggregateArg?: unknown): SheetCell | SheetCell[][] {
  const how = readAggregate(aggregateArg);
  const value = (idArg: unknown, period: unknown): SheetCell => {
    const id = readId(idArg, 'The metric id');
    // The access check finds the metric's record in an allowed company's listing, or refuses.
    const metric = requireMetricAccess(ctx, [id]).get(id)!;
    return valueOfMetric(ctx, metric, period, how, () => loadWholeSeries(ctx, id));
  };
  const args = [metricIdArg, periodArg];
  if (!args.some(Array.isArray)) return value(metricIdArg, periodArg);
  if (!Array.isArray(metricIdArg)) readId(metricIdArg, 'The metric id');
  // A blank cell of a range is a blank result; a blank argument given alone is refused as missing.
  const grid = argumentGrid(args, 'With two ranges, give the metric ids as a column and the periods as a row.');
  return grid.map((row) => row.map(([id, period]) => ([id, period].some((cell, i) => Array.isArray(args[i]) && isBlank(cell)) ? '' : value(id, period))));
}

/** The latest non-blank value on or before a date (today by default); "with_date" returns the date too. */
export function metricLatest(ctx: FormulaContext, metricIdArg: unknown, asOfArg: unknown, optionsArg: unknown): SheetCell | SheetCell[][] {
  const id = readId(metricIdArg, 'The metric id');
  const asOf = optionalDate(ctx, asOfArg, 'The as-of date') ?? ctx.formatDate(new Date(ctx.now()), ctx.timeZone);
  const options =
    typeof optionsArg === 'string'
      ? optionsArg
          .toLowerCase()
          .split(/[\s,;]+/)
          .filter(Boolean)
      : [];
  for (const word of options) if (word !== 'with_date') throw new InputError(`Unknown option "${word}". Known option: with_date.`);
  requireMetricAccess(ctx, [id]);
  const series = loadWholeSeries(ctx, id);
  // One pass for the greatest date: a daily series of ten years need not be copied and sorted per cell.
  let latest: string | undefined;
  for (const [date, value] of series) {
    if (value !== null && value !== '' && date <= asOf && (latest === undefined || date > latest)) latest = date;
  }
  const withDate = options.includes('with_date');
  if (latest === undefined) return withDate ? [['', '']] : '';
  const value = toCell(series.get(latest), false) ?? '';
  return withDate ? [[midnightIn(latest, ctx.timeZone, ctx.formatDate), value]] : value;
}

/**
 * Where one value came from: a row of source type, label and link, from the metric's whole series with
 * sources (shared by its METRIC_SOURCE cells). Only for one period of its own: a quarter of a monthly
 * metric has three sources.
 */
export function metricSource(ctx: FormulaContext, metricIdArg: unknown, periodArg: unknown): SheetCell[][] {
  const metricId = readId(metricIdArg, 'The metric id');
  if (Array.isArray(periodArg)) throw new InputError('The period must be one cell, not a range.');
  const metric = requireMetricAccess(ctx, [metricId]).get(metricId)!;
  const period = readPeriod(ctx, metric, periodArg);
  // Read once, by date: each read is a series-cache lookup, and a date given twice keeps its last point.
  let read: Map<string, DataPoint> | undefined;
  const points = (): Map<string, DataPoint> =>
    (read ??= new Map(loadPoints(ctx, [metricId], undefined, undefined, false, true).map((point) => [point.date, point] as const)));
  if (!isOnePeriod(ctx, metric, period, () => points().keys(), undefined)) {
    throw new InputError(
      `"${period.label}" is ${period.description}, longer than one period of "${metric.name}", a ${metric.frequency} metric, and each of its periods has its own source. Give a label of one ${metric.frequency} period, like ${ownLabelExample(period, metric.frequency)}.`,
    );
  }
  const point = points().get(period.start);
  if (!point) {
    requirePeriodStart(metric, period.start);
    return [['', '', '']];
  }
  return [sourceCells(point.source).map((cell) => cell ?? '')];
}
