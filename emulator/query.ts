// Rails/Rack-style query strings: `a[]=x&a[]=y` arrays, `filter[k]=v` objects, a bare repeat keeps the last,
// and a key sent in two forms (`a=x&a[]=y`) is a conflict the contract check answers with 400.

/** A parsed query value: a string, an array of values, or a nested object. */
export type QueryValue = string | QueryValue[] | QueryObject;
/** A parsed query: keys to values, without a prototype so `__proto__` is just a key. */
export interface QueryObject {
  [key: string]: QueryValue;
}

/**
 * Where a parsed query keeps the fields sent in more than one form (`metric_id=a&metric_id[]=b`).
 * A symbol, so no query key can collide with it, and Fastify hands the parsed object on unchanged.
 */
const CONFLICTS = Symbol('query conflicts');

type ParsedQuery = QueryObject & { [CONFLICTS]?: string[] };

/** The fields of a parsed query that were sent both as a value and as a list (or object), in order of appearance. */
export function queryConflicts(query: unknown): string[] {
  if (typeof query !== 'object' || query === null) return [];
  return (query as ParsedQuery)[CONFLICTS] ?? [];
}

/**
 * Parses a raw query string the way Rack does for a Rails app.
 * `metric_id[]=a&metric_id[]=b` gives `['a','b']`; `metric_id=a&metric_id=b` gives `'b'`
 * (Rack keeps the last bare value, which is why the real service ignores earlier repeats);
 * `filter[x]=1` gives `{ x: '1' }`. Mixing forms of one key (`metric_id=a&metric_id[]=b`, in either
 * order) is recorded for `queryConflicts`: Rack raises ParameterTypeError (a 400 from Rails) for a
 * value followed by a list, and silently keeps the value for the reverse; both are a client bug.
 */
export function parseRailsQuery(raw: string): QueryObject {
  const result: ParsedQuery = Object.create(null) as QueryObject;
  const conflicts: string[] = [];
  for (const pair of raw.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const rawKey = eq === -1 ? pair : pair.slice(0, eq);
    const rawValue = eq === -1 ? '' : pair.slice(eq + 1);
    const key = decode(rawKey);
    if (key === '') continue;
    assign(result, keyPath(key), decode(rawValue), '', conflicts);
  }
  if (conflicts.length > 0) Object.defineProperty(result, CONFLICTS, { value: conflicts, enumerable: false });
  return result;
}

function decode(text: string): string {
  const spaced = text.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    // Rack answers 400 on bad escapes; keeping the raw text lets the validator name the field instead.
    return spaced;
  }
}

/** `a[b][]` -> ['a', 'b', '']; an empty segment means "append to an array". */
function keyPath(key: string): string[] {
  const open = key.indexOf('[');
  if (open <= 0) return [key];
  const segments = [key.slice(0, open)];
  const pattern = /\[([^\]]*)\]/g;
  let match: RegExpExecArray | null;
  let consumed = open;
  while ((match = pattern.exec(key)) !== null && match.index === consumed) {
    segments.push(match[1] ?? '');
    consumed = pattern.lastIndex;
  }
  if (consumed !== key.length) return [key];
  return segments;
}

type Form = 'value' | 'list' | 'object';

function formOf(value: QueryValue): Form {
  return typeof value === 'string' ? 'value' : Array.isArray(value) ? 'list' : 'object';
}

/** `prefix` names the field as the client wrote it (`filter[x]`), for the conflict list. */
function assign(target: QueryObject, path: string[], value: string, prefix: string, conflicts: string[]): void {
  const [head, ...rest] = path;
  if (head === undefined) return;
  const field = prefix === '' ? head : `${prefix}[${head}]`;
  const existing = target[head];
  const form: Form = rest.length === 0 ? 'value' : rest[0] === '' ? 'list' : 'object';
  if (existing !== undefined && formOf(existing) !== form && !conflicts.includes(field)) conflicts.push(field);
  if (rest.length === 0) {
    target[head] = value;
    return;
  }
  if (rest[0] === '') {
    const list = Array.isArray(existing) ? existing : [];
    if (rest.length === 1) list.push(value);
    target[head] = list;
    return;
  }
  const child = isQueryObject(existing) ? existing : (Object.create(null) as QueryObject);
  target[head] = child;
  assign(child, rest, value, field, conflicts);
}

function isQueryObject(value: QueryValue | undefined): value is QueryObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
