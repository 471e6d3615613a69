// Every failure the add-in raises is one of these classes; ./sentences turns them into words.

import type { components } from '../api/schema.gen';

/** What every failure of the add-in is, so a catch can tell ours from a bug. */
export abstract class AddinError extends Error {}

export type ErrorItem = components['schemas']['ErrorItem'];

/** The API's error type for each status it documents; any other 5xx is a server_error. */
const CODE_OF_STATUS = {
  400: 'parameter_invalid',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'record_missing',
  422: 'attribute_invalid',
  429: 'rate_limit_exceeded',
} as const;

/** Machine-readable kinds, so callers branch on codes rather than message text. */
export type ApiErrorCode = (typeof CODE_OF_STATUS)[keyof typeof CODE_OF_STATUS] | 'server_error' | 'unexpected_response';

/** The API answered with an error status. */
export class ApiError extends AddinError {
  override readonly name = 'ApiError';
  readonly code: ApiErrorCode;
  readonly field: string | undefined;
  readonly apiMessage: string | undefined;
  constructor(
    readonly status: number,
    readonly errors: ErrorItem[],
    readonly method: string,
    readonly path: string,
    /** Seconds the server (or our backoff) says to wait, for 429 and 503. */
    readonly retryAfterSeconds?: number,
    /** The collection the request was about ("portfolio_company_profiles"), or ''. */
    readonly about = '',
  ) {
    const first = errors[0];
    const type = first?.type ?? codeForStatus(status);
    super(`${method} ${path} failed with HTTP ${status} (${type}${first?.field ? `, field ${first.field}` : ''}${first?.message ? `: ${first.message}` : ''})`);
    this.code = KNOWN.includes(type) ? (type as ApiErrorCode) : codeForStatus(status);
    this.field = first?.field;
    this.apiMessage = first?.message;
  }
}

/** The request never produced a response: refused, reset, timed out or unresolvable. */
export class NetworkError extends AddinError {
  override readonly name = 'NetworkError';
  constructor(
    message: string,
    readonly url: string,
    /** How many failed together: fetchAll fails the whole wave when one connection drops, none known at fault. */
    readonly waveSize = 1,
    /**
     * Nothing answered at the address (Apps Script's "Address unavailable" or "DNS error"): a wrong or down base
     * URL, which waiting seconds does not mend, unlike a connection dropped mid-way.
     */
    readonly unreachable = false,
  ) {
    super(message);
  }
}

export type RefusalReason = 'daily_quota' | 'url_too_long' | 'payload_too_large' | 'other';

/** Apps Script would not send it (daily quota, 2 kB URL, payload size): never retried, it would be refused again. */
export class FetchRefusedError extends AddinError {
  override readonly name = 'FetchRefusedError';
  constructor(
    message: string,
    readonly url: string,
    readonly reason: RefusalReason,
  ) {
    super(message);
  }
}

/** Whose limit refused: the server's (it answered 429) or the add-in's own count of its requests. */
export type RateLimitedBy = 'server' | 'add-in';

/** The rate limit (the server's or our own budget) asks for a wait longer than this execution can afford. */
export class RateLimitedError extends AddinError {
  override readonly name = 'RateLimitedError';
  constructor(
    message: string,
    /** How long to wait before trying again. */
    readonly retryAfterSeconds: number,
    readonly by: RateLimitedBy = 'server',
  ) {
    super(message);
  }
}

/** Too little of this execution's time is left for a round trip: nothing was sent, run it again. */
export class OutOfTimeError extends AddinError {
  override readonly name = 'OutOfTimeError';
  constructor(
    message: string,
    /** How many requests were not sent for it (0 when not counted). */
    readonly unsent = 0,
  ) {
    super(message);
  }
}

/** The add-in is not set up: no token, no base URL, or one that is not allowed. */
export class ConfigError extends AddinError {
  override readonly name = 'ConfigError';
}

/** A value from a cell or an argument that cannot be sent to the API. */
export class InputError extends AddinError {
  override readonly name = 'InputError';
}

/** Formulas may not read this; the sentence says what was asked for and how the owner allows it. */
export class FormulaAccessError extends InputError {
  constructor(what: string, why: string) {
    super(
      `Formulas in this spreadsheet may not read ${what}: ${why}. The spreadsheet's owner can allow a company in the add-in's Settings › Formula access, or by inserting one of its metrics from the sidebar as a live formula.`,
    );
  }
}

/** A list changed between its pages on every read: what was read may have a gap, so none of it is kept. */
export class ListChangedError extends AddinError {
  override readonly name = 'ListChangedError';
  constructor(reads: number) {
    super(`The data changed on the API while the add-in read it, ${reads} times: nothing was kept. Try again in a moment.`);
  }
}

/**
 * An id found in none of the companies formulas here may read. A typo is likelier than another company's record
 * (the API lists records only by company, so which it is cannot be told): the check comes first, the access after.
 */
export class NotAmongAllowedError extends InputError {
  constructor(record: string, id: string, where: string) {
    super(
      `No ${record} with id ${id} was found in ${where}: check the id. If it is another company's, the spreadsheet's owner can allow that company in the add-in's Settings › Formula access, or by inserting one of its metrics from the sidebar as a live formula.`,
    );
  }
}

/**
 * State read from the document that the current user did not write, or that changed since (core/trust): an
 * editor may have rewritten it, so the add-in does not act on it with this user's connection.
 */
export class UntrustedRecordError extends InputError {
  constructor(what: string, remedy: string) {
    super(`${what} was changed by someone else (or written by another user), so it was not used with your connection. ${remedy}`);
  }
}

/** Another execution of the same user held the lock for longer than we wait. */
export class LockUnavailableError extends AddinError {
  override readonly name = 'LockUnavailableError';
  constructor(waitedMs: number) {
    super(`Another run of the add-in for this account held its lock for ${Math.round(waitedMs / 1000)} seconds. Wait a moment and try again.`);
  }
}

const KNOWN: readonly string[] = Object.values(CODE_OF_STATUS);

function codeForStatus(status: number): ApiErrorCode {
  const code: ApiErrorCode | undefined = (CODE_OF_STATUS as Partial<Record<number, ApiErrorCode>>)[status];
  return code ?? (status >= 500 ? 'server_error' : 'unexpected_response');
}

/**
 * A feature needs a permission the person did not grant (granular consent): its sentence names the feature, the
 * permission in the consent screen's words and how to grant it (core/settings/permissions.ts).
 */
export class PermissionMissingError extends AddinError {
  override readonly name = 'PermissionMissingError';
  constructor(
    message: string,
    readonly scopes: readonly string[],
  ) {
    super(message);
  }
}
