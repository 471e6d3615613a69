// What an export keeps between steps: no copy of the rows (the range is read again each step and must keep
// its fingerprint), one outcome code per item, and only the reasons a fresh read would not give again.

import { utf8Bytes } from '../cache/chunked-cache';
import { carryJobFields, indexReasons } from '../jobs/compact-state';
import type { RateLimitState } from '../jobs/rate-limit-state';
import { planBatches } from './plan';
import type { ExportCounters, ExportItemState, ExportMetricState, ExportState } from './types';

export type CompactExportState = RateLimitState & {
  version: 2;
  /** planFingerprint of the range as prepared at the start: a read with another one is another export. */
  fingerprint: string;
  /** One character per item, see CODES. */
  codes: string;
  /** One character per metric: d(iff), s(end), x (stopped). */
  phases: string;
  /** Distinct reasons, referred to by index from `reasonOf`. */
  reasons: string[];
  /** Item index → index into `reasons`, only for items whose reason a fresh read would not give. */
  reasonOf: Record<string, number>;
  /**
   * The server's value each pending update (code u) overwrites, in item order: the only values of the rows
   * kept, so the Pushes sheet and Undo have them once a later step confirms the update. Absent when none.
   */
  previous?: Array<string | null>;
  counters: ExportCounters;
};

/** Lower case: pending, with its plan (p: none yet); upper case: the final outcome. */
const CODES: Record<string, Pick<ExportItemState, 'outcome' | 'planned'>> = {
  p: { outcome: 'pending' },
  c: { outcome: 'pending', planned: 'created' },
  u: { outcome: 'pending', planned: 'updated' },
  w: { outcome: 'pending', planned: 'written' },
  C: { outcome: 'created' },
  U: { outcome: 'updated' },
  W: { outcome: 'written' },
  N: { outcome: 'unchanged' },
  S: { outcome: 'skipped' },
  F: { outcome: 'failed' },
};

/** Each code's outcome, for a report of a stored export without its rows. */
export const CODE_OUTCOMES: Readonly<Record<string, ExportItemState['outcome']>> = Object.fromEntries(Object.entries(CODES).map(([code, value]) => [code, value.outcome]));

function codeOf(item: ExportItemState): string {
  if (item.outcome === 'pending') return item.planned === undefined ? 'p' : item.planned[0]!;
  return { created: 'C', updated: 'U', written: 'W', unchanged: 'N', skipped: 'S', failed: 'F' }[item.outcome];
}

/**
 * At most this many bytes of values before are kept between steps: an export of 40,000 updates stays far
 * inside a job's 300 KB (JOB_MAX_BYTES). Past it, an update's value before is not kept: the Pushes sheet
 * shows no old value for it, and Undo lists it, never a wrong value.
 */
export const PREVIOUS_KEPT_BYTES = 96 * 1024;

/**
 * The values before of the pending updates, in item order, up to PREVIOUS_KEPT_BYTES: a prefix, so item k of
 * the list is the k-th pending update. It stops at the first update whose value before is not known (null is
 * a blank, not "unknown").
 */
function keptPrevious(items: readonly ExportItemState[]): Array<string | null> {
  const kept: Array<string | null> = [];
  let bytes = 0;
  for (const item of items) {
    if (!isPendingUpdate(item)) continue;
    if (item.previous === undefined) break;
    bytes += utf8Bytes(JSON.stringify(item.previous)) + 1;
    if (bytes > PREVIOUS_KEPT_BYTES) break;
    kept.push(item.previous);
  }
  return kept;
}

function isPendingUpdate(item: ExportItemState): boolean {
  return item.outcome === 'pending' && item.planned === 'updated';
}

const PHASES = { diff: 'd', send: 's', stopped: 'x' } as const;
const PHASE_OF: Record<string, ExportMetricState['phase']> = { d: 'diff', s: 'send', x: 'stopped' };

/**
 * The state to store. `fresh` is the range as prepared from the sheet (the same read the state came
 * from): reasons it gives itself (validation's) are not stored again.
 */
export function compactExport(state: ExportState, fresh: ExportState): CompactExportState {
  const compact: CompactExportState = {
    version: 2,
    fingerprint: state.fingerprint,
    status: state.status,
    codes: state.items.map(codeOf).join(''),
    phases: state.metrics.map((metric) => PHASES[metric.phase]).join(''),
    ...indexReasons(state.items, (item, index) => (item.reason === fresh.items[index]?.reason ? undefined : item.reason)),
    counters: { ...state.counters },
  };
  const previous = keptPrevious(state.items);
  if (previous.length > 0) compact.previous = previous;
  carryJobFields(state, compact);
  return compact;
}

/**
 * The full state again from a fresh read of the range; null when the sheet changed (its rows must not be
 * sent as they now are). Batches are planned again: a confirmed item is never pending again, so never resent.
 */
export function expandExport(fresh: ExportState, compact: CompactExportState): ExportState | null {
  if (fresh.fingerprint !== compact.fingerprint || fresh.items.length !== compact.codes.length || fresh.metrics.length !== compact.phases.length) return null;
  const state: ExportState = { ...fresh, status: compact.status, counters: { ...compact.counters }, batches: [] };
  carryJobFields(compact, state);
  let updates = 0;
  state.metrics = fresh.metrics.map((metric, index) => ({ ...metric, phase: PHASE_OF[compact.phases[index]!] ?? metric.phase }));
  state.items = fresh.items.map((freshItem, index) => {
    const code = CODES[compact.codes[index]!];
    if (!code) throw new Error(`Unknown outcome code in a stored export: ${compact.codes[index]}`);
    const item: ExportItemState = { ...freshItem, ...code };
    if (code.planned === undefined) delete item.planned;
    const stored = compact.reasonOf[index];
    if (stored !== undefined) item.reason = compact.reasons[stored]!;
    else if (code.outcome !== freshItem.outcome) delete item.reason;
    if (isPendingUpdate(item)) {
      const before = compact.previous?.[updates++];
      if (before !== undefined) item.previous = before;
    }
    return item;
  });
  state.metrics.forEach((_, metric) => {
    const confirmed: number[] = [];
    const planned: number[] = [];
    state.items.forEach((item, index) => {
      if (item.metric !== metric) return;
      if (item.outcome === 'created' || item.outcome === 'updated' || item.outcome === 'written') confirmed.push(index);
      else if (item.outcome === 'pending' && item.planned !== undefined) planned.push(index);
    });
    // Confirmed batches first: pickWave takes a metric with one as proven, and sends its batches in waves.
    state.batches.push(...planBatches(metric, confirmed).map((batch) => ({ ...batch, status: 'confirmed' as const })));
    state.batches.push(...planBatches(metric, planned));
  });
  return state;
}
