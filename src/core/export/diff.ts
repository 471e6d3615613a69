// "Only what changed": compare a metric's items with the points the API already holds, and plan only the differences.

import type { DataPoint } from '../api/types';
import { normaliseDecimal } from '../validate/decimal';
import { itemsOf } from './export-state';
import { planBatches } from './plan';
import type { ExportState } from './types';

/**
 * Items compared per read: about 25 pages of 100. Page 1 alone, then the other 24 together, is two round
 * trips per chunk (a 10,000-row re-export reads in 8, not the 40 of 5-page chunks).
 */
export const DIFF_CHUNK_ITEMS = 2500;

/** The metric's pending items not yet compared (compared ones have a plan), by date, then in sheet order (a stable sort). */
function undiffed(state: ExportState, metric: number): number[] {
  const dateOf = (index: number): string | undefined => state.items[index]!.date;
  return itemsOf(state, metric)
    .filter((index) => state.items[index]!.planned === undefined && dateOf(index) !== undefined)
    .sort((a, b) => (dateOf(a)! < dateOf(b)! ? -1 : dateOf(a)! > dateOf(b)! ? 1 : 0));
}

/**
 * The next dates of a metric to compare: its earliest not-yet-compared items, at most DIFF_CHUNK_ITEMS.
 * A rate limit met midway loses only this chunk's pages, not every page of a long range read at once.
 */
export function nextDiffChunk(state: ExportState, metric: number): { indices: number[]; startDate: string; endDate: string } | undefined {
  const all = undiffed(state, metric);
  if (all.length === 0) return undefined;
  const endDate = state.items[all[Math.min(all.length, DIFF_CHUNK_ITEMS) - 1]!]!.date!;
  // Items sharing the chunk's last date go with it, so no date is compared twice.
  const indices = all.filter((index, position) => position < DIFF_CHUNK_ITEMS || state.items[index]!.date === endDate);
  return { indices, startDate: state.items[indices[0]!]!.date!, endDate };
}

/**
 * Classifies a chunk against the existing points: same value → unchanged (not sent); another or a blank
 * one → updated; none on that date → created. Then plans batches of the changed items only.
 */
export function applyDiff(state: ExportState, metric: number, existing: readonly DataPoint[], indices: readonly number[]): void {
  const metricState = state.metrics[metric];
  if (!metricState) throw new Error(`No metric ${metric} in the export.`);
  const stored = new Map<string, string | null>();
  for (const point of existing) {
    // The list was asked for one metric; a stray point of another must not decide anything.
    if (point.metric_id.toLowerCase() === metricState.id.toLowerCase()) stored.set(point.date, point.value ?? null);
  }
  const changed: number[] = [];
  // Sheet order within the chunk, so batches stay in the order of the rows.
  [...indices].sort((a, b) => a - b).forEach((index) => {
    const item = state.items[index]!;
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
  if (undiffed(state, metric).length === 0) metricState.phase = 'send';
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
