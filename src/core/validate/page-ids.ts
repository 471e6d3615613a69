// Every id the sidebar sends, checked in one place before it reaches a cache key or a URL.
//
// CacheService refuses a key over 250 characters with "Argument too large: key", and an id spliced into a
// URL path could walk it: so whatever the page sends as an id must be a UUID before any body sees it.

import { InputError } from '../errors';
import { requireUuid } from './uuid';

/**
 * Names that end in "Id" but hold no id. Any other argument or field named `…Id` or `…Ids` is an id; a new
 * flag with such a name is refused until it is listed here, so the rule fails closed.
 */
const NOT_IDS: ReadonlySet<string> = new Set(['skipRowsWithoutId']);

const ID_NAME = /^(.+?)(Ids?)$/;

/** "defaultCompany" -> "default company": the words of a camelCase name, for the sentence. */
function words(stem: string): string {
  return stem.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
}

/**
 * The value named `name`, its ids checked: an `…Id` is a UUID (returned trimmed, lower case) or absent
 * (null, undefined or "", left for the function to require); an `…Ids` is a list of UUIDs or absent.
 */
function checkNamed(name: string, value: unknown): unknown {
  const match = NOT_IDS.has(name) ? null : ID_NAME.exec(name);
  if (!match) return value;
  const what = words(match[1] ?? name);
  if (value === undefined || value === null || value === '') return value;
  if (match[2] === 'Id') return requireUuid(value, `The ${what} id`);
  if (!Array.isArray(value)) throw new InputError(`The ${what} ids must be a list.`);
  return value.map((item: unknown) => requireUuid(item, `A ${what} id`));
}

/**
 * The page's arguments, each checked by its parameter's name, and the top-level fields of an object argument
 * by theirs. Deeper fields are not ids by this rule: an export's `spec.metricId` is the person's choice,
 * which the export reports on per column (core/export/read-range), and never part of a key.
 */
export function checkPageIds(names: readonly string[], args: readonly unknown[]): unknown[] {
  return args.map((arg, i) => {
    const name = names[i];
    if (name !== undefined && ID_NAME.test(name)) return checkNamed(name, arg);
    if (arg === null || typeof arg !== 'object' || Array.isArray(arg)) return arg;
    const checked: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(arg)) checked[key] = checkNamed(key, value);
    return checked;
  });
}
