// One figure for a period longer than a metric's own: the sum, average, first or last of its periods.

import { InputError } from '../errors';
import { normaliseDecimal } from '../validate/decimal';
import { toCell } from './metric-table';

export const AGGREGATES = ['sum', 'average', 'first', 'last'] as const;
export type Aggregate = (typeof AGGREGATES)[number];

export const AGGREGATE_CHOICES = '"sum", "average", "first" or "last"';

/** Blank for none, else one of the four words in any case. */
export function readAggregate(value: unknown): Aggregate | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (Array.isArray(value)) throw new InputError(`The aggregate must be one cell, not a range: ${AGGREGATE_CHOICES}.`);
  const word = String(value).trim().toLowerCase();
  if ((AGGREGATES as readonly string[]).includes(word)) return word as Aggregate;
  throw new InputError(`Unknown aggregate "${String(value).trim()}": use ${AGGREGATE_CHOICES}.`);
}

/** A decimal as an integer count of 10^-scale. */
interface Exact {
  units: bigint;
  scale: number;
}

function exact(text: string, date: string): Exact {
  const normal = normaliseDecimal(text.trim());
  if (normal === undefined) throw new InputError(`The value on ${date} is "${text.slice(0, 40)}", not a number, so it cannot be added up.`);
  const [whole, fraction = ''] = normal.split('.') as [string, string?];
  return { units: BigInt(whole + fraction), scale: fraction.length };
}

/** Decimal text of units / 10^scale, e.g. (-5n, 1) → "-0.5". */
function toText(units: bigint, scale: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const body = scale === 0 ? digits : `${digits.slice(0, digits.length - scale)}.${digits.slice(digits.length - scale)}`;
  return negative ? `-${body}` : body;
}

/** The exact sum of decimal texts, as decimal text: no double ever holds a partial sum. */
export function sumDecimals(values: ReadonlyArray<{ date: string; value: string }>): string {
  const parsed = values.map(({ date, value }) => exact(value, date));
  const scale = Math.max(0, ...parsed.map((p) => p.scale));
  const total = parsed.reduce((sum, p) => sum + p.units * 10n ** BigInt(scale - p.scale), 0n);
  return toText(total, scale);
}

/** Significant digits of a quotient before it becomes a number: more than the 17 a double can need. */
const QUOTIENT_DIGITS = 40;

/**
 * `sum / count` to 40 significant digits, truncated, with a last digit 1 when digits were cut, so the
 * number read from it rounds as the exact quotient does (but within 10^-40 of a halfway point).
 */
export function divideDecimal(sum: string, count: number): string {
  const value = exact(sum, 'the sum');
  if (value.units === 0n) return '0';
  const magnitude = (value.units < 0n ? -value.units : value.units).toString().length;
  // Enough extra places that the quotient keeps QUOTIENT_DIGITS significant digits.
  const extra = Math.max(0, QUOTIENT_DIGITS - magnitude + String(count).length);
  const numerator = value.units * 10n ** BigInt(extra);
  const quotient = numerator / BigInt(count);
  const inexact = quotient * BigInt(count) !== numerator;
  // The sticky digit: marks "a little more than this" in the direction away from zero.
  const units = inexact ? quotient * 10n + (value.units < 0n ? -1n : 1n) : quotient * 10n;
  return toText(units, value.scale + extra + 1);
}

/**
 * One figure from the values of the metric's periods inside a period, oldest first. sum and average
 * need every value: a missing or blank one gives an empty cell, never a partial sum. first and last
 * read only that period: empty when it is missing or blank (a neighbour's would be another period's).
 */
export function aggregate(how: Aggregate, periods: ReadonlyArray<{ date: string; value: string | null | undefined }>): number | string {
  if (periods.length === 0) return '';
  const filled = (v: string | null | undefined): v is string => v !== null && v !== undefined && v.trim() !== '';
  if (how === 'first' || how === 'last') {
    const { value } = periods[how === 'first' ? 0 : periods.length - 1]!;
    return filled(value) ? toCell(value, false)! : '';
  }
  if (!periods.every((p) => filled(p.value))) return '';
  const sum = sumDecimals(periods as ReadonlyArray<{ date: string; value: string }>);
  return Number(how === 'sum' ? sum : divideDecimal(sum, periods.length));
}
