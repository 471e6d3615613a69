// The fund model as analysts build it cell by cell: companies down, periods across, and in each cell one
// =PORTFOLIO_VALUE referring to its row's company, its block's metric name cell and its column's period.

import { InputError } from '../errors';
import { columnLetters } from '../export/places';
import type { PortfolioCompanyProfile } from '../api/types';
import { readAggregate, type Aggregate } from '../sheets/period-aggregate';
import { choicePeriods, cleanNames, type GridChoice } from './grid-builder';
import { normalName, requireMetricNameInFund, requireReadableLabels, type FundDirectory } from './portfolio-grid';

/** What to lay out: the metric names (a block each), the periods, and the aggregate for periods longer than a metric's. */
export type FundModelChoice = Pick<GridChoice, 'metricNames' | 'periods' | 'startPeriod' | 'endPeriod'> & { aggregate: Aggregate | null };

/** A header cell's text (written as text, whatever it looks like), or a cell's live formula. */
export type FundModelCell = { text: string } | { formula: string } | null;

/** Sheets recalculates each formula cell as its own execution: past this the model is better split. */
const MAX_MODEL_FORMULAS = 10_000;

/**
 * One block per metric name, a blank row between: the name in the block's top-left cell, the periods across that
 * row, the fund's companies down the column under it, and in each cell =PORTFOLIO_VALUE($A2, $A$1, B$1) (with the
 * aggregate when one is chosen). A name two profiles share is written as their profile ids, so each row reads its
 * own company. `origin` is the 1-based cell of the first block's name.
 */
export function fundModelCells(directory: FundDirectory, choice: FundModelChoice, origin: { row: number; column: number }): FundModelCell[][] {
  const names = cleanNames(choice.metricNames);
  for (const name of names) requireMetricNameInFund(directory, name);
  const periods = choicePeriods(choice);
  requireReadableLabels(periods);
  const how = readAggregate(choice.aggregate);
  const profiles = directory.profiles;
  if (profiles.length === 0) throw new InputError('No portfolio companies: this fund has none yet, so a model would have no rows.');
  const formulas = names.length * profiles.length * periods.length;
  if (formulas > MAX_MODEL_FORMULAS) {
    throw new InputError(`That model is ${formulas.toLocaleString('en-US')} formulas, more than ${MAX_MODEL_FORMULAS.toLocaleString('en-US')}: Sheets runs each as its own execution. Choose fewer metrics or periods.`);
  }
  const shared = new Map<string, number>();
  for (const profile of profiles) shared.set(normalName(profile.name), (shared.get(normalName(profile.name)) ?? 0) + 1);
  const rowLabel = (profile: PortfolioCompanyProfile) => ((shared.get(normalName(profile.name)) ?? 0) > 1 ? profile.id : profile.name);
  const first = columnLetters(origin.column);
  const aggregate = how ? `, "${how}"` : '';
  const cells: FundModelCell[][] = [];
  names.forEach((name, block) => {
    if (block > 0) cells.push([]);
    const nameRow = origin.row + cells.length;
    cells.push([{ text: name }, ...periods.map((period) => ({ text: period }))]);
    profiles.forEach((profile) => {
      const row = origin.row + cells.length;
      cells.push([
        { text: rowLabel(profile) },
        ...periods.map((_, p) => {
          const column = columnLetters(origin.column + 1 + p);
          return { formula: `=PORTFOLIO_VALUE($${first}${row}, $${first}$${nameRow}, ${column}$${nameRow}${aggregate})` };
        }),
      ]);
    });
  });
  return cells;
}
