// METRIC_VALUES, METRIC_VALUE, METRIC_LATEST and METRIC_SOURCE: data points as cells.

import { InputError } from '../errors';
import type { DataPoint, Metric } from '../api/types';
import { parseTableOptions, shapeSeries, toCell, type Cell } from '../sheets/metric-table';
import { sourceCells } from '../sheets/source-cells';
import { aggregate, AGGREGATE_CHOICES, readAggregate, type Aggregate } from '../sheets/period-aggregate';
import { addDays, frequencyMonths, inferPeriods, MONTH_NAMES, parsePeriodLabel, periodStart, periodStartsInWords, periodStartsWithin, SPAN_MONTHS, type LabelledPeriod } from '../sheets/periods';
import { midnightIn, midnightMaker } from '../sheets/time-zone';
import { isIsoDate, toIsoDate } from '../validate/dates';
import { isBlank, optionalDate, readId, readIdList } from './arguments';
import { deadlineGuard, type FormulaContext } from './formula-context';
import { requireMetricAccess } from './formula-access';
import { findProfile } from './metric-directory';

export type SheetCell = Cell | Date | boolean;

/**
 * The data points of the ids over the range, from the cache or else from the API (all pages, 20 ids a
 * request, fetched together).
 * A series with sources is cached apart from the same series without (its key ends in "|s"): cells
 * that do not show sources never pay for include_source's larger answers, and a sourced cell never
 * finds a plain entry that lacks them.
 */
export function loadPoints(ctx: FormulaContext, ids: readonly string[], start?: string, end?: string, excludeBlank = false, includeSource = false): DataPoint[] {
  const key = `${ids.join(',')}|${start ?? ''}|${end ?? ''}|${excludeBlank ? 'x' : ''}${includeSource ? '|s' : ''}`;
  return ctx.series.getOrLoad(key, () => {
    const client = ctx.client();
    return client.dataPoints.list(ids, { startDate: start, endDate: end, excludeBlank, includeSource, beforeRemainingPages: deadlineGuard(client) });
  }, ids);
}

/**
 * Each series' points by date, made once per points array: the series cache hands a grid's cells the
 * same array for the whole execution, and 50 periods of a metric need not index it 50 times.
 */
const byDateOf = new WeakMap<readonly DataPoint[], Map<string, string | null>>();

/** A metric's whole series, shared by every METRIC_VALUE and METRIC_LATEST cell of that metric. */
function loadWholeSeries(ctx: FormulaContext, metricId: string): Map<string, string | null> {
  const points = loadPoints(ctx, [metricId]);
  let byDate = byDateOf.get(points);
  if (!byDate) {
    byDate = new Map();
    for (const point of points) byDate.set(point.date, point.value ?? null);
    byDateOf.set(points, byDate);
  }
  return byDate;
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
  const rows = shapeSeries(points, ids, names, options);
  const dataRows = options.headers ? rows.length - 1 : rows.length;
  if (dataRows === 0) {
    const range = start && end ? ` between ${start} and ${end}` : start ? ` from ${start} on` : end ? ` up to ${end}` : '';
    const message = `No data points${range}.`;
    // With headers the table keeps its header row, so formulas that refer to it still find it.
    return options.headers ? [rows[0]!, [message, ...rows[0]!.slice(1).map(() => '')]] : [[message]];
  }
  const dateCell = midnightMaker(ctx.timeZone);
  return rows.map((row, i) => (options.headers && i === 0 ? row : [dateCell(row[0] as string), ...row.slice(1)]));
}

/** A period argument as read: a day, or a labelled month, quarter or year. */
interface PeriodCell extends LabelledPeriod {
  /** The label as the person wrote it, for messages; undefined for a date. */
  label?: string;
}

/** A period cell: a Date cell, or a label like 2024-03, 2024-Q1, FY2024, Q3 FY2024, FY2024 Q3 or FY24. */
function readPeriod(ctx: FormulaContext, metric: Metric, period: unknown): PeriodCell {
  if (isBlank(period)) throw new InputError('The period is missing: give a date or a label like 2024-03, 2024-Q1, FY2024 or Q3 FY2024.');
  if (typeof period !== 'string') {
    const start = toIsoDate(period, 'The period', ctx.timeZone, ctx.formatDate);
    return { start, end: start, span: 'day', description: start };
  }
  const text = period.trim();
  if (isIsoDate(text)) return { start: text, end: text, span: 'day', description: text };
  if (!/FY/i.test(text)) return { ...parsePeriodLabel(text, null), label: text };
  return { ...parsePeriodLabel(text, fiscalYearEndMonth(ctx, metric)), label: text };
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
  if (frequency === 'monthly') return first.slice(0, 7);
  if (frequency === 'quarterly') return `${first.slice(0, 4)}-Q${Math.floor((Number(first.slice(5, 7)) - 1) / 3) + 1}`;
  return first;
}

function coarserLabelError(metric: Metric, period: PeriodCell): InputError {
  return new InputError(
    `"${period.label}" is ${period.description}, longer than one period of "${metric.name}", a ${metric.frequency} metric. Give an aggregate as the third argument to combine its ${metric.frequency} values: ${AGGREGATE_CHOICES}; or give a label of one ${metric.frequency} period, like ${ownLabelExample(period, metric.frequency)}.`,
  );
}

/** The value of the data point dated `start`, or an empty cell, or an error when no period of the metric starts there. */
function valueAt(metric: Metric, series: Map<string, string | null>, start: string): SheetCell {
  if (series.has(start)) return toCell(series.get(start), false) ?? '';
  requirePeriodStart(metric, start);
  return '';
}

/** For a date with no point: say so when the date cannot start a period of this metric, else it is simply blank. */
function requirePeriodStart(metric: Metric, start: string): void {
  const expected = periodStart(start, metric.frequency);
  if (expected && expected !== start) {
    throw new InputError(`${start} does not start a ${metric.frequency} period of "${metric.name}": its period starts on ${expected}.`);
  }
}

/**
 * A metric listed with a frequency the API does not document: a label is longer than its periods when
 * the series has, or its pattern allows, more than one point inside it, and no aggregate can know which
 * of the label's periods are missing, so a partial sum would look like the period's figure.
 */
function refuseLongLabelWithoutFrequency(metric: Metric, series: Map<string, string | null>, period: PeriodCell, aggregate: Aggregate | undefined): void {
  const dates = [...series.keys()].sort();
  const inferred = inferPeriods(dates);
  const inside = dates.filter((date) => date >= period.start && date <= period.end).length;
  let fitting = 0;
  if (inferred) for (let day = period.start; day <= period.end && fitting < 2; day = addDays(day, 1)) if (inferred.fits(day)) fitting++;
  if (Math.max(inside, fitting) <= 1 && !aggregate) return;
  const pattern = inferred ? ` (judging by its data its points fall on ${inferred.words})` : '';
  throw new InputError(
    `"${period.label}" is ${period.description}, and "${metric.name}" has the frequency "${metric.frequency}", which the add-in cannot divide periods by${pattern}. Give the date of one of its data points.`,
  );
}

function oneValue(ctx: FormulaContext, metricId: string, periodArg: unknown, aggregateArg: Aggregate | undefined): SheetCell {
  // The access check finds the metric's record in an allowed company's listing, or refuses.
  const metric = requireMetricAccess(ctx, [metricId]).get(metricId)!;
  return valueOfMetric(ctx, metric, periodArg, aggregateArg, () => loadWholeSeries(ctx, metricId));
}

/**
 * One value of a metric whose record is known (and whose reading is allowed) for a period. `seriesOf`
 * gives its whole series by date; it is called only once the period has been read, so a label that
 * cannot be read costs no request.
 */
export function valueOfMetric(ctx: FormulaContext, metric: Metric, periodArg: unknown, aggregateArg: Aggregate | undefined, seriesOf: () => Map<string, string | null>): SheetCell {
  const period = readPeriod(ctx, metric, periodArg);
  if (period.span === 'day') return valueAt(metric, seriesOf(), period.start);
  // A label that cannot be read is refused before the series is fetched.
  const periodMonths = frequencyMonths(metric.frequency);
  if (periodMonths === undefined) {
    const series = seriesOf();
    refuseLongLabelWithoutFrequency(metric, series, period, aggregateArg);
    return valueAt(metric, series, period.start);
  }
  if (SPAN_MONTHS[period.span] <= periodMonths) {
    // The metric's own period (or a shorter label, read as the period that starts there): any aggregate of one period is its value.
    requireFiscalFit(ctx, metric, period);
    return valueAt(metric, seriesOf(), period.start);
  }
  // Weeks belong to the period they start in; every other frequency must tile the label's period,
  // which no aggregate can mend, so that is said first.
  if (metric.frequency !== 'weekly') requireFiscalFit(ctx, metric, period);
  if (!aggregateArg) throw coarserLabelError(metric, period);
  // The whole series holds every period inside the label's: no request beyond a single value's.
  const series = seriesOf();
  const starts = periodStartsWithin(period.start, period.end, metric.frequency);
  return aggregate(aggregateArg, starts.map((date) => ({ date, value: series.get(date) })));
}

/**
 * One value per metric and period. Either argument may also be a range: a column of ids against
 * a row of periods gives the whole grid from one formula, the aggregate applied to every cell.
 */
export function metricValue(ctx: FormulaContext, metricIdArg: unknown, periodArg: unknown, aggregateArg?: unknown): SheetCell | SheetCell[][] {
  const how = readAggregate(aggregateArg);
  const value = (id: unknown, period: unknown): SheetCell => oneValue(ctx, readId(id, 'The metric id'), period, how);
  const idRange = Array.isArray(metricIdArg);
  const periodRange = Array.isArray(periodArg);
  if (!idRange && !periodRange) return value(metricIdArg, periodArg);
  if (!idRange) {
    readId(metricIdArg, 'The metric id');
    return (periodArg as unknown[][]).map((row) => row.map((period) => (isBlank(period) ? '' : value(metricIdArg, period))));
  }
  const ids = metricIdArg as unknown[][];
  if (!periodRange) return ids.map((row) => row.map((id) => (isBlank(id) ? '' : value(id, periodArg))));
  const periods = periodArg as unknown[][];
  if (ids.every((row) => row.length === 1) && periods.length === 1) {
    return ids.map(([id]) => periods[0]!.map((period) => (isBlank(id) || isBlank(period) ? '' : value(id, period))));
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

/**
 * Where one value came from: one row of source type, label and link (see source-cells.ts), read from
 * the metric's whole series with sources, which every METRIC_SOURCE cell of the metric shares. Only one
 * period of the metric's own: a quarter of a monthly metric has three values, each with its own source.
 */
export function metricSource(ctx: FormulaContext, metricIdArg: unknown, periodArg: unknown): SheetCell[][] {
  const metricId = readId(metricIdArg, 'The metric id');
  if (Array.isArray(periodArg)) throw new InputError('The period must be one cell, not a range.');
  const metric = requireMetricAccess(ctx, [metricId]).get(metricId)!;
  const period = readPeriod(ctx, metric, periodArg);
  let points: Map<string, DataPoint> | undefined;
  const loadSeries = (): Map<string, DataPoint> =>
    (points ??= new Map(loadPoints(ctx, [metricId], undefined, undefined, false, true).map((p) => [p.date, p] as const)));
  if (period.span !== 'day') {
    const periodMonths = frequencyMonths(metric.frequency);
    if (periodMonths === undefined) {
      const values = new Map([...loadSeries()].map(([date, point]) => [date, point.value ?? null] as const));
      refuseLongLabelWithoutFrequency(metric, values, period, undefined);
    } else if (SPAN_MONTHS[period.span] > periodMonths) {
      throw new InputError(
        `"${period.label}" is ${period.description}, longer than one period of "${metric.name}", a ${metric.frequency} metric, and each of its periods has its own source. Give a label of one ${metric.frequency} period, like ${ownLabelExample(period, metric.frequency)}.`,
      );
    } else {
      requireFiscalFit(ctx, metric, period);
    }
  }
  const point = loadSeries().get(period.start);
  if (!point) {
    requirePeriodStart(metric, period.start);
    return [['', '', '']];
  }
  return [sourceCells(point.source).map((cell) => cell ?? '')];
}
