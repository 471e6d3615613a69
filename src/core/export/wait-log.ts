// Collects the client's waits during a step, so the export can show "waiting for the rate limit" as such.

import type { WaitEvent } from '../api/requester';

/**
 * Hand `onWait` to the client when creating it (RequesterOptions.onWait) and the log to runExportStep,
 * which drains it after every request wave.
 */
export class WaitLog {
  private events: WaitEvent[] = [];

  readonly onWait = (event: WaitEvent): void => {
    this.events.push(event);
  };

  /** The waits recorded since the last drain, oldest first. */
  drain(): WaitEvent[] {
    const events = this.events;
    this.events = [];
    return events;
  }
}

/** Moves the waits the log saw into a job's counters; returns the time spent waiting for the rate limit. */
export function drainWaitsInto(counters: { rateLimitWaitMs: number; retryWaitMs: number }, log: WaitLog | undefined): number {
  let rateLimitMs = 0;
  for (const event of log?.drain() ?? []) {
    if (event.reason === 'rate_limit') {
      rateLimitMs += event.ms;
      counters.rateLimitWaitMs += event.ms;
    } else {
      counters.retryWaitMs += event.ms;
    }
  }
  return rateLimitMs;
}
