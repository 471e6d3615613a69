// The virtual clock every execution reads: real time while a script runs, plus whatever sleeps and tests add.

/** What tests see of the clock. */
export interface RuntimeClock {
  /** Milliseconds since the epoch, as the script's `Date.now()` would return now. */
  now(): number;
  /** Moves the clock forward, as if that much time passed between executions. */
  advance(ms: number): void;
}

/**
 * Time runs at real speed only while an execution runs, so a fetch counts by its real duration and a
 * busy loop counts too; `Utilities.sleep`, lock waits and `advance` add time without waiting. Between
 * executions the clock stands still, so what a test does between two runs never ages a cache entry.
 */
export class VirtualClock implements RuntimeClock {
  #base: number;
  #runningSince: number | null = null;

  constructor(origin: number) {
    this.#base = origin;
  }

  now(): number {
    const running = this.#runningSince === null ? 0 : performance.now() - this.#runningSince;
    return Math.floor(this.#base + running);
  }

  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`The clock only moves forward by a finite number of milliseconds, not ${ms}.`);
    this.#base += ms;
  }

  /** Starts counting real time (an execution began). */
  _start(): void {
    if (this.#runningSince === null) this.#runningSince = performance.now();
  }

  /** Stops counting real time (the execution ended), keeping what elapsed. */
  _stop(): void {
    if (this.#runningSince === null) return;
    this.#base += performance.now() - this.#runningSince;
    this.#runningSince = null;
  }
}
