// Apps Script's "The parameters (...) don't match the method signature for X" error, for arguments of the wrong type.

import { types } from 'node:util';
import { GasError } from './errors';

/** How Apps Script names an argument's type in a signature error, e.g. `String`, `number`, `number[]`. */
export function signatureTypeName(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (typeof value === 'string') return 'String';
  if (typeof value === 'number') return 'number';
  if (typeof value === 'boolean') return 'Boolean';
  if (types.isDate(value)) return 'Date';
  if (Array.isArray(value)) return `${value.length > 0 ? signatureTypeName(value[0]) : 'Object'}[]`;
  return 'Object';
}

/** The error Apps Script throws when a method is called with arguments of the wrong types. */
export function signatureError(method: string, args: readonly unknown[]): GasError {
  // Apps Script does not list trailing omitted arguments.
  let end = args.length;
  while (end > 0 && args[end - 1] === undefined) end--;
  const names = args.slice(0, end).map(signatureTypeName).join(',');
  return new GasError(`The parameters (${names}) don't match the method signature for ${method}.`);
}
