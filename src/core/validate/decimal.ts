// Values travel as exact decimal text: a double never decides what the API stores.

import { InputError } from '../errors';

const DECIMAL_TEXT = /^([+-])?(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/** The shortest decimal reading back as the same double (JavaScript's digits), without exponent: `-?\d+(\.\d+)?`. */
export function numberToDecimal(value: number): string {
  if (!Number.isFinite(value)) throw new InputError(`${value} is not a number the API can store.`);
  if (Object.is(value, -0)) return '0';
  return normaliseDecimal(String(value)) as string;
}

/** A number cell or decimal text as the API's decimal string: "1,234" and "12%" are refused rather than guessed at. */
export function toDecimal(value: unknown, what: string): string {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new InputError(`${what} is not a finite number.`);
    return numberToDecimal(value);
  }
  if (typeof value === 'string') {
    const text = value.trim();
    const normalised = normaliseDecimal(text);
    if (normalised !== undefined) return normalised;
    throw new InputError(`${what} must be a number or decimal text like 1234.5, but it is "${text.slice(0, 40)}".`);
  }
  throw new InputError(
    `${what} must be a number, but it is ${value === undefined || value === null || value === '' ? 'empty' : typeof value === 'boolean' ? `the boolean ${value}` : String(value)}.`,
  );
}

/** Canonical form of decimal text (sign, digits, optional fraction, optional exponent), or undefined. */
export function normaliseDecimal(text: string): string | undefined {
  const match = DECIMAL_TEXT.exec(text);
  if (!match) return undefined;
  const [, sign, intPart = '', fracPart = '', exponent] = match;
  if (intPart === '' && fracPart === '') return undefined;
  let digits = intPart + fracPart;
  let point = intPart.length + (exponent ? Number(exponent) : 0);
  if (Math.abs(point) > 400) return undefined;
  if (point <= 0) {
    digits = '0'.repeat(1 - point) + digits;
    point = 1;
  } else if (point > digits.length) {
    digits = digits + '0'.repeat(point - digits.length);
  }
  const whole = digits.slice(0, point).replace(/^0+(?=\d)/, '');
  let fraction = digits.slice(point);
  // Trailing zeros are kept from text (they may carry meaning to the user) but not invented by exponents.
  if (exponent) fraction = fraction.replace(/0+$/, '');
  const isZero = /^0*$/.test(whole + fraction);
  const body = fraction ? `${whole}.${fraction}` : whole;
  return sign === '-' && !isZero ? `-${body}` : body;
}

/** Whether a double holds the decimal exactly as written, so a cell can show it as a number without loss. */
export function isExactAsDouble(decimal: string): boolean {
  const parsed = Number(decimal);
  const normal = normaliseDecimal(decimal) ?? decimal;
  const trimmed = normal.includes('.') ? normal.replace(/\.?0+$/, '') : normal;
  return Number.isFinite(parsed) && normaliseDecimal(String(parsed)) === (trimmed === '-0' ? '0' : trimmed);
}
