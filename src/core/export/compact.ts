// What an export keeps between steps: no copy of the rows (the range is read again each step and must keep
// its fingerprint), one outcome code per item, only the reasons a fresh read would not give again, and what
// each pending write expects the server to hold (one token an item).

import { carryJobFields, indexReasons } from '../jobs/compact-state';
import type { RateLimitState } from '../jobs/rate-limit-state';
import { keepApprovals, restoreApprovals, type KeptApprovals } from './compare';
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
   * What each item's write expects the server to hold (compare.ts): the preview's values or the export's own
   * first read, one token an item, so a later step, a resume or a lost cache compares with the same. Absent
   * when none is known.
   */
  approved?: KeptApprovals;
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
export const CODE_OUTCOMES: Readonly<Record<string, ExportItemState['outcome']>> = Object.fromEntries(
  Object.entries(CODES).map(([code, value]) => [code, value.outcome]),
);

function codeOf(item: ExportItemState): string {
  if (item.outcome === 'pending') return item.planned === undefined ? 'p' : item.planned[0]!;
  return { created: 'C', updated: 'U', written: 'W', unchanged: 'N', skipped: 'S', failed: 'F' }[item.outcome];
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
  // Only pending items still have a write to guard. Told by a test, not by a copy of each settled item without
  // its approval: those copies, at every checkpoint, were most of a 10,000-value export's checkpoint time.
  const approved = keepApprovals(state.items, (item) => item.outcome === 'pending');
  if (approved) compact.approved = approved;
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
  state.metrics = fresh.metrics.map((metric, index) => ({ ...metric, phase: PHASE_OF[compact.phases[index]!] ?? metric.phase }));
  state.items = fresh.items.map((freshItem, index) => {
    const code = CODES[compact.codes[index]!];
    if (!code) throw new Error(`Unknown outcome code in a stored export: ${compact.codes[index]}`);
    const item: ExportItemState = { ...freshItem, ...code };
    if (code.planned === undefined) delete item.planned;
    const stored = compact.reasonOf[index];
    if (stored !== undefined) item.reason = compact.reasons[stored]!;
    else if (code.outcome !== freshItem.outcome) delete item.reason;
    return item;
  });
  restoreApprovals(state.items, compact.approved);
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
