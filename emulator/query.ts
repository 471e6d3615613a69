// Rails/Rack-style query strings: `a[]=x&a[]=y` arrays, `filter[k]=v` objects, a bare repeat keeps the last.

/** A parsed query value: a string, an array of values, or a nested object. */
export type QueryValue = string | QueryValue[] | QueryObject;
/** A parsed query: keys to values, without a prototype so `__proto__` is just a key. */
export interface QueryObject {
  [key: string]: QueryValue;
}

/**
 * Parses a raw query string the way Rack does for a Rails app.
 * `metric_id[]=a&metric_id[]=b` gives `['a','b']`; `metric_id=a&metric_id=b` gives `'b'`
 * (Rack keeps the last bare value, which is why the real service ignores earlier repeats);
 * `filter[x]=1` gives `{ x: '1' }`.
 */
export function parseRailsQuery(raw: string): QueryObject {
  const result: QueryObject = Object.create(null) as QueryObject;
  for (const pair of raw.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const rawKey = eq === -1 ? pair : pair.slice(0, eq);
    const rawValue = eq === -1 ? '' : pair.slice(eq + 1);
    const key = decode(rawKey);
    if (key === '') continue;
    assign(result, keyPath(key), decode(rawValue));
  }
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

function assign(target: QueryObject, path: string[], value: string): void {
  const [head, ...rest] = path;
  if (head === undefined) return;
  if (rest.length === 0) {
    target[head] = value;
    return;
  }
  if (rest[0] === '') {
    const existing = target[head];
    const list = Array.isArray(existing) ? existing : [];
    if (rest.length === 1) list.push(value);
    target[head] = list;
    return;
  }
  const existing = target[head];
  const child = isQueryObject(existing) ? existing : (Object.create(null) as QueryObject);
  target[head] = child;
  assign(child, rest, value);
}

function isQueryObject(value: QueryValue | undefined): value is QueryObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
