// Every id the sidebar sends is a UUID before any body sees it: CacheService refuses a key over 250
// characters ("Argument too large: key"), and an id spliced into a URL path could walk it.

import { InputError } from '../errors';
import { requireUuid } from './uuid';

/** Names ending in "Id" that hold no id. Any other `…Id`/`…Ids` is one: a new such flag fails closed until listed. */
const NOT_IDS: ReadonlySet<string> = new Set(['skipRowsWithoutId']);

const ID_NAME = /^(.+?)(Ids?)$/;

/** "defaultCompany" -> "default company": the words of a camelCase name, for the sentence. */
function words(stem: string): string {
  return stem.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
}

/** An `…Id` is a UUID (returned trimmed, lower case), an `…Ids` a list of them; absent ones are left for the body. */
function checkNamed(name: string, value: unknown): unknown {
  const match = NOT_IDS.has(name) ? null : ID_NAME.exec(name);
  if (!match || value === undefined || value === null || value === '') return value;
  const what = words(match[1] ?? name);
  if (match[2] === 'Id') return requireUuid(value, `The ${what} id`);
  if (!Array.isArray(value)) throw new InputError(`The ${what} ids must be a list.`);
  return value.map((item: unknown) => requireUuid(item, `A ${what} id`));
}

/**
 * The page's arguments, each checked by its parameter's name, and an object argument's top-level fields by theirs.
 * Deeper fields are not: an export's `spec.metricId` is the person's choice, reported per column, never in a key.
 */
export function checkPageIds(names: readonly string[], args: readonly unknown[]): unknown[] {
  return args.map((arg, i) => {
    const name = names[i];
    if (name !== undefined && ID_NAME.test(name)) return checkNamed(name, arg);
    if (arg === null || typeof arg !== 'object' || Array.isArray(arg)) return arg;
    return Object.fromEntries(Object.entries(arg).map(([key, value]) => [key, checkNamed(key, value)]));
  });
}
