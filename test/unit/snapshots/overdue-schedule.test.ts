// When the sidebar calls a scheduled refresh overdue: two runs missed, with the hour Apps Script may pick for each.

import { overdueSince, type SnapshotSchedule } from '../../../src/core/snapshots/schedule';

const HOUR = 3_600_000;
const SET_UP = '2026-11-02T09:00:00.000Z';

function schedule(frequency: SnapshotSchedule['frequency'], lastRunAt: string | null): SnapshotSchedule {
  return {
    v: 1,
    spreadsheetId: 's',
    frequency,
    triggerUid: 't',
    scheduledAt: SET_UP,
    lastRun: lastRunAt ? { at: lastRunAt, status: 'ok', message: '' } : null,
  };
}

describe('a scheduled refresh is overdue', () => {
  it.each<[SnapshotSchedule['frequency'], number]>([
    ['hourly', 3 * HOUR],
    ['daily', 49 * HOUR],
    ['weekly', 337 * HOUR],
  ])('%s: after two periods and an hour without a run, since its setup when it never ran', (frequency, afterMs) => {
    const since = Date.parse(SET_UP);
    expect(overdueSince(schedule(frequency, null), since + afterMs)).toBeNull();
    expect(overdueSince(schedule(frequency, null), since + afterMs + 1)).toBe(SET_UP);
  });

  it('counts from the last run', () => {
    const lastRun = '2026-11-03T09:30:00.000Z';
    expect(overdueSince(schedule('daily', lastRun), Date.parse(lastRun) + 49 * HOUR)).toBeNull();
    expect(overdueSince(schedule('daily', lastRun), Date.parse(lastRun) + 50 * HOUR)).toBe(lastRun);
  });
});
