// GET and POST /metrics.

import { randomUUID } from 'node:crypto';
import { requireCompany } from '../access';
import { parameterInvalid } from '../errors';
import type { RegisterOperation } from '../operation';
import { DEFAULT_PAGE_SIZE, paginate } from '../pagination';
import type { MetricRecord } from '../records';
import { metricJson } from '../serializers';
import { byId } from '../store';

/** Registers listMetrics and createMetric. */
export function registerMetricRoutes(register: RegisterOperation): void {
  register('listMetrics', ({ query, user }, { store }) => {
    requireCompany(store, user, query.company_id);
    const profileId = query.filter?.portfolio_company_profile_id;
    if (profileId !== undefined) {
      const profile = byId(store.state.portfolio_company_profiles, profileId);
      // A startup company has no profiles, so the investor-only filter fails here for it too.
      if (!profile || profile.company_id !== query.company_id) {
        throw parameterInvalid('filter[portfolio_company_profile_id]', 'names no portfolio company profile of this company');
      }
    }
    const metrics = store.state.metrics.filter(
      (metric) => metric.company_id === query.company_id && (profileId === undefined || metric.portfolio_company_profile_id === profileId),
    );
    const { items, meta } = paginate(metrics, query.page ?? 1, DEFAULT_PAGE_SIZE);
    return { status: 200, body: { metrics: items.map((metric) => metricJson(metric, false)), meta } };
  });

  register('createMetric', ({ body, user }, { store, clock }) => {
    const input = body.metric;
    requireCompany(store, user, input.company_id);
    const metric: MetricRecord = {
      id: randomUUID(),
      name: input.name,
      frequency: input.frequency,
      unit: input.unit,
      company_id: input.company_id,
      portfolio_company_profile_id: null,
      created_at: clock.isoNow(),
    };
    store.commit((state) => state.metrics.push(metric));
    return { status: 201, body: { metric: metricJson(metric, true) } };
  });
}
