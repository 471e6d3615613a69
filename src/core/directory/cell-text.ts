// What a cell of an import range says: blank, "clear this field", an error, or text.

import { isBlankCell } from '../export/read-range';
import { quote } from '../../shared/words';
import { unsettledCell } from '../sheets/unsettled-cell';
import { isDateLike } from '../validate/dates';

export { isBlankCell };

/**
 * A cell holding just this clears an optional field of a profile on update (the API's explicit null).
 * A blank cell cannot mean "clear": blank means "leave as it is", so a row can update one field alone.
 * None of the clearable fields can legitimately be a dash, so the mark is never ambiguous.
 */
const CLEAR_MARK = '-';

export function isClearMark(cell: unknown): boolean {
  return typeof cell === 'string' && cell.trim() === CLEAR_MARK;
}

/**
 * The text of a cell meant to hold text: trimmed strings, and numbers as they read (a name like 3M
 * is text, but a year typed as a name arrives as a number). Booleans, dates and errors are not text.
 */
export function cellText(cell: unknown, what: string): { text: string } | { reason: string } {
  const unsettled = unsettledCell(cell);
  if (unsettled) return { reason: `the ${what} cell ${unsettled}` };
  if (typeof cell === 'string') return { text: cell.trim() };
  if (typeof cell === 'number' && Number.isFinite(cell)) return { text: String(cell) };
  if (isDateLike(cell)) return { reason: `the ${what} is a date cell, not text` };
  if (typeof cell === 'boolean') return { reason: `the ${what} is the boolean ${String(cell).toUpperCase()}, not text` };
  return { reason: `the ${what} is not text` };
}

/** A cell quoted in a reason, cut short. */
export function shown(cell: unknown): string {
  return quote(typeof cell === 'string' ? cell.trim() : String(cell));
}
