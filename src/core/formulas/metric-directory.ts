// Finds a metric's record (name, frequency, profile) by id: the API lists metrics only by company.

import { ApiError } from '../errors';
import type { Metric, PortfolioCompanyProfile, PortfolioProperty } from '../api/types';
import type { FormulaContext } from './formula-context';

export function listMetricsCached(ctx: FormulaContext, companyId: string, profileId?: string): Metric[] {
  return ctx.records.getOrLoad(`metrics:${companyId}:${profileId ?? ''}`, () => ctx.client().metrics.list(companyId, { portfolioCompanyProfileId: profileId }));
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
