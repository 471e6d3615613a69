// The fund model as analysts build it: companies down, periods across, and per block one =PORTFOLIO_VALUE over
// the block's company column, its metric name cell and its period row (the default), or one per cell referring
// to its row's company, the name cell and its column's period.

import { InputError } from '../errors';
import { columnLetters } from '../export/places';
import { formatCount } from '../../shared/words';
import { readAggregate, type Aggregate } from '../sheets/period-aggregate';
import { choicePeriods, cleanNames, type GridChoice } from './grid-builder';
import { companyLabels, namingAggregate, readNamedMetric, UNIT_HEADER, withAggregate } from './fund-cells';
import { COVERED_LABEL, isFundMetricName, requireMetricNameInFund, requireReadableLabels, type FundDirectory } from './fund-functions';

/** What to lay out: the metric names (a block each, each may name its aggregate: "Cash (last)"), the periods, and an aggregate for a single name. */
export type FundModelChoice = Pick<GridChoice, 'metricNames' | 'periods' | 'startPeriod' | 'endPeriod'> & { aggregate: Aggregate | null };

/** A header cell's text (written as text, whatever it looks like), or a cell's live formula. */
export type FundModelCell = { text: string } | { formula: string } | null;

/**
 * How a block's values are computed: one array formula filling the block ('block', the default), or one formula
 * per value cell ('cell'). Sheets runs each formula as its own execution, and Apps Script refuses a user's custom
 * functions invoked too many times per second ("code your custom functions so that they only need to be called
 * once per range of data", quotas page; docs/platform.md): a block is one execution, a cell model one per value.
 */
export type FundModelFormulas = 'block' | 'cell';

export const FUND_MODEL_FORMULAS: readonly FundModelFormulas[] = ['block', 'cell'];

/** Past this many values a model is better split: one execution per cell, or one block's fetch under its 30 s. */
const MAX_MODEL_VALUES = 10_000;

/** How many PORTFOLIO_VALUE formulas (so executions per recalculation) a model of this shape holds. */
export function modelFormulaCount(shape: { blocks: number; companies: number; periods: number }, formulas: FundModelFormulas): number {
  // One per cell: a value cell per period and the Unit cell, for each company of each block.
  return formulas === 'block' ? shape.blocks : shape.blocks * shape.companies * (shape.periods + 1);
}

/**
 * The blocks' name cells: each name as chosen, with its own aggregate ("Cash (last)"). An aggregate chosen apart
 * is one metric's choice, so it names the one name chosen; with several, each name must carry its own.
 */
export function modelNameCells(choice: Pick<FundModelChoice, 'metricNames' | 'aggregate'>): string[] {
  const names = cleanNames(choice.metricNames);
  const how = readAggregate(choice.aggregate);
  if (how && names.length > 1 && names.some((name) => !readNamedMetric(name).aggregate)) {
    throw new InputError(
      `Choose the aggregate for each metric, not one for all: name them like "${withAggregate(readNamedMetric(names[0]!).name, how)}" (or leave one out: a period of several values then says what to type).`,
    );
  }
  return names.map((name) => namingAggregate(name, how));
}

/**
 * One block per metric name, a blank row between: the name (with its aggregate) in the block's top-left cell, the
 * periods across that row, the fund's companies down the column under it (labels: a name two profiles share
 * carries the profile id), and right of the periods a Unit column. The values and units: by default one
 * =PORTFOLIO_VALUE($A2:$A33, $A$1, B$1:J$1) in the block's first value cell filling the block, its last column each
 * company's unit (its other cells are left empty for the result: one execution per block), or with 'cell' one
 * =PORTFOLIO_VALUE($A2, $A$1, B$1) in each. Under the companies a line counting per period the companies with a
 * number, so a total over the block says how many it holds. `origin` is the 1-based cell of the first block's name.
 */
export function fundModelCells(
  directory: FundDirectory,
  choice: FundModelChoice,
  origin: { row: number; column: number },
  formulas: FundModelFormulas = 'block',
): FundModelCell[][] {
  const nameCells = modelNameCells(choice);
  for (const name of nameCells) requireMetricNameInFund(directory, readNamedMetric(name, isFundMetricName(directory)).name);
  const periods = choicePeriods(choice);
  requireReadableLabels(periods);
  const profiles = directory.profiles;
  if (profiles.length === 0) throw new InputError('No portfolio companies: this fund has none yet, so a model would have no rows.');
  const values = nameCells.length * profiles.length * periods.length;
  if (values > MAX_MODEL_VALUES) {
    const why =
      formulas === 'cell'
        ? "Sheets runs each cell's formula as its own execution"
        : "each block's formula must read its values within a custom function's 30 seconds";
    throw new InputError(`That model is ${formatCount(values)} values, more than ${formatCount(MAX_MODEL_VALUES)}: ${why}. Choose fewer metrics or periods.`);
  }
  const labels = companyLabels(profiles);
  const first = columnLetters(origin.column);
  // The block's formula covers the Unit column after the periods: there PORTFOLIO_VALUE shows each company's unit.
  const unitColumn = columnLetters(origin.column + periods.length + 1);
  const cells: FundModelCell[][] = [];
  nameCells.forEach((name, block) => {
    if (block > 0) cells.push([]);
    const nameRow = origin.row + cells.length;
    cells.push([{ text: name }, ...periods.map((period) => ({ text: period })), { text: UNIT_HEADER }]);
    profiles.forEach((profile, c) => {
      const row = origin.row + cells.length;
      cells.push([
        { text: labels.get(profile.id.toLowerCase())! },
        ...[...periods, UNIT_HEADER].map((_, p): FundModelCell => {
          const column = columnLetters(origin.column + 1 + p);
          if (formulas === 'cell') return { formula: `=PORTFOLIO_VALUE($${first}${row}, $${first}$${nameRow}, ${column}$${nameRow})` };
          // The block's one formula: a column of companies against a row of periods (and the Unit header) fills a
          // grid, cell for cell what the per-cell formula shows (fund-cells.ts), in one execution.
          if (c > 0 || p > 0) return null;
          return {
            formula: `=PORTFOLIO_VALUE($${first}${row}:$${first}${row + profiles.length - 1}, $${first}$${nameRow}, ${column}$${nameRow}:${unitColumn}$${nameRow})`,
          };
        }),
      ]);
    });
    // COUNT counts numbers only: an empty cell or a cell's text (no such metric, …) is a company the total leaves out.
    const top = nameRow + 1;
    const bottom = nameRow + profiles.length;
    cells.push([
      { text: COVERED_LABEL },
      ...periods.map((_, p) => {
        const column = columnLetters(origin.column + 1 + p);
        return { formula: `=COUNT(${column}${top}:${column}${bottom})&" of ${profiles.length}"` };
      }),
    ]);
  });
  return cells;
}
