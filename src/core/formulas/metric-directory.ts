// Finds a metric's record (name, frequency, profile) by id: the API lists metrics only by company.

import { ApiError } from '../errors';
import type { Metric, PortfolioCompanyProfile, PortfolioProperty } from '../api/types';
import type { FormulaContext } from './formula-context';

function metricListingKey(companyId: string, profileId?: string): string {
  return `metrics:${companyId}:${profileId ?? ''}`;
}

function profileListingKey(companyId: string): string {
  return `profiles:${companyId}`;
}

export function listMetricsCached(ctx: FormulaContext, companyId: string, profileId?: string): Metric[] {
  return ctx.records.getOrLoad(metricListingKey(companyId, profileId), () => ctx.client().metrics.list(companyId, { portfolioCompanyProfileId: profileId }));
}

/** A company's whole metric listing if the cache holds it, else undefined (no request). */
export function cachedMetricListing(ctx: FormulaContext, companyId: string): Metric[] | undefined {
  return ctx.records.get<Metric[]>(metricListingKey(companyId));
}

/** What `read` gives, or undefined when the API answers 403 (a company that is not a fund has no portfolio). */
export function unlessForbidden<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch (error) {
    if (error instanceof ApiError && error.code === 'forbidden') return undefined;
    throw error;
  }
}

/** A profile of a fund, from the cached listing; undefined outside the investor product. */
export function findProfile(ctx: FormulaContext, companyId: string, profileId: string): PortfolioCompanyProfile | undefined {
  return unlessForbidden(() => listProfilesCached(ctx, companyId).find((profile) => profile.id === profileId));
}

export function listProfilesCached(ctx: FormulaContext, companyId: string): PortfolioCompanyProfile[] {
  return ctx.records.getOrLoad(profileListingKey(companyId), () => ctx.client().portfolio.listProfiles(companyId));
}

/**
 * A fund's profiles and metric listing, each from the cache when it holds it; when neither is cached (the first
 * cell of a fund model) both are read together, in two round trips rather than four. The metric listing is stored
 * before the profiles, so a cell that waited for this load finds both.
 */
export function listProfilesAndMetricsCached(ctx: FormulaContext, fundId: string): { profiles: PortfolioCompanyProfile[]; metrics: Metric[] } {
  let metrics: Metric[] | undefined;
  const profiles = ctx.records.getOrLoad(profileListingKey(fundId), () => {
    if (cachedMetricListing(ctx, fundId) !== undefined) return ctx.client().portfolio.listProfiles(fundId);
    const both = ctx.client().portfolio.listProfilesAndMetrics(fundId);
    ctx.records.put(metricListingKey(fundId), both.metrics);
    metrics = both.metrics;
    return both.profiles;
  });
  return { profiles, metrics: metrics ?? listMetricsCached(ctx, fundId) };
}

export function listPropertiesCached(ctx: FormulaContext, companyId: string): PortfolioProperty[] {
  return ctx.records.getOrLoad(`properties:${companyId}`, () => ctx.client().portfolio.listProperties(companyId));
}
