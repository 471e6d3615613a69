// A user's scheduled snapshot refresh of one spreadsheet: its record, and a run's outcome. Pure; the trigger
// and the store are src/server/snapshot-schedule.ts.

import type { SnapshotRefreshReport } from '../../shared/rpc';
import { InputError } from '../errors';

const FREQUENCIES = ['hourly', 'daily', 'weekly'] as const;
export type SnapshotRefreshFrequency = (typeof FREQUENCIES)[number];

export interface ScheduledRun {
  /** ISO 8601. */
  at: string;
  /** ok: every snapshot written; partial: some left as they were or failed; failed: none written (the problem before any). */
  status: 'ok' | 'partial' | 'failed';
  message: string;
}

function isFrequency(value: unknown): value is SnapshotRefreshFrequency {
  return (FREQUENCIES as readonly unknown[]).includes(value);
}

/** The user's property per spreadsheet: a trigger runs for its owner, who may schedule several spreadsheets. */
export const SCHEDULE_KEY_PREFIX = 'METRICS_SNAPSHOT_SCHEDULE_';

export function scheduleKey(spreadsheetId: string): string {
  return SCHEDULE_KEY_PREFIX + spreadsheetId;
}

export interface SnapshotSchedule {
  v: 1;
  /** A time-driven trigger has no active spreadsheet: the run opens this one by id. */
  spreadsheetId: string;
  frequency: SnapshotRefreshFrequency;
  /** The trigger's getUniqueId(); its event's triggerUid finds this record. */
  triggerUid: string;
  /** ISO 8601. */
  scheduledAt: string;
  lastRun: ScheduledRun | null;
}

const PERIOD_MS: Record<SnapshotRefreshFrequency, number> = { hourly: 3_600_000, daily: 86_400_000, weekly: 604_800_000 };
/** Apps Script runs a recurring trigger somewhere inside its hour ("between 9 a.m. and 10 a.m.", installable triggers guide). */
const RUN_WINDOW_MS = 3_600_000;

/**
 * When the schedule last ran (or was set up), if two runs have been missed since: Apps Script refuses a scheduled
 * run without a word once the owner's "Triggers total runtime" of the day is spent (quotas page), so the sidebar is
 * the only place the person can learn it. Null when a run is not overdue.
 */
export function overdueSince(schedule: SnapshotSchedule, nowMs: number): string | null {
  const last = schedule.lastRun?.at ?? schedule.scheduledAt;
  const lastMs = Date.parse(last);
  if (!Number.isFinite(lastMs)) return null;
  return nowMs > lastMs + 2 * PERIOD_MS[schedule.frequency] + RUN_WINDOW_MS ? last : null;
}

export function requireFrequency(value: unknown): SnapshotRefreshFrequency {
  if (isFrequency(value)) return value;
  throw new InputError('Choose how often to refresh: hourly, daily or weekly.');
}

/** The stored record, or null for text a person (or an older version) left that is not one. */
export function decodeSchedule(text: string | null): SnapshotSchedule | null {
  if (!text) return null;
  try {
    const value = JSON.parse(text) as Partial<SnapshotSchedule>;
    const { spreadsheetId, frequency, triggerUid, scheduledAt } = value;
    if (value.v !== 1 || typeof spreadsheetId !== 'string' || typeof triggerUid !== 'string' || typeof scheduledAt !== 'string' || !isFrequency(frequency))
      return null;
    return { v: 1, spreadsheetId, frequency, triggerUid, scheduledAt, lastRun: value.lastRun ?? null };
  } catch {
    return null;
  }
}

/**
 * A run's report as the sidebar's "last run" line: ok when every snapshot was written, partial when some were
 * left as they were or failed, failed when none was (or a problem came before any).
 */
export function runOutcome(report: Pick<SnapshotRefreshReport, 'problem' | 'outcomes' | 'message'>, at: string): ScheduledRun {
  if (report.problem !== null) return { at, status: 'failed', message: report.problem };
  const written = report.outcomes.filter((o) => o.status === 'refreshed' || o.status === 'unchanged').length;
  if (report.outcomes.length > 0 && written === 0) return { at, status: 'failed', message: report.message };
  return { at, status: written === report.outcomes.length ? 'ok' : 'partial', message: report.message };
}
