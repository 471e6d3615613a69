// How much of Apps Script's daily quotas this user has spent today, as far as the add-in can count it without a
// property call: for the installation check (checkInstallation) and the bench. Quotas page: "Quotas are per user
// and reset 24 hours after the first request".
//
// How approximate it is (it is a hint, never a reason to refuse anything):
// - Only this add-in's use counts. The quotas are per Google account, across every script and add-on it runs.
// - The counters live in the user's cache (no property call, so not on the warm formula path's quota), which keeps
//   an entry at most 6 hours and may drop it sooner: a quiet spell of 6 hours, or an eviction, loses the count.
// - Increments are a read then a write with no lock (a lock would cost every fetch a wait): executions that count
//   at the same moment (a recalculation's cells) can lose each other's, so the figures undercount, never overcount.
// - The window opens at the first count the add-in saw and lasts 24 hours, like the platform's, which opened at the
//   user's first use of anything (possibly earlier).
// - URL fetches: every request the add-in's transport tried to send (each of a fetchAll), from formulas (counted
//   for the spreadsheet's owner, whose cache formulas use), jobs and triggers. Properties: not counted (null):
//   counting each call would itself cost a cache call per property call. Triggers' runtime: the scheduled
//   refresh's handler, from its first line to its last; the platform's start-up and any run it refused are not in it.

import { userCache } from './cache-and-lock';

/** Spent today, as far as the add-in counts it; null where it does not count. */
export interface QuotaUsage {
  /** The UTC date (yyyy-mm-dd) the counting window opened, or today's when nothing was counted. */
  day: string;
  urlFetch: number | null;
  properties: number | null;
  triggerRuntimeMs: number | null;
}

const USAGE_KEY = 'quota_usage';
const DAY_MS = 24 * 60 * 60_000;
/** The longest a cache keeps an entry; every count writes it again. */
const TTL_SECONDS = 21_600;

interface Counted {
  since: number;
  urlFetch: number;
  triggerRuntimeMs: number;
}

function readCounted(now: number): Counted | null {
  try {
    const text = userCache().get(USAGE_KEY);
    const counted = text === null ? null : (JSON.parse(text) as Partial<Counted>);
    if (!counted || typeof counted.since !== 'number' || now >= counted.since + DAY_MS) return null;
    return { since: counted.since, urlFetch: Number(counted.urlFetch) || 0, triggerRuntimeMs: Number(counted.triggerRuntimeMs) || 0 };
  } catch {
    return null;
  }
}

/** What this user spent today, as far as the add-in counted it (see above for how approximate). */
export function quotaUsageToday(): QuotaUsage {
  const now = Date.now();
  const counted = readCounted(now);
  return {
    day: new Date(counted?.since ?? now).toISOString().slice(0, 10),
    urlFetch: counted?.urlFetch ?? 0,
    properties: null,
    triggerRuntimeMs: counted?.triggerRuntimeMs ?? 0,
  };
}

/** Adds to today's counts; never fails its caller (a count is a hint). */
export function countQuotaUse(use: { urlFetch?: number; triggerRuntimeMs?: number }): void {
  try {
    const now = Date.now();
    const counted = readCounted(now) ?? { since: now, urlFetch: 0, triggerRuntimeMs: 0 };
    counted.urlFetch += use.urlFetch ?? 0;
    counted.triggerRuntimeMs += use.triggerRuntimeMs ?? 0;
    userCache().put(USAGE_KEY, JSON.stringify(counted), TTL_SECONDS);
  } catch {
    // The cache failed: this use goes uncounted.
  }
}
