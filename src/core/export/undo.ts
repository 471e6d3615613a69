// Undo of an export: the data points it updated, prepared as an export of the values before, each guarded
// by what the export wrote (diff.ts), so the export's own step reads, compares and writes them, paced and
// resumable like any export.

import { AUDIT_CELL_OUTCOMES, type AuditCellOutcome, type AuditPushReportItem, type AuditPushTotals } from '../audit/types';
import { pendingReason } from '../jobs/progress';
import { UNDO_CONFLICT_REASON } from '../jobs/push-log';
import { tallyOutcomes } from '../jobs/tally';
import { isComplete, itemsOf } from './export-state';
import { planBatches } from './plan';
import type { ExportItemState, ExportMetricState, ExportState } from './types';

/** A data point an export updated, as Undo needs it (server/push-journal.ts journals these). */
export type ExportedPoint = {
  metricId: string;
  metricName: string;
  date: string;
  /** The value's cell as the Pushes sheet names it (Sheet1!B3), and its position in that sheet. */
  cell: string;
  row: number;
  column: number;
  /** What the export wrote. */
  written: string;
  /** The server's value the export replaced; null when it was a blank (Undo cannot write a blank). */
  before: string | null;
};

/**
 * The undo of an export's updates as an export state: each point's value before, to write only where the
 * server still holds what the export wrote. Its batches are planned at once: each wave reads the points it
 * is about to restore right before writing them (compare-and-set, run-step.ts), so a point someone changed
 * since, even between a Cancel and a Resume or during a pause, is a conflict and is not written. Item i is points[i].
 */
export function prepareExportUndo(points: ReadonlyArray<ExportedPoint & { before: string }>): ExportState {
  const metrics: ExportMetricState[] = [];
  const metricIndex = new Map<string, number>();
  const items = points.map((point): ExportItemState => {
    const id = point.metricId.toLowerCase();
    let metric = metricIndex.get(id);
    if (metric === undefined) {
      // The frequency only checks a sheet's dates, and these are the dates the export stored.
      metric = metrics.push({ id, name: point.metricName, frequency: '', phase: 'send' }) - 1;
      metricIndex.set(id, metric);
    }
    return {
      row: point.row,
      column: point.column,
      metric,
      date: point.date,
      value: point.before,
      expected: point.written,
      outcome: 'pending',
      planned: 'updated',
    };
  });
  const state: ExportState = {
    version: 1,
    // Sheet positions (origin A1) so a reason names the cell the value came from; "wide" names cells, not rows.
    spec: { layout: 'wide', hasHeaderRow: false, skipBlanks: true, duplicates: 'reject', offPeriod: 'reject', onlyChanged: true },
    fingerprint: '',
    status: 'running',
    origin: { row: 1, column: 1 },
    // No status column: Undo writes nothing beside the range.
    rowCount: 0,
    rowsRead: items.length,
    emptyRows: 0,
    columns: [],
    metrics,
    items,
    batches: [],
    counters: { steps: 0, stepsWithoutProgress: 0, upserts: 0, reads: 0, rateLimitWaitMs: 0, retryWaitMs: 0 },
  };
  metrics.forEach((_, metric) => state.batches.push(...planBatches(metric, itemsOf(state, metric))));
  if (isComplete(state)) state.status = 'done';
  return state;
}

/** An undo item's outcome as Undo reports it: whatever the upsert confirmed is restored; the guard's refusal is a conflict. */
export function exportUndoOutcome(item: ExportItemState): AuditCellOutcome {
  if (item.outcome === 'created' || item.outcome === 'updated' || item.outcome === 'written') return 'updated';
  if (item.outcome === 'skipped' && item.reason === UNDO_CONFLICT_REASON) return 'conflict';
  return item.outcome;
}

/**
 * The undo of an export in the shape every undo reports (the audit push's): totals of every item, and the
 * items it did not simply restore (a point already holding the value before only counts). The profile is
 * the metric, the property the period, `value` the value before; `cells[i]` names item i's cell.
 */
export function exportUndoReport(state: ExportState, cells: readonly string[]): { totals: AuditPushTotals; items: AuditPushReportItem[] } {
  const items = state.items.flatMap((item, index): AuditPushReportItem[] => {
    const outcome = exportUndoOutcome(item);
    if (outcome === 'unchanged') return [];
    const metric = item.metric === null ? undefined : state.metrics[item.metric];
    return [
      {
        row: item.row,
        column: item.column,
        outcome,
        cell: cells[index] ?? '',
        profileId: metric?.id ?? '',
        profileName: metric?.name ?? '',
        propertyId: '',
        propertyName: item.date ?? '',
        value: item.value ?? '',
        reason: item.outcome === 'pending' ? pendingReason(state, 'undo') : (item.reason ?? null),
        ...(outcome === 'conflict' ? { conflict: { atBuild: item.expected ?? null, server: item.previous ?? '' } } : {}),
      },
    ];
  });
  return { totals: tallyOutcomes(AUDIT_CELL_OUTCOMES, state.items, exportUndoOutcome), items };
}
