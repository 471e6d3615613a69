// Paces requests under the API's rate limit before the server has to refuse them. The log lives in a cache
// shared by one user's concurrent executions (fifty formulas recalculating are fifty), under that user's lock
// when free: a request left unlogged by a race meets the server's 429.

import { ConfigError, ownBudgetSentence, RateLimitedError, serverRateLimitSentence, type RateLimitedBy } from '../errors';
import type { Clock } from './transport';
import { withLockIfFree, type KeyValueCache, type Mutex } from '../cache/key-value-cache';

/** Requests allowed per window (in ms): the API documents 500 per 5 minutes. */
export interface RateLimit {
  limit: number;
  windowMs: number;
}

export const DEFAULT_RATE_LIMIT: RateLimit = { limit: 500, windowMs: 5 * 60_000 };

interface BudgetState {
  /** [second since epoch, requests sent in that second], oldest first. */
  log: Array<[number, number]>;
  /** The server refused us with 429 until this time (ms since epoch). */
  blockedUntil: number;
}

const KEY = 'metrics-api:rate-budget';

function describeWindow(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds % 60 === 0) return seconds === 60 ? 'minute' : `${seconds / 60} minutes`;
  return `${seconds} seconds`;
}

/** Reads a rate limit as an admin sets it when the operator changes it: "500/300" (requests per seconds). */
export function parseRateLimit(text: string): RateLimit {
  const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  const limit = Number(match?.[1]);
  const seconds = Number(match?.[2]);
  if (!match || limit < 1 || seconds < 1) throw new ConfigError(`The rate limit "${text}" is not of the form 500/300 (requests per seconds).`);
  return { limit, windowMs: seconds * 1000 };
}

/** Longer than any window we use, so the log outlives its oldest entry. */
const TTL_SECONDS = 6 * 60 * 60;

export class RequestBudget {
  constructor(
    private readonly cache: KeyValueCache,
    private readonly mutex: Mutex,
    private readonly clock: Clock,
    readonly rateLimit: RateLimit = DEFAULT_RATE_LIMIT,
  ) {}

  /**
   * Grants up to `wanted` requests (at least 1), sleeping while the window is full, or throws RateLimitedError when
   * the wait would pass `deadline`. A sliding window keeps us under a fixed-window or sliding-window server alike.
   * The error says whose limit it is: the server's while a 429 holds every execution back, else the add-in's own
   * count, which only then is spent. `onWait` is told of each sleep before it starts.
   */
  take(wanted: number, deadline: number, onWait?: (ms: number) => void): number {
    for (;;) {
      const { granted, waitMs, by } = withLockIfFree(this.mutex, () => this.tryTake(wanted));
      if (granted > 0) return granted;
      const now = this.clock.now();
      if (now + waitMs > deadline) {
        const seconds = Math.ceil(waitMs / 1000);
        const sentence =
          by === 'server' ? serverRateLimitSentence(seconds) : ownBudgetSentence(this.rateLimit.limit, describeWindow(this.rateLimit.windowMs), seconds);
        throw new RateLimitedError(sentence, seconds, by);
      }
      onWait?.(waitMs);
      this.clock.sleep(waitMs);
    }
  }

  /**
   * Records that the server refused us until `untilMs`, so every execution of this user waits too. Callers
   * pass only what the server asked for (its Retry-After), or the wait of an execution that then tries again:
   * never a giving-up execution's guess, which would refuse other cells longer than the server asked.
   */
  blockUntil(untilMs: number): void {
    withLockIfFree(this.mutex, () => {
      const state = this.read();
      if (untilMs > state.blockedUntil) this.write({ ...state, blockedUntil: untilMs });
    });
  }

  /** Requests in the current window, for tests. */
  used(): number {
    return requestsIn(this.read());
  }

  private tryTake(wanted: number): { granted: number; waitMs: number; by?: RateLimitedBy } {
    const now = this.clock.now();
    const state = this.read();
    if (state.blockedUntil > now) return { granted: 0, waitMs: state.blockedUntil - now, by: 'server' };
    const free = this.rateLimit.limit - requestsIn(state);
    if (free <= 0) {
      // Wait until enough of the oldest second leaves the window to free one slot.
      const oldest = state.log[0];
      const freesAt = oldest ? this.leavesWindowAt(oldest[0]) : now;
      return { granted: 0, waitMs: Math.max(1, freesAt - now), by: 'add-in' };
    }
    const granted = Math.min(wanted, free);
    const second = Math.floor(now / 1000);
    const last = state.log[state.log.length - 1];
    if (last && last[0] === second) last[1] += granted;
    else state.log.push([second, granted]);
    this.write(state);
    return { granted, waitMs: 0 };
  }

  /** A second's requests count until the whole second has left the window: conservative by under a second. */
  private leavesWindowAt(second: number): number {
    return (second + 1) * 1000 + this.rateLimit.windowMs;
  }

  private read(): BudgetState {
    try {
      const { log, blockedUntil } = JSON.parse(this.cache.get(KEY) ?? '{}') as Partial<BudgetState>;
      const now = this.clock.now();
      if (Array.isArray(log)) return { log: log.filter(([second]) => this.leavesWindowAt(second) > now), blockedUntil: Number(blockedUntil) || 0 };
    } catch {
      // A corrupt entry is treated as empty: the server's 429 remains the backstop.
    }
    return { log: [], blockedUntil: 0 };
  }

  private write(state: BudgetState): void {
    this.cache.put(KEY, JSON.stringify(state), TTL_SECONDS);
  }
}

function requestsIn(state: BudgetState): number {
  return state.log.reduce((sum, [, count]) => sum + count, 0);
}
