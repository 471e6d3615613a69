// GET /metrics and POST /metrics.

import { fetchAllPages } from '../paginate';
import type { Requester } from '../requester';
import type { Metric, MetricInput } from '../types';
import { requireUuid } from '../../validate/uuid';

export interface ListMetricsOptions {
  /** Only the metrics of one portfolio company profile (investor product). */
  portfolioCompanyProfileId?: string;
}

export class MetricsResource {
  constructor(private readonly requester: Requester) {}

  /** Every metric of a company or fund, all pages. */
  list(companyId: string, options: ListMetricsOptions = {}): Metric[] {
    const profileId = options.portfolioCompanyProfileId;
    return fetchAllPages<Metric>(this.requester, {
      method: 'GET',
      path: '/metrics',
      query: {
        company_id: requireUuid(companyId, 'The company id'),
        filter: profileId ? { portfolio_company_profile_id: requireUuid(profileId, 'The portfolio company profile id') } : undefined,
      },
    }, 'metrics');
  }

  /** Creates a metric. Never retried blindly: a lost answer must not create it twice. */
  create(input: MetricInput): Metric {
    const body = { metric: { ...input, company_id: requireUuid(input.company_id, 'The company id') } };
    return this.requester.send<{ metric: Metric }>({ method: 'POST', path: '/metrics', body }).data.metric;
  }
}
