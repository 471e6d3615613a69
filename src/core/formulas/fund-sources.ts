// PORTFOLIO_SOURCE and the provenance sheet: where each value of a fund model came from, by company name, metric
// name and period, read as PORTFOLIO_VALUE reads the value, so a model and its sources agree cell for cell.
//
// A cell's source is one text: "type: label" (the type as METRIC_SOURCE shows it, "ai_inbox (review)" included).
// A period made of several of the metric's periods (a quarter of a monthly metric) lists each one's source,
// "2023-07: …; 2023-08: …; 2023-09: …", unless all of them have a value and read alike, which is then given once.
// Links (one per point) are in the provenance sheet's last column and in METRIC_SOURCE, not in the text.

import { InputError } from '../errors';
import type { DataPoint, Metric, PortfolioCompanyProfile } from '../api/types';
import { periodLabel } from '../sheets/periods';
import { sourceCells } from '../sheets/source-cells';
import type { Aggregate } from '../sheets/period-aggregate';
import { ambiguousText, companyLabels, noMetricText, withAggregate } from './fund-cells';
import type { FormulaContext } from './formula-context';
import { loadPoints, periodDates, requirePeriodStart, valueOfMetric, type SheetCell } from './metric-formulas';
import {
  fundDirectory,
  fundOrDefault,
  normalName,
  orMessage,
  readFundMetricName,
  requireReadableLabels,
  resolveMetric,
  sameNameMetricIds,
  valueCell,
  isUnitHeader,
  readFundCell,
  readFundGrid,
  type FundCell,
  type FundDirectory,
} from './fund-functions';

/** A metric's period inside a longer one whose point has no value: said in the list, so a sum's blank is explained. */
export const NO_VALUE = 'no value';
/** A point the API sent without its source object (include_source asks for it on every point). */
export const NO_SOURCE = 'no source given';

/** Where a model cell's value came from: the text its PORTFOLIO_SOURCE cell shows, and the link(s) the provenance sheet adds. */
export interface ModelSource {
  text: string;
  link: string;
}

const NONE: ModelSource = { text: '', link: '' };

const hasValue = (point: DataPoint | undefined): point is DataPoint => (point?.value ?? '') !== '';

/** One source as text: its type as METRIC_SOURCE's type cell shows it (the review mark kept), then its label. */
export function sourceText(source: DataPoint['source']): string {
  if (!source) return NO_SOURCE;
  const [type, label] = sourceCells(source);
  return [type, label].filter((cell) => cell !== null && cell !== '').join(': ');
}

/** A metric period's own label in a list: 2023-07 for a month, 2023-Q3 for a quarter, the date otherwise. */
function partLabel(date: string, frequency: string): string {
  return periodLabel(date, frequency === 'monthly' ? 'month' : frequency === 'quarterly' ? 'quarter' : 'day');
}

/**
 * The source of the points a value is made of. One period of the metric: its point's source, or nothing without a
 * value. Several: each one's, labelled, a period without a value saying so; the source once when every one has a
 * value and they read alike (type and label: each point has a link of its own, listed in `link`); nothing when
 * none has a value.
 */
export function describeSources(parts: ReadonlyArray<{ label: string; point: DataPoint | undefined }>, one: boolean): ModelSource {
  const valued = parts.filter((part) => hasValue(part.point));
  if (valued.length === 0) return NONE;
  const first = valued[0]!.point!;
  if (one) return { text: sourceText(first.source), link: first.source?.app_url ?? '' };
  const texts = parts.map((part) => (hasValue(part.point) ? sourceText(part.point.source) : NO_VALUE));
  const alike = parts.length > 1 && valued.length === parts.length && texts.every((text) => text === texts[0]);
  return {
    text: alike ? texts[0]! : parts.map((part, i) => `${part.label}: ${texts[i]}`).join('; '),
    link: valued
      .filter((part) => part.point!.source?.app_url)
      .map((part) => `${part.label}: ${part.point!.source!.app_url}`)
      .join('; '),
  };
}

/**
 * The source of one value of a metric for a period, the period read as PORTFOLIO_VALUE reads it (errors alike).
 * A period of several of the metric's periods lists each one's source whatever the aggregate, except that "first"
 * and "last" take one period's value, so they list that one's.
 */
export function sourceOfMetric(
  ctx: FormulaContext,
  metric: Metric,
  periodArg: unknown,
  how: Aggregate | undefined,
  pointsOf: () => Map<string, DataPoint>,
): ModelSource {
  let read: Map<string, DataPoint> | undefined;
  const points = (): Map<string, DataPoint> => (read ??= pointsOf());
  const { period, dates, one } = periodDates(ctx, metric, periodArg, how, () => points().keys());
  if (one && !points().has(period.start)) requirePeriodStart(metric, period.start);
  const taken = !one && (how === 'first' || how === 'last') ? dates.slice(how === 'first' ? 0 : -1).slice(0, 1) : dates;
  return describeSources(
    taken.map((date) => ({ label: partLabel(date, metric.frequency), point: points().get(date) })),
    one,
  );
}

/** Every case a PORTFOLIO_SOURCE cell meets and what it shows (docs/functions.md): where there is no source to give, what PORTFOLIO_VALUE shows. */
export const SOURCE_CELL_CASES: ReadonlyArray<{ when: string; source: string }> = [
  {
    when: "a value in one of the metric's own periods",
    source: `its source: the type, then the label, \`${sourceText({ source_type: 'user_provided', label: 'Entered by Dana Whitfield' })}\`; \`${sourceText({ source_type: 'ai_inbox', label: 'AI inbox: board-pack.pdf' })}\` for a value an AI read, to check`,
  },
  {
    when: "a period of several of the metric's periods (a quarter of a monthly metric), with or without an aggregate in the name",
    source: `each one's source, \`2024-04: …; 2024-05: ${NO_VALUE}; 2024-06: …\`; the source once when every one has a value and they read alike`,
  },
  { when: 'the same, the name naming `(first)` or `(last)`', source: 'the source of the one period whose value it takes: `2024-06: …`' },
  { when: "no value in that period (a blank or missing point; none of a longer period's has one)", source: 'an empty cell' },
  { when: 'the company has no metric of that name, or no metrics at all', source: `the text \`${noMetricText('Revenue')}\`, as PORTFOLIO_VALUE` },
  { when: 'the company has two metrics of that name', source: `the text \`${ambiguousText(2, 'Revenue')}\`, as PORTFOLIO_VALUE` },
  {
    when: "a period the company's metric cannot be read for",
    source: 'the sentence saying why, as text in a grid, an error in a single cell, as PORTFOLIO_VALUE',
  },
  { when: 'no company of the fund has a metric of that name (a mistyped name)', source: 'an error naming the nearest names, as PORTFOLIO_VALUE' },
  { when: 'a point the API sent without its source', source: `the text \`${NO_SOURCE}\`` },
  { when: "the fund model's Unit column (the period header reads `Unit`)", source: 'an empty cell: a unit has no source' },
];

/**
 * Each metric's points with their sources, by date. A metric's read is that of every portfolio company's metric of
 * its name (all in the fund's listing, which formulas may read), ids sorted: the one cached read every
 * PORTFOLIO_SOURCE cell of a model block shares, whatever cell asks first, and the provenance sheet too.
 */
function sourcedSeries(ctx: FormulaContext, directory: FundDirectory): (metric: Metric) => Map<string, DataPoint> {
  const byName = new Map<string, Map<string, Map<string, DataPoint>>>();
  return (metric) => {
    const key = normalName(metric.name);
    let byMetric = byName.get(key);
    if (!byMetric) {
      const ids = [...new Set(sameNameMetricIds(directory, metric.name).map((id) => id.toLowerCase()))].sort();
      byMetric = new Map(ids.map((id) => [id, new Map()]));
      for (const point of loadPoints(ctx, ids, undefined, undefined, false, true)) byMetric.get(point.metric_id.toLowerCase())?.set(point.date, point);
      byName.set(key, byMetric);
    }
    return byMetric.get(metric.id.toLowerCase()) ?? new Map();
  };
}

/** A cell's source, or the text PORTFOLIO_VALUE shows where the company has no metric of the name, or several. */
function sourceOf(ctx: FormulaContext, cell: FundCell, pointsOf: (metric: Metric) => Map<string, DataPoint>): ModelSource {
  const { resolved } = cell;
  if (!('metric' in resolved)) return { text: resolved.text, link: '' };
  return sourceOfMetric(ctx, resolved.metric, cell.period, cell.named.aggregate, () => pointsOf(resolved.metric));
}

/**
 * Where each value PORTFOLIO_VALUE shows came from, with its arguments: one cell, or a column of companies against a
 * row of periods (or of names, with one period) for a block. Every cell of one metric name shares one read.
 */
export function portfolioSource(ctx: FormulaContext, companyArg: unknown, nameArg: unknown, periodArg: unknown): SheetCell | SheetCell[][] {
  const directory = fundDirectory(ctx, fundOrDefault(ctx, undefined));
  const pointsOf = sourcedSeries(ctx, directory);
  const describe = (cell: FundCell) => (isUnitHeader(cell.period) ? '' : orMessage(() => sourceOf(ctx, cell, pointsOf).text));
  if (![companyArg, nameArg, periodArg].some(Array.isArray)) {
    const cell = readFundCell(directory, companyArg, nameArg, periodArg);
    // A single cell's unreadable period is its error, as in PORTFOLIO_VALUE; in a block it is that cell's text.
    return isUnitHeader(cell.period) ? '' : sourceOf(ctx, cell, pointsOf).text;
  }
  // The fund model's Unit column (its period header reads "Unit") has no source: its cells are left empty.
  return readFundGrid(directory, companyArg, nameArg, periodArg).map((row) => row.map((cell) => (cell === undefined ? '' : describe(cell))));
}

/** The provenance sheet's columns. */
export const PROVENANCE_HEADER = ['Company', 'Metric', 'Period', 'Value', 'Source', 'Source link'] as const;

/** Past this a provenance sheet is better split: each row is built and written in one execution. */
export const MAX_PROVENANCE_ROWS = 50_000;

/** What to list: the fund model's name cells (each with its own aggregate) and its periods. */
export interface ProvenanceChoice {
  nameCells: readonly string[];
  periods: readonly string[];
}

/**
 * The provenance table: under PROVENANCE_HEADER, one row per metric name, company (its label, as the model writes
 * it) and period, in the fund model's order, with what PORTFOLIO_VALUE and PORTFOLIO_SOURCE show there and the
 * source's link (each listed period's, labelled). One sourced read per name gives both the values and the sources.
 */
export function provenanceTable(ctx: FormulaContext, directory: FundDirectory, choice: ProvenanceChoice): SheetCell[][] {
  requireReadableLabels(choice.periods);
  const names = choice.nameCells.map((name) => readFundMetricName(directory, name, 'A metric name'));
  const profiles: readonly PortfolioCompanyProfile[] = directory.profiles;
  if (profiles.length === 0) throw new InputError('No portfolio companies: this fund has none yet, so the sheet would have no rows.');
  const rows = names.length * profiles.length * choice.periods.length;
  if (rows > MAX_PROVENANCE_ROWS) {
    throw new InputError(
      `That is ${rows.toLocaleString('en-US')} rows, more than ${MAX_PROVENANCE_ROWS.toLocaleString('en-US')}: choose fewer metrics or periods.`,
    );
  }
  const pointsOf = sourcedSeries(ctx, directory);
  const valuesOf = (metric: Metric) => new Map([...pointsOf(metric)].map(([date, point]) => [date, point.value ?? null] as const));
  const labels = companyLabels(profiles);
  const table: SheetCell[][] = [[...PROVENANCE_HEADER]];
  for (const named of names) {
    for (const profile of profiles) {
      const resolved = resolveMetric(directory, profile, named.name);
      for (const period of choice.periods) {
        const cell = { named, resolved, period };
        const value = orMessage(() => valueCell(resolved, named, (metric) => valueOfMetric(ctx, metric, period, named.aggregate, () => valuesOf(metric))));
        const source = orMessage(() => sourceOf(ctx, cell, pointsOf));
        const { text, link } = typeof source === 'string' ? { text: source, link: '' } : source;
        table.push([labels.get(profile.id.toLowerCase())!, withAggregate(named.name, named.aggregate), period, value, text, link]);
      }
    }
  }
  return table;
}
