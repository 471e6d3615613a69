// Builds the API client for one execution from the user's settings and Apps Script's services.

import { createApiClient, type ApiClient } from '../core/api/client';
import { RequestBudget } from '../core/api/rate-budget';
import type { WaitEvent } from '../core/api/requester';
import { DEFAULT_RETRY_POLICY } from '../core/api/retry-policy';
import type { CredentialsOf } from '../core/settings/credential-sentences';
import { appsScriptClock } from '../gas/apps-script-clock';
import { USER_LOCK_ALREADY_HELD, userCache, userMutex } from '../gas/cache-and-lock';
import { consoleSupportLog } from '../gas/support-log';
import { createUrlFetchTransport } from '../gas/urlfetch-transport';
import { readCredentials, type UserProperties } from '../gas/user-settings';

/** Apps Script ends any execution other than a custom function after 6 minutes. */
const ORDINARY_EXECUTION_MS = 6 * 60_000;

interface ExecutionLimits {
  /** Absolute time by which API work must end (ms since epoch); 6 minutes from now when not given. */
  deadline?: number;
  /** Longest total wait for retries and the rate limit. */
  maxTotalWaitMs?: number;
  onWait?: (event: WaitEvent) => void;
  /** A custom function reads the spreadsheet owner's settings; anything else the caller's. */
  credentialsOf?: CredentialsOf;
  /** The user's properties when the execution read them already; read here otherwise. */
  userProperties?: UserProperties;
  /** A 429 is answered at once: a job backing off across steps (needsProbe) waits between them, never inside its backoff. */
  noRateLimitRetries?: boolean;
  /** The execution holds the user's lock for the whole work (a scheduled run's section): the budget must not take it again. */
  userLockHeld?: boolean;
}

export function createClientForExecution(limits: ExecutionLimits = {}): ApiClient {
  const credentialsOf = limits.credentialsOf ?? 'caller';
  const { token, baseUrl, rateLimit } = readCredentials(credentialsOf, limits.userProperties);
  return createApiClient({
    baseUrl,
    token,
    credentialsOf,
    transport: createUrlFetchTransport(),
    clock: appsScriptClock,
    budget: new RequestBudget(userCache(), limits.userLockHeld ? USER_LOCK_ALREADY_HELD : userMutex(), appsScriptClock, rateLimit),
    deadline: limits.deadline ?? Date.now() + ORDINARY_EXECUTION_MS,
    retry: {
      ...(limits.maxTotalWaitMs !== undefined && { maxTotalWaitMs: limits.maxTotalWaitMs }),
      ...(limits.noRateLimitRetries && { retryStatuses: DEFAULT_RETRY_POLICY.retryStatuses.filter((status) => status !== 429) }),
    },
    onWait: limits.onWait,
    log: consoleSupportLog,
  });
}

/**
 * The caller's client for work a person waits on (the sidebar, Refresh data) or that must not sit in one wait
 * (a scheduled refresh): up to 6 minutes, but rate-limit waits give up past a minute.
 */
export function sidebarClient(options: { userLockHeld?: boolean } = {}): ApiClient {
  return createClientForExecution({ maxTotalWaitMs: 60_000, ...(options.userLockHeld && { userLockHeld: true }) });
}
