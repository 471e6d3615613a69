// The sidebar's grid builder: the fund's distinct metric names, the formulas it inserts, and the
// "Reporting coverage" sheet's layout, all from the same directory and tables the custom functions use.

import { InputError } from '../errors';
import { readAggregate, type Aggregate } from '../sheets/period-aggregate';
import { isUuid } from '../validate/uuid';
import { BLANK, COVERAGE_COUNTS, coverageColumns, normalName, type FundDirectory } from './fund-functions';
import { companyLabels, namingAggregate } from './fund-cells';
import type { SheetCell } from './metric-formulas';

/** A name, how many companies have a metric of it, and the aggregate the grid builder offers first for it. */
export type FundMetricName = { name: string; companies: number; aggregate: 'last' | 'sum'; companyNames: string[] };

/** Balances are read at a period's end (Cash at quarter end); anything else is taken as a flow and added up. */
const BALANCE =
  /\b(cash|balance|headcount|head count|employees|fte|arr|mrr|recurring|customers|users|subscribers|runway|debt|assets|liabilities|equity|valuation|backlog|inventory)\b/i;

/** What a quarter of a monthly metric of this name is, unless the person chooses otherwise. */
function suggestedAggregate(name: string): 'last' | 'sum' {
  return BALANCE.test(name) ? 'last' : 'sum';
}

/**
 * Every distinct metric name of the fund's companies (matched as the functions match them), with how
 * many companies have one, most first. A name is spelt as most of its companies spell it (on a tie the
 * first alphabetically), so the inserted formula reads as the fund writes it.
 */
export function fundMetricNames(directory: FundDirectory): FundMetricName[] {
  const byKey = new Map<string, { companies: number; spellings: Map<string, number>; companyNames: string[] }>();
  // Labels, so two companies of one name are told apart in the pickers as in the tables.
  const companyName = companyLabels(directory.profiles);
  for (const [profileId, byName] of directory.metrics) {
    for (const [key, metrics] of byName) {
      const entry = byKey.get(key) ?? { companies: 0, spellings: new Map<string, number>(), companyNames: [] };
      entry.companies += 1;
      entry.companyNames.push(companyName.get(profileId) ?? profileId);
      const spelling = metrics[0]!.name.trim();
      entry.spellings.set(spelling, (entry.spellings.get(spelling) ?? 0) + 1);
      byKey.set(key, entry);
    }
  }
  const names = [...byKey.values()].map(({ companies, spellings, companyNames }) => {
    const [name] = [...spellings].sort(([a, n], [b, m]) => m - n || (a < b ? -1 : a > b ? 1 : 0))[0]!;
    return { name, companies, aggregate: suggestedAggregate(name), companyNames: companyNames.sort((a, b) => a.localeCompare(b)) };
  });
  return names.sort((a, b) => b.companies - a.companies || normalName(a.name).localeCompare(normalName(b.name)));
}

/** A text argument of a formula: quotes doubled, so no name can end its string early. */
function text(value: string): string {
  return `"${value.replace(/"/g, '""')}"`;
}

/** Row array literal {"a","b"}; one item as itself. */
function row(values: readonly string[]): string {
  return values.length === 1 ? text(values[0]!) : `{${values.map(text).join(',')}}`;
}

export type GridChoice = {
  kind: 'metric' | 'coverage';
  fundId: string;
  metricNames: string[];
  /** The periods as a list; when empty, every calendar period from start to end. */
  periods: string[];
  startPeriod: string | null;
  endPeriod: string | null;
  /** For periods longer than a company's metric; null for none (each period then must be one of the metric's). */
  aggregate: Aggregate | null;
};

/** The aggregate as a formula's last argument: `, "last"`, or nothing. */
function aggregateArgument(choice: GridChoice): string {
  const how = readAggregate(choice.aggregate);
  return how ? `, ${text(how)}` : '';
}

function trimmed(items: readonly string[]): string[] {
  return items.map((item) => String(item).trim()).filter((item) => item !== '');
}

export function cleanNames(names: readonly string[]): string[] {
  const clean = trimmed(names);
  if (clean.length === 0) throw new InputError('Choose at least one metric name.');
  return clean;
}

/** The period labels a PORTFOLIO_METRIC choice names: its list, or every calendar period from start to end. */
export function choicePeriods(choice: Pick<GridChoice, 'periods' | 'startPeriod' | 'endPeriod'>): string[] {
  const listed = trimmed(choice.periods);
  if (listed.length > 0) return listed;
  if (!choice.startPeriod || !choice.endPeriod) throw new InputError('Give the periods: a start and an end label (like 2024-Q1 and 2024-Q4), or a list.');
  return coverageColumns(choice.startPeriod, choice.endPeriod).map((column) => column.label);
}

/**
 * =PORTFOLIO_METRIC("name", {"2024-Q1","2024-Q2"}, "fund") or =PORTFOLIO_COVERAGE({"a","b"}, "start", "end", "fund").
 * Array literals use the comma between columns, the en-US syntax setFormula reads (*unverified* for
 * spreadsheets in locales that write formulas with semicolons; Apps Script documents setFormula in A1
 * notation only).
 */
export function gridFormula(choice: GridChoice): string {
  if (!isUuid(choice.fundId)) throw new InputError("The fund's company id is not an id: give it in the Metrics tab.");
  const names = cleanNames(choice.metricNames);
  if (choice.kind === 'metric') {
    if (names.length > 1) throw new InputError('PORTFOLIO_METRIC shows one metric: choose one name (or build the coverage of several).');
    // The aggregate is written with the name it belongs to ("Cash (last)"), not as an argument apart.
    return `=PORTFOLIO_METRIC(${text(namingAggregate(names[0]!, readAggregate(choice.aggregate)))}, ${row(choicePeriods(choice))}, ${text(choice.fundId)})`;
  }
  if (!choice.startPeriod || !choice.endPeriod) throw new InputError("Give the coverage's start and end periods, like 2024-01 and 2024-06.");
  // Checked here too, so a wrong label is refused before a formula is written.
  coverageColumns(choice.startPeriod, choice.endPeriod);
  return `=PORTFOLIO_COVERAGE(${row(names)}, ${text(choice.startPeriod.trim())}, ${text(choice.endPeriod.trim())}, ${text(choice.fundId)}${aggregateArgument(choice)})`;
}

/** A range of the sheet, 1-based. */
export type SheetRange = { row: number; column: number; numRows: number; numColumns: number };

export type CoverageSheetModel = ReturnType<typeof coverageSheetModel>;

export const BLANK_BACKGROUND = '#fce8b2';

/** The sheet of a PORTFOLIO_COVERAGE table (as the function returns it): its formats beside its values. */
export function coverageSheetModel(table: SheetCell[][], companies: number, metricNames: number) {
  const width = table[0]!.length;
  const periods = width - 2 - COVERAGE_COUNTS.length;
  // The first block, right under the header, has one row per company and name.
  const blanks = table.slice(1, 1 + companies * metricNames).reduce((n, r) => n + r.slice(2, 2 + periods).filter((c) => c === BLANK).length, 0);
  const range = (numRows: number, numColumns: number, row = 1, column = 1): SheetRange => ({ row, column, numRows, numColumns });
  return {
    values: table,
    // The header row is frozen, and the company and metric columns.
    frozenRows: 1,
    frozenColumns: 2,
    bold: range(1, width),
    filter: range(table.length, width),
    // A conditional rule, so a re-sort keeps it right.
    blankHighlight: { range: range(Math.max(table.length - 1, 1), Math.max(periods, 1), 2, 3), text: BLANK, background: BLANK_BACKGROUND },
    companies,
    metrics: metricNames,
    periods,
    /** Company-metric-period cells that are blank. */
    blanks,
  };
}
