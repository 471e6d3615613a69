// What the add-in counts of the daily quotas that can stop a user (placeholder: i24b owns the counting).

export interface QuotaUsage {
  day: string;
  urlFetch: number | null;
  properties: number | null;
  triggerRuntimeMs: number | null;
}

/** Today's usage as far as the add-in counts it; null where it does not count. */
export function quotaUsageToday(): QuotaUsage {
  return { day: Utilities.formatDate(new Date(), Session.getScriptTimeZone(), 'yyyy-MM-dd'), urlFetch: null, properties: null, triggerRuntimeMs: null };
}
