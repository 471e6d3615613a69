// "Only what changed": compare a metric's items with the points the API already holds, and plan only the differences.

import type { DataPoint } from '../api/types';
import { approvedOf, conflictReason, sameDecimal, stillApproved, type FoundValue } from './compare';
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

/** Each date's value as a read of one metric found it (a stray point of another metric decides nothing). */
export function foundValues(metricId: string, points: readonly DataPoint[]): Map<string, string | null> {
  const found = new Map<string, string | null>();
  for (const point of points) {
    if (point.metric_id.toLowerCase() === metricId.toLowerCase()) found.set(point.date, point.value ?? null);
  }
  return found;
}

/**
 * Classifies a chunk against the existing points: same value → unchanged (not sent; with onlyChanged off,
 * written again); another or a blank one → updated; none on that date → created. An item whose server value
 * is not the one the preview showed is a conflict; one the preview did not compare gets the value this read
 * found as what its write expects (compare-and-set, see `compareItem`). Then plans batches of the items to send.
 */
export function applyDiff(state: ExportState, metric: number, existing: readonly DataPoint[], indices: readonly number[]): void {
  const metricState = state.metrics[metric];
  if (!metricState) throw new Error(`No metric ${metric} in the export.`);
  const stored = foundValues(metricState.id, existing);
  const changed: number[] = [];
  // Sheet order within the chunk, so batches stay in the order of the rows.
  [...indices]
    .sort((a, b) => a - b)
    .forEach((index) => {
      const item = state.items[index]!;
      if (item.metric !== metric || item.outcome !== 'pending' || item.date === undefined || item.value === undefined) return;
      if (compareItem(state, item, stored.get(item.date), 'plan')) changed.push(index);
    });
  state.batches.push(...planBatches(metric, changed));
  if (undiffed(state, metric).length === 0) metricState.phase = 'send';
}

/**
 * The one comparison of an item with the server's value for its date, at planning (`plan`: a preview's or the
 * export's own "only what changed" read) or right before its write (`write`: the read of the same wave).
 * True when the item is (still) to be sent; then `planned` says what its write does and `previous` holds the
 * value it replaces (null: a blank). Otherwise the item is settled: unchanged, skipped, or a conflict.
 *
 * - The server already holds the sheet's value: never a conflict (nothing of anyone's is lost); with
 *   onlyChanged it is unchanged and not sent, typed data sends it again ("written").
 * - An approved value (what the preview showed, else what the plan's read found) that the server no
 *   longer holds: a conflict, not written.
 * - No approved value at the write (typed data that no preview compared): the stricter reading, only an
 *   absent or blank point is written, a value the person never saw is a conflict.
 */
export function compareItem(state: ExportState, item: ExportItemState, found: FoundValue, stage: 'plan' | 'write'): boolean {
  if (item.expected !== undefined) return guardUndo(item, found);
  const value = item.value!;
  if (!item.approved && stage === 'plan') item.approved = approvedOf(found, 'export');
  if (found !== undefined && found !== null && sameDecimal(found, value)) {
    if (state.spec.onlyChanged) {
      settle(item, 'unchanged');
      return false;
    }
    // Typed data is sent whole ("only what changed" is off): the same value is written again, and
    // `previous` says it was compared, for the preview's count.
    item.planned = 'written';
    item.previous = found;
    return true;
  }
  const conflict = item.approved ? !stillApproved(item.approved, found) : found !== undefined && found !== null;
  if (conflict) {
    settle(item, 'skipped', conflictReason(item.approved, found));
    return false;
  }
  if (found !== undefined && found !== null && state.spec.keepDifferent) {
    settle(item, 'skipped', `not overwritten: the server holds ${found} ("Do not overwrite values that differ" is on)`);
    return false;
  }
  if (found === undefined) {
    item.planned = 'created';
    delete item.previous;
  } else {
    item.planned = 'updated';
    item.previous = found;
  }
  return true;
}

function settle(item: ExportItemState, outcome: 'unchanged' | 'skipped', reason?: string): void {
  item.outcome = outcome;
  delete item.planned;
  delete item.previous;
  if (reason) item.reason = reason;
}

/**
 * Undo's guard: the server must still hold what the export wrote (`expected`). A point someone changed since
 * is a conflict, kept as it is, with the server's value in `previous`; one that already holds the value
 * before is unchanged. True when the item goes on to be written as an update.
 */
function guardUndo(item: ExportItemState, current: FoundValue): boolean {
  if (current !== undefined && current !== null && sameDecimal(current, item.value!)) {
    item.outcome = 'unchanged';
    item.previous = current;
    delete item.planned;
    return false;
  }
  if (current !== undefined && current !== null && sameDecimal(current, item.expected!)) {
    item.planned = 'updated';
    item.previous = current;
    return true;
  }
  item.outcome = 'skipped';
  item.reason = UNDO_CONFLICT_REASON;
  item.previous = current ?? null;
  delete item.planned;
  return false;
}

export { sameDecimal };
