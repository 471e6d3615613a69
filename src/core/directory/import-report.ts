// An import's report: every row's outcome and reason, totals that add up, one sentence, and the sheet texts.

import { formatCount } from '../../shared/words';
import { outcomeParts, pendingReason } from '../jobs/progress';
import type { JobStatus } from '../jobs/rate-limit-state';
import { tallyOutcomes } from '../jobs/tally';
import type { ImportJob, ImportReport, ImportReportRow, ImportRowBase } from './types';

/** How one kind of import describes its rows; the shape of the report is shared. */
export type RowDescriber<Row extends ImportRowBase, Outcome extends string> = {
  /** Every outcome, in the order the summary lists them; `pending` among them. */
  outcomes: readonly Outcome[];
  label(row: Row): string;
  note(row: Row): string | null;
  idText(row: Row): string | null;
  /** How the summary names a count of this outcome, when not just "3 created". */
  phrase?(outcome: Outcome, count: string, status: JobStatus): string | undefined;
};

/** Builds the report from a state at any point: before, during, after or instead of the sending. */
export function buildImportReport<Row extends ImportRowBase, Outcome extends string>(
  state: ImportJob<Row>,
  describe: RowDescriber<Row, Outcome>,
): ImportReport<Outcome> {
  const rows = state.rows.map((row) => reportRow(state, row, describe));
  const totals = tallyOutcomes(describe.outcomes, rows, (row) => row.outcome);
  return {
    status: state.status,
    rowsRead: state.rowsRead,
    emptyRows: state.emptyRows,
    totals,
    summary: summarise(state, totals, describe),
    rows,
    statusTexts: statusTexts(state, rows),
    idColumn: state.idColumn,
    statusColumn: state.statusColumn,
    ignoredColumns: state.ignoredColumns,
    problem: state.problem ?? null,
  };
}

/** One row as the report and the sheet show it. */
export function reportRow<Row extends ImportRowBase, Outcome extends string>(
  state: ImportJob<Row>,
  row: Row,
  describe: RowDescriber<Row, Outcome>,
): ImportReportRow<Outcome> {
  const outcome = row.outcome as Outcome;
  const reason = outcome === 'pending' ? pendingReason(state, 'import') : (row.reason ?? null);
  const note = describe.note(row);
  return {
    row: row.row,
    sheetRow: state.origin.row + row.row - 1,
    label: describe.label(row),
    outcome,
    reason,
    note,
    status: statusText(outcome, reason, note),
    idText: describe.idText(row),
  };
}

/**
 * The status column's text for a row: "created", "updated (website, currency)", "failed: …". Every
 * text starts with a word, so Sheets never reads one as a formula.
 */
function statusText(outcome: string, reason: string | null, note: string | null): string {
  if (outcome === 'pending') return reason ?? 'not sent yet';
  if (reason) return `${outcome}: ${reason}`;
  if (note) return `${outcome} (${note})`;
  return outcome;
}

/** "12 rows read: 5 created, 3 updated, 2 unchanged, 2 failed." Counts of zero are left out. */
function summarise<Row extends ImportRowBase, Outcome extends string>(
  state: ImportJob<Row>,
  totals: Record<Outcome, number>,
  describe: RowDescriber<Row, Outcome>,
): string {
  const read = `${formatCount(state.rowsRead)} ${state.rowsRead === 1 ? 'row' : 'rows'} read`;
  if (state.rowsRead === 0) return `${read}: nothing to import.`;
  const parts = outcomeParts(describe.outcomes, totals, state, 'import', (outcome, n) => describe.phrase?.(outcome, n, state.status));
  return `${read}: ${parts.join(', ')}.`;
}

/** One text per range row: the header row gets the status column's title, empty rows get nothing. */
function statusTexts<Row extends ImportRowBase, Outcome extends string>(state: ImportJob<Row>, rows: ReadonlyArray<ImportReportRow<Outcome>>): string[] {
  const byRow = new Map(rows.map((row) => [row.row, row.status]));
  return Array.from({ length: state.rowCount }, (_, index) => (index === 0 ? state.statusColumn.header : (byRow.get(index + 1) ?? '')));
}
