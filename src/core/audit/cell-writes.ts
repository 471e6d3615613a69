// A cell turned into the form PUT /portfolio_property_values demands for its property's data type, or the reason it cannot be.

import { InputError, shortReason } from '../errors';
import { toIsoDate, type DateFormatter } from '../validate/dates';
import { normaliseDecimal, toDecimal } from '../validate/decimal';
import { quote } from '../../shared/words';
import { cellText } from './cell-values';
import { isDateLike } from '../validate/dates';
import { unsettledCell } from '../sheets/unsettled-cell';
import { resolveLabel, resolveLabels } from './option-labels';
import type { AuditOption, AuditProperty, AuditStoredValue, AuditWrite } from './types';

type CellWrite = { ok: true; write: AuditWrite } | { ok: false; reason: string };

export type WriteContext = {
  /** The property's options, in display order. */
  options: readonly AuditOption[];
  timeZone: string;
  formatDate: DateFormatter;
};

/** An http(s) address with a host, as the API's url type requires. */
const HTTP_URL = /^https?:\/\/[^\s/?#@]+(?:[/?#]\S*)?$/i;

/**
 * The write for one cell (contract: PortfolioPropertyValueInput): the option id (select), the option ids
 * (multiselect), else `value` text: numbers as exact decimals, dates as YYYY-MM-DD, booleans as "true" or
 * "false". Invalid values and unknown labels are refused here, before anything is sent.
 */
export function cellWrite(cell: unknown, property: AuditProperty, context: WriteContext): CellWrite {
  if (isBlank(cell)) return { ok: true, write: blankWrite(property.dataType) };
  // A formula's error or "Loading…" is what the sheet shows, not what anyone typed: never sent, whatever the type.
  const unsettled = unsettledCell(cell);
  if (unsettled) return { ok: false, reason: `the cell ${unsettled}` };
  try {
    switch (property.dataType) {
      case 'select': {
        const resolved = resolveLabel(textOf(cell, context), context.options, property.name);
        return resolved.ok ? { ok: true, write: { portfolio_property_option_id: resolved.options[0]!.id } } : resolved;
      }
      case 'multiselect': {
        const resolved = resolveLabels(textOf(cell, context), context.options, property.name);
        return resolved.ok ? { ok: true, write: { portfolio_property_option_ids: resolved.options.map((option) => option.id) } } : resolved;
      }
      case 'number':
        if (isDateLike(cell)) return { ok: false, reason: 'the cell holds a date, not a number' };
        return value(toDecimal(cell, 'The cell'));
      case 'date':
        return value(toIsoDate(cell, 'The cell', context.timeZone, context.formatDate));
      case 'boolean':
        return value(booleanText(cell));
      case 'url': {
        const text = typeof cell === 'string' ? cell.trim() : '';
        if (!HTTP_URL.test(text)) {
          return { ok: false, reason: `the cell must be a web address starting with http:// or https://, but it is ${quote(textOf(cell, context))}` };
        }
        return value(text);
      }
      default:
        return value(textOf(cell, context));
    }
  } catch (error) {
    if (error instanceof InputError) return { ok: false, reason: shortReason(error) };
    throw error;
  }
}

/**
 * Whether two writes store the same thing: numbers compare as decimals ("1.50" is 1.5), option ids as
 * sets, everything else as text.
 */
export function sameWrite(a: AuditWrite, b: AuditWrite, dataType: string): boolean {
  if ('value' in a && 'value' in b) {
    if (dataType === 'number' && a.value !== '' && b.value !== '') return decimalValue(a.value) === decimalValue(b.value);
    return a.value === b.value;
  }
  if ('portfolio_property_option_id' in a && 'portfolio_property_option_id' in b) return a.portfolio_property_option_id === b.portfolio_property_option_id;
  if ('portfolio_property_option_ids' in a && 'portfolio_property_option_ids' in b) {
    const sorted = (ids: readonly string[]) => JSON.stringify([...ids].sort());
    return sorted(a.portfolio_property_option_ids) === sorted(b.portfolio_property_option_ids);
  }
  return false;
}

/** Blank: '' or only spaces, as Sheets gives an empty cell; false and 0 are values. */
export function isBlank(cell: unknown): boolean {
  return cell === null || cell === undefined || (typeof cell === 'string' && cell.trim() === '');
}

/** A blank cell clears the value, in the form of the property's type. */
function blankWrite(dataType: string): AuditWrite {
  if (dataType === 'select') return { portfolio_property_option_id: null };
  if (dataType === 'multiselect') return { portfolio_property_option_ids: [] };
  return { value: '' };
}

function value(text: string): CellWrite {
  return { ok: true, write: { value: text } };
}

/** A cell of a text column as text: Sheets may have made a number, a boolean or a date of what was typed. */
function textOf(cell: unknown, context: WriteContext): string {
  return isDateLike(cell) && Number.isNaN(cell.getTime()) ? '' : cellText(cell, context.timeZone, context.formatDate);
}

function booleanText(cell: unknown): string {
  if (typeof cell === 'boolean') return cell ? 'true' : 'false';
  const text = typeof cell === 'string' ? cell.trim().toLowerCase() : '';
  if (text === 'true' || text === 'false') return text;
  throw new InputError(`The cell must be a checkbox (TRUE or FALSE), but it is ${typeof cell === 'string' ? quote(cell.trim()) : String(cell)}.`);
}

/** A decimal without trailing fraction zeros, so equal values compare equal as text. */
function decimalValue(text: string): string {
  const normal = normaliseDecimal(text) ?? text;
  if (!normal.includes('.')) return normal;
  return normal.replace(/0+$/, '').replace(/\.$/, '');
}

/**
 * What the API holds once `write` is stored, as the audit reads a stored value (storedValues): the text, or the
 * option ids. For showing a value a job wrote (a restored one) as the build would show it (auditCellOf).
 */
export function storedValueOfWrite(write: AuditWrite): AuditStoredValue {
  if ('value' in write) return { value: write.value, optionIds: [] };
  if ('portfolio_property_option_ids' in write) return { value: null, optionIds: write.portfolio_property_option_ids.map((id) => id.toLowerCase()) };
  return { value: null, optionIds: write.portfolio_property_option_id ? [write.portfolio_property_option_id.toLowerCase()] : [] };
}
