// GET /metrics and POST /metrics.

import { fetchAllPages, type ListRead } from '../paginate';
import { withCompanyId } from './ids';
import type { Requester } from '../requester';
import type { Metric, MetricInput } from '../types';
import { requireUuid } from '../../validate/uuid';

/** A company's metric listing (a portfolio company's only, with a profile id), as a list to read alone or with others. */
export function metricsOf(companyId: string, profileId?: string): ListRead {
  const query = {
    company_id: requireUuid(companyId, 'The company id'),
    filter: profileId ? { portfolio_company_profile_id: requireUuid(profileId, 'The portfolio company profile id') } : undefined,
  };
  return { key: 'metrics', request: { method: 'GET', path: '/metrics', query } };
}

export class MetricsResource {
  constructor(private readonly requester: Requester) {}

  /** Every metric of a company or fund, all pages; with a profile id, only that portfolio company's (investor product). */
  list(companyId: string, { portfolioCompanyProfileId: profileId }: { portfolioCompanyProfileId?: string } = {}): Metric[] {
    return fetchAllPages(this.requester, metricsOf(companyId, profileId));
  }

  /** Creates a metric. Never retried blindly: a lost answer must not create it twice. */
  create(input: MetricInput): Metric {
    return this.requester.sendRecord('POST', '/metrics', 'metric', withCompanyId(input));
  }
}
