// The metrics tab's server side: a company's metrics for the browser, and a new metric.

import { InputError } from '../core/errors';
import type { Metric } from '../core/api/types';
import { readUnit } from '../core/validate/unit';
import { requireUuid } from '../core/validate/uuid';
import type { MetricSummary, NewMetric } from '../shared/rpc';
import { sidebarClient } from './api-factory';
import { forgetMetricListing, listMetricsFresh } from './metric-listing';

function summary({ id, name, frequency, unit, portfolio_company_profile_id }: Metric): MetricSummary {
  return { id, name, frequency, unit, portfolioCompanyProfileId: portfolio_company_profile_id ?? null };
}

/** Kept for the cache period: the exporter's steps that follow read it instead of fetching it again. */
export function listMetrics(companyId: string): MetricSummary[] {
  return listMetricsFresh(sidebarClient(), requireUuid(companyId, 'The company id')).map(summary);
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
