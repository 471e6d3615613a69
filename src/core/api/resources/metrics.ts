// GET /metrics and POST /metrics.

import { fetchAllPages } from '../paginate';
import { withCompanyId } from './ids';
import type { Requester } from '../requester';
import type { Metric, MetricInput } from '../types';
import { requireUuid } from '../../validate/uuid';

export class MetricsResource {
  constructor(private readonly requester: Requester) {}

  /** Every metric of a company or fund, all pages; with a profile id, only that portfolio company's (investor product). */
  list(companyId: string, { portfolioCompanyProfileId: profileId }: { portfolioCompanyProfileId?: string } = {}): Metric[] {
    const query = {
      company_id: requireUuid(companyId, 'The company id'),
      filter: profileId ? { portfolio_company_profile_id: requireUuid(profileId, 'The portfolio company profile id') } : undefined,
    };
    return fetchAllPages(this.requester, { key: 'metrics', request: { method: 'GET', path: '/metrics', query } });
  }

  /** Creates a metric. Never retried blindly: a lost answer must not create it twice. */
  create(input: MetricInput): Metric {
    return this.requester.sendRecord('POST', '/metrics', 'metric', withCompanyId(input));
  }
}
