// Undo of a push, from that push's journal (core/journal, gas/journal-sheet): the person picks
// one of their last pushes in this spreadsheet (listUndoablePushes), confirms, and a job like any other (paced,
// resumable, accounted value by value) writes back every value the push replaced, exactly as the server held it
// (the body read just before the push's write: full text, rich text's markup, option ids), each compared first
// with what the push wrote: one someone changed since, or a later push wrote again, is a conflict, kept.
// An audit push's undo steps as an audit push, an export's as an export, a profile import's as profile updates.
// What the API cannot undo (values the push created, blanks, records an import created) is listed; values the
// push sent unchanged are nothing to undo. The job store keeps only the undo's id, push and run state: each
// load rebuilds it from the two journals (the push's, and the undo's own, which records what each step settled).

import { auditPushProgress, buildAuditPushReport, resumeAuditPush, runAuditPushStep } from '../core/audit';
import { isPushComplete } from '../core/audit/write-back';
import type { AuditPushReportItem, AuditPushState, AuditPushTotals, AuditWrite } from '../core/audit/types';
import { AUDIT_CELL_OUTCOMES } from '../core/audit/types';
import { InputError } from '../core/errors';
import {
  exportProgress,
  exportUndoOutcome,
  exportUndoReport,
  prepareExportUndo,
  resumeExport,
  runExportStep,
  type ExportedPoint,
  type ExportState,
} from '../core/export';
import { countOf, joinAnd } from '../shared/words';
import { newlySettled, outcomeText, UNDO_CONFLICT_REASON, type PushKind, type PushLogRow } from '../core/jobs/push-log';
import { resumeWaveJob } from '../core/jobs/job-state';
import { tallyOutcomes } from '../core/jobs/tally';
import { pushJournals, targetKey, type JournalEntry, type JournalOutcome, type PushJournal } from '../core/journal/journal';
import { describeTarget, planUndo, type UndoPlan } from '../core/journal/undo-plan';
import {
  isProfileUndo,
  isProfileUndoComplete,
  prepareProfileUndo,
  profileUndoProgress,
  runProfileUndoStep,
  type ProfileUndoState,
} from '../core/journal/profile-undo';
import { appendPushLog } from '../gas/changes-sheet';
import { dropCachedSeries } from '../gas/document-settings';
import { appendJournal, JOURNAL_SHEET, journalTime, readJournal } from '../gas/journal-sheet';
import { forgetJob, loadJob, newJobId, saveJob } from '../gas/job-store';
import { appsScriptDateFormatter, spreadsheetTimeZone } from '../gas/spreadsheet-dates';
import type { NotUndoneValue, UndoablePush, UndoablePushes, UndoHandle, UndoOutcome } from '../shared/rpc';
import { startJob, type JobKind } from './jobs-api';
import { auditCellLogFields, auditEntries } from './push-journal';
import { showRestoredAuditValues } from './audit-sheet-restore';

/** How many of the person's pushes Undo offers. */
export const UNDOABLE_PUSHES = 10;

type UndoState = AuditPushState | ExportState | ProfileUndoState;

/** What the job store keeps of an undo: no value, only which push and how the run stands (the rest is in the journals). */
type UndoRecord = {
  v: 2;
  pushId: string;
  run: Pick<UndoState, 'status' | 'problem' | 'notBefore' | 'rateLimitedSince' | 'retry'> & { counters: Record<string, number> };
};

/** An undo as it steps, rebuilt from the journals on every load. */
type UndoJob = {
  pushId: string;
  /** What the push was, in the person's words ("audit push", "export"). */
  pushKind: string;
  /** The audit sheet an audit push was pushed from; '' otherwise. */
  sheetName: string;
  /** "profileId/propertyId" → the snapshot key of what the push wrote (an audit push's undo compares with it). */
  atPush: Record<string, string>;
  notUndone: NotUndoneValue[];
  /** Values a later push wrote again: conflicts, never written. */
  heldBack: AuditPushReportItem[];
  nothingToUndo: number;
  state: UndoState;
  /** An export's undo: item i's cell, as the Pushes sheet names it. */
  cells?: string[];
};

function isExportUndo(state: UndoState): state is ExportState {
  return 'spec' in state;
}

function isAuditUndo(state: UndoState): state is AuditPushState {
  return !isExportUndo(state) && !isProfileUndo(state);
}

const PUSH_KIND_WORDS: Record<PushKind, string> = {
  Export: 'export',
  'Audit push': 'audit push',
  'Audit overwrite': 'audit overwrite',
  'Import profiles': 'profile import',
  'Import contacts': 'contact import',
  Undo: 'undo',
};

/** The journals of this user here, and a sentence when rows of theirs did not verify (ignored). */
function journals(): { all: PushJournal[]; altered: string | null } {
  const read = readJournal();
  const altered =
    read.altered === 0
      ? null
      : `${countOf(read.altered, 'row')} of your journal of pushes (the hidden sheet "${JOURNAL_SHEET}") ${read.altered === 1 ? 'was' : 'were'} changed by someone else, so ${read.altered === 1 ? 'it is' : 'they are'} ignored: what ${read.altered === 1 ? 'it' : 'they'} recorded is not undone.`;
  return { all: pushJournals(read.records), altered };
}

/** 'A5' of "Sheet1!A5": a report's row and column. */
function cellPlace(cell: string): { row: number; column: number } {
  const match = /([A-Z]+)(\d+)$/.exec(cell);
  if (!match) return { row: 0, column: 0 };
  const column = [...match[1]!].reduce((sum, letter) => sum * 26 + letter.charCodeAt(0) - 64, 0);
  return { row: Number(match[2]), column };
}

function heldBackItem(entry: JournalEntry, by: PushJournal): AuditPushReportItem {
  const { what, period } = describeTarget(entry);
  const target = entry.target;
  return {
    ...cellPlace(entry.cell),
    outcome: 'conflict',
    cell: entry.cell,
    profileId: target.type === 'cell' || target.type === 'field' ? target.profileId : target.type === 'point' ? target.metricId : '',
    profileName: target.type === 'cell' || target.type === 'field' ? target.profileName : what,
    propertyId: target.type === 'cell' ? target.propertyId : '',
    propertyName: target.type === 'cell' ? target.propertyName : target.type === 'field' ? target.field : period,
    value: entry.replaced ?? '',
    reason: `written again by a later ${PUSH_KIND_WORDS[by.kind]} (Push ${by.push} in the Pushes sheet), so the value before this push was not restored: undo that push first`,
    conflict: { atBuild: entry.written, server: '' },
  };
}

/** The run fields a stored record carries over to a rebuilt state. */
function applyRun(state: UndoState, run: UndoRecord['run'] | undefined): UndoState {
  if (!run) return state;
  const next = { ...state, status: run.status, counters: { ...state.counters, ...run.counters } } as UndoState;
  for (const key of ['problem', 'notBefore', 'rateLimitedSince', 'retry'] as const) {
    if (run[key] !== undefined) (next as Record<string, unknown>)[key] = run[key];
    else delete (next as Record<string, unknown>)[key];
  }
  return next;
}

/** An undo's entries so far by target: what each of its steps settled. */
function settledBy(undo: PushJournal | undefined): Map<string, JournalEntry> {
  return new Map((undo?.entries ?? []).map((entry) => [targetKey(entry.target), entry]));
}

/** An export's undo: each restorable point's value before, guarded by the value the export wrote. */
function exportUndoState(plan: UndoPlan, settled: Map<string, JournalEntry>): { state: ExportState; cells: string[] } {
  const points = plan.restore.map((entry): ExportedPoint & { before: string } => {
    const target = entry.target as Extract<JournalEntry['target'], { type: 'point' }>;
    return {
      metricId: target.metricId,
      metricName: target.metricName,
      date: target.date,
      cell: entry.cell,
      ...cellPlace(entry.cell),
      written: entry.written ?? '',
      before: entry.replaced!,
    };
  });
  const state = prepareExportUndo(points);
  state.items.forEach((item, index) => {
    const done = settled.get(targetKey(plan.restore[index]!.target));
    if (!done) return;
    item.outcome = done.outcome === 'conflict' ? 'skipped' : done.outcome === 'updated' ? 'updated' : done.outcome === 'unchanged' ? 'unchanged' : 'failed';
    if (done.outcome === 'conflict') item.reason = UNDO_CONFLICT_REASON;
    else if (done.reason) item.reason = done.reason;
    if (done.replaced !== undefined) item.previous = done.replaced;
  });
  // What an earlier step settled is never sent again: out of any batch planned at once (compare-and-set plans
  // an undo's batches up front), and a metric none of whose points is left is not read again.
  state.batches = state.batches
    .map((batch) => ({ ...batch, items: batch.items.filter((index) => state.items[index]!.outcome === 'pending') }))
    .filter((batch) => batch.items.length > 0);
  state.metrics.forEach((metric, index) => {
    if (!state.items.some((item) => item.metric === index && item.outcome === 'pending')) metric.phase = 'send';
  });
  state.status = isPushCompleteExport(state) ? 'done' : 'running';
  return { state, cells: points.map((point) => point.cell) };
}

function isPushCompleteExport(state: ExportState): boolean {
  return !state.items.some((item) => item.outcome === 'pending');
}

/** An audit push's undo: each restorable cell's body before, as an audit push compared with what the push wrote. */
function auditUndoState(push: PushJournal, plan: UndoPlan, settled: Map<string, JournalEntry>): { state: AuditPushState; atPush: Record<string, string> } {
  const state: AuditPushState = {
    version: 1,
    status: 'running',
    companyId: push.companyId ?? '',
    profiles: [],
    properties: [],
    cellsCompared: 0,
    unchanged: 0,
    items: [],
    ignoredRows: [],
    counters: { steps: 0, stepsWithoutProgress: 0, requests: 0, rateLimitWaitMs: 0, retryWaitMs: 0 },
  };
  const atPush: Record<string, string> = {};
  for (const entry of plan.restore) {
    const target = entry.target as Extract<JournalEntry['target'], { type: 'cell' }>;
    let profile = state.profiles.findIndex((candidate) => candidate.id === target.profileId);
    if (profile < 0) profile = state.profiles.push({ id: target.profileId, name: target.profileName }) - 1;
    let property = state.properties.findIndex((candidate) => candidate.id === target.propertyId);
    if (property < 0) property = state.properties.push({ id: target.propertyId, name: target.propertyName, dataType: target.dataType }) - 1;
    atPush[`${target.profileId}/${target.propertyId}`] = entry.key ?? '';
    const before = entry.replaced ?? '';
    const done = settled.get(targetKey(target));
    const item: AuditPushState['items'][number] = {
      profile,
      property,
      ...cellPlace(entry.cell),
      shown: before.length > 60 ? `${before.slice(0, 60)}…` : before,
      key: entry.key ?? '',
      outcome: 'pending',
      planned: true,
    };
    if (!done) item.write = entry.replacedBody as AuditWrite;
    else if (done.outcome === 'conflict')
      Object.assign(item, { outcome: 'conflict', reason: UNDO_CONFLICT_REASON, conflict: { atBuild: entry.written, server: done.replaced ?? '' } });
    else if (done.outcome === 'failed') Object.assign(item, { outcome: 'failed', reason: done.reason ?? 'failed' });
    else item.outcome = 'updated';
    state.items.push(item);
  }
  state.cellsCompared = state.items.length;
  if (isPushComplete(state)) state.status = 'done';
  return { state, atPush };
}

/** A profile import's undo: each field it replaced on an existing profile, compared with what it wrote. */
function profileUndoState(push: PushJournal, plan: UndoPlan, settled: Map<string, JournalEntry>): ProfileUndoState {
  const state = prepareProfileUndo(
    push.companyId ?? '',
    plan.restore.map((entry) => {
      const target = entry.target as Extract<JournalEntry['target'], { type: 'field' }>;
      return {
        profileId: target.profileId,
        profileName: target.profileName,
        field: target.field,
        cell: entry.cell,
        written: entry.writtenField ?? null,
        value: entry.replacedField ?? null,
      };
    }),
  );
  state.items.forEach((item, index) => {
    const done = settled.get(targetKey(plan.restore[index]!.target));
    if (!done) return;
    item.outcome = done.outcome === 'conflict' || done.outcome === 'unchanged' || done.outcome === 'failed' ? done.outcome : 'updated';
    if (done.reason) item.reason = done.reason;
    if (done.outcome === 'conflict') item.server = done.replacedField ?? null;
  });
  state.status = isProfileUndoComplete(state) ? 'done' : 'running';
  return state;
}

/** The undo of `push` as it stands: its plan from the journals, and what the undo's own journal says it settled. */
function buildUndo(push: PushJournal, all: readonly PushJournal[], undoId: string | null): UndoJob {
  const plan = planUndo(
    push,
    all.filter((journal) => journal !== push),
  );
  const settled = settledBy(all.find((journal) => journal.push === undoId));
  const base = {
    pushId: push.push,
    pushKind: PUSH_KIND_WORDS[push.kind],
    sheetName: push.sheetName ?? '',
    atPush: {},
    notUndone: plan.notUndone,
    heldBack: plan.heldBack.map(({ entry, by }) => heldBackItem(entry, by)),
    nothingToUndo: plan.nothingToUndo,
  };
  if (push.kind === 'Export') return { ...base, ...exportUndoState(plan, settled) };
  if (push.kind === 'Import profiles' || push.kind === 'Import contacts') return { ...base, state: profileUndoState(push, plan, settled) };
  const { state, atPush } = auditUndoState(push, plan, settled);
  return { ...base, state, atPush };
}

/** The person's last pushes here, newest first, each with what Undo of it would do. */
export function listUndoablePushes(): UndoablePushes {
  // The one record per user that Undo kept before the journal: nothing reads it any more, and it took room in the user's properties.
  if (loadJob('last-push', 'user') !== null) forgetJob('last-push', 'user');
  const { all, altered } = journals();
  const pushes = all
    .filter((journal) => !journal.undoes)
    .slice(0, UNDOABLE_PUSHES)
    .map((push) => describePush(push, all));
  return { pushes, altered };
}

function describePush(push: PushJournal, all: readonly PushJournal[]): UndoablePush {
  const plan = planUndo(
    push,
    all.filter((journal) => journal !== push),
  );
  const started = journalTime(push.started);
  const undoneBy = all.find((journal) => journal.undoes === push.push)?.push ?? null;
  const reasons = [...new Set(plan.notUndone.map((value) => value.reason.split(':')[0]!))];
  const parts = [
    `Undo restores ${countOf(plan.restore.length, 'value')} it replaced`,
    ...(plan.heldBack.length ? [`holds back ${countOf(plan.heldBack.length, 'value')} a later push wrote again`] : []),
    ...(plan.nothingToUndo ? [`${countOf(plan.nothingToUndo, 'value')} ${plan.nothingToUndo === 1 ? 'was' : 'were'} sent unchanged (nothing to undo)`] : []),
    ...(plan.notUndone.length ? [`it cannot undo ${countOf(plan.notUndone.length, 'value')} (${joinAnd(reasons)})`] : []),
  ];
  const where = push.sheetName ? ` from "${push.sheetName}"` : '';
  return {
    pushId: push.push,
    kind: push.kind,
    started,
    stored: plan.storedCount,
    restorable: plan.restore.length,
    heldBack: plan.heldBack.length,
    nothingToUndo: plan.nothingToUndo,
    cannotUndo: plan.notUndone.length,
    description: `${PUSH_KIND_WORDS[push.kind].replace(/^./, (c) => c.toUpperCase())}${where} of ${started} (Push ${push.push} in the Pushes sheet), ${countOf(plan.storedCount, 'value')} stored: ${parts.join('; ')}.${undoneBy ? ` It was undone already (Undo ${undoneBy}).` : ''}`,
    undoneBy,
  };
}

/**
 * Starts undoing push `pushId` of this user in this spreadsheet: marks the undo in the journal (so it is not
 * offered again), then a job that compares each value with what the push wrote and restores the value before.
 */
export function undoPush(pushId: string): UndoHandle {
  const { all } = journals();
  const push = all.find((journal) => journal.push === pushId.toLowerCase() && !journal.undoes);
  if (!push) throw new InputError(`There is no push ${pushId} of yours in this spreadsheet's journal: pick one from the list of your last pushes.`);
  return startUndo(push, all);
}

function startUndo(push: PushJournal, all: readonly PushJournal[]): UndoHandle {
  const undone = all.find((journal) => journal.undoes === push.push);
  if (undone)
    throw new InputError(
      `Push ${push.push} was undone already (Undo ${undone.push}): an undo that did not finish is offered with Resume on the Portfolio tab.`,
    );
  const undoId = newJobId();
  const job = buildUndo(push, all, null);
  // Marked first: a second Undo of the same push must find it, even if this one is left before its first step.
  appendJournal({ push: undoId, kind: 'Undo', undoes: push.push, ...(push.companyId ? { companyId: push.companyId } : {}) }, []);
  return startJob(undoJob, job, undoId);
}

/** Starts undoing the person's last push in this spreadsheet (the newest in their journal). */
export function undoLastPush(): UndoHandle {
  const { all } = journals();
  const last = all.find((journal) => !journal.undoes);
  if (!last)
    throw new InputError("There is no push to undo: none of yours is in this spreadsheet's journal (pushes made elsewhere, or before the journal, are not).");
  if (all.some((journal) => journal.undoes === last.push))
    throw new InputError(
      `There is no push to undo: your last push (Push ${last.push}) was undone already. Pick an earlier one from the list of your last pushes.`,
    );
  return startUndo(last, all);
}

/** Every undo's totals and items in one shape, whichever job it steps as. */
function undoReport(job: UndoJob): { totals: AuditPushTotals; items: AuditPushReportItem[]; problem: string | null } {
  let report: { totals: AuditPushTotals; items: AuditPushReportItem[]; problem: string | null };
  if (isExportUndo(job.state)) report = { ...exportUndoReport(job.state, job.cells ?? []), problem: job.state.problem ?? null };
  else if (isProfileUndo(job.state)) report = profileUndoReport(job.state);
  else {
    const { totals, items, problem } = buildAuditPushReport(job.state);
    report = { totals, items, problem };
  }
  return { ...report, totals: { ...report.totals, conflict: report.totals.conflict + job.heldBack.length }, items: [...report.items, ...job.heldBack] };
}

function profileUndoReport(state: ProfileUndoState): { totals: AuditPushTotals; items: AuditPushReportItem[]; problem: string | null } {
  const items = state.items.flatMap((item): AuditPushReportItem[] =>
    item.outcome === 'unchanged'
      ? []
      : [
          {
            ...cellPlace(item.cell),
            outcome: item.outcome,
            cell: item.cell,
            profileId: item.profileId,
            profileName: item.profileName,
            propertyId: '',
            propertyName: item.field,
            value: String(item.value ?? ''),
            reason: item.reason ?? null,
            ...(item.outcome === 'conflict'
              ? { conflict: { atBuild: item.written === null ? null : String(item.written), server: String(item.server ?? '') } }
              : {}),
          },
        ],
  );
  return { totals: tallyOutcomes(AUDIT_CELL_OUTCOMES, state.items, (item) => item.outcome), items, problem: state.problem ?? null };
}

function undoOutcome(job: UndoJob): UndoOutcome {
  const { totals, items, problem } = undoReport(job);
  const restored = totals.updated + totals.created;
  const parts = [
    `${countOf(restored, 'value')} restored`,
    ...(!isAuditUndo(job.state) && totals.unchanged ? [`${countOf(totals.unchanged, 'value')} already held the value before`] : []),
    ...(totals.conflict > job.heldBack.length
      ? [`${countOf(totals.conflict - job.heldBack.length, 'conflict')} (changed on the server since the push, so not restored)`]
      : []),
    ...(job.heldBack.length
      ? [
          `${countOf(job.heldBack.length, 'value')} held back as ${job.heldBack.length === 1 ? 'a conflict' : 'conflicts'} (written again by a later push: undo that one first)`,
        ]
      : []),
    ...(totals.failed ? [`${totals.failed} failed`] : []),
    ...(totals.pending ? [`${totals.pending} not restored yet`] : []),
    ...(job.nothingToUndo ? [`${countOf(job.nothingToUndo, 'value')} sent unchanged (nothing to undo)`] : []),
    ...(job.notUndone.length ? [`${countOf(job.notUndone.length, 'value')} the API cannot undo (listed)`] : []),
  ];
  const stillShown = restored > 0 && isExportUndo(job.state) ? ' The exported range still shows the exported values.' : '';
  return {
    summary: `Undo of the ${job.pushKind} (Push ${job.pushId} in the Pushes sheet): ${parts.join(', ')}.${stillShown}`,
    totals,
    problems: items.filter((item) => item.outcome === 'failed' || item.outcome === 'skipped' || item.outcome === 'conflict'),
    problem,
    notUndone: job.notUndone,
  };
}

/** Every undo's progress, in the counts the audit push's bar shows (an export's items counted as cells). */
function undoProgress(job: UndoJob): UndoHandle['progress'] {
  if (isProfileUndo(job.state)) return profileUndoProgress(job.state, Date.now());
  if (!isExportUndo(job.state)) return auditPushProgress(job.state, Date.now());
  const { itemsDone, itemsTotal, batchesDone: _batches, batchesTotal: _total, waitedForRateLimitMs: _waited, ...base } = exportProgress(job.state, Date.now());
  return { ...base, cellsDone: itemsDone, cellsTotal: itemsTotal };
}

/** "restored" for what the undo wrote, else the outcome and its reason. */
function undoOutcomeText(restored: boolean, outcome: string, reason: string | null | undefined): string {
  return outcomeText(restored ? 'restored' : outcome, restored ? null : reason);
}

/** The journal's outcome of an export undo's item (what Undo reports is the same, but pending). */
function exportJournalOutcome(outcome: string): JournalOutcome {
  return outcome === 'pending' ? 'failed' : (outcome as JournalOutcome);
}

/** An export undo's step, for the Pushes sheet and the undo's journal: old value is what the server held, new the value before the export. */
function exportUndoSettled(
  before: ExportState,
  after: ExportState,
  cells: readonly string[],
  undoId: string,
): { rows: Array<Omit<PushLogRow, 'who'>>; entries: JournalEntry[] } {
  const time = new Date().toISOString();
  const withIndex = (state: ExportState) => state.items.map((item, index) => ({ outcome: item.outcome, index }));
  const rows: Array<Omit<PushLogRow, 'who'>> = [];
  const entries: JournalEntry[] = [];
  for (const { index } of newlySettled(withIndex(before), withIndex(after))) {
    const item = after.items[index]!;
    const outcome = exportUndoOutcome(item);
    const metric = item.metric === null ? undefined : after.metrics[item.metric];
    rows.push({
      time,
      kind: 'Undo',
      what: metric?.name ?? '',
      period: item.date ?? '',
      oldValue: item.previous ?? null,
      newValue: item.value ?? null,
      outcome: undoOutcomeText(outcome === 'updated', outcome, item.reason),
      cell: cells[index] ?? '',
      push: undoId,
    });
    if (metric && item.date) {
      entries.push({
        target: { type: 'point', metricId: metric.id, metricName: metric.name, date: item.date },
        cell: cells[index] ?? '',
        written: item.value ?? null,
        ...(item.previous !== undefined ? { replaced: item.previous } : {}),
        outcome: exportJournalOutcome(outcome),
        ...(item.reason ? { reason: item.reason } : {}),
      });
    }
  }
  return { rows, entries };
}

/** An audit push's undo rows for the Pushes sheet, kind "Undo": old value is what the server held (what the push wrote), new the value restored. */
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

/** A profile import's undo: its Pushes rows and journal entries, field by field. */
function profileUndoSettled(
  before: ProfileUndoState,
  after: ProfileUndoState,
  undoId: string,
): { rows: Array<Omit<PushLogRow, 'who'>>; entries: JournalEntry[] } {
  const time = new Date().toISOString();
  const settled = newlySettled(before.items, after.items);
  const text = (value: unknown) => (value === null || value === undefined ? null : String(value));
  return {
    rows: settled.map((item) => ({
      time,
      kind: 'Undo',
      what: `${item.profileName} › ${item.field}`,
      period: '',
      oldValue: text(item.outcome === 'conflict' ? item.server : item.written),
      newValue: text(item.value),
      outcome: undoOutcomeText(item.outcome === 'updated', item.outcome, item.reason),
      cell: item.cell,
      push: undoId,
    })),
    entries: settled.map((item) => ({
      target: { type: 'field', profileId: item.profileId, profileName: item.profileName, field: item.field },
      cell: item.cell,
      written: text(item.value),
      writtenField: item.value,
      ...(item.outcome === 'conflict' ? { replacedField: item.server ?? null } : {}),
      outcome: item.outcome === 'pending' ? 'failed' : item.outcome,
      ...(item.reason ? { reason: item.reason } : {}),
    })),
  };
}

/**
 * The audit sheet shows the restored values once Undo has written them, so the next push does not send the pushed
 * value again. An InputError (the audit is not the user's own any more, or its ids no longer sit beside their
 * names) leaves the sheet as it is, and is not the undo's failure: the server holds the restored values whatever
 * the sheet shows.
 */
function showRestoredInAudit(sheetName: string, cells: Array<{ profileId: string; propertyId: string; value: AuditWrite }>): void {
  try {
    showRestoredAuditValues(sheetName, cells);
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
  }
}

/** The restored cells of an audit undo, as showRestoredAuditValues takes them: the body Undo wrote back. */
function restoredCells(job: UndoJob & { state: AuditPushState }): Array<{ profileId: string; propertyId: string; value: AuditWrite }> {
  const { all } = journals();
  const push = all.find((journal) => journal.push === job.pushId);
  const before = new Map((push?.entries ?? []).map((entry) => [targetKey(entry.target), entry.replacedBody]));
  return job.state.items.flatMap((item) => {
    if (item.outcome !== 'updated' && item.outcome !== 'created') return [];
    const profileId = job.state.profiles[item.profile]!.id;
    const propertyId = job.state.properties[item.property]!.id;
    const value = before.get(`cell/${profileId.toLowerCase()}/${propertyId.toLowerCase()}`);
    return value ? [{ profileId, propertyId, value }] : [];
  });
}

/** The record the job store keeps: no value (SECURITY.md, "The journal"). */
function recordOf(job: UndoJob): UndoRecord {
  const { status, problem, notBefore, rateLimitedSince, retry, counters } = job.state;
  return {
    v: 2,
    pushId: job.pushId,
    run: {
      status,
      counters: { ...counters },
      ...(problem !== undefined ? { problem } : {}),
      ...(notBefore !== undefined ? { notBefore } : {}),
      ...(rateLimitedSince !== undefined ? { rateLimitedSince } : {}),
      ...(retry ? { retry } : {}),
    },
  };
}

/** The undo `undoId` rebuilt from its record and the journals; null when it is no longer stored. */
function loadUndo(undoId: string): UndoJob | null {
  const record = loadJob<UndoRecord>('undo', undoId);
  if (record?.v !== 2) return null;
  const { all } = journals();
  const push = all.find((journal) => journal.push === record.pushId);
  if (!push)
    throw new InputError(
      `The journal of Push ${record.pushId} is no longer in this spreadsheet (its rows were deleted or changed): nothing more of it can be restored.`,
    );
  const job = buildUndo(push, all, undoId);
  return { ...job, state: applyRun(job.state, record.run) };
}

/** Undo as a job of the engine: the audit push's, the export's or the profile fields' step, its guard comparing with what the push wrote. */
export const undoJob: JobKind<UndoJob, UndoState, UndoHandle, UndoHandle['progress']> = {
  store: 'undo',
  marginMs: 8_000,
  notStored: 'This undo is no longer stored (it finished, or more than six hours passed).',
  load: loadUndo,
  save: (id, job) => saveJob('undo', id, recordOf(job)),
  state: (job) => job.state,
  withState: (job, state) => ({ ...job, state }),
  handle: (undoId, job) => ({ undoId, pushId: job.pushId, progress: undoProgress(job), report: job.state.status === 'running' ? null : undoOutcome(job) }),
  progress: undoProgress,
  resumeState: (state) =>
    isExportUndo(state) ? resumeExport(state) : isProfileUndo(state) ? resumeWaveJob(state, isProfileUndoComplete) : resumeAuditPush(state),
  step: (job, context) => {
    if (isExportUndo(job.state)) return stepExportUndo({ ...job, state: job.state }, context);
    if (isProfileUndo(job.state)) {
      const { state } = runProfileUndoStep(job.state, context.client, { ...context, onCheckpoint: (next) => context.checkpoint({ ...job, state: next }) });
      const { rows, entries } = profileUndoSettled(job.state, state, context.id);
      appendPushLog(rows);
      if (entries.length > 0) appendJournal({ push: context.id, kind: 'Undo', undoes: job.pushId }, entries);
      return { ...job, state };
    }
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
    const entries = auditEntries(job.sheetName, job.state, state);
    if (entries.length > 0) appendJournal({ push: context.id, kind: 'Undo', undoes: job.pushId }, entries);
    return { ...job, state };
  },
  stopped: (_id, job) => {
    if (isAuditUndo(job.state) && job.sheetName) {
      const cells = restoredCells({ ...job, state: job.state });
      if (cells.length > 0) showRestoredInAudit(job.sheetName, cells);
    }
  },
};

/** An export's undo steps as an export (read, compare, write in paced waves); restored metrics' cached series are dropped. */
function stepExportUndo(job: UndoJob & { state: ExportState }, context: Parameters<typeof undoJob.step>[1]): UndoJob {
  const { state } = runExportStep(job.state, context.client, { ...context, noun: 'undo', onCheckpoint: (next) => context.checkpoint({ ...job, state: next }) });
  const { rows, entries } = exportUndoSettled(job.state, state, job.cells ?? [], context.id);
  appendPushLog(rows);
  if (entries.length > 0) appendJournal({ push: context.id, kind: 'Undo', undoes: job.pushId }, entries);
  const restored = new Set(
    newlySettled(job.state.items, state.items)
      .filter((item) => item.outcome === 'updated' && item.metric !== null)
      .map((item) => state.metrics[item.metric!]!.id),
  );
  // Formulas must not go on showing what the export wrote from their cache.
  dropCachedSeries([...restored]);
  return { ...job, state };
}
