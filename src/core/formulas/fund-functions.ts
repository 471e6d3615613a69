// The fund functions: PORTFOLIO_VALUE, PORTFOLIO_METRIC, PORTFOLIO_COVERAGE and PORTFOLIO_UNIT, a fund's metrics by company and metric name.
//
// Names are resolved against the fund's cached profile and metric listings (read once per cache period,
// shared by every cell); the series of every metric a formula needs then come in one batched read.

import { InputError } from '../errors';
import type { Metric, PortfolioCompanyProfile } from '../api/types';
import { didYouMean } from '../sheets/nearest-names';
import { readAggregate, type Aggregate } from '../sheets/period-aggregate';
import {
  addDays,
  nextPeriodStart,
  parsePeriodLabel,
  periodLabel,
  periodStart,
  yearAsLabel,
  periodStartsWithin,
  type LabelledPeriod,
  type LabelSpan,
} from '../sheets/periods';
import { argumentGrid, isBlank, nonBlankCells } from './arguments';
import { requireCompanyAccess, requireProfileAccess } from './formula-access';
import type { FormulaContext } from './formula-context';
import { listProfilesAndMetricsCached, listProfilesCached } from './metric-directory';
import { AggregateNeededError, loadPoints, loadWholeSeries, valueOfMetric, type SheetCell } from './metric-formulas';
import {
  aggregateOf,
  ambiguousText,
  companyLabels,
  needsAggregateText,
  noMetricText,
  readCompanyLabel,
  readNamedMetric,
  UNIT_HEADER,
  unitsSummaryText,
  unitText,
  withAggregate,
  type NamedMetric,
} from './fund-cells';
import { isUuid } from '../validate/uuid';
import { MAX_FUND_COMPANIONS } from '../series/series-cache';

/** A name as matched: trimmed, without regard to case. */
export function normalName(name: string): string {
  return name.trim().toLowerCase();
}

export interface FundDirectory {
  fundId: string;
  profiles: PortfolioCompanyProfile[];
  /** Metrics by profile id, then by normalised name (several when a company has two of one name). */
  metrics: Map<string, Map<string, Metric[]>>;
}

export function fundDirectory(ctx: FormulaContext, fundId: string): FundDirectory {
  requireCompanyAccess(ctx, fundId);
  const listings = listProfilesAndMetricsCached(ctx, fundId);
  const metrics = new Map<string, Map<string, Metric[]>>();
  // The fund's own metrics have no profile: no portfolio company's row shows them.
  for (const metric of listings.metrics) {
    const profileId = metric.portfolio_company_profile_id;
    if (!profileId) continue;
    let byName = metrics.get(profileId.toLowerCase());
    if (!byName) metrics.set(profileId.toLowerCase(), (byName = new Map()));
    const key = normalName(metric.name);
    byName.set(key, [...(byName.get(key) ?? []), metric]);
  }
  return { fundId, profiles: listings.profiles, metrics };
}

export function fundOrDefault(ctx: FormulaContext, value: unknown): string {
  if (!isBlank(value)) {
    if (Array.isArray(value)) throw new InputError("The fund's company id must be one cell, not a range.");
    const text = String(value).trim();
    if (!isUuid(text))
      throw new InputError(
        `The fund's company id "${String(value).trim().slice(0, 60)}" is not an id: give the fund's id, or leave it out for the default company.`,
      );
    return text;
  }
  if (ctx.defaultCompanyId) return ctx.defaultCompanyId;
  throw new InputError("No fund: choose a default company (the fund) in the add-in's settings, or give the fund's company id.");
}

/**
 * A portfolio company argument of the list functions: a profile id (of the fund given, else of any allowed fund), or
 * a name in the fund given (else the default fund), as PORTFOLIO_VALUE takes it.
 */
export function portfolioCompanyArg(ctx: FormulaContext, value: unknown, fundId: string | undefined): PortfolioCompanyProfile {
  const text = Array.isArray(value) || isBlank(value) ? '' : String(value).trim();
  if (isUuid(text)) return requireProfileAccess(ctx, text, fundId);
  const fund = fundId ?? fundOrDefault(ctx, undefined);
  requireCompanyAccess(ctx, fund);
  return findCompany({ fundId: fund, profiles: listProfilesCached(ctx, fund) }, value);
}

/** A portfolio company given by profile id or by name (trimmed, without regard to case). */
export function findCompany(directory: Pick<FundDirectory, 'fundId' | 'profiles'>, value: unknown): PortfolioCompanyProfile {
  if (isBlank(value)) throw new InputError("The company is missing: give a portfolio company's name or profile id.");
  if (Array.isArray(value)) throw new InputError('The company must be one cell here, not a range.');
  const text = String(value).trim();
  const byId = directory.profiles.find((p) => p.id.toLowerCase() === text.toLowerCase());
  if (byId) return byId;
  // A label of a name two companies share, "Cirrus Systems (profile id)", as the fund's tables write it.
  const labelled = readCompanyLabel(text);
  if (labelled) {
    const profile = directory.profiles.find((p) => p.id.toLowerCase() === labelled.profileId);
    if (!profile)
      throw new InputError(
        `No portfolio company of fund ${directory.fundId} has the profile id ${labelled.profileId} given in "${text}" (=PORTFOLIO_COMPANIES lists them).`,
      );
    if (normalName(profile.name) !== normalName(labelled.name)) {
      throw new InputError(`The profile id in "${text}" is that of "${profile.name.trim()}", not of "${labelled.name}": correct the name or the id.`);
    }
    return profile;
  }
  const named = directory.profiles.filter((p) => normalName(p.name) === normalName(text));
  if (named.length === 1) return named[0]!;
  if (named.length > 1) {
    const labels = companyLabels(named);
    throw new InputError(
      `${named.length} portfolio companies of fund ${directory.fundId} are named "${text}": give the one you mean as ${named.map((p) => `"${labels.get(p.id.toLowerCase())}"`).join(' or ')} (or its profile id).`,
    );
  }
  throw new InputError(
    `No portfolio company named "${text}" in fund ${directory.fundId}${
      didYouMean(
        text,
        directory.profiles.map((p) => p.name),
      ) || ', nor with that profile id (=PORTFOLIO_COMPANIES lists them).'
    }`,
  );
}

/** The metric names, as spelt, of companies' entries in FundDirectory.metrics (name key → metrics). */
function spelledNames(byNames: Iterable<Map<string, Metric[]>>): string[] {
  return [...byNames].flatMap((byName) => [...byName.values()].map((metrics) => metrics[0]!.name));
}

/** Throws, naming the nearest names, when no company of the fund has a metric of that name. */
export function requireMetricNameInFund(directory: FundDirectory, name: string): void {
  const key = normalName(name);
  if ([...directory.metrics.values()].some((byName) => byName.has(key))) return;
  if (directory.profiles.length === 0) return;
  const near = didYouMean(name, spelledNames(directory.metrics.values()));
  throw new InputError(
    `No metric named "${name.trim()}" in fund ${directory.fundId}${near || ': none of its companies has a metric of that name (=METRICS lists them).'}`,
  );
}

const REPORTED = 'reported';
export const BLANK = 'blank';
const NO_METRIC = 'no such metric';
const AMBIGUOUS = 'ambiguous name';
const STATUSES = [REPORTED, BLANK, NO_METRIC, AMBIGUOUS] as const;

/** A company's metric of a name: the one, or why there is none as the cell's text and coverage's status. */
export type Resolved = { metric: Metric } | { text: string; status: typeof NO_METRIC | typeof AMBIGUOUS };

/** The company's metric of that name, or the text its cells show: no metric of it (or none at all), or several. */
export function resolveMetric(directory: FundDirectory, company: PortfolioCompanyProfile, name: string): Resolved {
  const found = directory.metrics.get(company.id.toLowerCase())?.get(normalName(name)) ?? [];
  if (found.length === 1) return { metric: found[0]! };
  if (found.length > 1) return { text: ambiguousText(found.length, name), status: AMBIGUOUS };
  return { text: noMetricText(name), status: NO_METRIC };
}

/**
 * A metric name argument or cell, its own aggregate read off ("Cash (last)"), checked against the fund: a name
 * no company has is an error naming the nearest names (the name cell is mistyped: a total of it must not look whole).
 */
export function readFundMetricName(directory: FundDirectory, value: unknown, what: string): NamedMetric {
  const text = readName(value, what);
  const named = readNamedMetric(text, isFundMetricName(directory));
  requireMetricNameInFund(directory, named.name);
  return named;
}

/** Whether some company of the fund has a metric of exactly this name: "Growth (average)" may be a metric's own name. */
export function isFundMetricName(directory: FundDirectory): (whole: string) => boolean {
  return (whole) => [...directory.metrics.values()].some((byName) => byName.has(normalName(whole)));
}

/**
 * One cell's value: the number, empty for no value, or the text saying why there is no number to add up (no such
 * metric, several of that name, several values and no aggregate named). Other mistakes stay errors.
 */
export function valueCell(resolved: Resolved, named: NamedMetric, value: (metric: Metric) => SheetCell): SheetCell {
  if (!('metric' in resolved)) return resolved.text;
  try {
    return value(resolved.metric);
  } catch (error) {
    if (error instanceof AggregateNeededError) return needsAggregateText(error.values, error.frequency, named.name);
    throw error;
  }
}

/**
 * The ids of every portfolio company's metrics named `name`, in the listing's order: all are in the fund's
 * listing, which the spreadsheet may read, so fetching them along shows nothing unallowed.
 */
export function sameNameMetricIds(directory: FundDirectory, name: string): string[] {
  const key = normalName(name);
  return [...directory.metrics.values()].flatMap((byName) => (byName.get(key) ?? []).map((metric) => metric.id));
}

function readName(value: unknown, what: string): string {
  if (isBlank(value)) throw new InputError(`${what} is missing.`);
  if (typeof value !== 'string') throw new InputError(`${what} must be text, like "Revenue".`);
  return value;
}

/**
 * The series of every metric found (names not found are skipped) in one read, by date. The ids are
 * sorted, so the same grid finds its cached answer whatever order its cells name them in.
 */
function loadSeriesOf(ctx: FormulaContext, metrics: ReadonlyArray<Metric | string | undefined>): (metric: Metric) => Map<string, string | null> {
  const ids = [...new Set(metrics.flatMap((metric) => (typeof metric === 'object' ? [metric.id.toLowerCase()] : [])))].sort();
  const byMetric = new Map<string, Map<string, string | null>>(ids.map((id) => [id, new Map()]));
  if (ids.length > 0) for (const point of loadPoints(ctx, ids)) byMetric.get(point.metric_id.toLowerCase())?.set(point.date, point.value ?? null);
  return (metric) => byMetric.get(metric.id.toLowerCase()) ?? new Map();
}

/** Each company's metric of each name (or why it has none), and their series in one read. */
function metricsNamed(ctx: FormulaContext, directory: FundDirectory, names: readonly NamedMetric[]) {
  const pairs = directory.profiles.flatMap((profile) => names.map((named) => ({ profile, named, resolved: resolveMetric(directory, profile, named.name) })));
  return {
    pairs,
    series: loadSeriesOf(
      ctx,
      pairs.map(({ resolved }) => ('metric' in resolved ? resolved.metric : undefined)),
    ),
  };
}

/**
 * What `value` gives, or its InputError's sentence: companies keep their metrics differently (monthly
 * here, two of one name there), and one company's mismatch must not blank everyone's row.
 */
export function orMessage<T>(value: () => T): T | string {
  try {
    return value();
  } catch (error) {
    if (error instanceof InputError) return error.message;
    throw error;
  }
}

/**
 * One value per company, metric name and period, of the default fund. A range of any of the three maps
 * cell by cell; a column of companies against a row of periods (or of names) fills a grid. Each cell is what
 * fund-cells.ts says: a number, empty, or a text that SUM skips; the aggregate is the name's own ("Cash (last)").
 */
export function portfolioValue(
  ctx: FormulaContext,
  companyArg: unknown,
  nameArg: unknown,
  periodArg: unknown,
  aggregateArg?: unknown,
): SheetCell | SheetCell[][] {
  const apart = readAggregate(aggregateArg);
  const directory = fundDirectory(ctx, fundOrDefault(ctx, undefined));
  if (![companyArg, nameArg, periodArg].some(Array.isArray)) {
    const company = findCompany(directory, companyArg);
    const named = readFundMetricName(directory, nameArg, 'The metric name');
    const how = aggregateOf(named, apart);
    // A single cell reads the metric's own series, the one METRIC_VALUE cells of that metric share; its
    // fetch takes along the other companies' metrics of that name, which the rest of a fund model's
    // cells ask for next, from the directory in hand: no other cell is read.
    if (isUnitHeader(periodArg)) return unitOf(resolveMetric(directory, company, named.name));
    return valueCell(resolveMetric(directory, company, named.name), named, (metric) =>
      valueOfMetric(ctx, metric, periodArg, how, () =>
        loadWholeSeries(ctx, metric.id, { ids: () => sameNameMetricIds(directory, named.name), max: MAX_FUND_COMPANIONS }),
      ),
    );
  }
  // Resolve every name first, so the series come in one read; a blank cell is blank.
  const resolved = readFundGrid(directory, companyArg, nameArg, periodArg);
  const series = loadSeriesOf(
    ctx,
    resolved.flat().map((cell) => (cell && !isUnitHeader(cell.period) && 'metric' in cell.resolved ? cell.resolved.metric : undefined)),
  );
  // A period a company's fiscal year cannot divide is that company's cell's sentence, not the whole grid's error.
  return resolved.map((row) =>
    row.map((cell) => {
      if (cell === undefined) return '';
      if (isUnitHeader(cell.period)) return unitOf(cell.resolved);
      const how = aggregateOf(cell.named, apart);
      return orMessage(() => valueCell(cell.resolved, cell.named, (metric) => valueOfMetric(ctx, metric, cell.period, how, () => series(metric))));
    }),
  );
}

/** One cell of a fund formula's arguments: the company's metric of the name (or why it has none), the name as written and the period. */
export interface FundCell {
  named: NamedMetric;
  resolved: Resolved;
  period: unknown;
}

export function readFundCell(directory: FundDirectory, company: unknown, name: unknown, period: unknown): FundCell {
  const profile = findCompany(directory, company);
  const named = readFundMetricName(directory, name, 'The metric name');
  return { named, resolved: resolveMetric(directory, profile, named.name), period };
}

/**
 * The cells a fund formula given ranges covers (PORTFOLIO_VALUE and PORTFOLIO_SOURCE read their arguments alike,
 * so a model and its sources line up cell for cell): a range of any of the three maps cell by cell, a column of
 * companies against a row of periods (or of names) fills a grid. A blank argument makes its cell blank
 * (undefined); every company and name is checked before any read, so a mistyped one is the whole block's error.
 */
export function readFundGrid(directory: FundDirectory, companyArg: unknown, nameArg: unknown, periodArg: unknown): Array<Array<FundCell | undefined>> {
  const cells = argumentGrid(
    [companyArg, nameArg, periodArg],
    'With two ranges, give the companies as a column and either the periods or the metric names as a row (with one period for names, one name for periods).',
  );
  return cells.map((row) =>
    row.map(([company, name, period]) => (isBlank(company) || isBlank(name) || isBlank(period) ? undefined : readFundCell(directory, company, name, period))),
  );
}

/**
 * A period cell reading "Unit", the fund model's unit column header: there the company's unit of the metric (as
 * PORTFOLIO_UNIT shows it), so a block's one formula covers its unit column too and the block stays one execution.
 */
export function isUnitHeader(period: unknown): boolean {
  return typeof period === 'string' && normalName(period) === normalName(UNIT_HEADER);
}

function readNames(value: unknown): string[] {
  const names = nonBlankCells(value).map((cell) => readName(cell, 'A metric name'));
  if (names.length === 0) throw new InputError('The metric name is missing: give one like "Revenue", or a range of them.');
  return names;
}

/** A period as its column header shows it: the label as written, a date cell as itself. */
function header(period: unknown): SheetCell {
  return period instanceof Date || typeof period === 'number' || typeof period === 'boolean' ? (period as SheetCell) : String(period).trim();
}

const NO_COMPANIES = 'No portfolio companies: this fund has none yet.';

/**
 * Throws for a period label no company could read, before any request or write: PORTFOLIO_METRIC's periods and
 * the fund model's headers. A fiscal label is each company's (its year end), so it is read later, per cell.
 */
export function requireReadableLabels(periods: readonly unknown[]): void {
  for (const cell of periods) {
    const period = yearAsLabel(cell);
    if (typeof period === 'string' && !/FY/i.test(period)) parsePeriodLabel(period.trim(), null);
  }
}

/** The last row of a fund table: per period, how many companies have a number there, of how many (text, so SUM skips it). */
export const COVERED_LABEL = 'Companies with a value';

/**
 * One row per portfolio company (its label), one column per period and a last column with the row's unit, under a
 * header row, and a last row counting the companies with a number in each period, its unit cell the rows' one unit or
 * the sentence that a total over them adds different ones. Cells are what PORTFOLIO_VALUE shows for that company,
 * name and period.
 */
export function portfolioMetric(ctx: FormulaContext, nameArg: unknown, periodsArg: unknown, fundArg: unknown, aggregateArg?: unknown): SheetCell[][] {
  if (Array.isArray(nameArg)) throw new InputError('The metric name must be one cell, not a range: =PORTFOLIO_VALUE fills a grid of several names.');
  readName(nameArg, 'The metric name');
  const apart = readAggregate(aggregateArg);
  const periods = nonBlankCells(periodsArg);
  if (periods.length === 0) throw new InputError('The periods are missing: give a label like 2024-Q1, or a row of them.');
  requireReadableLabels(periods);
  const directory = fundDirectory(ctx, fundOrDefault(ctx, fundArg));
  const named = readFundMetricName(directory, nameArg, 'The metric name');
  const how = aggregateOf(named, apart);
  const { pairs: rows, series } = metricsNamed(ctx, directory, [named]);
  const labels = companyLabels(directory.profiles);
  const table: SheetCell[][] = [['Company', ...periods.map(header), UNIT_HEADER]];
  const units = rows.map(({ resolved }) => unitOf(resolved));
  rows.forEach(({ profile, resolved }, r) => {
    const cell = (period: unknown): SheetCell =>
      orMessage(() => valueCell(resolved, named, (metric) => valueOfMetric(ctx, metric, period, how, () => series(metric))));
    table.push([labels.get(profile.id.toLowerCase())!, ...periods.map(cell), units[r]!]);
  });
  if (directory.profiles.length === 0) {
    table.push([NO_COMPANIES, ...periods.map(() => ''), '']);
    return table;
  }
  const body = table.slice(1);
  table.push([
    COVERED_LABEL,
    ...periods.map((_, p) => `${body.filter((row) => typeof row[p + 1] === 'number').length} of ${body.length}`),
    unitsSummaryText(units),
  ]);
  return table;
}

/** The unit a company's row shows: its metric's, or '' where it has none of the name, or several (its cells say so). */
function unitOf(resolved: Resolved): string {
  return 'metric' in resolved ? unitText(resolved.metric.unit) : '';
}

/**
 * Each company's unit of a metric name, of the default fund, as a fund model's unit column shows it: a company cell or
 * a column of them maps cell by cell (a blank cell is blank). A cell reading "Companies with a value", the line under
 * a model's block, shows the unit of the companies above it in the range, or the sentence that a total over them adds
 * different units. Reads listings only, no values.
 */
export function portfolioUnit(ctx: FormulaContext, companyArg: unknown, nameArg: unknown): SheetCell | SheetCell[][] {
  if (Array.isArray(nameArg)) throw new InputError("The metric name must be one cell here, not a range: the unit column is one metric's.");
  const directory = fundDirectory(ctx, fundOrDefault(ctx, undefined));
  const named = readFundMetricName(directory, nameArg, 'The metric name');
  const unitIn = (cell: unknown): string => unitOf(resolveMetric(directory, findCompany(directory, cell), named.name));
  if (!Array.isArray(companyArg)) return isBlank(companyArg) || isCoveredLine(companyArg) ? '' : unitIn(companyArg);
  const cells = companyArg as unknown[][];
  const units = cells.map((row) => row.map((cell) => (isBlank(cell) || isCoveredLine(cell) ? '' : unitIn(cell))));
  const companies = units.flatMap((row, r) => row.filter((_, c) => !isBlank(cells[r]![c]) && !isCoveredLine(cells[r]![c])));
  return units.map((row, r) => row.map((unit, c) => (isCoveredLine(cells[r]![c]) ? unitsSummaryText(companies) : unit)));
}

function isCoveredLine(cell: unknown): boolean {
  return typeof cell === 'string' && normalName(cell) === normalName(COVERED_LABEL);
}

/**
 * The unit of the metric on each company row of portfolioMetric's table, in its order (after the header): undefined
 * where the company has no metric of that name, or several. Companies may keep one name in different currencies.
 */
export function portfolioMetricUnits(directory: FundDirectory, name: string): Array<string | undefined> {
  const { name: plain } = readNamedMetric(name, isFundMetricName(directory));
  return directory.profiles
    .map((profile) => resolveMetric(directory, profile, plain))
    .map((resolved) => ('metric' in resolved ? resolved.metric.unit : undefined));
}

type Column = Pick<LabelledPeriod, 'start' | 'end'> & { label: string };

const SPAN_FREQUENCY: Partial<Record<LabelSpan, string>> = { month: 'monthly', quarter: 'quarterly', year: 'annually' };

/** The calendar periods from the start label's to the end label's, both included, of the start label's length. */
export function coverageColumns(startArg: unknown, endArg: unknown): Column[] {
  const read = (cell: unknown, what: string) => {
    const value = yearAsLabel(cell);
    if (typeof value !== 'string' || isBlank(value)) throw new InputError(`${what} must be a calendar label like 2024-01, 2024-Q1 or 2024.`);
    if (/FY/i.test(value))
      throw new InputError(
        `${what} "${value.trim()}" is a fiscal label: coverage columns are calendar periods shared by every company, so give a label like 2024-Q1.`,
      );
    return parsePeriodLabel(value.trim(), null);
  };
  const first = read(startArg, 'The start period');
  const last = read(endArg, 'The end period');
  const frequency = SPAN_FREQUENCY[first.span];
  if (frequency === undefined)
    throw new InputError(`The start period must be a month, quarter or year label like 2024-01, 2024-Q1 or 2024, not ${first.description}.`);
  if (last.span !== first.span) throw new InputError(`The start and end periods must be of one length: ${first.description} and ${last.description}.`);
  if (last.start < first.start) throw new InputError(`The end period ${String(endArg).trim()} is before the start period ${String(startArg).trim()}.`);
  const columns: Column[] = [];
  for (let start = first.start; start <= last.start; start = nextPeriodStart(start, frequency)) {
    if (columns.length >= 240) throw new InputError('That is more than 240 periods: narrow the range.');
    columns.push({ label: periodLabel(start, first.span), start, end: addDays(nextPeriodStart(start, frequency), -1) });
  }
  return columns;
}

/**
 * Reported when every period of the metric that starts inside the column has a value, else blank. A
 * metric whose period is longer than the column (quarterly in monthly columns) is judged by the period
 * that holds the column's first day.
 */
function status(metric: Metric, series: Map<string, string | null>, column: Column, how: Aggregate | undefined): string {
  let starts = periodStartsWithin(column.start, column.end, metric.frequency);
  if (starts.length === 0) starts = [periodStart(column.start, metric.frequency) ?? column.start];
  // The first or last of the column's periods is all such a value needs (Cash at quarter end is its last month).
  else if (how === 'first' || how === 'last') starts = [how === 'first' ? starts[0]! : starts[starts.length - 1]!];
  return starts.every((date) => (series.get(date) ?? '') !== '') ? REPORTED : BLANK;
}

/** The count columns at the right of PORTFOLIO_COVERAGE's table, one per status. */
export const COVERAGE_COUNTS = ['Reported', 'Blank', 'No such metric', 'Ambiguous name'];

/**
 * Who reported what: under a header row (Company, Metric, a column per period, Reported, Blank, No such
 * metric, Ambiguous name), one row per company and name with each period's status (a company with two metrics
 * of the name is "ambiguous name", its own kind) and the row's counts; one "All metrics" row per company with how many it reported
 * per period and its counts; then one "All companies" row per status with its counts per period and total.
 */
export function portfolioCoverage(
  ctx: FormulaContext,
  namesArg: unknown,
  startArg: unknown,
  endArg: unknown,
  fundArg: unknown,
  aggregateArg?: unknown,
): SheetCell[][] {
  readNames(namesArg);
  const columns = coverageColumns(startArg, endArg);
  const apart = readAggregate(aggregateArg);
  const directory = fundDirectory(ctx, fundOrDefault(ctx, fundArg));
  const names = nonBlankCells(namesArg).map((cell) => readFundMetricName(directory, cell, 'A metric name'));
  const { pairs, series } = metricsNamed(ctx, directory, names);
  // A status is a reporting rule, not a value: the call's aggregate serves the names that name none.
  const statuses = pairs.map(({ named, resolved }) =>
    columns.map((column) => ('metric' in resolved ? status(resolved.metric, series(resolved.metric), column, named.aggregate ?? apart) : resolved.status)),
  );
  const count = (cells: readonly string[], what: string) => cells.filter((cell) => cell === what).length;
  const counts = (cells: readonly string[]) => STATUSES.map((what) => count(cells, what));
  const column = (rows: readonly string[][], c: number) => rows.map((row) => row[c]!);
  const labels = companyLabels(directory.profiles);
  const label = (profile: PortfolioCompanyProfile) => labels.get(profile.id.toLowerCase())!;
  const table: SheetCell[][] = [['Company', 'Metric', ...columns.map((c) => c.label), ...COVERAGE_COUNTS]];
  pairs.forEach((pair, i) => table.push([label(pair.profile), withAggregate(pair.named.name, pair.named.aggregate), ...statuses[i]!, ...counts(statuses[i]!)]));
  directory.profiles.forEach((profile, p) => {
    const rows = statuses.slice(p * names.length, (p + 1) * names.length);
    table.push([label(profile), 'All metrics', ...columns.map((_, c) => count(column(rows, c), REPORTED)), ...counts(rows.flat())]);
  });
  const every = statuses.flat();
  for (const what of STATUSES) {
    table.push([
      'All companies',
      what,
      ...columns.map((_, c) => count(column(statuses, c), what)),
      ...STATUSES.map((other) => (other === what ? count(every, what) : '')),
    ]);
  }
  if (directory.profiles.length === 0) table.push([NO_COMPANIES, '', ...columns.map(() => ''), ...STATUSES.map(() => '')]);
  return table;
}
