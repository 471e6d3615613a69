// Query strings the way the API's Rails server reads them.

export type QueryValue = string | number | boolean | undefined | readonly string[] | { readonly [key: string]: string | undefined };
export type Query = Readonly<Record<string, QueryValue>>;

/**
 * Arrays go Rails-style as `key[]=a&key[]=b` (the live service keeps only the last of a bare `key=a&key=b`),
 * objects as `key[sub]=v`. Brackets are percent-encoded (Rails decodes them): UrlFetchApp is strict about raw ones.
 */
export function encodeQuery(query: Query): string {
  const parts: string[] = [];
  const add = (name: string, text: string): void => {
    parts.push(`${encodeURIComponent(name)}=${encodeURIComponent(text)}`);
  };
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) {
      for (const item of value as readonly string[]) add(`${key}[]`, item);
    } else if (typeof value === 'object') {
      for (const [sub, subValue] of Object.entries(value as Record<string, string | undefined>)) {
        if (subValue !== undefined) add(`${key}[${sub}]`, subValue);
      }
    } else {
      add(key, String(value));
    }
  }
  return parts.join('&');
}

/** Fills `{name}` segments of a path, each value percent-encoded and never `.` or `..`: no id can change the path. */
export function fillPath(template: string, params: Readonly<Record<string, string>>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`Path parameter ${name} is missing for ${template}.`);
    if (value === '' || value === '.' || value === '..') throw new Error(`Path parameter ${name} may not be "${value}".`);
    return encodeURIComponent(value);
  });
}
