// When to try a request again and how long to wait first: a policy object with explicit defaults, after ky's.

import type { HttpMethod } from './transport';

export interface RetryPolicy {
  /** Retries per request after the first attempt. */
  maxRetries: number;
  /** Statuses worth another try: the server did not act, or may act next time. */
  retryStatuses: readonly number[];
  /** Methods safe to repeat after a 5xx or a lost connection, where the server may already have acted. */
  idempotentMethods: readonly HttpMethod[];
  /** First backoff when the server gives no Retry-After; doubles per attempt. */
  baseDelayMs: number;
  /** First backoff after a lost connection: a dropped socket usually works again at once. */
  networkBaseDelayMs: number;
  /** Largest single backoff we choose ourselves. */
  maxDelayMs: number;
  /** Largest Retry-After we honour before giving up with a clear error instead. */
  maxRetryAfterMs: number;
  /** Total time one call may spend waiting across all its retries. */
  maxTotalWaitMs: number;
  /** 0 ≤ random() < 1, for jitter; passed in so tests are exact. */
  random: () => number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 6,
  retryStatuses: [408, 429, 500, 502, 503, 504],
  idempotentMethods: ['GET', 'PUT', 'DELETE'],
  baseDelayMs: 2000,
  networkBaseDelayMs: 500,
  maxDelayMs: 60_000,
  maxRetryAfterMs: 5 * 60_000,
  maxTotalWaitMs: 5 * 60_000,
  random: Math.random,
};

export type Outcome =
  | { kind: 'status'; status: number; retryAfter?: string | undefined }
  | { kind: 'network' };

export type RetryDecision = { retry: false } | { retry: true; delayMs: number; fromServer: boolean };

/**
 * Decides whether attempt number `attempt` (0 for the first try) is followed by another.
 * A 429 is retried for every method, POST included: the server refused the request
 * without acting on it, so sending it again cannot create a duplicate.
 */
export function decideRetry(policy: RetryPolicy, method: HttpMethod, outcome: Outcome, attempt: number, nowMs: number): RetryDecision {
  if (attempt >= policy.maxRetries) return { retry: false };
  if (outcome.kind === 'network') {
    return policy.idempotentMethods.includes(method) ? backoff(policy, attempt, policy.networkBaseDelayMs) : { retry: false };
  }
  const { status } = outcome;
  if (!policy.retryStatuses.includes(status)) return { retry: false };
  if (status !== 429 && !policy.idempotentMethods.includes(method)) return { retry: false };
  const serverDelay = status === 429 || status === 503 ? parseRetryAfter(outcome.retryAfter, nowMs) : undefined;
  if (serverDelay !== undefined) return { retry: true, delayMs: serverDelay, fromServer: true };
  return backoff(policy, attempt, policy.baseDelayMs);
}

function backoff(policy: RetryPolicy, attempt: number, baseDelayMs: number): RetryDecision {
  const ceiling = Math.min(policy.maxDelayMs, baseDelayMs * 2 ** attempt);
  // "Equal jitter": at least half the ceiling, so concurrent callers spread out without retrying too early.
  const delayMs = Math.round(ceiling / 2 + (policy.random() * ceiling) / 2);
  return { retry: true, delayMs, fromServer: false };
}

/** Retry-After is either delta-seconds or an HTTP date (RFC 9110 §10.2.3). */
export function parseRetryAfter(header: string | undefined, nowMs: number): number | undefined {
  if (header === undefined) return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}
