// Undo the last push (issue 27, item 4): the cells an audit push updated, or the data points an export
// updated, get the value the push read just before writing them, as a job like any other (paced, resumable,
// accounted value by value), each compared first with what the push wrote: one someone changed on the server
// since is a conflict, not written over. An audit push's undo steps as an audit push, an export's as an export.
// What the API cannot undo (values the push created, values it did not read before, imported records) is listed.

import { auditPushProgress, buildAuditPushReport, resumeAuditPush, runAuditPushStep } from '../core/audit';
import { cellWrite } from '../core/audit/cell-writes';
import { loadAuditSchema } from '../core/audit/load-audit-data';
import { isPushComplete } from '../core/audit/write-back';
import type { AuditProperty, AuditPushState } from '../core/audit/types';
import { InputError } from '../core/errors';
import { exportProgress, exportUndoOutcome, exportUndoReport, prepareExportUndo, resumeExport, runExportStep, type ExportedPoint, type ExportState } from '../core/export';
import { countOf } from '../core/export/places';
import { newlySettled, outcomeText, UNDO_CONFLICT_REASON, type PushKind, type PushLogRow } from '../core/jobs/push-log';
import { appendPushLog } from '../gas/changes-sheet';
import { dropCachedSeries } from '../gas/document-settings';
import { loadJob, saveJob } from '../gas/job-store';
import { appsScriptDateFormatter, spreadsheetTimeZone } from '../gas/spreadsheet-dates';
import type { AuditPushReportItem, AuditPushTotals } from '../core/audit/types';
import type { NotUndoneValue, UndoHandle, UndoOutcome } from '../shared/rpc';
import { sidebarClient } from './api-factory';
import { startJob, type JobKind } from './jobs-api';
import { auditCellAddress, auditCellLogFields, forgetLastPush, KEPT_FOR_UNDO, loadLastPush, type LastPush } from './last-push';

/** Why a value the push created is not undone: the spec has no delete, and does not say a blank clears a value. */
const CREATED_REASON = 'the push created it (there was no value before): the API has no delete, and its description does not say a blank value clears one, so clear it in the web application';

/**
 * An undo as it steps: an audit push of the values before (with the push's values it compares the server
 * with), or an export of the values before (each item guarded by the value the export wrote, see diff.ts).
 */
type UndoJob = {
  pushId: string;
  /** What the push was, in the person's words ("audit push", "export"). */
  pushKind: string;
  /** The audit sheet an audit push was pushed from; '' for an export. */
  sheetName: string;
  /** "profileId/propertyId" → the snapshot key of what the push wrote. */
  atPush: Record<string, string>;
  notUndone: NotUndoneValue[];
  state: AuditPushState | ExportState;
  /** An export's undo: item i's cell, as the Pushes sheet names it. */
  cells?: string[];
};

/** An export's undo steps as an export: its state is an export's. */
function isExportUndo(state: AuditPushState | ExportState): state is ExportState {
  return 'spec' in state;
}

/** What cannot be undone of an export's or an import's rows, and why. */
function notUndoableRow(row: Omit<PushLogRow, 'who'>): NotUndoneValue {
  const why = row.kind !== 'Export'
    ? 'an import creates records, and the API cannot delete them: delete it in the web application if it is not wanted'
    : row.outcome === 'created'
      ? CREATED_REASON
      : row.outcome === 'updated'
        ? 'the export did not keep the value it replaced (a large export keeps only its first values before between steps): check it in the web application'
        : 'the export sent it whole without reading the value it replaced, if any (typed data, "only what changed" off), and the API has no delete: check it in the web application';
  return { what: row.what, period: row.period, cell: row.cell, value: row.newValue ?? '', reason: why };
}

/** Why a value that was blank before the push is not blanked again: the tail of CREATED_REASON. */
const BLANK_BEFORE_REASON = `it was blank before the push: ${CREATED_REASON.slice(CREATED_REASON.indexOf('the API'))}`;

/** What the last push stored beyond what Undo keeps: counted, restored by hand from the Pushes sheet. */
function notKeptValues(count: number): NotUndoneValue {
  return { what: `${countOf(count, 'more value')}`, period: '', cell: '', value: '', reason: `the push stored more than the ${KEPT_FOR_UNDO} values Undo keeps: restore them from the Pushes sheet's "Old value" column in the web application` };
}

/**
 * An export's undo: its updates whose value before is known become an export of those values (read first,
 * written only where the server still holds what the export wrote); the rest is listed with its reason.
 */
function exportUndo(last: LastPush): UndoJob {
  const notUndone = last.rows.map(notUndoableRow);
  const restorable: Array<ExportedPoint & { before: string }> = [];
  for (const point of last.points ?? []) {
    if (point.before !== null) restorable.push({ ...point, before: point.before });
    else notUndone.push({ what: point.metricName, period: point.date, cell: point.cell, value: point.written, reason: BLANK_BEFORE_REASON });
  }
  if (last.notKept > 0) notUndone.push(notKeptValues(last.notKept));
  return { pushId: last.pushId, pushKind: PUSH_KIND_WORDS[last.kind], sheetName: '', atPush: {}, notUndone, state: prepareExportUndo(restorable), cells: restorable.map((point) => point.cell) };
}

function isBlankText(text: string | null): boolean {
  return text === null || text.trim() === '';
}

/**
 * Starts undoing the last push of this spreadsheet: one read of the fund's properties and options, then a
 * job that compares each cell with what the push wrote and restores the value before. Forgets the push,
 * so a second Undo does not restore it again.
 */
export function undoLastPush(): UndoHandle {
  const last = loadLastPush();
  if (!last) throw new InputError('There is no push to undo: Undo keeps only your last push, and it was undone already, or made from another spreadsheet, or made before Undo was added.');
  const job = last.kind === 'Export' ? exportUndo(last) : auditUndo(last);
  // Forgotten now: the undo job holds what it restores, and a second Undo must not restore it again.
  forgetLastPush();
  return startJob(undoJob, job);
}

/**
 * An audit push's undo: its updated cells whose value before is known and can be written again become an
 * audit push of those values (each compared first with what the push wrote); the rest is listed with its reason.
 */
function auditUndo(last: LastPush): UndoJob {
  const notUndone: NotUndoneValue[] = [];
  const auditCells = last.audit?.cells ?? [];
  const sheetName = last.audit?.sheetName ?? '';
  // The audit push's rows are the cells themselves; an export's or an import's cannot be undone through the API.
  if (!last.audit) notUndone.push(...last.rows.map(notUndoableRow));
  const state: AuditPushState = {
    version: 1,
    status: 'running',
    companyId: last.audit?.companyId ?? '',
    profiles: [],
    properties: [],
    cellsCompared: 0,
    unchanged: 0,
    items: [],
    ignoredRows: [],
    counters: { steps: 0, stepsWithoutProgress: 0, requests: 0, rateLimitWaitMs: 0, retryWaitMs: 0 },
  };
  const atPush: Record<string, string> = {};
  const restorable = auditCells.filter((cell) => {
    if (cell.outcome === 'created' || isBlankText(cell.was)) {
      notUndone.push({ what: cell.what, period: '', cell: auditCellAddress(sheetName, cell.row, cell.column), value: cell.shown, reason: cell.outcome === 'created' ? CREATED_REASON : cell.was === null
        ? 'the push did not read the value before it (an overwrite of a conflict): restore it in the web application'
        : BLANK_BEFORE_REASON });
      return false;
    }
    return true;
  });
  if (restorable.length > 0) {
    const schema = loadAuditSchema(sidebarClient(), last.audit!.companyId);
    const context = { timeZone: spreadsheetTimeZone(), formatDate: appsScriptDateFormatter };
    for (const cell of restorable) {
      const property = schema.properties.find((candidate) => candidate.id === cell.propertyId);
      const write = property && cellWrite(cell.was, property, { ...context, options: schema.options[property.id] ?? [] });
      if (!property || !write || !write.ok) {
        notUndone.push({ what: cell.what, period: '', cell: auditCellAddress(sheetName, cell.row, cell.column), value: cell.shown, reason: property ? `the value before, "${cell.was}", cannot be written back: ${write && !write.ok ? write.reason : ''}` : 'the property is no longer in the fund' });
        continue;
      }
      let profile = state.profiles.findIndex((candidate) => candidate.id === cell.profileId);
      if (profile < 0) profile = state.profiles.push({ id: cell.profileId, name: cell.profileName }) - 1;
      let index = state.properties.findIndex((candidate) => candidate.id === property.id);
      if (index < 0) index = state.properties.push(withoutAutoCalculated(property)) - 1;
      atPush[`${cell.profileId}/${cell.propertyId}`] = cell.key;
      state.items.push({ profile, property: index, row: cell.row, column: cell.column, shown: cell.was!, key: cell.key, outcome: 'pending', write: write.write, planned: true });
    }
  }
  if (last.notKept > 0) notUndone.push(notKeptValues(last.notKept));
  state.cellsCompared = state.items.length;
  if (isPushComplete(state)) state.status = 'done';
  return { pushId: last.pushId, pushKind: PUSH_KIND_WORDS[last.kind], sheetName, atPush, notUndone, state };
}

const PUSH_KIND_WORDS: Record<PushKind, string> = {
  Export: 'export',
  'Audit push': 'audit push',
  'Audit overwrite': 'audit overwrite',
  'Import profiles': 'profile import',
  'Import contacts': 'contact import',
  Undo: 'undo',
};

function withoutAutoCalculated({ autoCalculated: _auto, ...property }: AuditProperty): Omit<AuditProperty, 'autoCalculated'> {
  return property;
}

/** Every undo's totals and items in one shape, whichever job it steps as. */
function undoReport(job: UndoJob): { totals: AuditPushTotals; items: AuditPushReportItem[]; problem: string | null } {
  if (isExportUndo(job.state)) return { ...exportUndoReport(job.state, job.cells ?? []), problem: job.state.problem ?? null };
  const { totals, items, problem } = buildAuditPushReport(job.state);
  return { totals, items, problem };
}

function undoOutcome(job: UndoJob): UndoOutcome {
  const { totals, items, problem } = undoReport(job);
  const restored = totals.updated + totals.created;
  const parts = [
    `${countOf(restored, 'value')} restored`,
    ...(isExportUndo(job.state) && totals.unchanged ? [`${countOf(totals.unchanged, 'value')} already held the value before`] : []),
    ...(totals.conflict ? [`${countOf(totals.conflict, 'conflict')} (changed on the server since the push, so not restored)`] : []),
    ...(totals.failed ? [`${totals.failed} failed`] : []),
    ...(totals.pending ? [`${totals.pending} not restored yet`] : []),
    ...(job.notUndone.length ? [`${countOf(job.notUndone.length, 'value')} the API cannot undo (listed)`] : []),
  ];
  const stillShown = restored === 0 ? ''
    : isExportUndo(job.state) ? ' The exported range still shows the exported values.'
      : job.sheetName ? ' The audit sheet still shows the pushed values: build the audit again to see the restored ones.' : '';
  return {
    summary: `Undo of the last ${job.pushKind} (Push ${job.pushId} in the Pushes sheet): ${parts.join(', ')}.${stillShown}`,
    totals,
    problems: items.filter((item) => item.outcome === 'failed' || item.outcome === 'skipped' || item.outcome === 'conflict'),
    problem,
    notUndone: job.notUndone,
  };
}

/** Every undo's progress, in the counts the audit push's bar shows (an export's items counted as cells). */
function undoProgress(job: UndoJob): UndoHandle['progress'] {
  if (!isExportUndo(job.state)) return auditPushProgress(job.state, Date.now());
  const { itemsDone, itemsTotal, batchesDone: _batches, batchesTotal: _total, waitedForRateLimitMs: _waited, ...base } = exportProgress(job.state, Date.now());
  return { ...base, cellsDone: itemsDone, cellsTotal: itemsTotal };
}

/** "restored" for what the undo wrote, else the outcome and its reason. */
function undoOutcomeText(restored: boolean, outcome: string, reason: string | null | undefined): string {
  return outcomeText(restored ? 'restored' : outcome, restored ? null : reason);
}

/** An export's undo rows for the Pushes sheet: old value is what the server held (what the export wrote), new the value before the export. */
function exportUndoLogRows(before: ExportState, after: ExportState, cells: readonly string[], undoId: string): Array<Omit<PushLogRow, 'who'>> {
  const time = new Date().toISOString();
  const withIndex = (state: ExportState) => state.items.map((item, index) => ({ outcome: item.outcome, index }));
  return newlySettled(withIndex(before), withIndex(after)).map(({ index }) => {
    const item = after.items[index]!;
    const outcome = exportUndoOutcome(item);
    return {
      time,
      kind: 'Undo' as const,
      what: item.metric === null ? '' : after.metrics[item.metric]?.name ?? '',
      period: item.date ?? '',
      oldValue: item.previous ?? null,
      newValue: item.value ?? null,
      outcome: undoOutcomeText(outcome === 'updated', outcome, item.reason),
      cell: cells[index] ?? '',
      push: undoId,
    };
  });
}

/** An audit push's undo rows for the Pushes sheet, kind "Undo": old value is what the push wrote, new the value restored. */
function auditUndoLogRows(was: AuditPushState, now: AuditPushState, sheetName: string, undoId: string): Array<Omit<PushLogRow, 'who'>> {
  const time = new Date().toISOString();
  return newlySettled(was.items, now.items).map((item) => ({
    time,
    kind: 'Undo' as const,
    ...auditCellLogFields(sheetName, now, item),
    outcome: undoOutcomeText(item.outcome === 'created' || item.outcome === 'updated', item.outcome, item.reason),
    push: undoId,
  }));
}

/** Undo as a job of the engine: the audit push's or the export's step, its guard comparing with what the push wrote. */
export const undoJob: JobKind<UndoJob, AuditPushState | ExportState, UndoHandle, UndoHandle['progress']> = {
  store: 'undo',
  marginMs: 8_000,
  notStored: 'This undo is no longer stored (it finished, or more than six hours passed).',
  load: (id) => loadJob<UndoJob>('undo', id),
  save: (id, job) => saveJob('undo', id, job),
  state: (job) => job.state,
  withState: (job, state) => ({ ...job, state }),
  handle: (undoId, job) => ({ undoId, pushId: job.pushId, progress: undoProgress(job), report: job.state.status === 'running' ? null : undoOutcome(job) }),
  progress: undoProgress,
  resumeState: (state) => (isExportUndo(state) ? resumeExport(state) : resumeAuditPush(state)),
  step: (job, context) => {
    if (isExportUndo(job.state)) return stepExportUndo({ ...job, state: job.state }, context);
    const { state } = runAuditPushStep(job.state, context.client, {
      ...context,
      onCheckpoint: (next) => context.checkpoint({ ...job, state: next }),
      guard: {
        keyAtBuild: (profileId, propertyId) => job.atPush[`${profileId}/${propertyId}`],
        timeZone: spreadsheetTimeZone(),
        formatDate: appsScriptDateFormatter,
        reason: UNDO_CONFLICT_REASON,
      },
    });
    appendPushLog(auditUndoLogRows(job.state, state, job.sheetName, context.id));
    return { ...job, state };
  },
};

/** An export's undo steps as an export (read, compare, write in paced waves); restored metrics' cached series are dropped. */
function stepExportUndo(job: UndoJob & { state: ExportState }, context: Parameters<typeof undoJob.step>[1]): UndoJob {
  const { state } = runExportStep(job.state, context.client, { ...context, noun: 'undo', onCheckpoint: (next) => context.checkpoint({ ...job, state: next }) });
  appendPushLog(exportUndoLogRows(job.state, state, job.cells ?? [], context.id));
  const restored = new Set(newlySettled(job.state.items, state.items).filter((item) => item.outcome === 'updated' && item.metric !== null).map((item) => state.metrics[item.metric!]!.id));
  // Formulas must not go on showing what the export wrote from their cache.
  dropCachedSeries([...restored]);
  return { ...job, state };
}
