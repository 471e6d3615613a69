// What support can read of a person's install: typed events, each put into one line of Apps Script's execution
// log. Events carry no free text (an API message or a sentence may quote a cell), only kinds, numbers and a
// request's path; the path is cut to its lowercase names (collections, a version) and ids, an email in it to its domain. The token is never
// given to an event, so no line can hold it.

import {
  ApiError,
  ConfigError,
  dailyQuotaOf,
  FetchRefusedError,
  FormulaAccessError,
  InputError,
  ListChangedError,
  LockUnavailableError,
  NetworkError,
  NotAmongAllowedError,
  OutOfTimeError,
  RateLimitedError,
  UntrustedRecordError,
} from '../errors';
import { isUuid } from '../validate/uuid';

/** Where a refusal was shown: the sidebar's answer, a formula's cell, a menu item's message, a job's report. */
export type RefusalPlace = 'sidebar' | 'cell' | 'menu' | 'job';

/** What happened to one request: its status, no answer at all, or Apps Script would not send it. */
export type RequestOutcome = { status: number; code?: string } | { network: 'dropped' | 'unreachable' } | { notSent: string };

export type SupportEvent =
  /** One request's answer; `ms` is its wave's round trip (fetchAll sends a wave together). */
  | { kind: 'request'; method: string; url: string; outcome: RequestOutcome; ms: number; attempt: number; wave: number }
  /** A wait inside an execution: the server's 429, a retry's backoff, or the add-in's own rate budget. */
  | { kind: 'wait'; reason: 'rate_limit' | 'retry' | 'budget'; ms: number }
  /** Requests not sent: the wait they needed outlasts the execution, or too little time was left. */
  | { kind: 'not-sent'; reason: 'rate_limit' | 'retry' | 'budget' | 'out_of_time'; requests: number; waitMs?: number; leftMs?: number }
  | { kind: 'step-start'; job: string; jobId: string }
  /** `notBeforeMs`: the job waits this long before its next step sends (the rate limit between steps). */
  | { kind: 'step-end'; job: string; jobId: string; status: string; ms: number; notBeforeMs?: number }
  /** Why a step stopped before its work was done (a paused job waits for the person). */
  | { kind: 'step-stopped'; effect: 'wait' | 'transient' | 'pause' | 'cancelled'; outOfTime?: boolean; retryAfterMs?: number }
  | { kind: 'refusal'; place: RefusalPlace; failure: string };

/** Where events go: Apps Script's console in the add-in (gas/support-log), a list in tests, nowhere by default. */
export interface SupportLog {
  write(event: SupportEvent): void;
}

export const NO_SUPPORT_LOG: SupportLog = { write: () => undefined };

/** A line and its level: `warn` for what went wrong or waited, so a person can filter the Executions page by it. */
export interface SupportLine {
  level: 'log' | 'warn';
  text: string;
}

/** Every line starts so, to find the add-in's lines among others' (and grep them in Cloud Logging). */
export const SUPPORT_LINE_PREFIX = '[support]';

/** The one line an event becomes. */
export function supportLine(event: SupportEvent): SupportLine {
  const line = (level: SupportLine['level'], ...parts: Array<string | false | undefined>): SupportLine => ({
    level,
    text: [SUPPORT_LINE_PREFIX, ...parts.filter((part): part is string => typeof part === 'string' && part !== '')].join(' '),
  });
  switch (event.kind) {
    case 'request': {
      const { outcome } = event;
      const answer =
        'status' in outcome
          ? `status=${outcome.status}${outcome.code ? ` code=${word(outcome.code)}` : ''}`
          : 'network' in outcome
            ? `network=${outcome.network}`
            : `not-sent=${word(outcome.notSent)}`;
      const failed = !('status' in outcome) || outcome.status >= 400;
      return line(
        failed ? 'warn' : 'log',
        'request',
        word(event.method),
        redactPath(event.url),
        answer,
        `ms=${whole(event.ms)}`,
        event.attempt > 0 && `retry=${event.attempt}`,
        event.wave > 1 && `wave=${event.wave}`,
      );
    }
    case 'wait':
      return line('warn', 'wait', `reason=${event.reason}`, `ms=${whole(event.ms)}`);
    case 'not-sent':
      return line(
        'warn',
        'not-sent',
        `reason=${event.reason}`,
        `requests=${whole(event.requests)}`,
        event.waitMs !== undefined && `wait-ms=${whole(event.waitMs)}`,
        event.leftMs !== undefined && `left-ms=${whole(event.leftMs)}`,
      );
    case 'step-start':
      return line('log', 'step-start', `job=${word(event.job)}`, `id=${idOrDots(event.jobId)}`);
    case 'step-end':
      return line(
        event.status === 'paused' ? 'warn' : 'log',
        'step-end',
        `job=${word(event.job)}`,
        `id=${idOrDots(event.jobId)}`,
        `status=${word(event.status)}`,
        `ms=${whole(event.ms)}`,
        event.notBeforeMs !== undefined && `next-in-ms=${whole(event.notBeforeMs)}`,
      );
    case 'step-stopped':
      return line(
        'warn',
        'step-stopped',
        `effect=${event.effect}`,
        event.outOfTime && 'out-of-time',
        event.retryAfterMs !== undefined && `retry-after-ms=${whole(event.retryAfterMs)}`,
      );
    case 'refusal':
      return line('warn', 'refusal', `place=${event.place}`, `kind=${word(event.failure)}`);
  }
}

/**
 * A failure's kind, in words support can look up and that hold no value: the error's class, an API status and
 * its error type and field name (the schema's, never what was sent), the quota spent. Never the message, which
 * may quote a cell or an email.
 */
export function failureKind(error: unknown): string {
  if (error instanceof ApiError) return `api-${error.status}-${error.code}${error.field ? `-field-${word(error.field)}` : ''}`;
  if (error instanceof NetworkError) return error.unreachable ? 'network-unreachable' : 'network';
  if (error instanceof FetchRefusedError) return `fetch-refused-${error.reason}`;
  if (error instanceof RateLimitedError) return `rate-limited-by-${error.by}`;
  if (error instanceof OutOfTimeError) return 'out-of-time';
  if (error instanceof ListChangedError) return 'list-changed';
  if (error instanceof LockUnavailableError) return 'lock-unavailable';
  if (error instanceof ConfigError) return 'config';
  if (error instanceof FormulaAccessError) return 'input-formula-access';
  if (error instanceof NotAmongAllowedError) return 'input-not-among-allowed';
  if (error instanceof UntrustedRecordError) return 'input-untrusted-record';
  if (error instanceof InputError) return 'input';
  const quota = dailyQuotaOf(error);
  if (quota) return `daily-quota-${quota}`;
  return `unexpected-${error instanceof Error ? word(error.name) : typeof error}`;
}

/**
 * A URL as a log may hold it: the path only (no origin, no query, whose values are a person's search or a date
 * range), each segment kept when it is a collection's name or an id, an email cut to its domain, anything else
 * replaced by `…`.
 */
export function redactPath(url: string): string {
  const path = url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '').replace(/[?#].*$/, '');
  const segments = path.split('/').map((segment) => {
    // A collection ("data_points") or a base URL's version ("v1"): the client fills every other segment with an id.
    if (segment === '' || /^[a-z][a-z0-9_-]{0,39}$/.test(segment) || isUuid(segment)) return segment;
    return emailDomain(safeDecode(segment)) ?? '…';
  });
  return segments.join('/') || '/';
}

/** Every email in a text cut to its domain: `…@example.com`. */
export function redactEmails(text: string): string {
  return text.replace(/[^\s@/?#&=<>"']+@([a-z0-9.-]+\.[a-z]{2,})/gi, '…@$1');
}

function emailDomain(segment: string): string | undefined {
  const match = /^[^@\s]+@([a-z0-9.-]+\.[a-z]{2,})$/i.exec(segment);
  return match ? `…@${match[1]!.toLowerCase()}` : undefined;
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** A name from code or the API's schema (a kind, a field, a status): letters, digits and - _ . only, cut short. */
function word(text: string): string {
  const cleaned = text.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 48);
  return cleaned === '' ? '_' : cleaned;
}

function idOrDots(id: string): string {
  return isUuid(id) ? id.toLowerCase() : '…';
}

function whole(n: number): string {
  return String(Math.max(0, Math.round(n)));
}
