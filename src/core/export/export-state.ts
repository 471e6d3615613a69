// An export's life outside its steps: prepared from a range, resumed, finished.

import { placeNamer } from './places';
import { planBatches, planFingerprint } from './plan';
import { readRange } from './read-range';
import { validateCells, type DateReading } from './validate';
import type { ExportColumnState, ExportItemState, ExportMetricState, ExportSpec, ExportState, MetricRef, RangeInput } from './types';
import { resumeWaveJob } from '../jobs/job-state';

type ExportInput = DateReading & {
  range: RangeInput;
  spec: ExportSpec;
  /** The company's metrics: names in a wide header resolve through them, and their frequencies set the periods. */
  metrics: readonly MetricRef[];
  /**
   * Read the server's values before planning even with onlyChanged off: a preview says what typed data
   * creates and overwrites, and what it showed is what the export's writes are then compared with.
   */
  compareFirst?: boolean;
};

/**
 * Reads and validates the range and plans the export; nothing is sent. With onlyChanged off (and not
 * compareFirst) the batches are planned now; otherwise the first reads are each metric's existing points,
 * and the batches are planned from them (diff.ts).
 * A range whose shape cannot be read throws an InputError; every other problem is an item's reason.
 */
export function prepareExport(input: ExportInput): ExportState {
  const { spec } = input;
  const readsFirst = spec.onlyChanged || spec.keepDifferent === true || input.compareFirst === true;
  const origin = input.range.origin ?? { row: 1, column: 1 };
  const read = readRange(input.range, spec, input.metrics);
  const checked = validateCells(read, spec, input, placeNamer(spec.layout, origin));

  const metrics: ExportMetricState[] = [];
  const metricIndex = new Map<string, number>();
  const indexOf = (metric: MetricRef): number => {
    const id = metric.id.toLowerCase();
    let index = metricIndex.get(id);
    if (index === undefined) {
      index =
        metrics.push({
          id,
          name: metric.name,
          frequency: metric.frequency,
          ...(metric.company ? { company: metric.company } : {}),
          phase: readsFirst ? 'diff' : 'send',
        }) - 1;
      metricIndex.set(id, index);
    }
    return index;
  };
  const columns: ExportColumnState[] = read.columns.map((column) =>
    'metric' in column.target
      ? { column: column.column, header: column.header, metric: indexOf(column.target.metric) }
      : { column: column.column, header: column.header, metric: null, error: column.target.error },
  );

  const items = checked.map(
    ({ metric, verdict, ...fields }): ExportItemState => ({
      ...fields,
      metric: metric ? indexOf(metric) : null,
      outcome: verdict === 'send' ? 'pending' : verdict,
      ...(verdict === 'send' && !readsFirst ? { planned: 'written' as const } : {}),
    }),
  );

  const state: ExportState = {
    version: 1,
    spec,
    fingerprint: planFingerprint(spec, metrics, items),
    status: 'running',
    origin,
    rowCount: read.rowCount,
    rowsRead: read.rowsRead,
    emptyRows: read.emptyRows,
    columns,
    metrics,
    items,
    batches: [],
    counters: { steps: 0, stepsWithoutProgress: 0, upserts: 0, reads: 0, rateLimitWaitMs: 0, retryWaitMs: 0 },
  };
  metrics.forEach((metric, index) => {
    const pending = itemsOf(state, index);
    if (pending.length === 0) metric.phase = 'send';
    else if (!readsFirst) state.batches.push(...planBatches(index, pending));
  });
  if (isComplete(state)) state.status = 'done';
  return state;
}

/** Indexes of a metric's pending items, in sheet order. */
export function itemsOf(state: ExportState, metric: number): number[] {
  return state.items.flatMap((item, index) => (item.metric === metric && item.outcome === 'pending' ? [index] : []));
}

/** Nothing is left to read or send. */
export function isComplete(state: ExportState): boolean {
  return !state.metrics.some((metric) => metric.phase === 'diff') && !state.batches.some((batch) => batch.status === 'pending');
}

export function resumeExport(state: ExportState): ExportState {
  return resumeWaveJob(state, isComplete);
}
