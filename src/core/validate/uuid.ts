// An id that is not a UUID never reaches a URL.

import { InputError } from '../errors';
import { isDateLike } from './dates';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}

/** The id trimmed (cells often carry a stray space) and in lower case, or an InputError naming what was expected. */
export function requireUuid(value: unknown, what: string): string {
  const text = typeof value === 'string' ? value.trim() : value;
  if (isUuid(text)) return text.toLowerCase();
  throw new InputError(`${what} must be an id like 123e4567-e89b-12d3-a456-426614174000, but it is ${describe(value)}.`);
}

/** Only text and numbers are quoted: the page sends any JSON, and String() throws on an object without a toString. */
function describe(value: unknown): string {
  if (value === undefined || value === null || value === '') return 'empty';
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return `"${String(value).slice(0, 60)}"`;
  if (isDateLike(value)) return 'a date';
  return Array.isArray(value) ? 'a list' : 'an object';
}
