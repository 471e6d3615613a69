// "Only what changed": compare a metric's items with the points the API already holds, and plan only the differences.

import type { DataPoint } from '../api/types';
import { normaliseDecimal } from '../validate/decimal';
import { planBatches } from './plan';
import type { ExportState } from './types';

/** The dates a metric's pending items span: the one range of existing points worth reading. */
export function pendingDateRange(state: ExportState, metric: number): { startDate: string; endDate: string } | undefined {
  let startDate: string | undefined;
  let endDate: string | undefined;
  for (const item of state.items) {
    if (item.metric !== metric || item.outcome !== 'pending' || item.date === undefined) continue;
    if (startDate === undefined || item.date < startDate) startDate = item.date;
    if (endDate === undefined || item.date > endDate) endDate = item.date;
  }
  return startDate !== undefined && endDate !== undefined ? { startDate, endDate } : undefined;
}

/**
 * Classifies the metric's pending items against the existing points: same value → unchanged (not sent);
 * another value, or a blank one → updated; no point on that date → created. Then plans batches of the
 * changed items only, in sheet order, and moves the metric on to sending.
 */
export function applyDiff(state: ExportState, metric: number, existing: readonly DataPoint[]): void {
  const metricState = state.metrics[metric];
  if (!metricState) throw new Error(`No metric ${metric} in the export.`);
  const stored = new Map<string, string | null>();
  for (const point of existing) {
    // The list was asked for one metric; a stray point of another must not decide anything.
    if (point.metric_id.toLowerCase() === metricState.id.toLowerCase()) stored.set(point.date, point.value ?? null);
  }
  const changed: number[] = [];
  state.items.forEach((item, index) => {
    if (item.metric !== metric || item.outcome !== 'pending' || item.date === undefined || item.value === undefined) return;
    if (!stored.has(item.date)) {
      item.planned = 'created';
    } else {
      const current = stored.get(item.date);
      if (current !== null && current !== undefined && sameDecimal(current, item.value)) {
        item.outcome = 'unchanged';
        delete item.planned;
        return;
      }
      item.planned = 'updated';
    }
    changed.push(index);
  });
  state.batches.push(...planBatches(metric, changed));
  metricState.phase = 'send';
}

/**
 * Whether two decimal texts are the same number: "1.50" equals "1.5", "-0" equals "0", "1e3" equals
 * "1000". Compared as text after canonicalising, so no double ever rounds a difference away.
 */
export function sameDecimal(a: string, b: string): boolean {
  const left = canonicalDecimal(a);
  return left !== undefined && left === canonicalDecimal(b);
}

function canonicalDecimal(text: string): string | undefined {
  const normal = normaliseDecimal(text.trim());
  if (normal === undefined) return undefined;
  const trimmed = normal.includes('.') ? normal.replace(/0+$/, '').replace(/\.$/, '') : normal;
  return trimmed === '-0' ? '0' : trimmed;
}
