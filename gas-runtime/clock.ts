// The virtual clock every execution reads: real time while a script runs, plus whatever sleeps and tests add.

/** What tests see of the clock. */
export interface RuntimeClock {
  /** Milliseconds since the epoch, as the script's `Date.now()` would return now. */
  now(): number;
  /** Moves the clock forward, as if that much time passed between executions. */
  advance(ms: number): void;
}

/** Real time in microseconds since the epoch, comparable across worker threads (each has its own performance.now origin). */
function realMicros(): bigint {
  return BigInt(Math.round((performance.timeOrigin + performance.now()) * 1000));
}

const BASE = 0;
const RUNNING_SINCE = 1;
const RUNNING = 2;
const STOPPED = -1n;

/**
 * Time runs at real speed only while an execution runs, so a fetch counts by its real duration and a
 * busy loop counts too; `Utilities.sleep`, lock waits and `advance` add time without waiting. Between
 * executions the clock stands still, so what a test does between two runs never ages a cache entry.
 *
 * The state lives in a SharedArrayBuffer so worker threads running concurrent executions read the same
 * time as the host; only the host starts and stops it (it counts the executions under way).
 */
export class VirtualClock implements RuntimeClock {
  /** [base µs, real µs when it started running or -1, executions running]. */
  readonly #cells: BigInt64Array;

  constructor(origin: number, shared?: SharedArrayBuffer) {
    this.#cells = new BigInt64Array(shared ?? new SharedArrayBuffer(3 * 8));
    if (!shared) {
      this.#cells[BASE] = BigInt(Math.round(origin * 1000));
      this.#cells[RUNNING_SINCE] = STOPPED;
    }
  }

  /** The buffer a worker thread builds its view of this clock on. */
  get _buffer(): SharedArrayBuffer {
    return this.#cells.buffer as SharedArrayBuffer;
  }

  now(): number {
    const since = Atomics.load(this.#cells, RUNNING_SINCE);
    const running = since === STOPPED ? 0n : realMicros() - since;
    return Math.floor(Number(Atomics.load(this.#cells, BASE) + running) / 1000);
  }

  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`The clock only moves forward by a finite number of milliseconds, not ${ms}.`);
    Atomics.add(this.#cells, BASE, BigInt(Math.round(ms * 1000)));
  }

  /** Starts counting real time (an execution began); nested starts count, so concurrent executions share one running clock. */
  _start(): void {
    if (Atomics.add(this.#cells, RUNNING, 1n) === 0n) Atomics.store(this.#cells, RUNNING_SINCE, realMicros());
  }

  /** Stops counting real time once the last running execution ended, keeping what elapsed. */
  _stop(): void {
    if (Atomics.load(this.#cells, RUNNING) === 0n) return;
    if (Atomics.sub(this.#cells, RUNNING, 1n) !== 1n) return;
    const since = Atomics.exchange(this.#cells, RUNNING_SINCE, STOPPED);
    if (since !== STOPPED) Atomics.add(this.#cells, BASE, realMicros() - since);
  }
}
