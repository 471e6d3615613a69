// The sidebar's grid builder: the fund's metric names, a PORTFOLIO_METRIC / PORTFOLIO_COVERAGE formula or its values,
// and the "Reporting coverage" sheet, all read as the custom functions read them, so the sheet and formula agree.

import { InputError } from '../core/errors';
import { countOf, joinAnd } from '../core/export/places';
import { choicePeriods, cleanNames, coverageSheetModel, fundMetricNames, gridFormula, type FundMetricName, type GridChoice } from '../core/formulas/grid-builder';
import { fundDirectory, portfolioCoverage, portfolioMetric } from '../core/formulas/portfolio-grid';
import { readAggregate } from '../core/sheets/period-aggregate';
import { requireUuid } from '../core/validate/uuid';
import { writeCoverageSheet } from '../gas/coverage-sheet';
import { activeAnchor, writeCells, writeTable } from '../gas/sheet-io';
import { FUND_MODEL_FORMULAS, fundModelCells, modelFormulaCount, modelNameCells, type FundModelFormulas } from '../core/formulas/fund-model';
import { namingAggregate, readNamedMetric } from '../core/formulas/fund-cells';
import type { CoverageSheetReport, CoverageSheetRequest, FundModelRequest, InsertReport, PortfolioGridRequest } from '../shared/rpc';
import { createFormulaContext } from './formula-context';
import { allowFormulasToRead, insertFormula } from './insert-values';
import { portfolioTableFormats, recordPortfolioSnapshot } from './snapshots';

const COVERAGE_SHEET = 'Reporting coverage';

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

export function listFundMetricNames(companyId: string): FundMetricName[] {
  const fundId = requireUuid(companyId, "The fund's company id");
  return fundMetricNames(fundDirectory(createFormulaContext({ fundId }), fundId));
}

export function insertPortfolioGrid(request: PortfolioGridRequest): InsertReport {
  const choice = choiceOf(request);
  // The formula is built (and so checked) first, in both modes: a snapshot is what that formula shows now.
  const formula = gridFormula(choice);
  const anchor = activeAnchor();
  if (request.mode === 'formula') return insertFormula(anchor, formula, choice.fundId);
  const ctx = createFormulaContext({ fundId: choice.fundId });
  // A metric grid's aggregate is its name's ("Cash (last)"), as gridFormula writes it.
  const metricName = namingAggregate(choice.metricNames[0] ?? '', choice.aggregate);
  const table = choice.kind === 'metric'
    ? portfolioMetric(ctx, metricName, [choicePeriods(choice)], choice.fundId)
    : portfolioCoverage(ctx, [choice.metricNames], choice.startPeriod, choice.endPeriod, choice.fundId, choice.aggregate);
  // The Metrics tab's snapshot path: only into empty cells, formula-like text kept as text; a metric grid's values
  // in each company's metric's unit (the directory is the one portfolioMetric just read, cached).
  const formats = choice.kind === 'metric' ? portfolioTableFormats(ctx, choice.fundId, metricName, table[0]!.length - 1) : undefined;
  const range = writeTable(anchor, table, formats);
  // A PORTFOLIO_METRIC snapshot is recorded for "Refresh snapshots"; a coverage table of statuses and totals is not.
  const access = choice.kind === 'metric' ? recordPortfolioSnapshot(anchor, range, { fundId: choice.fundId, metricName, periods: choicePeriods(choice), aggregate: null }) : '';
  const rows = table.length - 1;
  return { range: `${anchor.sheetName}!${range}`, rows, message: `Wrote ${countOf(rows, 'row')} of values (as ${formula} shows them now) to ${anchor.sheetName}!${range}.${access}` };
}

/** The request's `formulas`: one per block unless it asks for one per cell (a request without it, as before, gets the default). */
function modelFormulas(value: unknown): FundModelFormulas {
  if (value === undefined || value === null || value === '') return 'block';
  if (!FUND_MODEL_FORMULAS.includes(value as FundModelFormulas)) throw new InputError(`The model's formulas are "block" (one per block, the default) or "cell" (one per cell), not "${String(value).slice(0, 40)}".`);
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
    throw new InputError(`PORTFOLIO_VALUE reads the fund that is the default company in Settings, and that is not ${fundId}: make the fund the default company first.`);
  }
  const choice = {
    metricNames: strings(request.metricNames, 'The metric names'),
    periods: strings(request.periods, 'The periods'),
    startPeriod: request.startPeriod ? String(request.startPeriod) : null,
    endPeriod: request.endPeriod ? String(request.endPeriod) : null,
    aggregate: readAggregate(request.aggregate) ?? null,
  };
  const anchor = activeAnchor();
  const directory = fundDirectory(ctx, fundId);
  const cells = fundModelCells(directory, choice, anchor, formulas);
  const range = `${anchor.sheetName}!${writeCells(anchor, cells)}`;
  const names = modelNameCells(choice);
  const periods = cells[0]!.length - 1;
  const count = modelFormulaCount({ blocks: names.length, companies: directory.profiles.length, periods }, formulas);
  const how = formulas === 'block'
    ? `${countOf(count, 'PORTFOLIO_VALUE formula')}, one per block filling its companies × periods (one execution each when Sheets recalculates)`
    : `${countOf(count, 'PORTFOLIO_VALUE formula')}, one per cell (each its own execution when Sheets recalculates, so Google may refuse some with "Script invoked too many times per second")`;
  // Each metric with the aggregate its name cell names, or with none: then a period of several values says what to type.
  const used = names.map((name) => (readNamedMetric(name).aggregate ? name : `${name} (no aggregate: a period of several values asks for one)`));
  return {
    range,
    rows: cells.length,
    message: `Inserted a fund model at ${range}: ${countOf(directory.profiles.length, 'company', 'companies')} × ${countOf(periods, 'period')} × ${countOf(names.length, 'metric')} (${joinAnd(used)}), ${how}, and under each block a line counting the companies with a value. A block's top-left cell names its metric and how to combine a period's values, like "Cash (last)": type another to see that metric.${allowFormulasToRead(fundId)}`,
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
