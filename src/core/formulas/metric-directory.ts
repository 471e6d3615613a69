// Finds a metric's record (name, frequency, profile) by id: the API lists metrics only by company.

import type { Metric, PortfolioCompanyProfile, PortfolioProperty } from '../api/types';
import { ApiError } from '../api/errors';
import type { FormulaContext } from './formula-context';

export function listMetricsCached(ctx: FormulaContext, companyId: string, profileId?: string): Metric[] {
  return ctx.records.getOrLoad(`metrics:${companyId}:${profileId ?? ''}`, () => ctx.client().metrics.list(companyId, { portfolioCompanyProfileId: profileId }));
}

/**
 * The metric with this id among the metrics of the companies formulas here may read (one cached
 * listing per company serves every formula), or undefined when it is in none of them.
 */
export function findMetric(ctx: FormulaContext, metricId: string): Metric | undefined {
  for (const companyId of ctx.allowedCompanyIds) {
    const metric = listMetricsCached(ctx, companyId).find((m) => m.id === metricId);
    if (metric) return metric;
  }
  return undefined;
}

/** A profile of a fund, from the cached listing; undefined outside the investor product. */
export function findProfile(ctx: FormulaContext, companyId: string, profileId: string): PortfolioCompanyProfile | undefined {
  try {
    return listProfilesCached(ctx, companyId).find((profile) => profile.id === profileId);
  } catch (error) {
    if (error instanceof ApiError && error.code === 'forbidden') return undefined;
    throw error;
  }
}

export function listProfilesCached(ctx: FormulaContext, companyId: string): PortfolioCompanyProfile[] {
  return ctx.records.getOrLoad(`profiles:${companyId}`, () => ctx.client().portfolio.listProfiles(companyId));
}

export function listPropertiesCached(ctx: FormulaContext, companyId: string): PortfolioProperty[] {
  return ctx.records.getOrLoad(`properties:${companyId}`, () => ctx.client().portfolio.listProperties(companyId));
}
