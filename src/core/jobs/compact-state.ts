// What every compact job state (export, audit push) stores the same way: reasons once each, referred to
// by item, and the job's fields that are neither items nor counters.

import type { RateLimitState } from './rate-limit-state';

/** Distinct reasons, and item index → index into them, for the items `reasonOf` gives one. */
export function indexReasons<T>(items: readonly T[], reasonOf: (item: T, index: number) => string | undefined): { reasons: string[]; reasonOf: Record<string, number> } {
  const reasons: string[] = [];
  const at = new Map<string, number>();
  const byItem: Record<string, number> = {};
  items.forEach((item, index) => {
    const reason = reasonOf(item, index);
    if (reason === undefined) return;
    let position = at.get(reason);
    if (position === undefined) {
      position = reasons.push(reason) - 1;
      at.set(reason, position);
    }
    byItem[index] = position;
  });
  return { reasons, reasonOf: byItem };
}

type JobFields = Pick<RateLimitState, 'problem' | 'notBefore' | 'rateLimitedSince' | 'retry'>;

/** Sets `to`'s problem and rate-limit fields to `from`'s, leaving out (and removing) the absent ones. */
export function carryJobFields(from: JobFields, to: JobFields): void {
  delete to.problem;
  delete to.notBefore;
  delete to.rateLimitedSince;
  delete to.retry;
  if (from.problem !== undefined) to.problem = from.problem;
  if (from.notBefore !== undefined) to.notBefore = from.notBefore;
  if (from.rateLimitedSince !== undefined) to.rateLimitedSince = from.rateLimitedSince;
  if (from.retry !== undefined) to.retry = { ...from.retry };
}
