// Snapshot tables: what a snapshot records about itself, and what changed between two of its writes. Pure.

import type { ChangeValueRow } from './changes';
import { AGGREGATES, type Aggregate } from '../sheets/period-aggregate';

/**
 * Enough to write a snapshot again: the formula's arguments and where the table is. `metric_values` is the
 * Metrics tab's METRIC_VALUES table; `portfolio_metric` the Portfolio tab's PORTFOLIO_METRIC grid.
 */
export interface SnapshotDefinition {
  v: 1;
  id: string;
  kind: 'metric_values' | 'portfolio_metric';
  /** The company whose metric names head the columns; the fund, for a portfolio grid. */
  companyId: string;
  /** metric_values: the metrics, one column each ([] for a portfolio grid). */
  metricIds: string[];
  /** metric_values: YYYY-MM-DD, or null for no bound. */
  startDate: string | null;
  endDate: string | null;
  options: { headers: boolean };
  /** portfolio_metric: the metric's name and the period labels of its columns. */
  metricName?: string;
  periods?: string[];
  /** portfolio_metric: the aggregate its formula took, when any. */
  aggregate?: Aggregate;
  /** The sheet's id (a rename keeps it) and the table's A1 range on it, as last written. */
  sheetId: number;
  range: string;
  insertedAt: string;
  refreshedAt: string | null;
}

/** A stored snapshot: its definition and one 7-character fingerprint per cell it last wrote (see core/formulas/freeze). */
export interface SnapshotRecord {
  definition: SnapshotDefinition;
  cells: string;
}

function isStrings(list: unknown): list is string[] {
  return Array.isArray(list) && list.every((item) => typeof item === 'string');
}

export function decodeDefinition(text: unknown): SnapshotDefinition | null {
  if (typeof text !== 'string' || !text) return null;
  try {
    const d = JSON.parse(text) as Partial<SnapshotDefinition>;
    const portfolio = d.kind === 'portfolio_metric';
    if (
      d.v !== 1 ||
      (d.kind !== 'metric_values' && d.kind !== 'portfolio_metric') ||
      typeof d.id !== 'string' ||
      typeof d.companyId !== 'string' ||
      typeof d.range !== 'string' ||
      typeof d.sheetId !== 'number' ||
      !isStrings(d.metricIds) ||
      (portfolio && (typeof d.metricName !== 'string' || !isStrings(d.periods)))
    )
      return null;
    return {
      v: 1,
      kind: d.kind,
      id: d.id,
      companyId: d.companyId,
      metricIds: d.metricIds,
      startDate: d.startDate ?? null,
      endDate: d.endDate ?? null,
      options: { headers: Boolean(d.options?.headers) },
      sheetId: d.sheetId,
      range: d.range,
      insertedAt: String(d.insertedAt ?? ''),
      refreshedAt: d.refreshedAt ?? null,
      ...(portfolio ? { metricName: d.metricName, periods: d.periods } : {}),
      ...(portfolio && (AGGREGATES as readonly unknown[]).includes(d.aggregate) ? { aggregate: d.aggregate } : {}),
    };
  } catch {
    return null;
  }
}

/** A cell as a Changes row shows it: '' and null are both blank; numbers and text keep their type. */
function shown(value: unknown): string | number | null {
  if (value === '' || value === null || value === undefined) return null;
  return typeof value === 'number' ? value : String(value);
}

/** Value cells by a key that matches them across writes; `metric` names the value when the column does not. */
export type TableReading = Map<string, { period: string; column: number; value: unknown; metric?: string }>;

/**
 * Reads a PORTFOLIO_METRIC grid: a header row of periods, then one row per company. Values match by company
 * name and period label, so a company added to (or gone from) the fund moves no other row's values. `periods`: how
 * many columns after the name are periods (the Unit column after them is not a value).
 */
export function readGrid(rows: readonly (readonly unknown[])[], metricName: string, periods?: number): TableReading {
  const values: TableReading = new Map();
  const header = rows[0] ?? [];
  const last = Math.min(header.length - 1, periods ?? Infinity);
  for (const row of rows.slice(1)) {
    const company = String(row[0] ?? '');
    for (let j = 1; j <= last; j++) {
      values.set(`${company}|${j}`, { period: String(header[j] ?? ''), column: j - 1, value: row[j], metric: `${metricName} · ${company}` });
    }
  }
  return values;
}

/**
 * Reads a METRIC_VALUES table by period and metric column (0-based). `periodOf` turns the first column's cell
 * into the period's text (null for the "No data points" row), so old and new cells match by period, not by
 * row: a restated table may gain or lose rows.
 */
export function readTable(
  rows: readonly (readonly unknown[])[],
  definition: Pick<SnapshotDefinition, 'metricIds' | 'options'>,
  periodOf: (cell: unknown) => string | null,
): TableReading {
  const values: TableReading = new Map();
  rows.forEach((row, i) => {
    const period = definition.options.headers && i === 0 ? null : periodOf(row[0]);
    if (period === null) return;
    definition.metricIds.forEach((_, column) => values.set(`${period}|${column}`, { period, column, value: row[column + 1] }));
  });
  return values;
}

/** The Changes rows between two readings: one per value that differs, appeared or went blank, periods in order. */
export function tableChanges(
  before: TableReading,
  after: TableReading,
  describe: { names: readonly string[]; sourceOf: (column: number, period: string) => string; time: string; refresh: string; range: string },
): ChangeValueRow[] {
  const changes: Array<ChangeValueRow & { column: number }> = [];
  for (const key of new Set([...before.keys(), ...after.keys()])) {
    const old = before.get(key);
    const now = after.get(key);
    const oldValue = shown(old?.value);
    const newValue = shown(now?.value);
    // By type too: the number 1 and the text "1" differ.
    if (oldValue === newValue) continue;
    const { period, column, metric } = (now ?? old)!;
    changes.push({
      kind: 'change',
      column,
      time: describe.time,
      metric: metric ?? describe.names[column] ?? '',
      period,
      oldValue,
      newValue,
      source: newValue !== null ? describe.sourceOf(column, period) : '',
      refresh: describe.refresh,
      range: describe.range,
    });
  }
  changes.sort((a, b) => (a.period < b.period ? -1 : a.period > b.period ? 1 : a.column - b.column));
  return changes.map(({ column: _column, ...row }) => row);
}
