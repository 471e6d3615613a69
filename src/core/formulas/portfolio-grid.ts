// PORTFOLIO_VALUE, PORTFOLIO_METRIC and PORTFOLIO_COVERAGE: a fund's metrics by company and metric name.
//
// Names are resolved against two cached listings of the fund (its profiles and its metrics, every page,
// read once per cache period and shared by every cell through the RecordsCache's single flight); the
// series of every metric a formula needs then come in one batched read (20 ids a request, pages
// fetched together), cached under the sorted ids so a recalculation asks nothing.

import { InputError } from '../errors';
import type { DataPoint, Metric, PortfolioCompanyProfile } from '../api/types';
import { readAggregate, type Aggregate } from '../sheets/period-aggregate';
import { formatIso, parseIso, parsePeriodLabel, periodStart, periodStartsWithin, type LabelSpan } from '../sheets/periods';
import { isBlank } from './arguments';
import { requireCompanyAccess } from './formula-access';
import type { FormulaContext } from './formula-context';
import { listMetricsCached, listProfilesCached } from './metric-directory';
import { loadPoints, valueOfMetric, type SheetCell } from './metric-formulas';
import { isUuid } from '../validate/uuid';
import { toCell } from '../sheets/metric-table';

/** A name as matched: trimmed, without regard to case. */
export function normalName(name: string): string {
  return name.trim().toLowerCase();
}

/** The fund's portfolio companies and their metrics, from the two cached listings. */
export interface FundDirectory {
  fundId: string;
  profiles: PortfolioCompanyProfile[];
  /** Metrics by profile id, then by normalised name (several when a company has two of one name). */
  metrics: Map<string, Map<string, Metric[]>>;
}

export function fundDirectory(ctx: FormulaContext, fundId: string): FundDirectory {
  requireCompanyAccess(ctx, fundId);
  const profiles = listProfilesCached(ctx, fundId);
  const metrics = new Map<string, Map<string, Metric[]>>();
  // The fund's own metrics have no profile: no portfolio company's row shows them.
  for (const metric of listMetricsCached(ctx, fundId)) {
    const profileId = metric.portfolio_company_profile_id;
    if (!profileId) continue;
    let byName = metrics.get(profileId.toLowerCase());
    if (!byName) metrics.set(profileId.toLowerCase(), (byName = new Map()));
    const key = normalName(metric.name);
    byName.set(key, [...(byName.get(key) ?? []), metric]);
  }
  return { fundId, profiles, metrics };
}

function fundOrDefault(ctx: FormulaContext, value: unknown): string {
  if (!isBlank(value)) {
    if (Array.isArray(value)) throw new InputError("The fund's company id must be one cell, not a range.");
    const text = String(value).trim();
    if (!isUuid(text)) throw new InputError(`The fund's company id "${String(value).trim().slice(0, 60)}" is not an id: give the fund's id, or leave it out for the default company.`);
    return text;
  }
  if (ctx.defaultCompanyId) return ctx.defaultCompanyId;
  throw new InputError("No fund: choose a default company (the fund) in the add-in's settings, or give the fund's company id.");
}

/** A portfolio company given by profile id or by name (trimmed, without regard to case). */
export function findCompany(directory: FundDirectory, value: unknown): PortfolioCompanyProfile {
  if (isBlank(value)) throw new InputError('The company is missing: give a portfolio company\'s name or profile id.');
  if (Array.isArray(value)) throw new InputError('The company must be one cell here, not a range.');
  const text = String(value).trim();
  const byId = directory.profiles.find((p) => p.id.toLowerCase() === text.toLowerCase());
  if (byId) return byId;
  const named = directory.profiles.filter((p) => normalName(p.name) === normalName(text));
  if (named.length === 1) return named[0]!;
  if (named.length > 1) {
    throw new InputError(`${named.length} portfolio companies of fund ${directory.fundId} are named "${text}": ${named.map((p) => p.id).join(', ')}. Give the profile id of the one you mean.`);
  }
  throw new InputError(`No portfolio company of fund ${directory.fundId} is named "${text}" or has that profile id (=PORTFOLIO_COMPANIES lists them).`);
}

/** The company's metric of that name: the one, none (undefined), or an error naming both ids. */
export function findMetric(directory: FundDirectory, company: PortfolioCompanyProfile, name: string): Metric | undefined {
  const found = directory.metrics.get(company.id.toLowerCase())?.get(normalName(name)) ?? [];
  if (found.length > 1) {
    throw new InputError(`"${company.name}" has ${found.length} metrics named "${name.trim()}": ${found.map((m) => m.id).join(' and ')}. Read the one you mean with METRIC_VALUE and its id.`);
  }
  return found[0];
}

function readName(value: unknown, what: string): string {
  if (isBlank(value)) throw new InputError(`${what} is missing.`);
  if (typeof value !== 'string') throw new InputError(`${what} must be text, like "Revenue".`);
  return value;
}

/**
 * The whole series of every metric, by id then date, in one batched read. The ids are sorted, so the
 * same grid finds its cached answer whatever order its cells name them in.
 */
export function loadSeriesOf(ctx: FormulaContext, metricIds: readonly string[]): Map<string, Map<string, string | null>> {
  const ids = [...new Set(metricIds.map((id) => id.toLowerCase()))].sort();
  const byMetric = new Map<string, Map<string, string | null>>(ids.map((id) => [id, new Map()]));
  if (ids.length === 0) return byMetric;
  const points: DataPoint[] = loadPoints(ctx, ids);
  for (const point of points) byMetric.get(point.metric_id.toLowerCase())?.set(point.date, point.value ?? null);
  return byMetric;
}

/**
 * A grid cell's value, or the sentence of why it has none: in a grid of companies each may keep its
 * metrics differently (a monthly one here, a quarterly one there), and one company's mismatch must not
 * blank everyone's row.
 */
function cellOrMessage(value: () => SheetCell): SheetCell {
  try {
    return value();
  } catch (error) {
    if (error instanceof InputError) return error.message;
    throw error;
  }
}

function seriesGetter(series: Map<string, Map<string, string | null>>): (metric: Metric) => () => Map<string, string | null> {
  return (metric) => () => series.get(metric.id.toLowerCase()) ?? new Map();
}

// --- PORTFOLIO_VALUE ---------------------------------------------------------------------------

type Grid = unknown[][];

/** One argument as a grid: a single value is a 1 × 1 grid. */
function asGrid(value: unknown): Grid {
  return Array.isArray(value) ? (value as Grid) : [[value]];
}

/**
 * One value per company, metric name and period, of the default fund. Ranges fill grids: a column of
 * companies against a row of periods (or a row of metric names with one period); a single range of
 * any of the three maps cell by cell.
 */
export function portfolioValue(ctx: FormulaContext, companyArg: unknown, nameArg: unknown, periodArg: unknown, aggregateArg?: unknown): SheetCell | SheetCell[][] {
  const how: Aggregate | undefined = readAggregate(aggregateArg);
  const directory = fundDirectory(ctx, fundOrDefault(ctx, undefined));
  const ranges = [companyArg, nameArg, periodArg].filter(Array.isArray).length;
  if (ranges === 0) {
    const company = findCompany(directory, companyArg);
    const name = readName(nameArg, 'The metric name');
    const metric = findMetric(directory, company, name);
    if (!metric) throw new InputError(`"${company.name}" has no metric named "${name.trim()}".`);
    // A single cell reads the metric's own series, the one METRIC_VALUE cells of that metric share.
    return valueOfMetric(ctx, metric, periodArg, how, () => seriesGetter(loadSeriesOf(ctx, [metric.id]))(metric)());
  }
  // The cells as (company, name, period), in the result's shape.
  let cells: Array<Array<[unknown, unknown, unknown]>>;
  if (ranges === 1) {
    const [range] = [companyArg, nameArg, periodArg].filter(Array.isArray) as Grid[];
    cells = range!.map((row) => row.map((cell) => [
      Array.isArray(companyArg) ? cell : companyArg,
      Array.isArray(nameArg) ? cell : nameArg,
      Array.isArray(periodArg) ? cell : periodArg,
    ]));
  } else {
    const companies = asGrid(companyArg);
    const columnOfCompanies = Array.isArray(companyArg) && companies.every((row) => row.length === 1);
    const across = Array.isArray(nameArg) && !Array.isArray(periodArg) ? asGrid(nameArg) : Array.isArray(periodArg) && !Array.isArray(nameArg) ? asGrid(periodArg) : undefined;
    if (!columnOfCompanies || !across || across.length !== 1) {
      throw new InputError('With two ranges, give the companies as a column and either the periods or the metric names as a row (with one period for names, one name for periods).');
    }
    const namesAcross = Array.isArray(nameArg);
    cells = companies.map(([company]) => across[0]!.map((item): [unknown, unknown, unknown] => (namesAcross ? [company, item, periodArg] : [company, nameArg, item])));
  }
  // Resolve every name first, so the series come in one read.
  const resolved = cells.map((row) => row.map(([company, name, period]) => {
    if (isBlank(company) || isBlank(name) || isBlank(period)) return { blank: true as const };
    const profile = findCompany(directory, company);
    const text = readName(name, 'The metric name');
    try {
      const metric = findMetric(directory, profile, text);
      return metric ? { metric, period } : { message: `No metric "${text.trim()}"` };
    } catch (error) {
      // Two metrics of one name: that cell says so, the rest of the grid still answers.
      if (error instanceof InputError) return { message: error.message };
      throw error;
    }
  }));
  const ids = resolved.flat().flatMap((cell) => ('metric' in cell && cell.metric ? [cell.metric.id] : []));
  const series = seriesGetter(loadSeriesOf(ctx, ids));
  return resolved.map((row) => row.map((cell): SheetCell => {
    if ('blank' in cell) return '';
    if ('message' in cell) return cell.message!;
    return cellOrMessage(() => valueOfMetric(ctx, cell.metric!, cell.period, how, series(cell.metric!)));
  }));
}

// --- PORTFOLIO_METRIC --------------------------------------------------------------------------

/** The period cells of a row range or one cell, blanks skipped. */
function readPeriods(value: unknown): unknown[] {
  const cells = Array.isArray(value) ? (value as Grid).flat() : [value];
  const periods = cells.filter((cell) => !isBlank(cell));
  if (periods.length === 0) throw new InputError('The periods are missing: give a label like 2024-Q1, or a row of them.');
  return periods;
}

function readNames(value: unknown): string[] {
  const cells = Array.isArray(value) ? (value as Grid).flat() : [value];
  const names = cells.filter((cell) => !isBlank(cell)).map((cell) => readName(cell, 'A metric name'));
  if (names.length === 0) throw new InputError('The metric name is missing: give one like "Revenue", or a range of them.');
  return names;
}

/** A period as its column header shows it: the label as written, a date cell as itself. */
function header(period: unknown): SheetCell {
  return period instanceof Date || typeof period === 'number' || typeof period === 'boolean' ? (period as SheetCell) : String(period).trim();
}

/**
 * One row per portfolio company (its name first), one column per period, under a header row. A company
 * with no metric of the name has an empty row and is named in a final note row; one with two has the
 * error, naming both ids, in its cells; a period that does not fit a company's metric (a quarter of a
 * monthly one) has the reason in that cell.
 */
export function portfolioMetric(ctx: FormulaContext, nameArg: unknown, periodsArg: unknown, fundArg: unknown): SheetCell[][] {
  if (Array.isArray(nameArg)) throw new InputError('The metric name must be one cell, not a range: =PORTFOLIO_VALUE fills a grid of several names.');
  const name = readName(nameArg, 'The metric name');
  const periods = readPeriods(periodsArg);
  // Unreadable labels are refused before any request (the fiscal year is each company's, read later).
  for (const period of periods) if (typeof period === 'string' && !/FY/i.test(period)) parsePeriodLabel(period.trim(), null);
  const directory = fundDirectory(ctx, fundOrDefault(ctx, fundArg));
  const rows = directory.profiles.map((profile) => {
    try {
      return { profile, metric: findMetric(directory, profile, name) };
    } catch (error) {
      if (error instanceof InputError) return { profile, message: error.message };
      throw error;
    }
  });
  const series = seriesGetter(loadSeriesOf(ctx, rows.flatMap((row) => (row.metric ? [row.metric.id] : []))));
  const table: SheetCell[][] = [['Company', ...periods.map(header)]];
  for (const row of rows) {
    if ('message' in row) table.push([row.profile.name, ...periods.map(() => row.message!)]);
    else if (!row.metric) table.push([row.profile.name, ...periods.map(() => '')]);
    else table.push([row.profile.name, ...periods.map((period) => cellOrMessage(() => valueOfMetric(ctx, row.metric!, period, undefined, series(row.metric!))))]);
  }
  if (directory.profiles.length === 0) table.push(['No portfolio companies: this fund has none yet.', ...periods.map(() => '')]);
  const missing = rows.filter((row) => !('message' in row) && !row.metric).map((row) => row.profile.name);
  if (missing.length > 0) table.push([`No metric named "${name.trim()}": ${missing.join(', ')}.`, ...periods.map(() => '')]);
  return table;
}

// --- PORTFOLIO_COVERAGE ------------------------------------------------------------------------

export const REPORTED = 'reported';
export const BLANK = 'blank';
export const NO_METRIC = 'no such metric';

interface Column {
  label: string;
  start: string;
  end: string;
}

const STEP_MONTHS: Partial<Record<LabelSpan, number>> = { month: 1, quarter: 3, year: 12 };

function addMonths(date: string, months: number): string {
  const { year, month } = parseIso(date);
  const index = year * 12 + month - 1 + months;
  return formatIso({ year: Math.floor(index / 12), month: (index % 12) + 1, day: 1 });
}

function labelOf(start: string, span: LabelSpan): string {
  if (span === 'month') return start.slice(0, 7);
  if (span === 'quarter') return `${start.slice(0, 4)}-Q${Math.floor((Number(start.slice(5, 7)) - 1) / 3) + 1}`;
  return start.slice(0, 4);
}

/** The calendar periods from the start label's to the end label's, both included, of the start label's length. */
export function coverageColumns(startArg: unknown, endArg: unknown): Column[] {
  const read = (value: unknown, what: string) => {
    if (typeof value !== 'string' || isBlank(value)) throw new InputError(`${what} must be a calendar label like 2024-01, 2024-Q1 or 2024.`);
    if (/FY/i.test(value)) throw new InputError(`${what} "${value.trim()}" is a fiscal label: coverage columns are calendar periods shared by every company, so give a label like 2024-Q1.`);
    return parsePeriodLabel(value.trim(), null);
  };
  const first = read(startArg, 'The start period');
  const last = read(endArg, 'The end period');
  const step = STEP_MONTHS[first.span];
  if (step === undefined) throw new InputError(`The start period must be a month, quarter or year label like 2024-01, 2024-Q1 or 2024, not ${first.description}.`);
  if (last.span !== first.span) throw new InputError(`The start and end periods must be of one length: ${first.description} and ${last.description}.`);
  if (last.start < first.start) throw new InputError(`The end period ${String(endArg).trim()} is before the start period ${String(startArg).trim()}.`);
  const columns: Column[] = [];
  for (let start = first.start; start <= last.start; start = addMonths(start, step)) {
    if (columns.length >= 240) throw new InputError('That is more than 240 periods: narrow the range.');
    columns.push({ label: labelOf(start, first.span), start, end: previousDay(addMonths(start, step)) });
  }
  return columns;
}

function previousDay(date: string): string {
  const time = Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))) - 86_400_000;
  return new Date(time).toISOString().slice(0, 10);
}

/**
 * A metric's status in a column: reported when every one of its periods that starts inside the column
 * has a value; blank when one has a null or empty point, or no point at all. A metric whose period is
 * longer than the column (a quarterly metric in monthly columns) is judged by the period that holds the
 * column's first day.
 */
function status(metric: Metric, series: Map<string, string | null>, column: Column): string {
  let starts = periodStartsWithin(column.start, column.end, metric.frequency);
  if (starts.length === 0) {
    const holding = periodStart(column.start, metric.frequency);
    starts = holding ? [holding] : [column.start];
  }
  const filled = (date: string) => {
    const cell = toCell(series.get(date), false);
    return cell !== null && cell !== undefined && cell !== '';
  };
  return starts.every(filled) ? REPORTED : BLANK;
}

/**
 * Who reported what. Three blocks under one header row (Company, Metric, one column per period, then
 * Reported, Blank, No such metric):
 * 1. one row per company and metric name: "reported", "blank" or "no such metric" per period, and the
 *    row's counts;
 * 2. one row per company, metric "All metrics": per period, how many of the metrics it reported; then
 *    the company's counts over every metric and period;
 * 3. three rows "All companies" / "reported", "blank", "no such metric": per period, how many
 *    company-metric pairs are so, and the totals.
 * A company with two metrics of one name is listed with the error naming both ids in that row's cells.
 */
export function portfolioCoverage(ctx: FormulaContext, namesArg: unknown, startArg: unknown, endArg: unknown, fundArg: unknown): SheetCell[][] {
  const names = readNames(namesArg);
  const columns = coverageColumns(startArg, endArg);
  const directory = fundDirectory(ctx, fundOrDefault(ctx, fundArg));
  type Pair = { profile: PortfolioCompanyProfile; name: string; metric?: Metric; message?: string };
  const pairs: Pair[] = directory.profiles.flatMap((profile) => names.map((name): Pair => {
    try {
      return { profile, name, metric: findMetric(directory, profile, name) };
    } catch (error) {
      if (error instanceof InputError) return { profile, name, message: error.message };
      throw error;
    }
  }));
  const series = loadSeriesOf(ctx, pairs.flatMap((pair) => (pair.metric ? [pair.metric.id] : [])));
  const statuses = pairs.map((pair) => columns.map((column) => {
    if (pair.message) return pair.message;
    if (!pair.metric) return NO_METRIC;
    return status(pair.metric, series.get(pair.metric.id.toLowerCase()) ?? new Map(), column);
  }));
  const count = (cells: readonly string[], what: string) => cells.filter((cell) => cell === what).length;
  const table: SheetCell[][] = [['Company', 'Metric', ...columns.map((c) => c.label), 'Reported', 'Blank', 'No such metric']];
  pairs.forEach((pair, i) => {
    const row = statuses[i]!;
    table.push([pair.profile.name, pair.name.trim(), ...row, count(row, REPORTED), count(row, BLANK), count(row, NO_METRIC)]);
  });
  directory.profiles.forEach((profile, p) => {
    const rows = statuses.slice(p * names.length, (p + 1) * names.length);
    const all = rows.flat();
    table.push([profile.name, 'All metrics', ...columns.map((_, c) => count(rows.map((row) => row[c]!), REPORTED)), count(all, REPORTED), count(all, BLANK), count(all, NO_METRIC)]);
  });
  const every = statuses.flat();
  for (const what of [REPORTED, BLANK, NO_METRIC]) {
    table.push(['All companies', what, ...columns.map((_, c) => count(statuses.map((row) => row[c]!), what)), what === REPORTED ? count(every, what) : '', what === BLANK ? count(every, what) : '', what === NO_METRIC ? count(every, what) : '']);
  }
  if (directory.profiles.length === 0) table.push(['No portfolio companies: this fund has none yet.', '', ...columns.map(() => ''), '', '', '']);
  return table;
}
