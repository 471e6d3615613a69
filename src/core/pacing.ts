// How fast and in what sizes the add-in talks to the API, in one place: each limit with its default and why (the
// way ky documents its options). The files that act on them import them from here; change one here and the
// reason beside it says what else it bears on. Pure: the core, the server and the tests read the same numbers.

// --- Requests -------------------------------------------------------------------------------------------------

/** Most requests sent in one fetchAll, before the rate budget cuts a wave smaller. Default 50. */
export const MAX_WAVE = 50;

/** GET /data_points pages hold at most this many points (the API's own page size, api-spec.md). Default 100. */
export const DATA_POINTS_PAGE_SIZE = 100;

/**
 * Metric ids per GET /data_points request, read together. Default 20: each id costs about 55 characters of the
 * URL, and Apps Script refuses URLs over 2 kB.
 */
export const IDS_PER_REQUEST = 20;

// --- Waves: how much a job sends between checkpoints ----------------------------------------------------------

/**
 * An export's wave, in batches of 50 data points. Default 10: its compare read reads them together (500 dates,
 * 5 pages of 100), then sends them one PUT at a time.
 */
export const EXPORT_WAVE_BATCHES = 10;

/**
 * An export's PUTs in flight at once. Default 1, so a Cancel stops the export within one batch (the mark is read
 * before each PUT; at most the PUT already sent lands after the click). Concurrent PUTs would buy little speed:
 * the rate limit of 500 requests per 5 minutes paces a long export more than round trips do.
 */
export const EXPORT_PUTS_IN_FLIGHT = 1;

/** Audit cells sent together in one wave, then a checkpoint. Default 25: a killed step loses at most one wave's answers. */
export const AUDIT_PUSH_WAVE_CELLS = 25;

/** Audit pages read together in one wave, then a checkpoint. Default 50: a killed step reads again at most one wave. */
export const AUDIT_BUILD_WAVE_PAGES = 50;

/** Rows of one import wave. Default 20: the kind's read before the writes (a profile import's listing) is made once for them. */
export const IMPORT_WAVE_ROWS = 20;

/** Profiles an Undo restores together in one wave, between checkpoints. Default 10. */
export const UNDO_PROFILES_PER_WAVE = 10;

/** Steps in a row that end on a temporary failure without progress before a push or a build pauses. Default 3. */
export const MAX_STEPS_WITHOUT_PROGRESS = 3;

// --- Time: steps, budgets, backoff ----------------------------------------------------------------------------

/**
 * One job step's budget. Default 20 s, far inside Apps Script's 6-minute limit on purpose: a short step loses
 * little if the sidebar is closed, and the progress bar does not wait for it (the step publishes after every wave).
 */
export const STEP_BUDGET_MS = 20_000;

/** A custom function's API work. Default 25 s: Apps Script stops a custom function at 30 s, leaving time to return cells. */
export const CUSTOM_FUNCTION_API_BUDGET_MS = 25_000;

/** The sidebar's API work per call. Default 120 s: a person is waiting, but a cold fund of many companies takes longer than a cell's 25 s. */
export const SIDEBAR_API_BUDGET_MS = 120_000;

/** A job's first backoff of its own after a refusal that named no wait; doubled after each refused probe. Default 4 s. */
export const FIRST_BACKOFF_MS = 4_000;

/** A job's backoff grows no further than the API's rate window. Default 5 minutes: by then the window has turned. */
export const MAX_BACKOFF_MS = 5 * 60_000;

/**
 * An API that accepts nothing for this long pauses the job. Default 15 minutes: three 5-minute rate windows, so a
 * limit shared with other clients has had time to free up, and an endless storm stops costing UrlFetch quota.
 */
export const RATE_LIMIT_STORM_MS = 15 * 60_000;

/** Largest Retry-After a single request honours before giving up with a clear error instead. Default 5 minutes, the API's rate window. */
export const MAX_RETRY_AFTER_MS = 5 * 60_000;

/** A request's first backoff when the server gives no Retry-After; doubles per attempt up to RETRY_MAX_DELAY_MS. Default 2 s. */
export const RETRY_BASE_DELAY_MS = 2_000;

/** A request's first backoff after a lost connection. Default 0.5 s: a dropped socket usually works again at once. */
export const RETRY_NETWORK_BASE_DELAY_MS = 500;

/** A request's longest single backoff. Default 60 s. */
export const RETRY_MAX_DELAY_MS = 60_000;

/**
 * Retries after nothing answered at the address. Default 1, for a blip: a wrong or down base URL then fails in
 * about a second instead of backing off for half a minute (22 s in the sidebar, 24 s in a formula before).
 */
export const UNREACHABLE_RETRIES = 1;
