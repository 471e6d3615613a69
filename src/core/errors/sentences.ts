// The only two sentence-makers: what a user reads (a cell, the sidebar, a paused job) and the short reason a
// report shows after "failed: " (lower case first, no final period). No error the add-in builds carries the token.

import { ADDIN_NAME, SETTINGS_HINT } from '../product';
import { AddinError, ApiError, FetchRefusedError, NetworkError, OutOfTimeError, type ErrorItem, type RefusalReason } from './classes';
import { dailyQuotaOf, type DailyQuota } from './platform-quotas';
import { AUTHORIZATION_REQUIRED, refusalSentence, refusedScopes, unnamedPermissionSentence } from '../settings/permissions';

/** A path that names a record: the API's only paths with an id are these collections followed by one. */
const ID_SEGMENT = /\/(metrics|portfolio_company_profiles|portfolio_notes)\/[^/?#]+/;

/** Where the sentence is read: a formula's cell says how to run it again, which only Sheets can. */
export type SentencePlace = 'anywhere' | 'cell';

/** The sentence a user reads for any error, saying what to do next. */
export function userSentence(error: unknown, place: SentencePlace = 'anywhere'): string {
  if (place === 'cell' && error instanceof OutOfTimeError) return cellOutOfTimeSentence(error.unsent);
  if (error instanceof ApiError) {
    const field = error.field ? ` "${error.field}"` : '';
    const detail = error.apiMessage ? `: ${error.apiMessage}` : '';
    switch (error.code) {
      case 'unauthorized':
        return `The API token was rejected. Open ${SETTINGS_HINT} and set a new token (the platform's API support issues them).`;
      case 'forbidden':
        return 'This API token has no access to that company or record. Check the id, or ask an admin of the company for access.';
      case 'record_missing':
        // A path with no id in it names no record: the base URL's path is what is wrong, not an id.
        if (!ID_SEGMENT.test(error.path))
          return `Not found: the API has nothing at ${error.path}${detail}. That path holds no id, so the base URL's path is likely wrong: check it in ${SETTINGS_HINT}.`;
        return `Not found: the API has no record at ${error.path}${detail}. Check the id.`;
      case 'parameter_invalid': {
        // The API answers 400 on these fields when the id names nothing this token can see.
        const missing = error.field ? NOT_FOUND_FIELDS[error.field] : undefined;
        if (missing) return `${missing} not found: no ${missing.toLowerCase()} with that id is visible to this token. Check the id.`;
        return `The API rejected the parameter${field}${detail}.`;
      }
      case 'attribute_invalid':
        return `The API refused the value of${field || ' a field'}${detail}.`;
      case 'rate_limit_exceeded':
        return serverRateLimitSentence(error.retryAfterSeconds ?? 60);
      case 'server_error':
        return `The API had a temporary problem (HTTP ${error.status}). Try again in a minute.`;
      case 'unexpected_response':
        return `The API answered HTTP ${error.status}, which the add-in does not expect${detail}. Try again, and report it if it persists.`;
    }
  }
  if (error instanceof NetworkError) {
    // One match gives both: the origin (scheme and host) and the host alone.
    const [origin = error.url, host = error.url] = /^[a-z]+:\/\/([^/?#]+)/i.exec(error.url) ?? [];
    if (error.unreachable)
      return `Nothing answered at ${origin}: the base URL's address is wrong, or its server is down. Check the base URL in ${SETTINGS_HINT}.`;
    return `Could not reach the API at ${host}. Check the base URL in the add-in's settings and try again.`;
  }
  if (error instanceof FetchRefusedError) {
    return (
      REFUSED[error.reason] ?? `Apps Script refused to send the request (${error.message}), so nothing was sent. Try again later, and report it if it persists.`
    );
  }
  // Apps Script's own refusal, thrown by any of its services (a property read in a formula, a job's bookkeeping).
  const quota = dailyQuotaOf(error);
  if (quota) return DAILY_QUOTA_SENTENCES[quota];
  // A call Apps Script refused for want of a permission that no guard caught first (granular consent).
  const refused = error instanceof Error && !(error instanceof AddinError) ? refusedScopes(error.message) : null;
  if (refused) return refusalSentence(refused.call, refused.scopes);
  if (error instanceof Error && !(error instanceof AddinError) && AUTHORIZATION_REQUIRED.test(error.message)) return unnamedPermissionSentence();
  // Every other class is built with its sentence.
  return error instanceof Error ? error.message : String(error);
}

/**
 * A cell whose 30 seconds ran out before its request could start: "A custom function call must return within 30
 * seconds", and UrlFetchApp takes no timeout, so one started late would end as "Exceeded maximum execution time".
 * Sheets runs a custom function again only when its arguments change; Refresh data rewrites the add-in's formulas,
 * which makes it run each again.
 */
function cellOutOfTimeSentence(unsent: number): string {
  const requests = unsent === 1 ? '1 request to the API was' : unsent > 1 ? `${unsent} requests to the API were` : 'its requests to the API were';
  return `This cell ran out of its 30 seconds before asking the API, so ${requests} not sent. Recalculate to try again: Extensions › ${ADDIN_NAME} › Refresh data. If it happens again, narrow the date range or split it over several formulas.`;
}

/** The server answered 429: its limit, whatever the add-in counted (another tool may share the token). */
export function serverRateLimitSentence(seconds: number): string {
  return `The API's rate limit was reached. Try again in ${secondsInWords(seconds)}.`;
}

/**
 * The add-in's own count of its requests is spent (nothing was sent): only then is its budget named, so a
 * refusal after a 429 never claims requests that were not sent.
 */
export function ownBudgetSentence(limit: number, windowInWords: string, seconds: number): string {
  return `The add-in has used its budget of ${limit} API requests per ${windowInWords}. Try again in ${secondsInWords(seconds)}.`;
}

function secondsInWords(seconds: number): string {
  return `${seconds} second${seconds === 1 ? '' : 's'}`;
}

/** What an API refusal was about, which picks its words: an export's metric, a push's value, an import's record. */
export type ReasonSubject = 'metric' | 'property value' | 'record';

/** The short reason a report shows for a failed item, or for an item of an API refusal (its message, else type). */
export function shortReason(error: unknown, subject: ReasonSubject = 'record'): string {
  if (error instanceof FetchRefusedError) return `not sent: ${clause(userSentence(error))}`;
  if (error instanceof ApiError) {
    const detail = error.apiMessage ? clause(error.apiMessage) : undefined;
    const suffix = detail ? `: ${detail}` : '';
    if (subject === 'metric') {
      if (error.status === 404) return `the API has no such metric${detail ? ` (${detail})` : ''}`;
      if (error.status === 403) return 'this API token has no access to the metric';
      const field = error.field ? `, "${error.field.length > 60 ? `${error.field.slice(0, 60)}…` : error.field}"` : '';
      return `the API refused the request (HTTP ${error.status}${field}${suffix})`;
    }
    const named = error.errors.filter((item) => item.message || item.field);
    if (subject === 'record') {
      const items = named.map((item) => [item.field, item.message ? clause(item.message) : 'is not valid'].filter(Boolean).join(' '));
      return `the API refused it: ${items.length > 0 ? items.join('; ') : lowerFirst(clause(userSentence(error)))} (HTTP ${error.status})`;
    }
    // Every 422 problem names its field: "the API refused the value: must be a decimal number, e.g. 1250.5".
    if (error.status === 422 && named.length > 0) {
      return error.errors
        .map(
          (item) => `the API refused the ${item.field ? (FIELD_WORDS[item.field] ?? item.field) : 'value'}${item.message ? `: ${clause(item.message)}` : ''}`,
        )
        .join('; ');
    }
    if (error.status === 403) return `this API token has no access to this fund's property values (HTTP 403${suffix})`;
    return `the API refused the request (HTTP ${error.status}${error.field ? `, field ${error.field}` : ''}${suffix})`;
  }
  if (error instanceof Error) return lowerFirst(clause(error.message));
  if (isErrorItem(error)) return clause(error.message ?? error.type);
  return clause(String(error));
}

/** Which quota is spent, that it renews within 24 hours ("reset 24 hours after the first request"), and what still works. */
const DAILY_QUOTA_SENTENCES: Record<DailyQuota, string> = {
  urlfetch:
    "Apps Script's daily quota of URL fetches for this account is used up, so nothing was sent. It renews within 24 hours of its first use; until then formulas still show the values the add-in has cached.",
  properties:
    "Apps Script's daily quota of property reads and writes for this account is used up, so the add-in cannot read its settings. It renews within 24 hours of its first use; until then cells keep the values they show until they recalculate, and the rest of the spreadsheet works as usual.",
  trigger_runtime:
    "Apps Script's daily quota of run time for scheduled runs for this account is used up, so the scheduled refresh did not run. It renews within 24 hours of its first use; until then the sidebar, the menus and formulas work as usual, and a refresh started from the sidebar still runs.",
};

/**
 * A scheduled refresh that has not run for two periods: Apps Script refuses such runs before any of the add-in runs
 * once the daily quota of trigger run time is spent, so no error reaches the add-in; this says what may have happened.
 */
export function overdueScheduleSentence(since: string): string {
  return `No scheduled run has happened since ${since.slice(0, 16).replace('T', ' ')} UTC. Apps Script skips scheduled runs while this account's daily quota of run time for them is used up (90 minutes a day on a consumer account, 6 hours on Google Workspace); it renews within 24 hours of its first use, and until then "Refresh snapshots" in the sidebar still works. If no run happens within a day, schedule the refresh again.`;
}

const REFUSED: Partial<Record<RefusalReason, string>> = {
  daily_quota: DAILY_QUOTA_SENTENCES.urlfetch,
  url_too_long:
    'Apps Script refused to send a request whose address is over its 2 kB limit, so nothing was sent. Ask for fewer metrics at once, or split them over several formulas.',
  payload_too_large: 'Apps Script refused to send a request that is too large, so nothing was sent. Select fewer rows at a time.',
};

const NOT_FOUND_FIELDS: Record<string, string> = {
  metric_id: 'Metric',
  portfolio_company_profile_id: 'Portfolio company profile',
  portfolio_property_id: 'Portfolio property',
};

/** A property value's body fields in the words of a reason. */
const FIELD_WORDS: Record<string, string> = {
  value: 'value',
  portfolio_property_option_id: 'option',
  portfolio_property_option_ids: 'options',
  portfolio_property_id: 'property',
  portfolio_company_profile_id: 'company profile',
};

/** A sentence as a clause that follows "failed: ": no final period. */
function clause(text: string): string {
  return text.replace(/\.$/, '');
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}

function isErrorItem(value: unknown): value is ErrorItem {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}
