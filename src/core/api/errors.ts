// Every failure the client can raise is a typed value; `userMessage` is the one place that turns it into a sentence.

import { SETTINGS_HINT } from '../product';
import { FetchRefusedError, NetworkError } from './transport';

export interface ErrorItem {
  type: string;
  field?: string;
  message?: string;
}

/** Machine-readable kinds, so callers branch on codes rather than message text. */
export type ApiErrorCode =
  | 'parameter_invalid'
  | 'unauthorized'
  | 'forbidden'
  | 'record_missing'
  | 'attribute_invalid'
  | 'rate_limit_exceeded'
  | 'server_error'
  | 'unexpected_response';

/** The API answered with an error status. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly code: ApiErrorCode;
  readonly type: string;
  readonly field: string | undefined;
  readonly apiMessage: string | undefined;
  constructor(
    readonly status: number,
    readonly errors: ErrorItem[],
    readonly method: string,
    readonly path: string,
    /** Seconds the server (or our backoff) says to wait, for 429 and 503. */
    readonly retryAfterSeconds?: number,
  ) {
    const first = errors[0];
    const type = first?.type ?? codeForStatus(status);
    super(`${method} ${path} failed with HTTP ${status} (${type}${first?.field ? `, field ${first.field}` : ''}${first?.message ? `: ${first.message}` : ''})`);
    this.type = type;
    this.code = knownCode(type) ?? codeForStatus(status);
    this.field = first?.field;
    this.apiMessage = first?.message;
  }
}

/** Waiting for the rate limit or a retry would overrun the time this execution has left. */
export class TimeBudgetError extends Error {
  override readonly name = 'TimeBudgetError';
  constructor(
    message: string,
    /** How long the caller should wait before trying again, when known. */
    readonly retryAfterSeconds: number | undefined,
    readonly underlying?: unknown,
  ) {
    super(message);
  }
}

/** The add-in is not set up: no token, no base URL, or one that is not allowed. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** A value from a cell or an argument that cannot be sent to the API. */
export class InputError extends Error {
  override readonly name = 'InputError';
}

const KNOWN: readonly ApiErrorCode[] = ['parameter_invalid', 'unauthorized', 'forbidden', 'record_missing', 'attribute_invalid', 'rate_limit_exceeded'];

function knownCode(type: string): ApiErrorCode | undefined {
  return (KNOWN as readonly string[]).includes(type) ? (type as ApiErrorCode) : undefined;
}

function codeForStatus(status: number): ApiErrorCode {
  switch (status) {
    case 400: return 'parameter_invalid';
    case 401: return 'unauthorized';
    case 403: return 'forbidden';
    case 404: return 'record_missing';
    case 422: return 'attribute_invalid';
    case 429: return 'rate_limit_exceeded';
    default: return status >= 500 ? 'server_error' : 'unexpected_response';
  }
}

/**
 * The sentence a user reads for any error, saying what to do next.
 * It never includes the token: no error the client builds carries it.
 */
export function userMessage(error: unknown): string {
  if (error instanceof ApiError) return apiErrorSentence(error);
  if (error instanceof NetworkError) {
    return `Could not reach the API at ${hostOf(error.url)}. Check the base URL in the add-in's settings and try again.`;
  }
  if (error instanceof FetchRefusedError) return refusalSentence(error);
  if (error instanceof TimeBudgetError || error instanceof ConfigError || error instanceof InputError) return error.message;
  if (error instanceof Error) return error.message;
  return String(error);
}

const NOT_FOUND_FIELDS: Record<string, string> = {
  metric_id: 'Metric',
  portfolio_company_profile_id: 'Portfolio company profile',
  portfolio_property_id: 'Portfolio property',
};

function apiErrorSentence(error: ApiError): string {
  const field = error.field ? ` "${error.field}"` : '';
  const detail = error.apiMessage ? `: ${error.apiMessage}` : '';
  switch (error.code) {
    case 'unauthorized':
      return `The API token was rejected. Open ${SETTINGS_HINT} and set a new token (the platform's API support issues them).`;
    case 'forbidden':
      return 'This API token has no access to that company or record. Check the id, or ask an admin of the company for access.';
    case 'record_missing':
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
      return `The API's rate limit was reached. Try again in ${error.retryAfterSeconds ?? 60} seconds.`;
    case 'server_error':
      return `The API had a temporary problem (HTTP ${error.status}). Try again in a minute.`;
    case 'unexpected_response':
      return `The API answered HTTP ${error.status}, which the add-in does not expect${detail}. Try again, and report it if it persists.`;
  }
}

function refusalSentence(error: FetchRefusedError): string {
  switch (error.reason) {
    case 'daily_quota':
      return "Apps Script's daily quota of URL fetches for this account is used up, so nothing was sent. Try again tomorrow, when the quota has renewed.";
    case 'url_too_long':
      return 'Apps Script refused to send a request whose address is over its 2 kB limit, so nothing was sent. Ask for fewer metrics at once, or split them over several formulas.';
    case 'payload_too_large':
      return 'Apps Script refused to send a request that is too large, so nothing was sent. Select fewer rows at a time.';
    case 'other':
      return `Apps Script refused to send the request (${error.message}), so nothing was sent. Try again later, and report it if it persists.`;
  }
}

function hostOf(url: string): string {
  const match = /^[a-z]+:\/\/([^/?#]+)/i.exec(url);
  return match?.[1] ?? url;
}
