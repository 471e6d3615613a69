// Formula access: the companies whose data formulas in one spreadsheet may read, as its owner decided.
//
// Editors' formulas spend the owner's token (custom functions read the owner's user properties), so
// without this list any editor of a shared spreadsheet could read every company the token sees. The list
// lives in the owner's user properties, which an editor's sidebar never writes, so no editor can widen it.
//
// Each check reads only the allowed companies' cached listings (a warm cache sends nothing). A fund's
// metric listing holds its portfolio companies' metrics; a profile is found in the profile listing (one
// without metrics is in no metric listing); companies that are not funds answer 403 on portfolio listings.

import { FormulaAccessError, NotAmongAllowedError } from '../errors';
import type { Metric, PortfolioCompanyProfile, PortfolioProperty } from '../api/types';
import { countOf } from '../../shared/words';
import { isUuid } from '../validate/uuid';
import type { FormulaContext } from './formula-context';
import { cachedMetricListing, listMetricsCached, listProfilesCached, listPropertiesCached, unlessForbidden } from './metric-directory';

/** How many companies formula access allows, as its refusals say it: "none yet", "1 company", "2 companies". */
export function allowedCount(allowedCompanyIds: readonly string[]): string {
  return allowedCompanyIds.length === 0 ? 'none yet' : countOf(allowedCompanyIds.length, 'company', 'companies');
}

/** Where an id was looked for: "the companies this spreadsheet may read (2 companies)". */
function amongAllowed(ctx: FormulaContext): string {
  return `the companies this spreadsheet may read (${allowedCount(ctx.allowedCompanyIds)})`;
}

/**
 * The allowed companies from the stored JSON list, or the owner's default company when none is
 * stored. A stored value that is not a list of ids allows nothing (the stricter reading): the owner
 * sees the refusal and saves the list again.
 */
export function parseFormulaAccess(stored: string | null | undefined, defaultCompanyId: string | null): string[] {
  if (stored === null || stored === undefined) return defaultCompanyId && isUuid(defaultCompanyId) ? [defaultCompanyId.toLowerCase()] : [];
  try {
    const parsed: unknown = JSON.parse(stored);
    return Array.isArray(parsed) ? normalizeCompanyIds(parsed.filter(isUuid)) : [];
  } catch {
    return [];
  }
}

/** Lower case, each once, in the order first given. */
export function normalizeCompanyIds(ids: readonly string[]): string[] {
  return [...new Set(ids.map((id) => id.toLowerCase()))];
}

/** The list with one more company (unchanged when it is already there). */
export function withCompany(ids: readonly string[], companyId: string): string[] {
  return normalizeCompanyIds([...ids, companyId]);
}

/**
 * A fund's listing, or [] for a company the API says has no portfolio (403). The 403 is remembered for
 * the cache period too, so an allowed startup costs one refused request, not one per formula.
 */
function portfolioListing<T>(ctx: FormulaContext, companyId: string, load: () => T[]): T[] {
  if (ctx.records.get<boolean>(`no_portfolio:${companyId}`) === true) return [];
  const listing = unlessForbidden(load);
  if (!listing) ctx.records.put(`no_portfolio:${companyId}`, true);
  return listing ?? [];
}

/** Throws unless formulas here may read this company's data. */
export function requireCompanyAccess(ctx: FormulaContext, companyId: string): void {
  if (!ctx.allowedCompanyIds.includes(companyId.toLowerCase()))
    throw new FormulaAccessError(`the data of company ${companyId}`, "the spreadsheet's owner has not allowed that company");
}

/**
 * The records of those of `metricIds` in these companies' listings (by lower-case id), reading the listings in
 * order until all are found. The one metric check: formulas and snapshot refreshes both use it.
 */
export function findListedMetrics(
  companyIds: readonly string[],
  metricIds: readonly string[],
  listingOf: (companyId: string) => readonly Metric[],
): Map<string, Metric> {
  const wanted = new Set(metricIds.map((id) => id.toLowerCase()));
  const found = new Map<string, Metric>();
  for (const companyId of companyIds) {
    if (found.size === wanted.size) break;
    for (const metric of listingOf(companyId)) {
      if (wanted.has(metric.id.toLowerCase())) found.set(metric.id.toLowerCase(), metric);
    }
  }
  return found;
}

/** The records of these metrics from the allowed companies' listings, read in order until all are found, or throws. */
export function requireMetricAccess(ctx: FormulaContext, metricIds: readonly string[]): Map<string, Metric> {
  const found = findListedMetrics(ctx.allowedCompanyIds, metricIds, (companyId) => listMetricsCached(ctx, companyId));
  for (const id of metricIds) {
    // The listing does not say whose an unknown metric is, and the API lists metrics only by company.
    if (!found.has(id.toLowerCase())) throw new NotAmongAllowedError('metric', id, amongAllowed(ctx));
  }
  return found;
}

/**
 * Those of `metricIds` (lower case, in order) in the allowed companies' metric listings the cache holds:
 * no request, so a metric whose company's listing was not read is left out, never let in.
 */
export function allowedAmongListed(ctx: FormulaContext, metricIds: readonly string[]): string[] {
  const listed = new Set<string>();
  for (const companyId of ctx.allowedCompanyIds) {
    for (const metric of cachedMetricListing(ctx, companyId) ?? []) listed.add(metric.id.toLowerCase());
  }
  return metricIds.map((id) => id.toLowerCase()).filter((id) => listed.has(id));
}

/** The profile, from the fund's listing when a fund is given, else from each allowed company's. */
export function requireProfileAccess(ctx: FormulaContext, profileId: string, fundId?: string): PortfolioCompanyProfile {
  if (fundId !== undefined) requireCompanyAccess(ctx, fundId);
  const funds = fundId !== undefined ? [fundId] : ctx.allowedCompanyIds;
  for (const companyId of funds) {
    // A fund given by name that is no fund answers 403, which the formula explains as such.
    const load = () => listProfilesCached(ctx, companyId);
    const profiles = fundId !== undefined ? load() : portfolioListing(ctx, companyId, load);
    const profile = profiles.find((p) => p.id.toLowerCase() === profileId.toLowerCase());
    if (profile) return profile;
  }
  throw new NotAmongAllowedError('portfolio company profile', profileId, fundId !== undefined ? `fund ${fundId}` : amongAllowed(ctx));
}

/** The property, from the listing of the first allowed fund that defines it. */
export function requirePropertyAccess(ctx: FormulaContext, propertyId: string): PortfolioProperty {
  for (const companyId of ctx.allowedCompanyIds) {
    const property = portfolioListing(ctx, companyId, () => listPropertiesCached(ctx, companyId)).find((p) => p.id.toLowerCase() === propertyId.toLowerCase());
    if (property) return property;
  }
  throw new NotAmongAllowedError('portfolio property', propertyId, amongAllowed(ctx));
}
