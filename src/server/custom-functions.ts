// The custom functions' bodies: build the context, run the core formula, fail with a sentence.

import { userSentence } from '../core/errors';
import * as lists from '../core/formulas/list-formulas';
import * as series from '../core/formulas/metric-formulas';
import * as grid from '../core/formulas/portfolio-grid';
import type { FormulaContext } from '../core/formulas/formula-context';
import type { CustomFunctionName } from '../core/formulas/names';
import { createFormulaContext } from './formula-context';

/** A core formula as a custom function: any failure becomes an Error whose message the cell shows (never the token). */
function run<A extends unknown[], T>(formula: (ctx: FormulaContext, ...args: A) => T): (...args: A) => T {
  return (...args) => {
    try {
      return formula(createFormulaContext(), ...args);
    } catch (error) {
      throw new Error(userSentence(lists.explainPortfolioForbidden(error)));
    }
  };
}

export const customFunctions = {
  METRIC_VALUES: run(series.metricValues),
  METRIC_VALUE: run(series.metricValue),
  METRIC_LATEST: run(series.metricLatest),
  METRIC_SOURCE: run(series.metricSource),
  METRICS: run(lists.metrics),
  CONTACT_LISTS: run(lists.contactLists),
  PORTFOLIO_COMPANIES: run(lists.portfolioCompanies),
  PORTFOLIO_PROPERTIES: run(lists.portfolioProperties),
  PORTFOLIO_PROPERTY_VALUES: run(lists.portfolioPropertyValues),
  PORTFOLIO_PROPERTY_OPTIONS: run(lists.portfolioPropertyOptions),
  PORTFOLIO_NOTES: run(lists.portfolioNotes),
  PORTFOLIO_VALUE: run(grid.portfolioValue),
  PORTFOLIO_METRIC: run(grid.portfolioMetric),
  PORTFOLIO_COVERAGE: run(grid.portfolioCoverage),
} satisfies Record<CustomFunctionName, (...args: never[]) => unknown>;
