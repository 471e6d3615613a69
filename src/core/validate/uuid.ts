// An id that is not a UUID never reaches a URL.

import { InputError } from '../api/errors';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}

/**
 * Returns the id in lower case, trimmed (cells often carry a stray space),
 * or throws an InputError naming what was expected.
 */
export function requireUuid(value: unknown, what: string): string {
  const text = typeof value === 'string' ? value.trim() : value;
  if (isUuid(text)) return text.toLowerCase();
  const shown = value === undefined || value === null || value === '' ? 'empty' : `"${String(value).slice(0, 60)}"`;
  throw new InputError(`${what} must be an id like 123e4567-e89b-12d3-a456-426614174000, but it is ${shown}.`);
}
