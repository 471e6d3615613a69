// The sidebar's grid builder: the fund's metric names, a PORTFOLIO_METRIC / PORTFOLIO_COVERAGE formula or its values,
// and the "Reporting coverage" sheet, all read as the custom functions read them, so the sheet and formula agree.

import { InputError } from '../core/errors';
import { countOf, joinAnd } from '../shared/words';
import {
  choicePeriods,
  cleanNames,
  coverageSheetModel,
  fundMetricNames,
  gridFormula,
  type FundMetricName,
  type GridChoice,
} from '../core/formulas/grid-builder';
import { fundDirectory, portfolioCoverage, portfolioMetric, portfolioMetricUnits, type FundDirectory } from '../core/formulas/fund-functions';
import { readAggregate } from '../core/sheets/period-aggregate';
import { requireUuid } from '../core/validate/uuid';
import { writeCoverageSheet } from '../gas/coverage-sheet';
import { activeAnchor, writeCells, writeTable } from '../gas/sheet-io';
import {
  FUND_MODEL_FORMULAS,
  fundModelCells,
  modelFormulaCount,
  modelNameCells,
  type FundModelChoice,
  type FundModelFormulas,
} from '../core/formulas/fund-model';
import { mixedUnitsText, namingAggregate, readNamedMetric } from '../core/formulas/fund-cells';
import type {
  CoverageSheetReport,
  CoverageSheetRequest,
  FundModelRequest,
  InsertReport,
  PortfolioGridRequest,
  ProvenanceSheetReport,
  ProvenanceSheetRequest,
} from '../shared/rpc';
import { provenanceTable } from '../core/formulas/fund-sources';
import { writeProvenanceSheet } from '../gas/provenance-sheet';
import { createFormulaContext } from './formula-context';
import { allowFormulasToRead, insertFormula } from './insert-values';
import { portfolioTableFormats, recordPortfolioSnapshot } from './snapshots';

const COVERAGE_SHEET = 'Reporting coverage';
const PROVENANCE_SHEET = 'Provenance';

function strings(value: unknown, what: string): string[] {
  if (value === null || value === undefined) return [];
  if (!Array.isArray(value)) throw new InputError(`${what} must be a list.`);
  return value.map((item) => String(item));
}

function choiceOf(request: PortfolioGridRequest): GridChoice {
  if (request.kind !== 'metric' && request.kind !== 'coverage') throw new InputError('The grid is "metric" or "coverage".');
  return {
    kind: request.kind,
    fundId: requireUuid(request.companyId, "The fund's company id"),
    metricNames: strings(request.metricNames, 'The metric names'),
    periods: strings(request.periods, 'The periods'),
    startPeriod: request.startPeriod ? String(request.startPeriod) : null,
    endPeriod: request.endPeriod ? String(request.endPeriod) : null,
    aggregate: readAggregate(request.aggregate) ?? null,
  };
}

/**
 * What an insert says of each name whose companies keep it in different units ('' when none does): no insert writes a
 * total, and the table's own unit cells say it too, but the person reading the status should not have to find them.
 */
function mixedUnitsSentence(directory: FundDirectory, names: readonly string[]): string {
  return names
    .map((name) => {
      const mixed = mixedUnitsText(portfolioMetricUnits(directory, name));
      return mixed ? ` The rows of ${readNamedMetric(name).name} are in ${mixed} (the Unit column says each row's).` : '';
    })
    .join('');
}

/**
 * The sentence, or none when the listings cannot be read now: the formula is written by then, and its own Unit column
 * says the units (or its error says why it cannot), so the insert is not reported as failed for a courtesy.
 */
function unlessUnreadable(sentence: () => string): string {
  try {
    return sentence();
  } catch {
    return '';
  }
}

export function listFundMetricNames(companyId: string): FundMetricName[] {
  const fundId = requireUuid(companyId, "The fund's company id");
  return fundMetricNames(fundDirectory(createFormulaContext({ fundId }), fundId));
}

export function insertPortfolioGrid(request: PortfolioGridRequest): InsertReport {
  const choice = choiceOf(request);
  // The formula is built (and so checked) first, in both modes: a snapshot is what that formula shows now.
  const formula = gridFormula(choice);
  const anchor = activeAnchor();
  const ctx = createFormulaContext({ fundId: choice.fundId });
  // A metric grid's aggregate is its name's ("Cash (last)"), as gridFormula writes it.
  const metricName = namingAggregate(choice.metricNames[0] ?? '', choice.aggregate);
  // The listings the formula reads next (cached): a coverage table holds statuses, not values, so it has no units.
  const units = () => (choice.kind === 'metric' ? mixedUnitsSentence(fundDirectory(ctx, choice.fundId), [metricName]) : '');
  if (request.mode === 'formula') {
    const report = insertFormula(anchor, formula, choice.fundId);
    return { ...report, message: report.message + unlessUnreadable(units) };
  }
  const table =
    choice.kind === 'metric'
      ? portfolioMetric(ctx, metricName, [choicePeriods(choice)], choice.fundId)
      : portfolioCoverage(ctx, [choice.metricNames], choice.startPeriod, choice.endPeriod, choice.fundId, choice.aggregate);
  // The Metrics tab's snapshot path: only into empty cells, formula-like text kept as text; a metric grid's values
  // in each company's metric's unit (the directory is the one portfolioMetric just read, cached).
  const formats = choice.kind === 'metric' ? portfolioTableFormats(ctx, choice.fundId, metricName, choicePeriods(choice).length) : undefined;
  const range = writeTable(anchor, table, formats);
  // A PORTFOLIO_METRIC snapshot is recorded for "Refresh snapshots"; a coverage table of statuses and totals is not.
  const access =
    choice.kind === 'metric'
      ? recordPortfolioSnapshot(anchor, range, { fundId: choice.fundId, metricName, periods: choicePeriods(choice), aggregate: null })
      : '';
  const rows = table.length - 1;
  return {
    range: `${anchor.sheetName}!${range}`,
    rows,
    message: `Wrote ${countOf(rows, 'row')} of values (as ${formula} shows them now) to ${anchor.sheetName}!${range}.${units()}${access}`,
  };
}

/** The fund model's choice as the sidebar sends it, for the model and for its provenance sheet. */
function fundModelChoice(request: FundModelRequest): FundModelChoice {
  return {
    metricNames: strings(request.metricNames, 'The metric names'),
    periods: strings(request.periods, 'The periods'),
    startPeriod: request.startPeriod ? String(request.startPeriod) : null,
    endPeriod: request.endPeriod ? String(request.endPeriod) : null,
    aggregate: readAggregate(request.aggregate) ?? null,
  };
}

/** The request's `formulas`: one per block unless it asks for one per cell (a request without it, as before, gets the default). */
function modelFormulas(value: unknown): FundModelFormulas {
  if (value === undefined || value === null || value === '') return 'block';
  if (!FUND_MODEL_FORMULAS.includes(value as FundModelFormulas))
    throw new InputError(`The model's formulas are "block" (one per block, the default) or "cell" (one per cell), not "${String(value).slice(0, 40)}".`);
  return value as FundModelFormulas;
}

/**
 * The fund model at the active cell: per metric, its name cell, the periods across, the companies down and live
 * =PORTFOLIO_VALUE formulas referring to them: one per block by default, one per cell on request.
 * PORTFOLIO_VALUE reads the default company's fund, so that must be it.
 */
export function insertFundModel(request: FundModelRequest): InsertReport {
  const fundId = requireUuid(request.companyId, "The fund's company id");
  const formulas = modelFormulas(request.formulas);
  const ctx = createFormulaContext({ fundId });
  if ((ctx.defaultCompanyId ?? '').toLowerCase() !== fundId.toLowerCase()) {
    throw new InputError(
      `PORTFOLIO_VALUE reads the fund that is the default company in Settings, and that is not ${fundId}: make the fund the default company first.`,
    );
  }
  const choice = fundModelChoice(request);
  const anchor = activeAnchor();
  const directory = fundDirectory(ctx, fundId);
  const cells = fundModelCells(directory, choice, anchor, formulas);
  const range = `${anchor.sheetName}!${writeCells(anchor, cells)}`;
  const names = modelNameCells(choice);
  const periods = choicePeriods(choice).length;
  const count = modelFormulaCount({ blocks: names.length, companies: directory.profiles.length, periods }, formulas);
  const how =
    formulas === 'block'
      ? `${countOf(count, 'PORTFOLIO_VALUE formula')}, one per block filling its companies × periods (one execution each when Sheets recalculates)`
      : `${countOf(count, 'PORTFOLIO_VALUE formula')}, one per cell (each its own execution when Sheets recalculates, so Google may refuse some with "Script invoked too many times per second")`;
  // Each metric with the aggregate its name cell names, or with none: then a period of several values says what to type.
  const used = names.map((name) => (readNamedMetric(name).aggregate ? name : `${name} (no aggregate: a period of several values asks for one)`));
  return {
    range,
    rows: cells.length,
    message: `Inserted a fund model at ${range}: ${countOf(directory.profiles.length, 'company', 'companies')} × ${countOf(periods, 'period')} × ${countOf(names.length, 'metric')} (${joinAnd(used)}), ${how}, and under each block a line counting the companies with a value. A block's top-left cell names its metric and how to combine a period's values, like "Cash (last)": type another to see that metric.${mixedUnitsSentence(directory, names)}${allowFormulasToRead(fundId)}`,
  };
}

export function buildCoverageSheet(request: CoverageSheetRequest): CoverageSheetReport {
  const fundId = requireUuid(request.companyId, "The fund's company id");
  const names = cleanNames(strings(request.metricNames, 'The metric names'));
  const ctx = createFormulaContext({ fundId });
  const table = portfolioCoverage(ctx, [names], request.startPeriod, request.endPeriod, fundId, readAggregate(request.aggregate));
  const model = coverageSheetModel(table, fundDirectory(ctx, fundId).profiles.length, names.length);
  writeCoverageSheet(COVERAGE_SHEET, model);
  const { companies, metrics, periods, blanks } = model;
  return {
    sheetName: COVERAGE_SHEET,
    companies,
    metrics,
    periods,
    blanks,
    message: `Built "${COVERAGE_SHEET}": ${countOf(companies, 'company', 'companies')} × ${countOf(metrics, 'metric')} × ${countOf(periods, 'period')} (${countOf(blanks, 'blank cell')} highlighted).`,
  };
}

/**
 * The "Provenance" sheet beside the coverage sheet: for the fund model's names (each with its aggregate) and periods,
 * one row per name, company and period with the value PORTFOLIO_VALUE shows and PORTFOLIO_SOURCE's source, read for
 * the fund given. Building it again replaces it.
 */
export function buildProvenanceSheet(request: ProvenanceSheetRequest): ProvenanceSheetReport {
  const fundId = requireUuid(request.companyId, "The fund's company id");
  const choice = fundModelChoice(request);
  const nameCells = modelNameCells(choice);
  const periods = choicePeriods(choice);
  const ctx = createFormulaContext({ fundId });
  const directory = fundDirectory(ctx, fundId);
  const table = provenanceTable(ctx, directory, { nameCells, periods });
  writeProvenanceSheet(PROVENANCE_SHEET, table);
  const rows = table.length - 1;
  const companies = directory.profiles.length;
  const valued = table.slice(1).filter((row) => typeof row[3] === 'number').length;
  return {
    sheetName: PROVENANCE_SHEET,
    companies,
    metrics: nameCells.length,
    periods: periods.length,
    rows,
    message: `Built "${PROVENANCE_SHEET}": ${countOf(companies, 'company', 'companies')} × ${countOf(periods.length, 'period')} × ${countOf(nameCells.length, 'metric')} (${joinAnd(nameCells)}), ${countOf(rows, 'row')}, ${valued} with a value and its source.`,
  };
}
