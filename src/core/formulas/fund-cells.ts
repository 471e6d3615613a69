// What a fund's cells say, shared by PORTFOLIO_VALUE, PORTFOLIO_METRIC and PORTFOLIO_COVERAGE so the three agree:
// a metric name with its own aggregate ("Cash (last)"), the text a cell shows where there is no value to add up,
// and the label that tells two companies of one name apart.

import { InputError } from '../errors';
import type { PortfolioCompanyProfile } from '../api/types';
import { AGGREGATES, type Aggregate } from '../sheets/period-aggregate';
import { joinAnd } from '../../shared/words';

/** A metric name as a cell or argument gives it: the name, and the aggregate it names for itself, if any. */
export interface NamedMetric {
  /** As given, trimmed, without the aggregate: what names are matched on. */
  name: string;
  aggregate: Aggregate | undefined;
}

const NAMED_AGGREGATE = new RegExp(`^(.*\\S)\\s*\\(\\s*(${AGGREGATES.join('|')})\\s*\\)\\s*$`, 'i');

/**
 * "Cash (last)" → Cash with last; "Revenue" → Revenue with none. The aggregate belongs to the metric the person
 * named, so a name typed over it without one never inherits it. `isName` says whether the whole text is itself a
 * metric's name: a metric really called "Growth (average)" is read as that name.
 */
export function readNamedMetric(text: string, isName: (whole: string) => boolean = () => false): NamedMetric {
  const trimmed = text.trim();
  const match = NAMED_AGGREGATE.exec(trimmed);
  if (!match || isName(trimmed)) return { name: trimmed, aggregate: undefined };
  return { name: match[1]!.trim(), aggregate: match[2]!.toLowerCase() as Aggregate };
}

/** The name cell's text for a metric and its aggregate: `Cash (last)`, or the name alone. */
export function withAggregate(name: string, aggregate: Aggregate | null | undefined): string {
  return aggregate ? `${name.trim()} (${aggregate})` : name.trim();
}

/** A name that names `aggregate` unless it names its own (a request or record that kept the two apart). */
export function namingAggregate(text: string, aggregate: Aggregate | null | undefined): string {
  return readNamedMetric(text).aggregate ? text.trim() : withAggregate(text, aggregate);
}

/**
 * The aggregate a metric's values are combined with: its name's own. An aggregate given apart from the name (the
 * older last argument) is not tied to the name the cell reads, so it never combines anything by itself; when it
 * contradicts the name's own, the formula says so.
 */
export function aggregateOf(named: NamedMetric, apart: Aggregate | undefined): Aggregate | undefined {
  if (named.aggregate && apart && apart !== named.aggregate) {
    throw new InputError(
      `The name "${withAggregate(named.name, named.aggregate)}" names "${named.aggregate}" and the formula's last argument "${apart}": leave the last argument out, the name's aggregate is the one used.`,
    );
  }
  return named.aggregate;
}

// The texts a value cell shows instead of a number. Text, never an error: Sheets' SUM skips text and blanks but
// fails on an error, and one company's missing metric must not break a fund's total. COUNT skips them too,
// which is how a model's coverage line counts the companies its total holds.

/** The company has no metric of that name (a company with no metrics at all shows it too). */
export function noMetricText(name: string): string {
  return `no metric "${name.trim()}"`;
}

/** The company has several metrics of that name: which one is meant cannot be guessed. */
export function ambiguousText(count: number, name: string): string {
  return `${count} metrics "${name.trim()}": read one by id (METRIC_VALUE)`;
}

/** The period holds several of the metric's values and the name says not how to combine them. */
export function needsAggregateText(count: number, frequency: string, name: string): string {
  const plain = name.trim();
  return `${count} ${frequency} values: type "${plain} (sum)", "${plain} (last)", "${plain} (average)" or "${plain} (first)" as the name`;
}

/** Every case a fund cell meets, what the value functions show and what PORTFOLIO_COVERAGE counts it as (docs/functions.md). */
export const FUND_CELL_CASES: ReadonlyArray<{ when: string; value: string; coverage: string }> = [
  { when: 'a value in that period', value: 'the number', coverage: 'reported' },
  { when: 'no value in that period (a blank or missing point; a sum or average missing one of its periods)', value: 'an empty cell', coverage: 'blank' },
  { when: 'the company has no metric of that name', value: `the text \`${noMetricText('Revenue')}\``, coverage: 'no such metric' },
  { when: 'the company has no metrics at all', value: `the text \`${noMetricText('Revenue')}\``, coverage: 'no such metric' },
  { when: 'the company has two metrics of that name', value: `the text \`${ambiguousText(2, 'Revenue')}\``, coverage: 'ambiguous name' },
  {
    when: "the period holds several of the metric's values and the name names no aggregate",
    value: `the text \`${needsAggregateText(3, 'monthly', 'Cash')}\``,
    coverage: 'reported when every one of them has a value, else blank',
  },
  {
    when: "a period the company's metric cannot be read for (a date that starts none of its periods, a fiscal label that splits them)",
    value:
      'the sentence saying why, as text, in a grid or PORTFOLIO_METRIC; an error in a single PORTFOLIO_VALUE cell, whose period header is then wrong for that company',
    coverage: "judged by the column's calendar periods",
  },
  {
    when: 'no company of the fund has a metric of that name (a mistyped name)',
    value: 'an error naming the nearest names: the whole block is wrong',
    coverage: 'the same error',
  },
];

/** A trailing profile id in parentheses: `Cirrus Systems (b0000000-0000-4000-8000-000000000032)`. */
const LABELLED = /^(.*?)\s*\(\s*([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\s*\)\s*$/i;

/**
 * Each profile's label: its name, or, where two or more of the fund's companies share it (as names are matched,
 * trimmed and in any case), the name followed by the profile id in parentheses, which a formula reads back.
 */
export function companyLabels(profiles: ReadonlyArray<Pick<PortfolioCompanyProfile, 'id' | 'name'>>): Map<string, string> {
  const key = (profile: Pick<PortfolioCompanyProfile, 'name'>) => profile.name.trim().toLowerCase();
  const shared = new Map<string, number>();
  for (const profile of profiles) shared.set(key(profile), (shared.get(key(profile)) ?? 0) + 1);
  return new Map(
    profiles.map((profile) => [profile.id.toLowerCase(), (shared.get(key(profile)) ?? 0) > 1 ? `${profile.name.trim()} (${profile.id})` : profile.name.trim()]),
  );
}

/** A label's name and profile id, or undefined when the text carries no id in parentheses. */
export function readCompanyLabel(text: string): { name: string; profileId: string } | undefined {
  const match = LABELLED.exec(text.trim());
  return match ? { name: match[1]!, profileId: match[2]!.toLowerCase() } : undefined;
}

// Units. Companies keep one metric name in different units (Net Burn in dollars here, euros there), so every fund
// table says each row's unit, and says where a total over its rows would add different ones.

/** Heads the unit column of a fund table (PORTFOLIO_METRIC's last column, a fund model block's). */
export const UNIT_HEADER = 'Unit';

/** A metric's unit as a unit column shows it: a currency code in capitals, anything else as the API gives it, trimmed. */
export function unitText(unit: string | null | undefined): string {
  const text = (unit ?? '').trim();
  return /^[A-Za-z]{3}$/.test(text) ? text.toUpperCase() : text;
}

/** The distinct units of some rows ('' for a row without one left out), the most frequent first (then alphabetically). */
export function distinctUnits(units: ReadonlyArray<string | null | undefined>): string[] {
  const counts = new Map<string, number>();
  for (const unit of units.map(unitText)) if (unit !== '') counts.set(unit, (counts.get(unit) ?? 0) + 1);
  return [...counts].sort(([a, n], [b, m]) => m - n || (a < b ? -1 : a > b ? 1 : 0)).map(([unit]) => unit);
}

/** Whether these units are all currency codes (contract: Metric.unit is `number`, `percent` or an ISO 4217 code). */
function allCurrencies(units: readonly string[]): boolean {
  return units.every((unit) => /^[A-Z]{3}$/.test(unit));
}

/** "USD and EUR: a total over them adds different currencies"; undefined when the rows share one unit (or none). */
export function mixedUnitsText(units: ReadonlyArray<string | null | undefined>): string | undefined {
  const distinct = distinctUnits(units);
  if (distinct.length < 2) return undefined;
  return `${joinAnd(distinct)}: a total over them adds different ${allCurrencies(distinct) ? 'currencies' : 'units'}`;
}

/**
 * The unit cell of a table's last line (under the rows a total would add): the rows' one unit, or, where they are in
 * several, the sentence saying a total over them adds different ones ("rows in USD and EUR: …").
 */
export function unitsSummaryText(units: ReadonlyArray<string | null | undefined>): string {
  const mixed = mixedUnitsText(units);
  return mixed ? `rows in ${mixed}` : (distinctUnits(units)[0] ?? '');
}
