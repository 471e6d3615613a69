// The custom functions' bodies: build the context, run the core formula, fail with a sentence.

import { userSentence } from '../core/errors';
import * as lists from '../core/formulas/list-formulas';
import * as series from '../core/formulas/metric-formulas';
import * as grid from '../core/formulas/portfolio-grid';
import type { FormulaContext } from '../core/formulas/formula-context';
import type { CustomFunctionName } from '../core/formulas/names';
import { createFormulaContext } from './formula-context';

/** Runs a formula; any failure becomes an Error whose message the cell shows (never the token). */
function run<T>(formula: (ctx: FormulaContext) => T): T {
  try {
    return formula(createFormulaContext());
  } catch (error) {
    throw new Error(userSentence(lists.explainPortfolioForbidden(error)));
  }
}

export const customFunctions = {
  METRIC_VALUES: (metricId: unknown, startDate: unknown, endDate: unknown, options: unknown) =>
    run((ctx) => series.metricValues(ctx, metricId, startDate, endDate, options)),
  METRIC_VALUE: (metricId: unknown, period: unknown, aggregate: unknown) => run((ctx) => series.metricValue(ctx, metricId, period, aggregate)),
  METRIC_LATEST: (metricId: unknown, asOf: unknown, options: unknown) => run((ctx) => series.metricLatest(ctx, metricId, asOf, options)),
  METRIC_SOURCE: (metricId: unknown, period: unknown) => run((ctx) => series.metricSource(ctx, metricId, period)),
  METRICS: (companyId: unknown, profileId: unknown) => run((ctx) => lists.metrics(ctx, companyId, profileId)),
  CONTACT_LISTS: (companyId: unknown) => run((ctx) => lists.contactLists(ctx, companyId)),
  PORTFOLIO_COMPANIES: (companyId: unknown) => run((ctx) => lists.portfolioCompanies(ctx, companyId)),
  PORTFOLIO_PROPERTIES: (companyId: unknown) => run((ctx) => lists.portfolioProperties(ctx, companyId)),
  PORTFOLIO_PROPERTY_VALUES: (profileId: unknown, companyId: unknown) => run((ctx) => lists.portfolioPropertyValues(ctx, profileId, companyId)),
  PORTFOLIO_PROPERTY_OPTIONS: (propertyId: unknown, label: unknown) => run((ctx) => lists.portfolioPropertyOptions(ctx, propertyId, label)),
  PORTFOLIO_NOTES: (profileId: unknown) => run((ctx) => lists.portfolioNotes(ctx, profileId)),
  PORTFOLIO_VALUE: (company: unknown, metricName: unknown, period: unknown, aggregate: unknown) =>
    run((ctx) => grid.portfolioValue(ctx, company, metricName, period, aggregate)),
  PORTFOLIO_METRIC: (metricName: unknown, periods: unknown, fundId: unknown) => run((ctx) => grid.portfolioMetric(ctx, metricName, periods, fundId)),
  PORTFOLIO_COVERAGE: (metricNames: unknown, startPeriod: unknown, endPeriod: unknown, fundId: unknown) =>
    run((ctx) => grid.portfolioCoverage(ctx, metricNames, startPeriod, endPeriod, fundId)),
} satisfies Record<CustomFunctionName, (...args: never[]) => unknown>;
