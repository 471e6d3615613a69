// Apps Script's daily quotas the add-in can spend, recognized in the platform's own words (quotas page:
// "Quotas are per user and reset 24 hours after the first request"), so that ./sentences can say which one.

/** URL Fetch calls, Properties reads and writes, and triggers' total runtime: the quotas that can stop a user for the day. */
export type DailyQuota = 'urlfetch' | 'properties' | 'trigger_runtime';

/**
 * Apps Script's messages: "Service invoked too many times for one day: urlfetch." (quotas page), "…: properties."
 * (the same pattern; a public report quotes "…: graphite property writes." for writes,
 * github.com/googleworkspace/apps-script-oauth2/issues/217), and "Service using too much computer time for one
 * day" for triggers' runtime (github.com/webdigi/GmailScheduler/issues/31).
 */
const PLATFORM_WORDS: ReadonlyArray<[RegExp, DailyQuota]> = [
  [/Service invoked too many times for one day: urlfetch|Bandwidth quota exceeded/i, 'urlfetch'],
  [/Service invoked too many times for one day: [^.]*propert/i, 'properties'],
  [/Service using too much computer time for one day/i, 'trigger_runtime'],
];

/** The daily quota a platform error (or its message) says is spent, or null. */
export function dailyQuotaOf(error: unknown): DailyQuota | null {
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  return PLATFORM_WORDS.find(([words]) => words.test(message))?.[1] ?? null;
}
