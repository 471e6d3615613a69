// Property values by data type: how a written `value` string is parsed and how a stored value is answered.

import type { OptionRecord, PropertyRecord, PropertyValueRecord } from './records';

/** The auto-calculated investment properties, by their exact names (the add-in marks them read-only by name). */
export const AUTO_CALCULATED_PROPERTY_NAMES = ['Total Invested', 'Current Fair Value', 'MOIC', 'Ownership', 'Initial Investment Date'] as const;

/** Which write form a property's data_type takes. */
export type WriteForm = 'value' | 'portfolio_property_option_id' | 'portfolio_property_option_ids';

/** select takes one option id, multiselect several, every other type (known or not) a `value` string. */
export function writeFormOf(dataType: string): WriteForm {
  if (dataType === 'select') return 'portfolio_property_option_id';
  if (dataType === 'multiselect') return 'portfolio_property_option_ids';
  return 'value';
}

/** The canonical stored text for a written value, or the reason it does not parse. An empty string clears the value. */
export function parseWrittenValue(dataType: string, raw: string): { stored: string | null } | { problem: string } {
  if (raw === '') return { stored: null };
  switch (dataType) {
    case 'number':
      return /^-?\d+(\.\d+)?$/.test(raw) ? { stored: raw } : { problem: 'must be a decimal number, e.g. 1250.5' };
    case 'date':
      return isCalendarDate(raw) ? { stored: raw } : { problem: 'must be a date (YYYY-MM-DD)' };
    case 'boolean':
      return raw === 'true' || raw === 'false' ? { stored: raw } : { problem: 'must be "true" or "false"' };
    case 'url':
      return isHttpUrl(raw) ? { stored: raw } : { problem: 'must be an http or https URL' };
    default:
      return { stored: raw };
  }
}

/** The response's `value`: number -> JSON number, select -> label, multiselect -> labels, everything else -> text. */
export function formatValue(property: PropertyRecord, record: PropertyValueRecord, options: OptionRecord[]): string | number | string[] | null {
  if (property.data_type === 'select') {
    const selected = options.find((option) => option.id === record.option_ids[0]);
    return selected ? selected.label : null;
  }
  if (property.data_type === 'multiselect') {
    if (record.option_ids.length === 0) return null;
    return orderedSelection(record.option_ids, options).map((option) => option.label);
  }
  if (record.value === null) return null;
  if (property.data_type === 'number') return Number(record.value);
  return record.value;
}

/** Selected options in the property's own option order, so answers do not depend on the order a client sent. */
export function orderedSelection(optionIds: string[], options: OptionRecord[]): OptionRecord[] {
  return options.filter((option) => optionIds.includes(option.id));
}

function isCalendarDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const parsed = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === text;
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}
