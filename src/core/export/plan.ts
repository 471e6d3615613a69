// The deterministic plan: each metric's items to send, in sheet order, in batches the upsert accepts.

import { MAX_UPSERT_ITEMS } from '../api/types';
import { fnv1a64 } from '../cache/chunked-cache';
import type { ExportBatchState, ExportItemState, ExportMetricState, ExportSpec } from './types';

/** Splits one metric's item indexes (in sheet order) into batches of at most the API's limit per PUT. */
export function planBatches(metric: number, itemIndexes: readonly number[]): ExportBatchState[] {
  const batches: ExportBatchState[] = [];
  for (let start = 0; start < itemIndexes.length; start += MAX_UPSERT_ITEMS) {
    batches.push({ metric, items: itemIndexes.slice(start, start + MAX_UPSERT_ITEMS), status: 'pending' });
  }
  return batches;
}

/**
 * A hash of the spec and of every validated item (place, metric, outcome, date, value, reason): reading
 * the same range again gives the same fingerprint exactly when nothing the export depends on changed,
 * so a resume can tell the user that the sheet was edited in between.
 */
export function planFingerprint(spec: ExportSpec, metrics: readonly ExportMetricState[], items: readonly ExportItemState[]): string {
  const specPart: unknown[] = [spec.layout, spec.metricId ?? '', spec.hasHeaderRow, spec.skipBlanks, spec.duplicates, spec.offPeriod, spec.onlyChanged];
  // Only when on, so exports stored before the option keep their fingerprints.
  if (spec.keepDifferent) specPart.push('keepDifferent');
  const itemPart = items.map((item) => [
    item.row,
    item.column,
    item.metric === null ? '' : (metrics[item.metric]?.id ?? ''),
    item.outcome,
    item.date ?? '',
    item.value ?? '',
    item.reason ?? '',
    item.note ?? '',
  ]);
  return fnv1a64(JSON.stringify([specPart, itemPart]));
}
