// What survives a google.script.run round trip: the reference's rules for arguments, and observed ones for results.
//
// Reference (google.script.run): "Legal parameters are JavaScript primitives like a Number, Boolean,
// String, or null, as well as JavaScript objects and arrays that are composed of primitives, objects
// and arrays. ... Requests fail if you attempt to pass a Date, Function, DOM element besides a form,
// or other prohibited type, including prohibited types inside objects or arrays. Objects that create
// circular references will also fail, and undefined fields within arrays become null."

import { ServerCallError } from './errors';

function isPlainObject(value: object): boolean {
  // A plain object's prototype is its realm's Object.prototype, whose own prototype is null.
  const proto = Object.getPrototypeOf(value) as object | null;
  return proto === null || Object.getPrototypeOf(proto) === null;
}

class IllegalValue extends Error {
  constructor(readonly property: string) {
    super(property);
  }
}

/** Copies a value by the rules above; throws IllegalValue naming the innermost property that broke them. */
function copyLegal(value: unknown, property: string, ancestors: Set<object>): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'boolean' || typeof value === 'number') return value;
  if (value === undefined) return undefined;
  if (typeof value !== 'object') throw new IllegalValue(property);
  if (ancestors.has(value)) throw new IllegalValue(property);
  ancestors.add(value);
  try {
    // Array.from, not value.map: the copy must be an array of this realm, not the script's.
    if (Array.isArray(value)) return Array.from(value as unknown[], (item, index) => (item === undefined ? null : copyLegal(item, String(index), ancestors)));
    if (!isPlainObject(value)) throw new IllegalValue(property);
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      const copied = copyLegal(item, key, ancestors);
      // JSON-like: an undefined field is simply absent on the other side.
      if (copied !== undefined) copy[key] = copied;
    }
    return copy;
  } finally {
    ancestors.delete(value);
  }
}

/** The arguments as the server function receives them; throws the page's error for an illegal one. */
export function copyServerArguments(args: readonly unknown[]): unknown[] {
  return args.map((arg, index) => {
    try {
      return copyLegal(arg, String(index), new Set());
    } catch (error) {
      if (error instanceof IllegalValue) throw new ServerCallError(`Failed due to illegal value in property: ${error.property}`);
      throw error;
    }
  });
}

/**
 * The result as the page's success handler receives it. A result holding a Date (or any other value
 * an argument could not be) arrives as null as a whole: observed Apps Script behaviour for Dates,
 * applied here to every illegal value.
 */
export function copyServerResult(value: unknown): unknown {
  try {
    const copied = copyLegal(value, '', new Set());
    return copied === undefined ? null : copied;
  } catch (error) {
    if (error instanceof IllegalValue) return null;
    throw error;
  }
}
