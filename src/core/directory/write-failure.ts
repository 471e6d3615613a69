// What a failed write means for one row of an import: wait, refused, maybe done, or stop everything.

import { ApiError, ConfigError, InputError, TimeBudgetError, userMessage } from '../api/errors';
import { FetchRefusedError, NetworkError } from '../api/transport';
import { asReason } from '../export/places';

export type WriteFailure =
  /** The rate limit: the server did not act, so the row is sent again after the wait. */
  | { kind: 'wait'; retryAfterMs?: number; message: string }
  /** A definite refusal (4xx): the row failed, with the API's words. */
  | { kind: 'refused'; reason: string; error?: ApiError }
  /**
   * The request may have reached the server and acted (a lost connection, a 5xx, a 408, a 2xx whose
   * body could not be read): a POST must not be sent again blindly; a PUT may be.
   */
  | { kind: 'unknown'; message: string }
  /** Nothing can go on until the user acts (token rejected, settings missing); the row was not acted on. */
  | { kind: 'stop'; message: string };

/**
 * Sorts a failed write. The requester has already retried what is safe (a 429 for every method; 5xx
 * and lost connections for PUT only), so whatever arrives here is final for this step.
 */
export function classifyWriteFailure(error: unknown): WriteFailure {
  if (error instanceof TimeBudgetError) {
    return { kind: 'wait', message: error.message, ...(error.retryAfterSeconds !== undefined ? { retryAfterMs: error.retryAfterSeconds * 1000 } : {}) };
  }
  if (error instanceof NetworkError) return { kind: 'unknown', message: userMessage(error) };
  // Apps Script did not send it, so nothing was created: the row fails with that reason, the others go on.
  if (error instanceof FetchRefusedError) return { kind: 'refused', reason: `not sent: ${asReason(userMessage(error))}` };
  if (error instanceof ApiError) {
    if (error.status === 429) {
      return { kind: 'wait', message: userMessage(error), ...(error.retryAfterSeconds !== undefined ? { retryAfterMs: error.retryAfterSeconds * 1000 } : {}) };
    }
    if (error.status === 401) return { kind: 'stop', message: userMessage(error) };
    if (error.status >= 400 && error.status < 500 && error.status !== 408) return { kind: 'refused', reason: refusalReason(error), error };
    return { kind: 'unknown', message: userMessage(error) };
  }
  // Both are raised before anything is sent: the client's own checks of ids, and missing settings.
  if (error instanceof InputError) return { kind: 'refused', reason: asReason(lowerFirst(error.message)) };
  if (error instanceof ConfigError) return { kind: 'stop', message: error.message };
  // An error of no known kind may have come after the request went out: treat it as maybe sent.
  return { kind: 'unknown', message: `The import stopped on an unexpected error: ${userMessage(error)}` };
}

/** "the API refused it: name has already been taken (HTTP 422)": every item the API listed, in its words. */
export function refusalReason(error: ApiError): string {
  const items = error.errors
    .filter((item) => item.message || item.field)
    .map((item) => [item.field, item.message ? asReason(item.message) : 'is not valid'].filter(Boolean).join(' '));
  const what = items.length > 0 ? items.join('; ') : asReason(lowerFirst(userMessage(error)));
  return `the API refused it: ${what} (HTTP ${error.status})`;
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}
