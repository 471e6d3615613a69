// Sheets keeps dates as serial numbers: days since 1899-12-30 on the spreadsheet's wall clock.

import { instantOf, wallClock, type WallClock } from '../time-zone';

const MS_PER_DAY = 86_400_000;
const EPOCH_UTC = Date.UTC(1899, 11, 30);

/** The serial number of an instant, read on the wall clock of `timeZone`. */
export function dateToSerial(ms: number, timeZone: string): number {
  const wall = wallClock(ms, timeZone);
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second, wall.millisecond);
  return (asUtc - EPOCH_UTC) / MS_PER_DAY;
}

/** The instant a serial number names on the wall clock of `timeZone` (what getValue() returns for a date cell). */
export function serialToDate(serial: number, timeZone: string): Date {
  const parts = serialParts(serial);
  return new Date(instantOf({ ...parts, millisecond: parts.millisecond }, timeZone));
}

/** The calendar fields of a serial number, independent of any time zone (the cell shows these). */
export function serialParts(serial: number): WallClock {
  // Rounded to the millisecond, so 0.1 days is 2:24:00.000 and not 2:23:59.999.
  const date = new Date(EPOCH_UTC + Math.round(serial * MS_PER_DAY));
  return {
    year: date.getUTCFullYear(),
    month: date.getUTCMonth() + 1,
    day: date.getUTCDate(),
    hour: date.getUTCHours(),
    minute: date.getUTCMinutes(),
    second: date.getUTCSeconds(),
    millisecond: date.getUTCMilliseconds(),
    weekday: date.getUTCDay(),
  };
}

/** The serial number of a calendar date and time. */
export function serialOf(year: number, month: number, day: number, hour = 0, minute = 0, second = 0): number {
  return (Date.UTC(year, month - 1, day, hour, minute, second) - EPOCH_UTC) / MS_PER_DAY;
}

/** True when the date is real (no 2024-02-30). */
export function isCalendarDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}
