// Cells of the audit sheet: a stored value as a person reads it, and the key a cell is compared by.

import { fnv1a64 } from '../cache/chunked-cache';
import { richTextToPlain } from '../formulas/rich-text';
import { midnightIn } from '../sheets/time-zone';
import { isDateLike, isIsoDate, type DateFormatter } from '../validate/dates';
import { isExactAsDouble, normaliseDecimal, numberToDecimal } from '../validate/decimal';
import type { AuditCell, AuditOption, AuditProperty, AuditStoredValue } from './types';

/** Data types whose column is plain text ('@'), so what is written or typed there stays text. */
const NON_TEXT_TYPES: readonly string[] = ['number', 'date', 'boolean'];

export function isTextColumn(dataType: string): boolean {
  return !NON_TEXT_TYPES.includes(dataType);
}

/**
 * A cell to write: `logical` is what getValues() will give back, `written` what setValues() is given. Text in
 * a number, date or boolean column is written with an apostrophe, or Sheets would read it as a number or date.
 */
export type WrittenCell = { logical: AuditCell; written: AuditCell };

/** A stored value as a person reads it: labels for options, a Date at midnight in `timeZone`; '' for none. */
export function cellForValue(
  stored: AuditStoredValue | undefined,
  property: AuditProperty,
  options: readonly AuditOption[],
  timeZone: string,
  formatDate?: DateFormatter,
): WrittenCell {
  const logical = logicalCell(stored, property, options, timeZone, formatDate);
  const written = typeof logical === 'string' && logical !== '' && !isTextColumn(property.dataType) ? `'${logical}` : logical;
  return { logical, written };
}

function logicalCell(
  stored: AuditStoredValue | undefined,
  property: AuditProperty,
  options: readonly AuditOption[],
  timeZone: string,
  formatDate?: DateFormatter,
): AuditCell {
  if (!stored) return '';
  const { value } = stored;
  switch (property.dataType) {
    case 'select': {
      const chosen = options.find((option) => stored.optionIds.includes(option.id));
      if (chosen) return chosen.label;
      return typeof value === 'string' ? value : '';
    }
    case 'multiselect': {
      const chosen = options.filter((option) => stored.optionIds.includes(option.id));
      if (chosen.length > 0) return chosen.map((option) => option.label).join(', ');
      // Ids the options do not list: the labels the API answered still tell the user something.
      if (Array.isArray(value)) return inOptionOrder(value, options).join(', ');
      return typeof value === 'string' ? value : '';
    }
    case 'number':
      return numberCell(value);
    case 'date':
      if (typeof value === 'string' && isIsoDate(value)) return midnightIn(value, timeZone, formatDate);
      return textOf(value);
    case 'boolean':
      if (value === 'true' || value === 'false') return value === 'true';
      // Boolean was a member of the value type once; an older answer may still carry one.
      if (typeof (value as unknown) === 'boolean') return value as unknown as boolean;
      return textOf(value);
    case 'rich_text': {
      // The API's HTML as a person reads it (as PORTFOLIO_PROPERTY_VALUES shows it), never its tags: a cell
      // is plain text. An edited cell is pushed as that plain text; an unedited one is not pushed at all.
      const text = textOf(value);
      return typeof text === 'string' ? richTextToPlain(text) : text;
    }
    default:
      return textOf(value);
  }
}

/** A number cell when a double holds the value exactly; exact decimal text otherwise, so nothing is rounded. */
function numberCell(value: AuditStoredValue['value']): AuditCell {
  if (typeof value === 'number') return Number.isFinite(value) ? value : '';
  if (typeof value !== 'string') return textOf(value);
  const decimal = normaliseDecimal(value.trim());
  if (decimal === undefined) return value;
  return isExactAsDouble(decimal) ? Number(decimal) : decimal;
}

function textOf(value: AuditStoredValue['value']): AuditCell {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map(String).join(', ');
  if (typeof value === 'number') return Number.isFinite(value) ? numberToDecimal(value) : '';
  return value;
}

function inOptionOrder(labels: readonly string[], options: readonly AuditOption[]): string[] {
  const position = (label: string) => {
    const index = options.findIndex((option) => option.label === label);
    return index < 0 ? options.length : index;
  };
  return [...labels].sort((a, b) => position(a) - position(b));
}

/** The text a cell is compared by: a cell written by the audit and read back unchanged gives the same key. */
export function keyOfCell(cell: unknown, timeZone: string, formatDate: DateFormatter): string {
  if (cell === null || cell === undefined) return '';
  if (typeof cell === 'string') return cell.trim() === '' ? '' : cell;
  if (typeof cell === 'number') return Number.isFinite(cell) ? numberToDecimal(cell) : String(cell);
  if (typeof cell === 'boolean') return cell ? 'true' : 'false';
  if (isDateLike(cell)) return Number.isNaN(cell.getTime()) ? 'Invalid Date' : formatDate(cell, timeZone);
  return String(cell);
}

/** Keys this long or shorter are stored as they are; longer ones as a hash. */
const VERBATIM_KEY_LENGTH = 16;
/** Separates the keys of one profile in the snapshot; a key containing it is hashed. */
export const KEY_SEPARATOR = '|';

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/**
 * A key as the snapshot stores it: short keys verbatim (so equivalent edits, like a label in another
 * case, can be recognised), others as '#' and 48 bits of a hash in 8 characters, which is plenty to
 * tell "changed" from "unchanged". A key that starts with '#' or holds the separator is always hashed,
 * so a verbatim key never looks like a hash and a row of keys splits back exactly.
 */
export function encodeKey(key: string): string {
  if (key.length <= VERBATIM_KEY_LENGTH && !key.startsWith('#') && !key.includes(KEY_SEPARATOR)) return key;
  const hex = fnv1a64(key);
  return `#${base64Of24Bits(parseInt(hex.slice(0, 6), 16))}${base64Of24Bits(parseInt(hex.slice(6, 12), 16))}`;
}

export function isHashedKey(encoded: string): boolean {
  return encoded.startsWith('#');
}

function base64Of24Bits(bits: number): string {
  return [18, 12, 6, 0].map((shift) => BASE64URL[(bits >> shift) & 63]).join('');
}

/** A cell's text as the user sees it: its key, but a checkbox reads TRUE or FALSE. */
export function cellText(cell: unknown, timeZone: string, formatDate: DateFormatter): string {
  return textOfKey(cell, keyOfCell(cell, timeZone, formatDate));
}

/** What a cell shows, given its key: the key itself except for a checkbox. */
function textOfKey(cell: unknown, key: string): string {
  return typeof cell === 'boolean' ? (cell ? 'TRUE' : 'FALSE') : key;
}

/**
 * A cell as a short text for reports: what the user sees, cut at 60 characters. Takes the cell's key
 * (keyOfCell), which its callers have already worked out, and differs from it only for a checkbox.
 */
export function shownValue(cell: unknown, key: string): string {
  const text = textOfKey(cell, key);
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}
