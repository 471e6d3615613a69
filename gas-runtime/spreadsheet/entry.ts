// How Sheets reads text written with setValue/setValues: like a user's entry, unless the cell is plain text ('@').

import { DEFAULT_DATE_FORMAT } from './number-format';
import { isCalendarDate, serialOf } from './serial-date';

/** What a cell stores: text, a number (dates are numbers with a date format), or a boolean. */
export type StoredValue = string | number | boolean;

export type ParsedEntry = { kind: 'empty' } | { kind: 'formula'; formula: string } | { kind: 'value'; value: StoredValue; format?: string };

const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const GROUPED_NUMBER = /^([+-]?)(\d{1,3}(?:,\d{3})+)(\.\d+)?$/;
const PERCENT = /^([+-]?(?:\d+\.?\d*|\.\d+))%$/;
const CURRENCY = /^([+-]?)\$(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?$/;
const ISO_DATE = /^(\d{4})-(\d{1,2})-(\d{1,2})$/;
const ISO_DATE_TIME = /^(\d{4})-(\d{1,2})-(\d{1,2}) (\d{1,2}):(\d{2})(?::(\d{2}))?$/;
const US_DATE = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;

/**
 * Reads a string as a user's entry: a leading apostrophe forces text (and is dropped), '=' starts a
 * formula, numbers (also 1,234.5, 12%, $5), TRUE/FALSE and dates (2024-01-31, 1/31/2024) become
 * values with the format Sheets picks for them, and text starting with '+' or '-' that is not a
 * number is a formula (Sheets shows "#ERROR!" for "+1 555 0100"). Everything else is text, as typed.
 */
export function parseEntry(text: string): ParsedEntry {
  if (text === '') return { kind: 'empty' };
  if (text.startsWith("'")) return { kind: 'value', value: text.slice(1) };
  if (text.startsWith('=')) return { kind: 'formula', formula: text };
  const trimmed = text.trim();
  if (/^true$/i.test(trimmed)) return { kind: 'value', value: true };
  if (/^false$/i.test(trimmed)) return { kind: 'value', value: false };
  if (NUMBER.test(trimmed)) return { kind: 'value', value: Number(trimmed) };

  const grouped = GROUPED_NUMBER.exec(trimmed);
  if (grouped) {
    const value = Number(`${grouped[1]}${(grouped[2] ?? '').replace(/,/g, '')}${grouped[3] ?? ''}`);
    return { kind: 'value', value, format: grouped[3] ? '#,##0.00' : '#,##0' };
  }
  const percent = PERCENT.exec(trimmed);
  if (percent) {
    const digits = percent[1] ?? '0';
    // The typed decimal read with its point moved, not divided as a double: 12.3 / 100 is 0.12300000000000001,
    // while the entry means 0.123, the double nearest to it (unverified: the reference shows only 12%).
    return { kind: 'value', value: Number(`${digits}e-2`), format: digits.includes('.') ? '0.00%' : '0%' };
  }
  const currency = CURRENCY.exec(trimmed);
  if (currency) {
    const value = Number(`${currency[1]}${(currency[2] ?? '').replace(/,/g, '')}${currency[3] ?? ''}`);
    return { kind: 'value', value, format: '"$"#,##0.00' };
  }

  const iso = ISO_DATE.exec(trimmed);
  if (iso) {
    const [year, month, day] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
    if (isCalendarDate(year, month, day)) return { kind: 'value', value: serialOf(year, month, day), format: 'yyyy-mm-dd' };
  }
  const isoTime = ISO_DATE_TIME.exec(trimmed);
  if (isoTime) {
    const [year, month, day, hour, minute, second] = [1, 2, 3, 4, 5, 6].map((i) => Number(isoTime[i] ?? 0)) as [number, number, number, number, number, number];
    if (isCalendarDate(year, month, day) && hour < 24 && minute < 60 && second < 60) {
      return { kind: 'value', value: serialOf(year, month, day, hour, minute, second), format: 'yyyy-mm-dd H:mm:ss' };
    }
  }
  const us = US_DATE.exec(trimmed);
  if (us) {
    const [month, day, year] = [Number(us[1]), Number(us[2]), Number(us[3])];
    if (isCalendarDate(year, month, day)) return { kind: 'value', value: serialOf(year, month, day), format: DEFAULT_DATE_FORMAT };
  }

  if ((text.startsWith('+') || text.startsWith('-')) && text.length > 1) return { kind: 'formula', formula: `=${text}` };
  return { kind: 'value', value: text };
}
