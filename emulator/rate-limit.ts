// Per-token throttle in epoch-aligned fixed windows, as Rack::Attack counts: every request counts, 429 past the limit.

import type { Clock } from './clock';

/** The throttle's knobs; the document says 500 per 5 minutes and that it may change. */
export interface RateLimitSettings {
  /** Requests allowed per window and key. */
  limit: number;
  windowSeconds: number;
  /** Send `Retry-After` on 429; the real service promises none, so it is off by default. */
  retryAfter: boolean;
}

export const DEFAULT_RATE_LIMIT: RateLimitSettings = { limit: 500, windowSeconds: 300, retryAfter: false };

/** Outcome of counting one request. */
export type RateLimitOutcome = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** Counts requests per key in the current window of the emulator's clock. */
export class RateLimiter {
  private readonly counts = new Map<string, { window: number; count: number }>();

  constructor(
    public settings: RateLimitSettings,
    private readonly clock: Clock,
  ) {}

  /** Counts one request for `key` and says whether it is within the limit. */
  hit(key: string): RateLimitOutcome {
    const windowMs = this.settings.windowSeconds * 1000;
    const now = this.clock.now();
    const window = Math.floor(now / windowMs);
    const entry = this.counts.get(key);
    const count = entry && entry.window === window ? entry.count + 1 : 1;
    this.counts.set(key, { window, count });
    if (count <= this.settings.limit) return { allowed: true };
    return { allowed: false, retryAfterSeconds: Math.ceil(((window + 1) * windowMs - now) / 1000) };
  }

  /** Seconds until the current window ends (what a Retry-After header would carry). */
  secondsToWindowEnd(): number {
    const windowMs = this.settings.windowSeconds * 1000;
    const now = this.clock.now();
    return Math.ceil((Math.floor(now / windowMs + 1) * windowMs - now) / 1000);
  }

  /** Milliseconds from now to the start of the next window: how far to move the clock to begin a fresh one. */
  msToNextWindow(): number {
    const windowMs = this.settings.windowSeconds * 1000;
    return windowMs - (this.clock.now() % windowMs);
  }

  /** Changes the knobs; counts restart so a new limit applies from a clean window. */
  configure(settings: Partial<RateLimitSettings>): void {
    this.settings = { ...this.settings, ...settings };
    this.counts.clear();
  }

  /** Forgets every count. */
  clear(): void {
    this.counts.clear();
  }
}
