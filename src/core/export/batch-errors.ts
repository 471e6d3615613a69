// A refused upsert, mapped back onto the items of its batch.

import { shortReason, type ApiError } from '../errors';
import type { ExportItemState } from './types';

const ITEM_FIELD = /^data_points\[(\d+)\](?:\.(\w+))?$/;

type Refusal = {
  /** One reason per item of the batch, in batch order. */
  reasons: string[];
  /** Position in the batch of the item that caused the refusal: the first item when the API names none. */
  culprit: number;
};

/**
 * Maps a refused upsert back onto its items. A 422 naming `data_points[3].date` puts the API's message
 * on that item; the upsert is all-or-nothing, so the batch's other items were not stored either and say
 * because of which row. A refusal that names no item (404, 403, 400) goes on every item of the batch.
 */
export function mapRefusal(error: ApiError, items: readonly ExportItemState[], culpritName: (position: number) => string): Refusal {
  const byPosition = new Map<number, string[]>();
  for (const problem of error.errors) {
    const match = ITEM_FIELD.exec(problem.field ?? '');
    const position = match ? Number(match[1]) : NaN;
    const item = items[position];
    if (!match || !item) continue;
    const attribute = match[2] ?? 'data point';
    const shown = attribute === 'date' || attribute === 'value' ? item[attribute] : undefined;
    byPosition.set(position, [
      ...(byPosition.get(position) ?? []),
      `the API refused the ${attribute}${shown === undefined ? '' : ` ${shown}`}: ${shortReason(problem)}`,
    ]);
  }
  if (byPosition.size === 0) {
    const reason = `not stored: ${shortReason(error, 'metric')}`;
    return { reasons: items.map(() => reason), culprit: 0 };
  }
  const culprit = Math.min(...byPosition.keys());
  const others = `not stored: the API refused the whole batch because of ${culpritName(culprit)}`;
  return { reasons: items.map((_, position) => byPosition.get(position)?.join('; ') ?? others), culprit };
}
