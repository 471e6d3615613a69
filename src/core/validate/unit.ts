// A metric's unit as the API documents it: number, percent, or an ISO 4217 currency code.

import { InputError } from '../errors';
import { isCurrencyCode, replacementOf } from './currency-codes';

/** The unit in the API's spelling from what was typed, in any case ("usd" is USD): nobody means another by case. */
export function readUnit(text: string): string {
  const trimmed = text.trim();
  const lower = trimmed.toLowerCase();
  if (lower === 'number' || lower === 'percent') return lower;
  const code = trimmed.toUpperCase();
  if (!/^[A-Z]{3}$/.test(code)) throw new InputError('The unit must be number, percent, or a currency code like USD.');
  const replacement = replacementOf(code);
  if (replacement) throw new InputError(`${code} is no longer a currency code in use: ${replacement} replaced it.`);
  if (!isCurrencyCode(code))
    throw new InputError(`${code} is not an ISO 4217 currency code in use: the unit must be number, percent, or a currency code like USD.`);
  return code;
}
