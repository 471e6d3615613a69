// What every compact job state (export, audit push, import) stores the same way: reasons once each, and
// the job's fields that are neither items nor counters.

import type { RateLimitState } from './rate-limit-state';

/** Distinct reasons, and item index → index into them, for the items `reasonOf` gives one. */
export function indexReasons<T>(
  items: readonly T[],
  reasonOf: (item: T, index: number) => string | undefined,
): { reasons: string[]; reasonOf: Record<string, number> } {
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

/** What a compact push or import record starts with; only items no longer pending keep their reasons. */
export function compactRecord<
  S extends { companyId: string; status: RateLimitState['status']; counters: object },
  T extends { outcome: string; reason?: string },
>(state: S, items: readonly T[], fingerprint: string, codes: string) {
  return {
    version: 2 as const,
    companyId: state.companyId,
    fingerprint,
    status: state.status,
    counters: { ...state.counters } as S['counters'],
    codes,
    ...indexReasons(items, (item) => (item.outcome === 'pending' ? undefined : item.reason)),
  };
}

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

/** Ascending indexes as runs "start+length" in base 36 joined by ',': a long run of rows costs a few characters. */
export function encodeRuns(indexes: readonly number[]): string {
  const runs: string[] = [];
  for (let i = 0; i < indexes.length; ) {
    const start = indexes[i]!;
    let length = 1;
    while (indexes[i + length] === start + length) length++;
    runs.push(length === 1 ? start.toString(36) : `${start.toString(36)}+${length.toString(36)}`);
    i += length;
  }
  return runs.join(',');
}

/** The indexes encodeRuns wrote. */
export function decodeRuns(text: string): number[] {
  const indexes: number[] = [];
  if (text === '') return indexes;
  for (const run of text.split(',')) {
    const [start, length] = run.split('+').map((part) => parseInt(part, 36));
    for (let i = 0; i < (length ?? 1); i++) indexes.push(start! + i);
  }
  return indexes;
}
