// Undo the last push (issue 27, item 4): the cells an audit push updated get the value the push read just
// before writing them, as a job like any other (paced, resumable, accounted cell by cell), each compared
// first with what the push wrote: one someone changed on the server since is a conflict, not written over.
// What the API cannot undo (values the push created, exported data points, imported records) is listed.

import { auditPushProgress, buildAuditPushReport, cellName, resumeAuditPush, runAuditPushStep } from '../core/audit';
import { cellWrite } from '../core/audit/cell-writes';
import { loadAuditSchema } from '../core/audit/load-audit-data';
import { isPushComplete } from '../core/audit/write-back';
import type { AuditProperty, AuditPushItem, AuditPushState } from '../core/audit/types';
import { InputError } from '../core/errors';
import { countOf } from '../core/export/places';
import { newlySettled, outcomeText, type PushKind, type PushLogRow } from '../core/jobs/push-log';
import { appendPushLog } from '../gas/changes-sheet';
import { loadJob, saveJob } from '../gas/job-store';
import { quoteSheetName } from '../gas/sheet-io';
import { appsScriptDateFormatter, spreadsheetTimeZone } from '../gas/spreadsheet-dates';
import type { NotUndoneValue, UndoHandle, UndoOutcome } from '../shared/rpc';
import { sidebarClient } from './api-factory';
import { startJob, type JobKind } from './jobs-api';
import { forgetLastPush, KEPT_FOR_UNDO, loadLastPush } from './last-push';

/** The reason of an undo's conflict: lower-case, no final period, so it reads after "conflict: ". */
export const UNDO_CONFLICT_REASON = 'changed on the server since the push, so the value before the push was not restored and that change is kept';

/** Why a value the push created is not undone: the spec has no delete, and does not say a blank clears a value. */
const CREATED_REASON = 'the push created it (there was no value before): the API has no delete, and its description does not say a blank value clears one, so clear it in the web application';

/** An undo as it steps: a push of the values before, and the push's values it compares the server with. */
type UndoJob = {
  pushId: string;
  /** What the push was, in the person's words ("audit push", "export"). */
  pushKind: string;
  sheetName: string;
  /** "profileId/propertyId" → the snapshot key of what the push wrote. */
  atPush: Record<string, string>;
  notUndone: NotUndoneValue[];
  state: AuditPushState;
};

/** What cannot be undone of an export's or an import's rows, and why. */
function notUndoableRow(row: Omit<PushLogRow, 'who'>): NotUndoneValue {
  const why = row.kind === 'Export'
    ? 'the export did not read the value it replaced, and the API has no delete: check it in the web application'
    : 'an import creates records, and the API cannot delete them: delete it in the web application if it is not wanted';
  return { what: row.what, period: row.period, cell: row.cell, value: row.newValue ?? '', reason: why };
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
  const notUndone: NotUndoneValue[] = [];
  const auditCells = last.audit?.cells ?? [];
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
      notUndone.push({ what: cell.what, period: '', cell: cell.cell, value: cell.shown, reason: cell.outcome === 'created' ? CREATED_REASON : cell.was === null
        ? 'the push did not read the value before it (an overwrite of a conflict): restore it in the web application'
        : `it was blank before the push: ${CREATED_REASON.slice(CREATED_REASON.indexOf('the API'))}` });
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
        notUndone.push({ what: cell.what, period: '', cell: cell.cell, value: cell.shown, reason: property ? `the value before, "${cell.was}", cannot be written back: ${write && !write.ok ? write.reason : ''}` : 'the property is no longer in the fund' });
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
  if (last.notKept > 0) {
    notUndone.push({ what: `${countOf(last.notKept, 'more value')}`, period: '', cell: '', value: '', reason: `the push stored more than the ${KEPT_FOR_UNDO} values Undo keeps: restore them from the Pushes sheet's "Old value" column in the web application` });
  }
  state.cellsCompared = state.items.length;
  if (isPushComplete(state)) state.status = 'done';
  // Forgotten now: the undo job holds what it restores, and a second Undo must not restore it again.
  forgetLastPush();
  return startJob(undoJob, { pushId: last.pushId, pushKind: PUSH_KIND_WORDS[last.kind], sheetName: last.audit?.sheetName ?? '', atPush, notUndone, state });
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

function undoOutcome(job: UndoJob): UndoOutcome {
  const report = buildAuditPushReport(job.state);
  const { totals } = report;
  const parts = [
    `${countOf(totals.updated + totals.created, 'value')} restored`,
    ...(totals.conflict ? [`${countOf(totals.conflict, 'conflict')} (changed on the server since the push, so not restored)`] : []),
    ...(totals.failed ? [`${totals.failed} failed`] : []),
    ...(totals.pending ? [`${totals.pending} not restored yet`] : []),
    ...(job.notUndone.length ? [`${countOf(job.notUndone.length, 'value')} the API cannot undo (listed)`] : []),
  ];
  return {
    summary: `Undo of the last ${job.pushKind} (Push ${job.pushId} in the Pushes sheet): ${parts.join(', ')}.${totals.updated + totals.created > 0 && job.sheetName ? ` The audit sheet still shows the pushed values: build the audit again to see the restored ones.` : ''}`,
    totals: report.totals,
    problems: report.items.filter((item) => item.outcome === 'failed' || item.outcome === 'skipped' || item.outcome === 'conflict'),
    problem: report.problem,
    notUndone: job.notUndone,
  };
}

/** The undo's rows for the Pushes sheet, kind "Undo": old value is what the push wrote, new the value restored. */
function undoLogRows(before: UndoJob, after: UndoJob, undoId: string): Array<Omit<PushLogRow, 'who'>> {
  const time = new Date().toISOString();
  return newlySettled(before.state.items, after.state.items).map((item) => ({
    time,
    kind: 'Undo' as const,
    what: `${after.state.profiles[item.profile]?.name ?? ''} › ${after.state.properties[item.property]?.name ?? ''}`,
    period: '',
    oldValue: item.was ?? item.conflict?.server ?? null,
    newValue: item.shown,
    outcome: outcomeText(item.outcome === 'created' || item.outcome === 'updated' ? 'restored' : item.outcome, item.outcome === 'created' || item.outcome === 'updated' ? null : item.reason),
    cell: `${quoteSheetName(after.sheetName)}!${cellName(item.row, item.column)}`,
    push: undoId,
  }));
}

/** Undo as a job of the engine: the audit push's step, its guard comparing with what the push wrote. */
export const undoJob: JobKind<UndoJob, AuditPushState, UndoHandle, UndoHandle['progress']> = {
  store: 'undo',
  marginMs: 8_000,
  notStored: 'This undo is no longer stored (it finished, or more than six hours passed).',
  load: (id) => loadJob<UndoJob>('undo', id),
  save: (id, job) => saveJob('undo', id, job),
  state: (job) => job.state,
  withState: (job, state) => ({ ...job, state }),
  handle: (undoId, job) => ({ undoId, pushId: job.pushId, progress: auditPushProgress(job.state, Date.now()), report: job.state.status === 'running' ? null : undoOutcome(job) }),
  progress: (job) => auditPushProgress(job.state, Date.now()),
  resumeState: resumeAuditPush,
  step: (job, context) => {
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
    const next = { ...job, state };
    appendPushLog(undoLogRows(job, next, context.id));
    return next;
  },
};
