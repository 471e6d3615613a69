// "Only what changed": compare a metric's items with the points the API already holds, and plan only the differences.

import type { DataPoint } from '../api/types';
import { normaliseDecimal } from '../validate/decimal';
import { itemsOf } from './export-state';
import { planBatches } from './plan';
import { UNDO_CONFLICT_REASON } from '../jobs/push-log';
import type { ExportItemState, ExportState } from './types';

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
 * Classifies a chunk against the existing points: same value → unchanged (not sent; with onlyChanged off,
 * written again); another or a blank one → updated; none on that date → created. Then plans batches of
 * the items to send.
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
    if (item.expected !== undefined && !guardUndo(item, stored)) return;
    if (!stored.has(item.date)) {
      item.planned = 'created';
    } else {
      const current = stored.get(item.date) ?? null;
      if (current !== null && sameDecimal(current, item.value) && !state.spec.onlyChanged) {
        // Typed data is sent whole ("only what changed" is off): the same value is written again, and
        // `previous` says it was compared, for the preview's count and the start's conflict check.
        item.planned = 'written';
        item.previous = current;
        changed.push(index);
        return;
      }
      if (current !== null && sameDecimal(current, item.value)) {
        item.outcome = 'unchanged';
        delete item.planned;
        return;
      }
      if (current !== null && state.spec.keepDifferent) {
        item.outcome = 'skipped';
        item.reason = `not overwritten: the server holds ${current} ("Do not overwrite values that differ" is on)`;
        delete item.planned;
        return;
      }
      item.planned = 'updated';
      item.previous = current;
    }
    changed.push(index);
  });
  state.batches.push(...planBatches(metric, changed));
  if (undiffed(state, metric).length === 0) metricState.phase = 'send';
}

/**
 * Undo's guard: the server must still hold what the export wrote (`expected`). A point someone changed since
 * is a conflict, kept as it is, with the server's value in `previous`; one that already holds the value
 * before is unchanged. True when the item goes on to be planned as an update.
 */
function guardUndo(item: ExportItemState, stored: ReadonlyMap<string, string | null>): boolean {
  const current = stored.get(item.date!);
  if (current !== undefined && current !== null && sameDecimal(current, item.value!)) {
    item.outcome = 'unchanged';
    item.previous = current;
    delete item.planned;
    return false;
  }
  if (current !== undefined && current !== null && sameDecimal(current, item.expected!)) return true;
  item.outcome = 'skipped';
  item.reason = UNDO_CONFLICT_REASON;
  item.previous = current ?? null;
  delete item.planned;
  return false;
}

/** What the server held for an item as a comparison saw it: 'absent' (no point on that date), a value, or null (a blank one); undefined when not compared. */
function serverValue(item: ExportState['items'][number]): string | null | 'absent' | undefined {
  if (item.outcome === 'unchanged') return item.value;
  if (item.outcome !== 'pending') return undefined;
  if (item.planned === 'created') return 'absent';
  if (item.planned === 'updated') return item.previous;
  // Typed data's same value, written again: compared only when `previous` is set.
  if (item.planned === 'written' && item.previous !== undefined) return item.previous;
  return undefined;
}

function sameServerValue(a: string | null | 'absent', b: string | null | 'absent'): boolean {
  if (a === null || b === null || a === 'absent' || b === 'absent') return a === b;
  return sameDecimal(a, b);
}

/**
 * Compares what the start's reads found on the server with what the preview's reads found (`seen`, the
 * same range and fingerprint, so the same items in the same order). An item the export would write whose
 * server value changed in between is not written: someone else wrote it, and the person approved the
 * preview, not that. It is skipped as a conflict with both values; its batch no longer carries it.
 */
export function markConflicts(state: ExportState, seen: ExportState): ExportState {
  if (seen.fingerprint !== state.fingerprint || seen.items.length !== state.items.length) return state;
  const conflicted = new Set<number>();
  state.items.forEach((item, index) => {
    if (item.outcome !== 'pending' || item.planned === undefined) return;
    const then = serverValue(seen.items[index]!);
    const now = serverValue(item);
    if (then === undefined || now === undefined || sameServerValue(then, now)) return;
    const shown = (value: string | null | 'absent'): string => (value === 'absent' ? 'no value' : value === null ? 'a blank' : value);
    item.outcome = 'skipped';
    item.reason = `conflict: the server's value changed since the preview (${shown(then)} then, ${shown(now)} now), so it was not written: preview again to see it, then export`;
    delete item.planned;
    delete item.previous;
    conflicted.add(index);
  });
  if (conflicted.size === 0) return state;
  state.batches = state.batches
    .map((batch) => ({ ...batch, items: batch.items.filter((index) => !conflicted.has(index)) }))
    .filter((batch) => batch.items.length > 0);
  return state;
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
