// What every job kind shows of its progress and says of what it has not sent, so the kinds cannot drift
// apart in what a wait, a pause or a cancel reads like.

import { formatCount } from '../../shared/words';
import type { RateLimitState } from './rate-limit-state';

/** How a kind names itself in "not sent: push cancelled". */
type JobNoun = 'export' | 'push' | 'import' | 'undo';

type ProgressSource = Pick<RateLimitState, 'status' | 'notBefore' | 'problem'>;

/** The part of every kind's progress besides its counts. */
export type JobProgressBase = Pick<RateLimitState, 'status' | 'problem'> & {
  /** The rate limit asked for this long before the next step can send: shown as a wait, not a failure. */
  waitingForRateLimitMs?: number;
};

/** A kind's progress: its own counts, the wait the rate limit asked for while it runs, and its problem. */
export function jobProgress<C extends object>(state: ProgressSource, nowMs: number, counts: C): JobProgressBase & C {
  const progress: JobProgressBase & C = { status: state.status, ...counts };
  if (state.status === 'running' && state.notBefore !== undefined && state.notBefore > nowMs) progress.waitingForRateLimitMs = state.notBefore - nowMs;
  if (state.problem) progress.problem = state.problem;
  return progress;
}

/** Why a pending item has not been sent, by the job's status. */
export function pendingReason(state: Pick<ProgressSource, 'status' | 'problem'>, noun: JobNoun): string {
  if (state.status === 'cancelled') return `not sent: ${noun} cancelled`;
  if (state.status === 'paused') return `not sent: ${noun} paused${state.problem ? ` (${state.problem.replace(/\.$/, '')})` : ''}`;
  return 'not sent yet';
}

/**
 * The counts of a summary sentence ("3 created, 2 not sent (push paused)"), in the kind's order, zeros
 * left out. `phrase` names a count its own way where the kind has more to say than "3 created".
 */
export function outcomeParts<O extends string>(
  outcomes: readonly O[],
  totals: Readonly<Record<O, number>>,
  state: Pick<ProgressSource, 'status'>,
  noun: JobNoun,
  phrase?: (outcome: O, count: string) => string | undefined,
): string[] {
  const parts: string[] = [];
  for (const outcome of outcomes) {
    const count = totals[outcome];
    if (!count) continue;
    const n = formatCount(count);
    const own = phrase?.(outcome, n);
    if (own) parts.push(own);
    else if (outcome === 'pending')
      parts.push(state.status === 'cancelled' || state.status === 'paused' ? `${n} not sent (${noun} ${state.status})` : `${n} not sent yet`);
    else parts.push(`${n} ${outcome}`);
  }
  return parts;
}
