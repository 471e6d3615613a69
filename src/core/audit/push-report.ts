// The push's report: every changed cell's outcome and reason, totals that add up, one sentence, and the snapshot refresh.

import { countOf, joinAnd } from '../../shared/words';
import { outcomeParts, pendingReason } from '../jobs/progress';
import { tallyOutcomes } from '../jobs/tally';
import { cellName } from './layout';
import {
  AUDIT_CELL_OUTCOMES,
  type AuditPushItem,
  type AuditPushReport,
  type AuditPushReportItem,
  type AuditPushState,
  type AuditPushTotals,
  type AuditSnapshotUpdate,
} from './types';

/** The report of a push at any point: before, during, after or instead of the sending. */
export function buildAuditPushReport(state: AuditPushState): AuditPushReport {
  const items = state.items.map((item) => reportItem(state, item));
  const totals: AuditPushTotals = tallyOutcomes(AUDIT_CELL_OUTCOMES, state.items, (item) => item.outcome);
  totals.unchanged = state.unchanged;
  const snapshotUpdates: AuditSnapshotUpdate[] = state.items
    .filter((item) => item.outcome === 'created' || item.outcome === 'updated')
    .map((item) => ({ profileId: state.profiles[item.profile]?.id ?? '', propertyId: state.properties[item.property]?.id ?? '', key: item.key }));
  return {
    status: state.status,
    cellsCompared: state.cellsCompared,
    totals,
    summary: summarise(state, totals),
    items,
    notes: notes(state),
    problem: state.problem ?? null,
    snapshotUpdates,
  };
}

function reportItem(state: AuditPushState, item: AuditPushItem): AuditPushReportItem {
  const profile = state.profiles[item.profile];
  const property = state.properties[item.property];
  return {
    cell: cellName(item.row, item.column),
    row: item.row,
    column: item.column,
    profileId: profile?.id ?? '',
    profileName: profile?.name ?? '',
    propertyId: property?.id ?? '',
    propertyName: property?.name ?? '',
    value: item.shown,
    outcome: item.outcome,
    reason: item.outcome === 'pending' ? pendingReason(state, 'push') : (item.reason ?? null),
    ...(item.conflict ? { conflict: { ...item.conflict } } : {}),
  };
}

/** "1,250 cells compared: 3 created, 2 updated, 1,243 unchanged, 2 failed." Counts of zero are left out. */
function summarise(state: AuditPushState, totals: AuditPushTotals): string {
  const compared = `${countOf(state.cellsCompared, 'cell')} compared`;
  if (state.cellsCompared === 0) return `${compared}: the sheet has no audit cells.`;
  if (state.items.length === 0) return `${compared}: nothing changed, so nothing was sent.`;
  const parts = outcomeParts(AUDIT_CELL_OUTCOMES, totals, state, 'push', (outcome, n) =>
    outcome === 'conflict' ? `${n} ${n === '1' ? 'conflict' : 'conflicts'} (changed on the server since the audit was built, so not sent)` : undefined,
  );
  return `${compared}: ${parts.join(', ')}.`;
}

function notes(state: AuditPushState): string[] {
  if (state.ignoredRows.length === 0) return [];
  const rows = state.ignoredRows.map(String);
  const which = rows.length === 1 ? `Row ${rows[0]} has` : `Rows ${joinAnd(rows)} have`;
  return [
    `${which} no profile id, so ${rows.length === 1 ? 'it was' : 'they were'} not compared: the audit updates existing companies and does not create profiles.`,
  ];
}
