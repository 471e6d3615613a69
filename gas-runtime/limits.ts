// The production limits Apps Script enforces and this runtime copies (quotas page and service references).

/** A custom function's execution ends after 30 seconds. */
export const CUSTOM_FUNCTION_LIMIT_MS = 30_000;
/** Any other execution (trigger, menu item, google.script.run) ends after 6 minutes. */
export const ORDINARY_EXECUTION_LIMIT_MS = 6 * 60_000;

/** Utilities.sleep accepts at most five minutes per call. */
export const MAX_SLEEP_MS = 300_000;

/** UrlFetchApp gives up on a request after about 60 seconds. */
export const DEFAULT_FETCH_TIMEOUT_MS = 60_000;
/** "URL Fetch URL length: 2 kB / URL". */
export const MAX_URL_LENGTH = 2 * 1024;

/** "Properties value size: 9 kB / val". */
export const MAX_PROPERTY_VALUE_BYTES = 9 * 1024;
/** "Properties total storage: 500 kB / property store". */
export const MAX_PROPERTY_STORE_BYTES = 500 * 1024;

/** Cache: "The maximum length of a key is 250 characters." */
export const MAX_CACHE_KEY_LENGTH = 250;
/** Cache: "The maximum amount of data that can be stored per key is 100KB." Read as 100 × 1024 bytes of UTF-8. */
export const MAX_CACHE_VALUE_BYTES = 100 * 1024;
export const DEFAULT_CACHE_TTL_SECONDS = 600;
export const MAX_CACHE_TTL_SECONDS = 21_600;
/** "The cap for cached items is 1,000. If more than 1,000 items are written, the cache stores the 900 items farthest from expiration." */
export const MAX_CACHE_ITEMS = 1000;
export const CACHE_ITEMS_KEPT_ON_OVERFLOW = 900;

/** "Your input contains more than the maximum of 50000 characters in a single cell." */
export const MAX_CELL_CHARACTERS = 50_000;

/** A new sheet's grid. */
export const DEFAULT_SHEET_ROWS = 1000;
export const DEFAULT_SHEET_COLUMNS = 26;

/** "URL Fetch calls: 20,000 / day" (consumer accounts; Google Workspace accounts: 100,000). */
export const DEFAULT_URL_FETCH_DAILY_QUOTA = 20_000;
export const WORKSPACE_URL_FETCH_DAILY_QUOTA = 100_000;
/** "Quotas are per user and reset 24 hours after the first request." */
export const QUOTA_WINDOW_MS = 24 * 60 * 60_000;
/** "Properties read/write: 50,000 / day" (consumer accounts; Google Workspace accounts: 500,000). */
export const DEFAULT_PROPERTIES_DAILY_QUOTA = 50_000;
export const WORKSPACE_PROPERTIES_DAILY_QUOTA = 500_000;
/** "Triggers total runtime: 90 min / day" (consumer accounts; Google Workspace accounts: 6 hr / day). */
export const DEFAULT_TRIGGER_RUNTIME_DAILY_MS = 90 * 60_000;
export const WORKSPACE_TRIGGER_RUNTIME_DAILY_MS = 6 * 60 * 60_000;

/** A list rule (requireValueInList) holds at most 500 items; Sheets suggests "List from a range" instead. */
export const MAX_LIST_VALIDATION_ITEMS = 500;

/** "Triggers: 20 / user / script" (quotas page). */
export const MAX_TRIGGERS_PER_USER = 20;
/** ClockTriggerBuilder.everyMinutes: "n must be 1, 5, 10, 15 or 30." */
export const EVERY_MINUTES_VALUES: readonly number[] = [1, 5, 10, 15, 30];
/** nearMinute: "the minute at which the trigger runs (plus or minus 15 minutes)". */
export const NEAR_MINUTE_WINDOW_MS = 15 * 60_000;
