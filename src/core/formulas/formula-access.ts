// Formula access: the companies whose data formulas in one spreadsheet may read, as its owner decided.
//
// Editors' formulas spend the owner's token (custom functions read the owner's user properties), so
// without this list anyone who can edit a shared spreadsheet could read every company the owner's
// token sees. The list lives in the owner's user properties; an editor's sidebar writes only the
// editor's own properties, which formulas never read, so an editor cannot widen it.
//
// The checks, each the cheapest sound one (cached listings of the allowed companies only; a warm cache
// sends nothing):
// - a company id argument: it is on the list (no request);
// - a metric id: it is in the GET /metrics listing (all pages) of an allowed company. A fund's listing
//   holds its portfolio companies' metrics too, so a fund's id covers them. At most one listing per
//   allowed company per cache period, shared with the metric names and frequencies formulas need;
// - a portfolio company profile id: it is in the GET /portfolio_company_profiles listing of an
//   allowed fund (the fund argument's, or else each allowed company's in turn). Not the metric
//   listing: a profile without metrics is not in it;
// - a portfolio property id: it is in the GET /portfolio_properties listing of an allowed fund.
// Companies that are not funds answer 403 on the portfolio listings: they hold no profiles or properties.

import { ApiError, FormulaAccessError } from '../errors';
import type { Metric, PortfolioCompanyProfile, PortfolioProperty } from '../api/types';
import { isUuid } from '../validate/uuid';
import type { FormulaContext } from './formula-context';
import { listMetricsCached, listProfilesCached, listPropertiesCached } from './metric-directory';

function plural(n: number): string {
  return n === 0 ? 'none yet' : n === 1 ? '1 company' : `${n} companies`;
}

const NOT_ALLOWED = "the spreadsheet's owner has not allowed that company";

/**
 * The allowed companies from the stored JSON list, or the owner's default company when none is
 * stored. A stored value that is not a list of ids allows nothing (the stricter reading): the owner
 * sees the refusal and saves the list again.
 */
export function parseFormulaAccess(stored: string | null | undefined, defaultCompanyId: string | null): string[] {
  if (stored === null || stored === undefined) return defaultCompanyId && isUuid(defaultCompanyId) ? [defaultCompanyId.toLowerCase()] : [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(stored);
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  return normalizeCompanyIds(parsed.filter(isUuid));
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
  try {
    return load();
  } catch (error) {
    if (!(error instanceof ApiError && error.code === 'forbidden')) throw error;
    ctx.records.put(`no_portfolio:${companyId}`, true);
    return [];
  }
}

function listProfiles(ctx: FormulaContext, companyId: string): PortfolioCompanyProfile[] {
  return portfolioListing(ctx, companyId, () => listProfilesCached(ctx, companyId));
}

function listProperties(ctx: FormulaContext, companyId: string): PortfolioProperty[] {
  return portfolioListing(ctx, companyId, () => listPropertiesCached(ctx, companyId));
}

/** Throws unless formulas here may read this company's data. */
export function requireCompanyAccess(ctx: FormulaContext, companyId: string): void {
  if (!ctx.allowedCompanyIds.includes(companyId.toLowerCase())) throw new FormulaAccessError(`the data of company ${companyId}`, NOT_ALLOWED);
}

/**
 * The records of these metrics, each found in an allowed company's listing; throws for the first that
 * is in none. Listings are read lazily, in the list's order, and only until every id is found.
 */
export function requireMetricAccess(ctx: FormulaContext, metricIds: readonly string[]): Map<string, Metric> {
  const wanted = new Set(metricIds.map((id) => id.toLowerCase()));
  const found = new Map<string, Metric>();
  for (const companyId of ctx.allowedCompanyIds) {
    if (found.size === wanted.size) break;
    for (const metric of listMetricsCached(ctx, companyId)) {
      if (wanted.has(metric.id.toLowerCase())) found.set(metric.id.toLowerCase(), metric);
    }
  }
  for (const id of metricIds) {
    // The listing does not say whose an unknown metric is, and the API lists metrics only by company.
    if (!found.has(id.toLowerCase())) throw new FormulaAccessError(`metric ${id}`, `it is not a metric of any company the spreadsheet's owner allowed (${plural(ctx.allowedCompanyIds.length)})`);
  }
  return found;
}

/** The profile, from the fund's listing when a fund is given, else from each allowed company's. */
export function requireProfileAccess(ctx: FormulaContext, profileId: string, fundId?: string): PortfolioCompanyProfile {
  if (fundId !== undefined) requireCompanyAccess(ctx, fundId);
  const funds = fundId !== undefined ? [fundId] : ctx.allowedCompanyIds;
  for (const companyId of funds) {
    // A fund given by name that is no fund answers 403, which the formula explains as such.
    const profiles = fundId !== undefined ? listProfilesCached(ctx, companyId) : listProfiles(ctx, companyId);
    const profile = profiles.find((p) => p.id.toLowerCase() === profileId.toLowerCase());
    if (profile) return profile;
  }
  throw new FormulaAccessError(
    `portfolio company profile ${profileId}`,
    fundId !== undefined
      ? `it is not a portfolio company of fund ${fundId}, and its own fund is not allowed`
      : `it is not a portfolio company of any fund the spreadsheet's owner allowed (${plural(ctx.allowedCompanyIds.length)})`,
  );
}

/** The property, from the listing of the first allowed fund that defines it. */
export function requirePropertyAccess(ctx: FormulaContext, propertyId: string): PortfolioProperty {
  for (const companyId of ctx.allowedCompanyIds) {
    const property = listProperties(ctx, companyId).find((p) => p.id.toLowerCase() === propertyId.toLowerCase());
    if (property) return property;
  }
  throw new FormulaAccessError(`portfolio property ${propertyId}`, `it is not a property of any fund the spreadsheet's owner allowed (${plural(ctx.allowedCompanyIds.length)})`);
}
