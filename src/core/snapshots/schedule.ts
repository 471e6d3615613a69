// A user's scheduled refresh of one spreadsheet's snapshots: what is kept in that user's properties, and how
// a run's report reads as its last outcome. Pure; the trigger and the store are src/server/snapshot-schedule.ts.

import { InputError } from '../errors';

export const SNAPSHOT_REFRESH_FREQUENCIES = ['hourly', 'daily', 'weekly'] as const;
export type SnapshotRefreshFrequency = (typeof SNAPSHOT_REFRESH_FREQUENCIES)[number];

/** The user's property per spreadsheet: a trigger runs for its owner, who may schedule several spreadsheets. */
export const SCHEDULE_KEY_PREFIX = 'METRICS_SNAPSHOT_SCHEDULE_';

export function scheduleKey(spreadsheetId: string): string {
  return SCHEDULE_KEY_PREFIX + spreadsheetId;
}

export interface ScheduledRun {
  /** ISO 8601. */
  at: string;
  /** ok: every snapshot written; partial: some left as they were or failed; failed: none written (the problem before any). */
  status: 'ok' | 'partial' | 'failed';
  message: string;
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

export function requireFrequency(value: unknown): SnapshotRefreshFrequency {
  if (typeof value === 'string' && (SNAPSHOT_REFRESH_FREQUENCIES as readonly string[]).includes(value)) return value as SnapshotRefreshFrequency;
  throw new InputError('Choose how often to refresh: hourly, daily or weekly.');
}

/** The stored record, or null for text a person (or an older version) left that is not one. */
export function decodeSchedule(text: string | null): SnapshotSchedule | null {
  if (!text) return null;
  try {
    const value = JSON.parse(text) as Partial<SnapshotSchedule>;
    if (value.v !== 1 || typeof value.spreadsheetId !== 'string' || typeof value.triggerUid !== 'string' || typeof value.scheduledAt !== 'string') return null;
    if (!(SNAPSHOT_REFRESH_FREQUENCIES as readonly string[]).includes(value.frequency as string)) return null;
    return { v: 1, spreadsheetId: value.spreadsheetId, frequency: value.frequency!, triggerUid: value.triggerUid, scheduledAt: value.scheduledAt, lastRun: value.lastRun ?? null };
  } catch {
    return null;
  }
}

/** What a run's report comes to, for the sidebar's "last run" line. */
export function runOutcome(report: { problem: string | null; outcomes: ReadonlyArray<{ status: string }>; message: string }, at: string): ScheduledRun {
  if (report.problem !== null) return { at, status: 'failed', message: report.problem };
  const written = report.outcomes.filter((o) => o.status === 'refreshed' || o.status === 'unchanged').length;
  if (report.outcomes.length > 0 && written === 0) return { at, status: 'failed', message: report.message };
  return { at, status: written === report.outcomes.length ? 'ok' : 'partial', message: report.message };
}
