// The metric browser's "latest value with its source": the newest non-blank point of each metric.

import type { DataPoint } from '../api/types';
import type { LatestValue } from '../../shared/rpc';
import { needsReview, REVIEW_MARK } from '../sheets/source-cells';

/**
 * How far back the browser looks first: a year and a quarter finds a quarterly metric reported late, and
 * a hundred metrics are not read back to their first year; only those with nothing in it are read whole.
 */
export const LATEST_LOOKBACK_DAYS = 460;

/**
 * A link the page may open: only https, so an API answer can never put a javascript: or data: link
 * into the sidebar (cells show the link as text, which Sheets never runs).
 */
export function safeAppUrl(url: string | undefined): string | null {
  // The core has no URL class (Apps Script's V8 has none either): a scheme and a host, by pattern.
  return url && /^https:\/\/[^\s/?#]+[^\s]*$/i.test(url) ? url : null;
}

/** Per metric id, in the order given: its newest point with a value, or null values when it has none. */
export function latestValues(points: readonly DataPoint[], metricIds: readonly string[]): LatestValue[] {
  const newest = new Map<string, DataPoint>();
  for (const point of points) {
    if (point.value === null || point.value === undefined || point.value === '') continue;
    const seen = newest.get(point.metric_id);
    if (!seen || point.date > seen.date) newest.set(point.metric_id, point);
  }
  return metricIds.map((metricId) => {
    const point = newest.get(metricId);
    if (!point) return { metricId, date: null, value: null, source: null };
    const source = point.source;
    if (!source) return { metricId, date: point.date, value: point.value ?? null, source: null };
    const review = needsReview(source.source_type);
    const type = review ? `${source.source_type}${REVIEW_MARK}` : source.source_type;
    return { metricId, date: point.date, value: point.value ?? null, source: { type, label: source.label, link: safeAppUrl(source.app_url), review } };
  });
}
