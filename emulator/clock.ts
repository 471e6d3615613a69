// The emulator's clock: real time plus an offset tests can advance, so a virtual clock moves the rate window too.

/** Real time plus a manual offset. */
export class Clock {
  private offsetMs = 0;

  /** Milliseconds since the epoch, as the emulator sees them. */
  now(): number {
    return Date.now() + this.offsetMs;
  }

  /** ISO 8601 date-time with milliseconds (the spec allows fractional seconds). */
  isoNow(): string {
    return new Date(this.now()).toISOString();
  }

  /** Moves the emulator's time forward (or back, with a negative amount). */
  advance(ms: number): void {
    this.offsetMs += ms;
  }

  /** How far the emulator's time is ahead of real time. */
  offset(): number {
    return this.offsetMs;
  }

  /** Back to real time. */
  resetOffset(): void {
    this.offsetMs = 0;
  }
}
