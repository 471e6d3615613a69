// Scheduled refresh of snapshots: one time-driven trigger per user per spreadsheet (the add-on rule), running
// refreshAllSnapshots as its owner. Such a trigger has no active spreadsheet, so the schedule keeps its id (in
// the owner's user properties, the one store a trigger reads) and opens it by id (`spreadsheets` scope, SECURITY.md).

import { InputError, overdueScheduleSentence, userSentence } from '../core/errors';
import type { ChangeRow } from '../core/snapshots/changes';
import {
  decodeSchedule,
  overdueSince,
  requireFrequency,
  runOutcome,
  SCHEDULE_KEY_PREFIX,
  scheduleKey,
  type ScheduledRun,
  type SnapshotRefreshFrequency,
  type SnapshotSchedule,
} from '../core/snapshots/schedule';
import { SCOPE } from '../core/settings/permissions';
import { appendChanges } from '../gas/changes-sheet';
import { missingPermissionSentence, requirePermission } from '../gas/granted-scopes';
import { countQuotaUse } from '../gas/quota-usage';
import type { SnapshotRefreshScheduleView } from '../shared/rpc';
import { refreshAllSnapshots } from './snapshots';

/** The global in src/main.ts that the trigger runs. */
const SCHEDULED_REFRESH_HANDLER = 'runScheduledSnapshotRefresh';

const REFRESH = 'Refresh snapshots (schedule)';

/** The feature that needs "Allow this application to run when you are not present" (script.scriptapp). */
const SCHEDULING = 'Scheduling a snapshot refresh';

/** The caller's refresh triggers in the active spreadsheet (getUserTriggers lists only the caller's). */
function myTriggersHere(): GoogleAppsScript.Script.Trigger[] {
  return ScriptApp.getUserTriggers(SpreadsheetApp.getActiveSpreadsheet()).filter(
    (trigger) => trigger.getHandlerFunction() === SCHEDULED_REFRESH_HANDLER && trigger.getEventType() === ScriptApp.EventType.CLOCK,
  );
}

/**
 * "Triggers: 20 / user / script" (quotas page): a user's triggers of this add-on, over every spreadsheet. The add-in
 * learns where the others are only from its own records (one user property per scheduled spreadsheet).
 */
const MAX_TRIGGERS_PER_USER = 20;

/** The caller's schedules in other spreadsheets whose trigger still exists (getProjectTriggers lists only the caller's). */
function schedulesElsewhere(spreadsheetId: string): SnapshotSchedule[] {
  const live = new Set(ScriptApp.getProjectTriggers().map((trigger) => trigger.getUniqueId()));
  return Object.entries(PropertiesService.getUserProperties().getProperties())
    .filter(([key]) => key.startsWith(SCHEDULE_KEY_PREFIX))
    .map(([, text]) => decodeSchedule(text))
    .filter((schedule): schedule is SnapshotSchedule => schedule !== null && schedule.spreadsheetId !== spreadsheetId && live.has(schedule.triggerUid));
}

/** Why a 21st schedule cannot be made, naming where the others are, so the person can turn one off there. */
function tooManySchedules(elsewhere: readonly SnapshotSchedule[]): InputError {
  const where = elsewhere.map((schedule) => `https://docs.google.com/spreadsheets/d/${schedule.spreadsheetId}`).join(', ');
  return new InputError(
    `You already have ${elsewhere.length} scheduled refreshes, and Apps Script allows ${MAX_TRIGGERS_PER_USER} triggers per user for this add-on ("Triggers: 20 / user / script", quotas page), so none can be added here. Turn one off (Snapshots › Turn off, in its spreadsheet) and schedule this one again. They are in: ${where || 'spreadsheets the add-in has no record of'}.`,
  );
}

function readSchedule(spreadsheetId: string): SnapshotSchedule | null {
  return decodeSchedule(PropertiesService.getUserProperties().getProperty(scheduleKey(spreadsheetId)));
}

function writeSchedule(schedule: SnapshotSchedule): void {
  PropertiesService.getUserProperties().setProperty(scheduleKey(schedule.spreadsheetId), JSON.stringify(schedule));
}

const EVERY: Record<SnapshotRefreshFrequency, string> = { hourly: 'every hour', daily: 'every day', weekly: 'every week' };
const DONE: Record<ScheduledRun['status'], string> = { ok: 'done', partial: 'partly done', failed: 'failed' };

function view(schedule: SnapshotSchedule | null, active: boolean): SnapshotRefreshScheduleView {
  if (!schedule) return { schedule: null, message: 'Snapshots are refreshed only when someone clicks "Refresh snapshots".' };
  const { frequency, scheduledAt, lastRun } = schedule;
  const lastText = lastRun ? ` Last run ${lastRun.at.slice(0, 16).replace('T', ' ')} UTC: ${DONE[lastRun.status]}. ${lastRun.message}` : ' It has not run yet.';
  const overdue = active ? overdueSince(schedule, Date.now()) : null;
  const message = active
    ? `Your snapshots here are refreshed ${EVERY[frequency]} with your connection.${lastText}${overdue ? ` ${overdueScheduleSentence(overdue)}` : ''}`
    : `Your ${frequency} refresh's trigger is gone (removed outside the add-on): nothing runs. Schedule it again or turn it off.${lastText}`;
  return { schedule: { frequency, scheduledAt, active, lastRun }, message };
}

/** The caller's schedule for this spreadsheet. */
export function getSnapshotRefreshSchedule(): SnapshotRefreshScheduleView {
  const schedule = readSchedule(SpreadsheetApp.getActiveSpreadsheet().getId());
  // Without the permission the triggers cannot even be listed: say what to grant, and what the record says.
  const missing = missingPermissionSentence(SCHEDULING, SCOPE.scriptApp);
  if (missing)
    return {
      schedule: schedule && { frequency: schedule.frequency, scheduledAt: schedule.scheduledAt, active: false, lastRun: schedule.lastRun },
      message: missing,
    };
  return view(schedule, schedule !== null && myTriggersHere().some((t) => t.getUniqueId() === schedule.triggerUid));
}

/**
 * Schedules (or reschedules) the caller's refresh here. An add-on may have one time-driven trigger per user
 * per document, so the caller's earlier one is deleted first. Daily runs come at this hour, weekly ones on
 * this weekday (the defaults of everyDays/everyWeeks), in the script's time zone.
 */
export function scheduleSnapshotRefresh(frequency: unknown): SnapshotRefreshScheduleView {
  const chosen = requireFrequency(frequency);
  requirePermission(SCHEDULING, SCOPE.scriptApp);
  const spreadsheetId = SpreadsheetApp.getActiveSpreadsheet().getId();
  // Checked before this spreadsheet's trigger is replaced, so a refusal leaves its schedule as it was.
  const elsewhere = schedulesElsewhere(spreadsheetId);
  if (elsewhere.length >= MAX_TRIGGERS_PER_USER) throw tooManySchedules(elsewhere);
  for (const trigger of myTriggersHere()) ScriptApp.deleteTrigger(trigger);
  const builder = ScriptApp.newTrigger(SCHEDULED_REFRESH_HANDLER).timeBased();
  let trigger: GoogleAppsScript.Script.Trigger;
  try {
    trigger = (chosen === 'hourly' ? builder.everyHours(1) : chosen === 'daily' ? builder.everyDays(1) : builder.everyWeeks(1)).create();
  } catch (error) {
    // Triggers the add-in has no record of (made before it kept them) count too: Apps Script's own refusal.
    if (/too many triggers/i.test(error instanceof Error ? error.message : String(error))) throw tooManySchedules(elsewhere);
    throw error;
  }
  const schedule: SnapshotSchedule = {
    v: 1,
    spreadsheetId,
    frequency: chosen,
    triggerUid: trigger.getUniqueId(),
    scheduledAt: new Date().toISOString(),
    lastRun: readSchedule(spreadsheetId)?.lastRun ?? null,
  };
  writeSchedule(schedule);
  return view(schedule, true);
}

/** Turns the caller's scheduled refresh here off: its trigger and its record go. */
export function cancelSnapshotRefresh(): SnapshotRefreshScheduleView {
  requirePermission('Turning off a scheduled snapshot refresh', SCOPE.scriptApp);
  for (const trigger of myTriggersHere()) ScriptApp.deleteTrigger(trigger);
  PropertiesService.getUserProperties().deleteProperty(scheduleKey(SpreadsheetApp.getActiveSpreadsheet().getId()));
  return { schedule: null, message: 'Scheduled refresh is off: snapshots are refreshed only when someone clicks "Refresh snapshots".' };
}

/** The schedule whose trigger fired: the event's triggerUid among the owner's schedules. */
function scheduleOfTrigger(triggerUid: string): SnapshotSchedule | null {
  const all = Object.entries(PropertiesService.getUserProperties().getProperties());
  const schedules = all.filter(([key]) => key.startsWith(SCHEDULE_KEY_PREFIX)).map(([, text]) => decodeSchedule(text));
  return schedules.find((schedule) => schedule?.triggerUid === triggerUid) ?? null;
}

/**
 * The trigger's handler: refreshes the schedule's spreadsheet as its owner, appends to Changes what changed
 * and, as no one is watching, every failure, and records the run's outcome for the sidebar. Never throws for
 * a failure it can record: Apps Script tells an add-on's user nothing of a failed trigger.
 */
export function runScheduledSnapshotRefresh(event: { triggerUid?: unknown } | undefined): void {
  const startedAt = Date.now();
  try {
    refreshOnSchedule(event);
  } finally {
    // "Triggers total runtime: 90 min / day" (consumer accounts): what this run spent, for quotaUsageToday.
    countQuotaUse({ triggerRuntimeMs: Date.now() - startedAt });
  }
}

function refreshOnSchedule(event: { triggerUid?: unknown } | undefined): void {
  const triggerUid = String(event?.triggerUid ?? '');
  const schedule = scheduleOfTrigger(triggerUid);
  if (!schedule) {
    // A trigger whose record was removed (or never saved) would run forever for nothing.
    for (const trigger of ScriptApp.getProjectTriggers()) if (trigger.getUniqueId() === triggerUid) ScriptApp.deleteTrigger(trigger);
    return;
  }
  const at = new Date().toISOString();
  let book: GoogleAppsScript.Spreadsheet.Spreadsheet;
  try {
    book = SpreadsheetApp.openById(schedule.spreadsheetId);
  } catch (error) {
    // No spreadsheet to write a Changes row into: the sidebar's last run is the only record.
    writeSchedule({ ...schedule, lastRun: { at, status: 'failed', message: `Could not open the spreadsheet: ${userSentence(error)}` } });
    return;
  }
  const report = refreshAllSnapshots('schedule', book);
  const failures = [
    ...(report.problem === null ? [] : [{ range: '', problem: report.problem }]),
    // Another person's snapshot is theirs to refresh: every run would log it again, and nothing went wrong.
    ...report.outcomes
      .filter((o) => (o.status === 'failed' || o.status === 'refused') && !o.insertedByAnother)
      .map((o) => ({ range: o.range, problem: o.message })),
  ].map((failure): ChangeRow => ({ kind: 'failure', time: at, refresh: REFRESH, ...failure }));
  let lastRun = runOutcome(report, at);
  try {
    appendChanges(failures, book);
  } catch (error) {
    lastRun = { ...lastRun, message: `${lastRun.message} The failures could not be written to the Changes sheet: ${userSentence(error)}` };
  }
  // Read again: the owner may have rescheduled or cancelled while this ran.
  const current = readSchedule(schedule.spreadsheetId);
  if (current?.triggerUid === schedule.triggerUid) writeSchedule({ ...current, lastRun });
}
