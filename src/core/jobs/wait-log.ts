// Collects the client's waits during a step, so a job can show "waiting for the rate limit" as such.

import type { WaitEvent } from '../api/requester';

/** Hand `onWait` to the client when creating it (RequesterOptions.onWait) and the log to the job's step. */
export class WaitLog {
  private events: WaitEvent[] = [];

  readonly onWait = (event: WaitEvent): void => {
    this.events.push(event);
  };

  /** Moves the waits since the last call into a job's counters; returns the time spent waiting for the rate limit. */
  drainInto(counters: { rateLimitWaitMs: number; retryWaitMs: number }): number {
    let rateLimitMs = 0;
    for (const event of this.events.splice(0)) {
      if (event.reason === 'rate_limit') {
        rateLimitMs += event.ms;
        counters.rateLimitWaitMs += event.ms;
      } else {
        counters.retryWaitMs += event.ms;
      }
    }
    return rateLimitMs;
  }
}
