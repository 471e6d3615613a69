// A company's metric listing (GET /metrics, every page) kept in the user's cache, shared by the sidebar, the
// exporter and formulas: an export asked for it four times (list, guess, preview, start) for two real requests.

import type { ApiClient } from '../core/api/client';
import type { Metric } from '../core/api/types';
import { ChunkedCache } from '../core/cache/chunked-cache';
import { RecordsCache } from '../core/series/records-cache';
import { userCache } from '../gas/cache-and-lock';
import { readCacheScope } from '../gas/document-settings';
import { readSettingsGeneration } from '../gas/user-settings';

/** The generation formulas use too, so "Refresh data" and a new token or base URL make it fetch again. */
function listingCache(): RecordsCache {
  return new RecordsCache(new ChunkedCache(userCache(), () => Utilities.getUuid().slice(0, 8)), `${readCacheScope()}.${readSettingsGeneration()}`);
}

/** The key formulas' access check reads (metric-directory.ts: company, then no profile). */
function listingKey(companyId: string): string {
  return `metrics:${companyId.toLowerCase()}:`;
}

/** Fetched now and kept, when the person picks the company: what the exporter then reads is as fresh as what they see. */
export function listMetricsFresh(client: ApiClient, companyId: string): Metric[] {
  const metrics = client.metrics.list(companyId);
  listingCache().put(listingKey(companyId), metrics);
  return metrics;
}

/** The kept listing, or fetched (and kept) when there is none. */
export function listMetricsKept(companyId: string, client: () => ApiClient): Metric[] {
  return listingCache().getOrLoad(listingKey(companyId), () => client().metrics.list(companyId));
}

/** After a metric is created the kept listing lacks it: the next reader fetches. */
export function forgetMetricListing(companyId: string): void {
  listingCache().remove(listingKey(companyId));
}
