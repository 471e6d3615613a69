// The export's report: every item's outcome and reason, totals that add up, one summary sentence, and a status column.

import { countItems, placeNamer, type PlaceNamer } from './places';
import { countOf } from '../../shared/words';
import { outcomeParts, pendingReason } from '../jobs/progress';
import { tallyOutcomes } from '../jobs/tally';
import {
  ROW_OUTCOMES,
  type ExportItemState,
  type ExportMetricState,
  type ExportReport,
  type ExportReportItem,
  type ExportState,
  type ExportTotals,
  type RowOutcome,
} from './types';

/** Heads the status column when the range has a header row. */
export const STATUS_HEADER = 'Export status';

/** Builds the report from a state at any point: before, during, after or instead of the sending. */
export function buildReport(state: ExportState): ExportReport {
  const places = placeNamer(state.spec.layout, state.origin);
  const items = state.items.map((item) => reportItem(state, item, places));
  const totals = countOutcomes(items.map((item) => item.outcome));
  return {
    status: state.status,
    layout: state.spec.layout,
    rowsRead: state.rowsRead,
    itemsRead: items.length,
    emptyRows: state.emptyRows,
    totals,
    summary: summarise(state, totals, items.length),
    items,
    statusColumn: statusColumn(state, places),
    problem: state.problem ?? null,
  };
}

/** A metric as a person reads it in a report, the Pushes sheet and a journal: "Bluebird Health › Net Burn" for a company's metric of a fund. */
export function metricLabel(metric: Pick<ExportMetricState, 'name' | 'company'>): string {
  return metric.company ? `${metric.company} › ${metric.name}` : metric.name;
}

export function reportItem(state: ExportState, item: ExportItemState, places: PlaceNamer): ExportReportItem {
  const metric = item.metric === null ? undefined : state.metrics[item.metric];
  return {
    row: item.row,
    column: item.column,
    cell: places.cell(item),
    metricId: metric?.id ?? null,
    metricName: metric ? metricLabel(metric) : null,
    date: item.date ?? null,
    value: item.value ?? null,
    outcome: item.outcome,
    reason: item.outcome === 'pending' ? pendingReason(state, 'export') : (item.reason ?? null),
    note: item.note ?? null,
  };
}

export function countOutcomes(outcomes: readonly RowOutcome[]): ExportTotals {
  return tallyOutcomes(ROW_OUTCOMES, outcomes, (outcome) => outcome);
}

/**
 * "1,000 rows read: 940 created, 50 updated, 10 skipped." Counts of zero are left out. Every write is compared
 * with the server right before it (compare-and-set), so `written` always means the server held the same value.
 */
function summarise(state: ExportState, totals: ExportTotals, itemsRead: number): string {
  const { layout } = state.spec;
  const read = `${countItems(layout, itemsRead)} read${layout === 'wide' ? ` (${countOf(state.rowsRead, 'row')} × ${countOf(state.columns.length, 'metric column')})` : ''}`;
  if (itemsRead === 0) return `${read}: nothing to export.`;
  const parts = outcomeParts(ROW_OUTCOMES, totals, state, 'export', (outcome, n) =>
    outcome === 'written' ? `${n} written (unchanged, sent again)` : undefined,
  );
  return `${read}: ${parts.join(', ')}.`;
}

/** The text for one item in the status column: "created", "skipped: blank value", "failed: …". */
function statusText(state: ExportState, item: ExportItemState): string {
  if (item.outcome === 'pending') return pendingReason(state, 'export');
  if (item.reason) return `${item.outcome}: ${item.reason}`;
  if (item.note) return `${item.outcome} (${item.note})`;
  return item.outcome;
}

/**
 * One text per range row, to write beside the range: the header, if any, gets a title; empty rows get
 * nothing. A wide row's cells are summed up in one text when they agree, else listed by column letter.
 * Every text starts with a word, so Sheets never reads one as a formula.
 */
function statusColumn(state: ExportState, places: PlaceNamer): string[] {
  const byRow = new Map<number, ExportItemState[]>();
  for (const item of state.items) byRow.set(item.row, [...(byRow.get(item.row) ?? []), item]);
  return Array.from({ length: state.rowCount }, (_, index) => {
    const items = byRow.get(index + 1);
    if (!items) return index === 0 && state.spec.hasHeaderRow ? STATUS_HEADER : '';
    const texts = items.map((item) => statusText(state, item));
    return texts.every((text) => text === texts[0]) ? texts[0]! : items.map((item, i) => `${places.letter(item.column)}: ${texts[i]}`).join('; ');
  });
}
