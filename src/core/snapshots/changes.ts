// The rows of the "Changes" sheet: a value that changed, or a refresh that failed. Pure; the writer is
// gas/changes-sheet.ts, shared by snapshot refreshes, "Refresh data" and the scheduler.

import type { DataPoint } from '../api/types';
import { sourceCells } from '../sheets/source-cells';

/** A value a refresh replaced with another. */
export interface ChangeValueRow {
  kind: 'change';
  /** ISO 8601: when the refresh read the new value. */
  time: string;
  /** The metric's name (its id when the name is unknown). */
  metric: string;
  /** The period's first day, YYYY-MM-DD. */
  period: string;
  /** Blank is null: a value that appeared, or went blank, is a change. */
  oldValue: string | number | null;
  newValue: string | number | null;
  /** Where the new value came from ("user_provided: Entered by …"); empty for a blank. */
  source: string;
  /** "Refresh snapshots (sidebar)", "Refresh snapshots (schedule)" or "Refresh data". */
  refresh: string;
  /** The table or formula cell, like Sheet1!A1:C13. */
  range: string;
}

/** A refresh that wrote nothing, and the sentence a person reads: what failed and what to do. */
export interface ChangeFailureRow extends Pick<ChangeValueRow, 'time' | 'refresh' | 'range'> {
  kind: 'failure';
  problem: string;
}

export type ChangeRow = ChangeValueRow | ChangeFailureRow;

export const CHANGES_SHEET = 'Changes';

export const CHANGES_HEADER = ['Time', 'Metric', 'Period', 'Old value', 'New value', 'Source', 'Refresh', 'Range', 'Problem'] as const;

/** A row as the sheet holds it, in CHANGES_HEADER's order. */
export function changeCells(row: ChangeRow): Array<Date | string | number | null> {
  const time = new Date(row.time);
  if (row.kind === 'failure') return [time, null, null, null, null, null, row.refresh, row.range, row.problem];
  return [time, row.metric, row.period, row.oldValue, row.newValue, row.source || null, row.refresh, row.range, null];
}

/** Where a value came from, like "user_provided: Board pack Q2": the source's type and label cells (see core/sheets/source-cells). */
export function sourceText(source: DataPoint['source'] | undefined): string {
  const [type, label] = sourceCells(source);
  return [type, label]
    .filter((part) => part !== null && part !== '')
    .map(String)
    .join(': ');
}
