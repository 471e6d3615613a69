// What a failed PUT means for a push: wait, try again later, fail that cell, or stop everything.

import { ApiError, ConfigError, TimeBudgetError, userMessage } from '../api/errors';
import { FetchRefusedError, NetworkError } from '../api/transport';
import { asReason } from '../export/places';

export type PushFailure =
  /** The rate limit: the cell goes again after the wait. Not a failure of the data. */
  | { kind: 'wait'; retryAfterMs?: number; message: string }
  /** 5xx, lost connections, a retry budget spent: the cell stays pending for the next step. */
  | { kind: 'transient'; message: string }
  /** Nothing can proceed until the user acts (token rejected, settings missing): the push pauses. */
  | { kind: 'push'; message: string }
  /** The API refused this cell (400, 403, 404, 422, …): it fails with the API's message; the others go on. */
  | { kind: 'cell'; reason: string };

/**
 * Sorts a failure. Only a definite refusal (4xx other than 401, 408 and 429) fails the cell: anything
 * else leaves it pending, because PUT is idempotent and sending it again cannot store anything twice.
 */
export function classifyPushFailure(error: unknown): PushFailure {
  if (error instanceof TimeBudgetError) return wait(error.message, error.retryAfterSeconds);
  if (error instanceof NetworkError) return { kind: 'transient', message: userMessage(error) };
  // Apps Script did not send it (a quota, a size limit): the cell fails with that reason, the others go on.
  if (error instanceof FetchRefusedError) return { kind: 'cell', reason: `not sent: ${asReason(userMessage(error))}` };
  if (error instanceof ApiError) {
    if (error.status === 429) return wait(userMessage(error), error.retryAfterSeconds);
    if (error.status === 401) return { kind: 'push', message: userMessage(error) };
    if (error.status >= 400 && error.status < 500 && error.status !== 408) return { kind: 'cell', reason: refusalReason(error) };
    // 5xx, 408, and a 2xx whose body was unreadable (the value may be stored; sending it again is harmless).
    return { kind: 'transient', message: userMessage(error) };
  }
  if (error instanceof ConfigError) return { kind: 'push', message: error.message };
  return { kind: 'push', message: `The push stopped on an unexpected error: ${userMessage(error)}` };
}

/** Of several failures in one wave, the one that decides what happens next. */
export function worsePushFailure(a: PushFailure | undefined, b: PushFailure): PushFailure {
  if (!a) return b;
  const rank = { cell: 0, transient: 1, wait: 2, push: 3 } as const;
  if (rank[b.kind] !== rank[a.kind]) return rank[b.kind] > rank[a.kind] ? b : a;
  if (a.kind === 'wait' && b.kind === 'wait') return (b.retryAfterMs ?? 0) > (a.retryAfterMs ?? 0) ? b : a;
  return a;
}

/** The body's fields in the words of a reason. */
const FIELD_WORDS: Record<string, string> = {
  value: 'value',
  portfolio_property_option_id: 'option',
  portfolio_property_option_ids: 'options',
  portfolio_property_id: 'property',
  portfolio_company_profile_id: 'company profile',
};

/**
 * The API's refusal of one cell, with its message: every 422 problem names its field
 * ("the API refused the value: must be a decimal number, e.g. 1250.5").
 */
export function refusalReason(error: ApiError): string {
  if (error.status === 422 && error.errors.some((problem) => problem.message || problem.field)) {
    return error.errors
      .map((problem) => {
        const field = problem.field ? FIELD_WORDS[problem.field] ?? problem.field : undefined;
        return `the API refused the ${field ?? 'value'}${problem.message ? `: ${trimPeriod(problem.message)}` : ''}`;
      })
      .join('; ');
  }
  const detail = error.apiMessage ? `: ${trimPeriod(error.apiMessage)}` : '';
  if (error.status === 403) return `this API token has no access to this fund's property values (HTTP 403${detail})`;
  const field = error.field ? `, field ${error.field}` : '';
  return `the API refused the request (HTTP ${error.status}${field}${detail})`;
}

function wait(message: string, retryAfterSeconds: number | undefined): PushFailure {
  return retryAfterSeconds === undefined ? { kind: 'wait', message } : { kind: 'wait', message, retryAfterMs: retryAfterSeconds * 1000 };
}

function trimPeriod(text: string): string {
  return text.replace(/\.$/, '');
}
