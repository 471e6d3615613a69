// "Script invoked too many times per second for this Google user account." The quotas page names the refusal and
// when it comes ("It most commonly occurs for custom functions that are called repeatedly in a single spreadsheet.
// To avoid this error, code your custom functions so that they only need to be called once per range of data."),
// but publishes no rate: the figure and the way it is counted here are the stricter reading (docs/platform.md, §14).

import type { RuntimeClock } from './clock';
import { GasRuntimeUsageError } from './errors';

/** The refusal, word for word from the quotas page (developers.google.com/apps-script/guides/services/quotas). */
export const INVOCATION_RATE_REFUSAL = 'Script invoked too many times per second for this Google user account.';

/**
 * The default limit: no figure is published, so the one per-user figure the quotas page gives for executions,
 * "Simultaneous executions 30 / user", bounds the rate too (the stricter reading: Sheets may spread its calls).
 */
export const DEFAULT_CUSTOM_FUNCTIONS_PER_SECOND = 30;

const SECOND_MS = 1000;

/**
 * Custom-function invocations per user in any second of the runtime's clock. An invocation counts the moment a
 * recalculation asks for it (every cell of one recalculation at once, those waiting for a slot included) and a
 * refused one counts too: the stricter reading of "invoked too many times per second".
 */
export class InvocationRate {
  readonly limit: number | null;
  readonly #clock: RuntimeClock;
  readonly #times = new Map<string, number[]>();
  readonly #counts = new Map<string, { invoked: number; refused: number }>();

  /** `limit`: invocations allowed per second, or false for no limit. */
  constructor(limit: number | false, clock: RuntimeClock) {
    if (limit !== false && (!Number.isInteger(limit) || limit < 1)) {
      throw new GasRuntimeUsageError(`customFunctionsPerSecond must be a positive integer or false, not ${String(limit)}.`, 'INVALID_OPTION');
    }
    this.limit = limit === false ? null : limit;
    this.#clock = clock;
  }

  /**
   * Counts one invocation by `user` asked for at `at` (default now; a recalculation asks for all its cells at its
   * start): the refusal when the second ending then already held `limit` of theirs, else null.
   */
  invoke(user: string, at: number = this.#clock.now()): string | null {
    const counts = this.#counts.get(user) ?? { invoked: 0, refused: 0 };
    this.#counts.set(user, counts);
    counts.invoked++;
    if (this.limit === null) return null;
    const recent = (this.#times.get(user) ?? []).filter((time) => time > at - SECOND_MS && time <= at);
    const refused = recent.length >= this.limit;
    recent.push(at);
    this.#times.set(user, recent);
    if (refused) counts.refused++;
    return refused ? INVOCATION_RATE_REFUSAL : null;
  }

  /** How many invocations `user` made, and how many were refused, since the runtime started. */
  counted(user: string): { invoked: number; refused: number } {
    return { ...(this.#counts.get(user) ?? { invoked: 0, refused: 0 }) };
  }
}
