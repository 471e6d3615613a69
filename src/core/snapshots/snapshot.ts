// Snapshot tables: what a snapshot records about itself, and what changed between two of its writes.
// Pure: the adapters (src/gas/snapshot-store.ts, src/server/snapshots.ts) read and write the grid.

import type { ChangeValueRow } from './changes';

/**
 * What "Insert as snapshot" wrote, enough to write it again: the formula's arguments and where the table is.
 * `metric_values` is the Metrics tab's METRIC_VALUES table; `portfolio_metric` the Portfolio tab's
 * PORTFOLIO_METRIC grid (one row per portfolio company, one column per period).
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

export function decodeDefinition(text: unknown): SnapshotDefinition | null {
  if (typeof text !== 'string' || !text) return null;
  try {
    const d = JSON.parse(text) as Partial<SnapshotDefinition>;
    if (d.v !== 1 || (d.kind !== 'metric_values' && d.kind !== 'portfolio_metric') || typeof d.id !== 'string' || typeof d.companyId !== 'string' || typeof d.range !== 'string' ||
      typeof d.sheetId !== 'number' || !Array.isArray(d.metricIds) || !d.metricIds.every((id) => typeof id === 'string')) return null;
    const strings = (list: unknown): list is string[] => Array.isArray(list) && list.every((item) => typeof item === 'string');
    if (d.kind === 'portfolio_metric' && (typeof d.metricName !== 'string' || !strings(d.periods))) return null;
    return {
      v: 1, kind: d.kind, id: d.id, companyId: d.companyId, metricIds: d.metricIds, startDate: d.startDate ?? null, endDate: d.endDate ?? null,
      options: { headers: Boolean(d.options?.headers) }, sheetId: d.sheetId, range: d.range, insertedAt: String(d.insertedAt ?? ''), refreshedAt: d.refreshedAt ?? null,
      ...(d.kind === 'portfolio_metric' ? { metricName: d.metricName, periods: d.periods } : {}),
    };
  } catch {
    return null;
  }
}

/** A cell as the comparison sees it: '' and null are both blank; numbers and text keep their type. */
function comparable(value: unknown): string {
  if (value === '' || value === null || value === undefined) return '';
  if (typeof value === 'number') return `n:${value}`;
  return `s:${String(value)}`;
}

function shown(value: unknown): string | number | null {
  if (value === '' || value === null || value === undefined) return null;
  return typeof value === 'number' ? value : String(value);
}

export interface TableReading {
  /** The value cells of a table by period and metric column (0-based), with its period's key; `metric` names the value when the column does not. */
  values: Map<string, { period: string; column: number; value: unknown; metric?: string }>;
}

/**
 * Reads a PORTFOLIO_METRIC grid: a header row of periods, then one row per company. Values match by company
 * name and period label, so a company added to (or gone from) the fund moves no other row's values.
 */
export function readGrid(rows: readonly (readonly unknown[])[], metricName: string): TableReading {
  const values: TableReading['values'] = new Map();
  const header = rows[0] ?? [];
  rows.slice(1).forEach((row) => {
    const company = String(row[0] ?? '');
    for (let j = 1; j < header.length; j++) {
      values.set(`${company}|${j}`, { period: String(header[j] ?? ''), column: j - 1, value: row[j], metric: `${metricName} · ${company}` });
    }
  });
  return { values };
}

/**
 * Reads a METRIC_VALUES table (a snapshot's cells, old or new) into its values by period and metric
 * column. `periodOf` turns the first column's cell (a date, or the "No data points" sentence) into the
 * period's text, so the old cells read back from the sheet and the new ones match by period, not by row:
 * a restated table may gain or lose rows.
 */
export function readTable(rows: readonly (readonly unknown[])[], definition: Pick<SnapshotDefinition, 'metricIds' | 'options'>, periodOf: (cell: unknown) => string | null): TableReading {
  const values: TableReading['values'] = new Map();
  rows.forEach((row, i) => {
    if (definition.options.headers && i === 0) return;
    const period = periodOf(row[0]);
    // The "No data points" row holds no value.
    if (period === null) return;
    for (let column = 0; column < definition.metricIds.length; column++) {
      values.set(`${period}|${column}`, { period, column, value: row[column + 1] });
    }
  });
  return { values };
}

/**
 * The Changes rows between what a snapshot showed and what it shows now: one per period and metric column
 * whose value differs (a value that appeared or went blank counts), periods in order.
 */
export function tableChanges(
  before: TableReading, after: TableReading, describe: { names: readonly string[]; sourceOf: (column: number, period: string) => string; time: string; refresh: string; range: string },
): ChangeValueRow[] {
  const keys = [...new Set([...before.values.keys(), ...after.values.keys()])];
  const changes: Array<ChangeValueRow & { column: number }> = [];
  for (const key of keys) {
    const old = before.values.get(key);
    const now = after.values.get(key);
    if (comparable(old?.value) === comparable(now?.value)) continue;
    const { period, column, metric } = (now ?? old)!;
    changes.push({
      kind: 'change', column, time: describe.time, metric: metric ?? describe.names[column] ?? '', period,
      oldValue: shown(old?.value), newValue: shown(now?.value),
      source: now && shown(now.value) !== null ? describe.sourceOf(column, period) : '',
      refresh: describe.refresh, range: describe.range,
    });
  }
  changes.sort((a, b) => (a.period < b.period ? -1 : a.period > b.period ? 1 : a.column - b.column));
  return changes.map(({ column: _column, ...row }) => row);
}
