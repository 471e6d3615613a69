// The manifest's urlFetchWhitelist prefix a build may carry (`npm run build -- --api-base-url https://HOST/`),
// and whether a base URL lies under it. The build script bundles this file too, so the prefix it writes into
// appsscript.json and the one the add-in checks against are judged by the same rules.
//
// Google's rules (developers.google.com/apps-script/manifest/allowlist-url): "Each prefix must use https://,
// not http://", "must have a full domain", "must have a non-empty path" (https://www.google.com/ is valid,
// https://www.google.com is not), path matching is case-sensitive, and a URL matches when it "is identical
// to the prefix or a child of the prefix".

import { ConfigError } from '../errors';

/**
 * The allowlist prefix for `input`, normalised to end with `/` (scheme and host in lower case), or a
 * ConfigError saying what is wrong. Stricter than Google where Google allows more: one exact host, no `*`
 * wildcard, no user name, query or fragment (the add-in needs none, and each would widen or blur the list).
 */
export function parseAllowlistPrefix(input: string): string {
  const text = input.trim();
  const quoted = `"${text.slice(0, 80)}"`;
  const match = /^([a-z][a-z0-9+.-]*):\/\/([^/?#]*)(\/[^?#]*)?([?#].*)?$/i.exec(text);
  if (!match) throw new ConfigError(`${quoted} is not a URL: give the API's address, like https://api.example.com/.`);
  const [, scheme = '', authority = '', path = '', rest] = match;
  if (scheme.toLowerCase() !== 'https')
    throw new ConfigError(`${quoted} must start with https://: Apps Script allows only https:// prefixes in urlFetchWhitelist.`);
  if (authority.includes('@')) throw new ConfigError(`${quoted} may not carry a user name or password.`);
  if (authority.includes('*')) throw new ConfigError(`${quoted} has a wildcard: give the one host the add-in calls, like https://api.example.com/.`);
  if (rest) throw new ConfigError(`${quoted} may not have a query string or a fragment (the part after ? or #).`);
  const host = authority.replace(/:\d{1,5}$/, '').toLowerCase();
  // "A full domain": a name with a dot and a top-level domain of letters; never a bare name, an IP or loopback.
  if (!/^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/.test(host)) {
    throw new ConfigError(
      `${quoted} must name a full domain, like https://api.example.com/: Google fetches from its own servers, so a local or bare host name cannot be reached.`,
    );
  }
  const normalisedPath = path.endsWith('/') ? path : `${path}/`;
  return `https://${authority.toLowerCase()}${normalisedPath}`;
}

/**
 * Whether requests under `baseUrl` (`${baseUrl}/metrics…`) fall under `prefix`: the base URL with a slash starts
 * with it. https://api.example.com/v1 is under https://api.example.com/v1/, https://api.example.com/v10 is not.
 */
export function isUnderPrefix(baseUrl: string, prefix: string): boolean {
  return `${baseUrl.replace(/\/+$/, '')}/`.startsWith(prefix);
}

/** Throws a ConfigError naming the allowed prefix when `baseUrl` lies outside it; no prefix allows any. */
export function requireUnderPrefix(baseUrl: string, prefix: string | null): string {
  if (prefix !== null && !isUnderPrefix(baseUrl, prefix)) {
    throw new ConfigError(
      `The base URL must start with ${prefix}: this installation of the add-in may fetch only from there (the allowlist it was built with).`,
    );
  }
  return baseUrl;
}
