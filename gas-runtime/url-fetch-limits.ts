// What UrlFetchApp refuses before sending: URLs outside the manifest's allowlist, and requests past the daily quota.

import type { RuntimeClock } from './clock';
import { DailyQuota, type DailyQuotaCharger } from './daily-quota';
import { GasError, GasRuntimeUsageError } from './errors';

/**
 * The manifest's `urlFetchWhitelist`. "When you define an allowlist, script projects can't access URLs
 * that have not been added to the allowlist" (developers.google.com/apps-script/manifest/allowlist-url).
 */
export class UrlFetchAllowlist {
  readonly prefixes: readonly string[];

  /** Checks the prefixes as Apps Script checks the manifest; a bad one is a misconfiguration. */
  constructor(prefixes: unknown, source: string) {
    if (!Array.isArray(prefixes) || prefixes.length === 0) {
      throw new GasRuntimeUsageError(`${source}: urlFetchWhitelist must be a non-empty list of URL prefixes.`, 'INVALID_OPTION');
    }
    for (const prefix of prefixes) checkPrefix(prefix, source);
    this.prefixes = [...(prefixes as string[])];
  }

  allows(url: string): boolean {
    return this.prefixes.some((prefix) => matchesPrefix(url, prefix));
  }

  /** Throws Apps Script's refusal for a URL no prefix matches; nothing is sent. */
  check(url: string): void {
    // The text reported from Apps Script (e.g. github.com/grahamearley/FirestoreGoogleAppsScript/issues/135).
    if (!this.allows(url)) throw new GasError(`Request to ${url} failed because the URL has not been whitelisted in the script manifest.`);
  }
}

/**
 * The reference's requirements: "Each prefix must be a valid URL", "must use https://, not http://",
 * "must have a non-empty path. For example, https://www.google.com/ is valid but https://www.google.com is not",
 * and a leading wildcard may stand for subdomains (`https://*.example.com/`).
 */
function checkPrefix(prefix: unknown, source: string): void {
  const refuse = (why: string): never => {
    throw new GasRuntimeUsageError(`${source}: urlFetchWhitelist prefix ${JSON.stringify(prefix)} ${why}`, 'INVALID_OPTION');
  };
  // biome-ignore lint/correctness/noVoidTypeReturn: refuse() never returns; `return` tells the compiler that prefix is a string below
  if (typeof prefix !== 'string') return refuse('is not a string.');
  const match = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\/([^/?#]*)(.*)$/.exec(prefix);
  // biome-ignore lint/correctness/noVoidTypeReturn: as above, for the match
  if (!match) return refuse('is not a valid URL.');
  const [, scheme, host, rest] = match as unknown as [string, string, string, string];
  if (scheme.toLowerCase() !== 'https') refuse('must use https://, not http:// ("Each prefix must use https://, not http://").');
  const bareHost = host.startsWith('*.') ? host.slice(2) : host;
  if (bareHost === '' || bareHost.includes('*')) refuse('must have a full domain (a wildcard only as a leading "*.").');
  try {
    new URL(`https://${bareHost}${rest}`);
  } catch {
    refuse('is not a valid URL.');
  }
  if (!rest.startsWith('/')) refuse('must have a non-empty path ("https://www.google.com/ is valid but https://www.google.com is not").');
}

/**
 * "A prefix matches if it's identical to the URL" and "a URL matches if it's the same as or a child of the
 * prefix": past the prefix the URL goes on with a new path segment, a query or a fragment. Path matching is
 * case-sensitive; the scheme and host are compared without case.
 */
function matchesPrefix(url: string, prefix: string): boolean {
  const target = splitOrigin(url);
  const allowed = splitOrigin(prefix);
  if (!target || !allowed) return false;
  if (target.scheme !== allowed.scheme) return false;
  if (allowed.host.startsWith('*.')) {
    if (!target.host.endsWith(allowed.host.slice(1))) return false;
  } else if (target.host !== allowed.host) return false;
  if (!target.rest.startsWith(allowed.rest)) return false;
  if (target.rest.length === allowed.rest.length || allowed.rest.endsWith('/')) return true;
  return '/?#'.includes(target.rest.charAt(allowed.rest.length));
}

function splitOrigin(url: string): { scheme: string; host: string; rest: string } | null {
  const match = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\/([^/?#]*)(.*)$/.exec(url);
  if (!match) return null;
  return { scheme: match[1]!.toLowerCase(), host: match[2]!.toLowerCase(), rest: match[3]! };
}

/** What UrlFetchApp needs of the quota: the host's UrlFetchQuota, or a worker thread's view of it. */
export type UrlFetchQuotaCharger = DailyQuotaCharger;

/**
 * "URL Fetch calls: 20,000 / day" for consumer accounts, 100,000 for Workspace; "Quotas are per user and
 * reset 24 hours after the first request" (developers.google.com/apps-script/guides/services/quotas).
 * Counted on the virtual clock, so a test moves past a day with rt.clock.advance. A request is counted
 * before it is sent; when they do not all fit, none is sent (whether a fetchAll that only partly fits sends
 * the part that does is *unverified*).
 */
export class UrlFetchQuota extends DailyQuota {
  constructor(limit: number, clock: RuntimeClock) {
    super('urlFetchDailyQuota', limit, 'Service invoked too many times for one day: urlfetch.', clock);
  }
}
