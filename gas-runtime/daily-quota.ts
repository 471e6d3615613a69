// Apps Script's daily quotas, one mechanism for all: "Quotas are per user and reset 24 hours after the first
// request" (developers.google.com/apps-script/guides/services/quotas). URL Fetch calls, Properties reads and
// writes and triggers' total runtime are each one DailyQuota, counted on the virtual clock.

import type { RuntimeClock } from './clock';
import { GasError, GasRuntimeUsageError } from './errors';
import { QUOTA_WINDOW_MS } from './limits';

/** What a service needs of a quota: the host's DailyQuota, or a worker thread's view of it. */
export interface DailyQuotaCharger {
  charge(user: string, amount: number): void;
}

/**
 * One quota per user per 24-hour window that opens at the user's first use. `charge` refuses an amount that
 * does not fit with Apps Script's message; `add` counts what was already spent (a trigger's runtime, known
 * only when it ends) and refuses nothing.
 */
export class DailyQuota implements DailyQuotaCharger {
  readonly #windows = new Map<string, { startedAt: number; used: number }>();

  constructor(
    /** The option that sets it, for a misconfiguration's message. */
    readonly option: string,
    readonly limit: number,
    /** Apps Script's message when the quota is spent. */
    readonly refusal: string,
    readonly _clock: RuntimeClock,
  ) {
    if (!(Number.isInteger(limit) && limit >= 0)) throw new GasRuntimeUsageError(`${option} must be a whole number, not ${limit}.`, 'INVALID_OPTION');
  }

  /** What `user` spent in the current 24-hour window. */
  used(user: string): number {
    return this.#window(user)?.used ?? 0;
  }

  /** What `user` may still spend in the current window. */
  remaining(user: string): number {
    return Math.max(0, this.limit - this.used(user));
  }

  /** Counts `amount` about to be spent; when it does not all fit, spends none and throws Apps Script's refusal. */
  charge(user: string, amount: number, refusal: string = this.refusal): void {
    if (this.used(user) + amount > this.limit) throw new GasError(refusal);
    this.add(user, amount);
  }

  /** Counts `amount` already spent, even past the limit; `since` is when its use began (a window opens then). */
  add(user: string, amount: number, since: number = this._clock.now()): void {
    let window = this.#window(user);
    if (!window) {
      window = { startedAt: since, used: 0 };
      this.#windows.set(user, window);
    }
    window.used += amount;
  }

  /** Forgets every count (a test's reset). */
  reset(): void {
    this.#windows.clear();
  }

  #window(user: string): { startedAt: number; used: number } | undefined {
    const window = this.#windows.get(user);
    if (window && this._clock.now() >= window.startedAt + QUOTA_WINDOW_MS) {
      this.#windows.delete(user);
      return undefined;
    }
    return window;
  }
}
