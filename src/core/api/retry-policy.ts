// When to try a request again and how long to wait first: a policy object with explicit defaults, after ky's.

import type { HttpMethod } from './transport';
import { MAX_RETRY_AFTER_MS, RETRY_BASE_DELAY_MS, RETRY_MAX_DELAY_MS, RETRY_NETWORK_BASE_DELAY_MS, UNREACHABLE_RETRIES } from '../pacing';
export { MAX_RETRY_AFTER_MS };

export interface RetryPolicy {
  /** Retries per request after the first attempt. */
  maxRetries: number;
  /** Statuses worth another try: the server did not act, or may act next time. */
  retryStatuses: readonly number[];
  /** Total time one call may spend waiting across all its retries. */
  maxTotalWaitMs: number;
  /** 0 ≤ random() < 1, for jitter; passed in so tests are exact. */
  random: () => number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 6,
  retryStatuses: [408, 429, 500, 502, 503, 504],
  maxTotalWaitMs: 5 * 60_000,
  random: Math.random,
};

/** Methods safe to repeat after a 5xx or a lost connection, where the server may already have acted. */
const IDEMPOTENT_METHODS: readonly HttpMethod[] = ['GET', 'PUT', 'DELETE'];

export type Outcome = { kind: 'status'; status: number; retryAfter?: string | undefined } | { kind: 'network'; unreachable?: boolean };

type RetryDecision = { retry: false } | { retry: true; delayMs: number; fromServer: boolean };

/**
 * Whether attempt `attempt` (0 for the first) is followed by another. A 429 is retried for every method, POST
 * included: the server refused without acting, so a repeat cannot create a duplicate.
 */
export function decideRetry(policy: RetryPolicy, method: HttpMethod, outcome: Outcome, attempt: number, nowMs: number): RetryDecision {
  if (attempt >= policy.maxRetries) return { retry: false };
  if (outcome.kind === 'network') {
    if (outcome.unreachable && attempt >= UNREACHABLE_RETRIES) return { retry: false };
    return IDEMPOTENT_METHODS.includes(method) ? backoff(policy, attempt, RETRY_NETWORK_BASE_DELAY_MS) : { retry: false };
  }
  const { status } = outcome;
  if (!policy.retryStatuses.includes(status) || (status !== 429 && !IDEMPOTENT_METHODS.includes(method))) return { retry: false };
  const serverDelay = status === 429 || status === 503 ? parseRetryAfter(outcome.retryAfter, nowMs) : undefined;
  if (serverDelay !== undefined) return { retry: true, delayMs: serverDelay, fromServer: true };
  return backoff(policy, attempt, RETRY_BASE_DELAY_MS);
}

function backoff(policy: RetryPolicy, attempt: number, baseDelayMs: number): RetryDecision {
  const ceiling = Math.min(RETRY_MAX_DELAY_MS, baseDelayMs * 2 ** attempt);
  // "Equal jitter": at least half the ceiling, so concurrent callers spread out without retrying too early.
  const delayMs = Math.round(ceiling / 2 + (policy.random() * ceiling) / 2);
  return { retry: true, delayMs, fromServer: false };
}

/** Retry-After is either delta-seconds or an HTTP date (RFC 9110 §10.2.3). */
export function parseRetryAfter(header: string | undefined, nowMs: number): number | undefined {
  const text = header?.trim() ?? '';
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}
