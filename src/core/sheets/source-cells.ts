// Where a data point's value came from, as three cells: type, label, link.

import type { DataPoint } from '../api/types';
import type { Cell } from './metric-table';

/** Values an AI read that no person has checked: marked in the type cell itself (not a colour), so it survives copying and COUNTIF. */
export const REVIEW_MARK = ' (review)';

/** Whether a person should check the source type's values before a report goes out. */
export function needsReview(type: string | null): boolean {
  return type === 'ai_inbox';
}

/** The headings of a value's three source columns. */
export const SOURCE_HEADINGS = ['source type', 'source label', 'source link'] as const;

/** [type, label, link] of a source, empty when there is none; a type the API does not list shows as it came (the enum grows). */
export function sourceCells(source: DataPoint['source'] | undefined): [Cell, Cell, Cell] {
  if (!source) return [null, null, null];
  const type = source.source_type || null;
  return [needsReview(type) ? `${type}${REVIEW_MARK}` : type, source.label || null, source.app_url || null];
}
