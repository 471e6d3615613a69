// The metrics tab's server side: a company's metrics for the browser, a new metric, and their latest values.

import { InputError } from '../core/errors';
import type { Metric } from '../core/api/types';
import { addDays } from '../core/sheets/periods';
import { LATEST_LOOKBACK_DAYS, latestValues } from '../core/series/latest-values';
import { readUnit } from '../core/validate/unit';
import { requireUuid } from '../core/validate/uuid';
import { appsScriptDateFormatter, spreadsheetTimeZone } from '../gas/spreadsheet-dates';
import type { LatestValue, MetricSummary, NewMetric } from '../shared/rpc';
import { sidebarClient } from './api-factory';
import { forgetMetricListing, listMetricsFresh } from './metric-listing';
import { createFormulaContext } from './formula-context';
import { listProfilesCached, unlessForbidden } from '../core/formulas/metric-directory';
import { companyLabels } from '../core/formulas/fund-cells';

function summary({ id, name, frequency, unit, portfolio_company_profile_id }: Metric, companyNames: ReadonlyMap<string, string> = new Map()): MetricSummary {
  const profileId = portfolio_company_profile_id ?? null;
  return {
    id,
    name,
    frequency,
    unit,
    portfolioCompanyProfileId: profileId,
    portfolioCompanyName: (profileId && companyNames.get(profileId.toLowerCase())) || null,
  };
}

/**
 * Kept for the cache period: the exporter's steps that follow read it instead of fetching it again. A fund's metrics
 * of its portfolio companies carry the company's name (from the profile listing the PORTFOLIO_* functions cache), so
 * thirteen "Net Burn (monthly)" are told apart.
 */
export function listMetrics(companyId: string): MetricSummary[] {
  const id = requireUuid(companyId, 'The company id');
  const metrics = listMetricsFresh(sidebarClient(), id);
  const labels = portfolioCompanyLabels(id, metrics);
  return metrics.map((metric) => summary(metric, labels));
}

/**
 * The labels of the portfolio companies a fund's metrics belong to, by profile id (lower case): none to read for a
 * company's own metrics. Two companies of one name carry their profile ids, as the fund's tables and the grid
 * builder show them. From the profile listing the PORTFOLIO_* functions cache; none when the token may not read it.
 */
export function portfolioCompanyLabels(fundId: string, metrics: readonly Metric[]): ReadonlyMap<string, string> {
  if (!metrics.some((metric) => metric.portfolio_company_profile_id)) return new Map();
  const ctx = createFormulaContext({ fundId });
  return companyLabels(unlessForbidden(() => listProfilesCached(ctx, fundId)) ?? []);
}

/** POST /metrics with the name and unit checked first; the kept listing is dropped so the browser shows the new metric. */
export function createMetric(input: NewMetric): MetricSummary {
  const name = input.name.trim();
  if (!name) throw new InputError('Give the new metric a name.');
  const unit = readUnit(input.unit);
  const companyId = requireUuid(input.companyId, 'The company id');
  const created = summary(sidebarClient().metrics.create({ company_id: companyId, name, frequency: input.frequency, unit }));
  forgetMetricListing(companyId);
  return created;
}

/**
 * include_source=true reads, 20 metrics to a request. Not through the formulas' series cache: that cache is the
 * spreadsheet owner's and keyed by formula ranges, while this runs as whoever opened the sidebar, once per "Load".
 * Latest means on or before today in the spreadsheet's time zone, as METRIC_LATEST reads it.
 */
export function latestMetricValues(metricIds: string[]): LatestValue[] {
  const api = sidebarClient();
  if (!Array.isArray(metricIds)) throw new InputError('Give the metric ids as a list.');
  const ids = [...new Set(metricIds.map((id) => requireUuid(id, 'A metric id')))];
  if (ids.length === 0) return [];
  const today = appsScriptDateFormatter(new Date(), spreadsheetTimeZone());
  const options = { endDate: today, excludeBlank: true, includeSource: true };
  const recent = api.dataPoints.list(ids, { ...options, startDate: addDays(today, -LATEST_LOOKBACK_DAYS) });
  const found = new Set(recent.map((point) => point.metric_id));
  const older = ids.filter((id) => !found.has(id));
  const points = older.length ? [...recent, ...api.dataPoints.list(older, options)] : recent;
  return latestValues(points, ids);
}
