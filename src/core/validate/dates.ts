// Dates where a cell meets the API: always YYYY-MM-DD, read in the spreadsheet's time zone.

import { InputError } from '../errors';

/** Formats a Date as YYYY-MM-DD in a time zone; Apps Script passes Utilities.formatDate, tests use Intl. */
export type DateFormatter = (date: Date, timeZone: string) => string;

export const intlDateFormatter: DateFormatter = (date, timeZone) => {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(date);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')}`;
};

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

export function isIsoDate(text: string): boolean {
  const match = ISO_DATE.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/**
 * A Date cell becomes its day in the spreadsheet's time zone (it holds midnight there, the previous day in UTC
 * west of Greenwich); text must be YYYY-MM-DD. Anything else is refused with a sentence naming `what`.
 */
export function toIsoDate(value: unknown, what: string, timeZone: string, format: DateFormatter): string {
  if (isDateLike(value)) {
    if (Number.isNaN(value.getTime())) throw new InputError(`${what} is not a valid date.`);
    return format(value, timeZone);
  }
  if (typeof value === 'string') {
    const text = value.trim();
    if (isIsoDate(text)) return text;
    throw new InputError(`${what} must be a date cell or text like 2024-01-31, but it is "${text.slice(0, 40)}".`);
  }
  if (value === undefined || value === null || value === '') throw new InputError(`${what} is empty: give a date cell or text like 2024-01-31.`);
  throw new InputError(`${what} must be a date cell or text like 2024-01-31, but it is ${typeof value === 'number' ? `the number ${value}` : String(value)}.`);
}

/** Dates from another realm (an Apps Script cell read in a vm) fail instanceof; check the tag instead. */
export function isDateLike(value: unknown): value is Date {
  return Object.prototype.toString.call(value) === '[object Date]';
}
