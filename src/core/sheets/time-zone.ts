// Date cells for a spreadsheet: midnight in its time zone, which is what Sheets shows as that day.

import type { DateFormatter } from '../validate/dates';

/**
 * Midnight starting `isoDate` in `timeZone`, which Sheets shows as the plain date. Intl (Apps Script's V8
 * has it) keeps the pure core free of Utilities.parseDate.
 */
export function midnightIn(isoDate: string, timeZone: string, formatDate?: DateFormatter): Date {
  return midnightMaker(timeZone, formatDate)(isoDate);
}

/**
 * midnightIn for many dates: building the Intl.DateTimeFormat was most of a ten-year METRIC_VALUES' time.
 * Nothing states that Apps Script's Intl knows every zone a spreadsheet can have (docs/platform.md): when it
 * refuses the zone, `formatDate` (Apps Script's Utilities.formatDate) finds each midnight instead, more slowly.
 */
export function midnightMaker(timeZone: string, formatDate?: DateFormatter): (isoDate: string) => Date {
  try {
    return intlMidnightMaker(timeZone);
  } catch (error) {
    if (!(error instanceof RangeError) || !formatDate) throw error;
    return formatterMidnightMaker(timeZone, formatDate);
  }
}

/** Zones run from UTC−12 to UTC+14, so a day starts within this much of its UTC midnight. */
const EARLIEST_START_MS = -14 * 3_600_000;
const LATEST_START_MS = 12 * 3_600_000;
const MINUTE_MS = 60_000;
const HALF_MINUTE_MS = 30_000;

/**
 * The first minute whose date in `timeZone` is the ISO date, found with a date formatter alone: the zone's
 * offset at the previous answer first (two calls), else a binary search over the day's possible starts.
 */
function formatterMidnightMaker(timeZone: string, formatDate: DateFormatter): (isoDate: string) => Date {
  // Read half a minute off each whole minute: zones change offset on whole minutes, so the day is the same, and
  // a formatter that reads an exact midnight of another zone specially (a date argument's) never sees one.
  const dayAt = (minute: number) => formatDate(new Date(minute + HALF_MINUTE_MS), timeZone);
  const startsDay = (minute: number, isoDate: string) => dayAt(minute) === isoDate && dayAt(minute - MINUTE_MS) < isoDate;
  let lastOffsetMs: number | null = null;
  return (isoDate) => {
    const [year, month, day] = isoDate.split('-').map(Number) as [number, number, number];
    const utcMidnight = Date.UTC(year, month - 1, day);
    if (lastOffsetMs !== null && startsDay(utcMidnight + lastOffsetMs, isoDate)) return new Date(utcMidnight + lastOffsetMs);
    // dayAt(low) is before isoDate, dayAt(high) is not: narrow to the minute.
    let low = utcMidnight + EARLIEST_START_MS;
    let high = utcMidnight + LATEST_START_MS;
    while (high - low > MINUTE_MS) {
      const middle = low + Math.floor((high - low) / MINUTE_MS / 2) * MINUTE_MS;
      if (dayAt(middle) >= isoDate) high = middle;
      else low = middle;
    }
    lastOffsetMs = high - utcMidnight;
    return new Date(high);
  };
}

function intlMidnightMaker(timeZone: string): (isoDate: string) => Date {
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  });
  /** How far the zone is ahead of UTC at an instant, in ms. */
  const offsetMs = (instant: number): number => {
    const parts = format.formatToParts(new Date(instant));
    const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
    const local = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
    return local - Math.floor(instant / 1000) * 1000;
  };
  return (isoDate) => {
    const [year, month, day] = isoDate.split('-').map(Number) as [number, number, number];
    const utcMidnight = Date.UTC(year, month - 1, day);
    const before = offsetMs(utcMidnight);
    const guess = utcMidnight - before;
    const after = offsetMs(guess);
    if (after === before) return new Date(guess);
    // A change of offset near midnight: midnight under either offset, the earlier that falls on the day. Where
    // daylight saving starts at midnight (America/Asuncion 2023-10-01) 00:00 does not exist and the day begins
    // at 01:00; the other reading would be 23:00 the day before, which Sheets shows (and reads back) as that day.
    const onTheDay = (instant: number) => {
      const local = instant + offsetMs(instant);
      return local >= utcMidnight && local < utcMidnight + 86_400_000;
    };
    const candidates = [utcMidnight - before, utcMidnight - after].sort((a, b) => a - b);
    return new Date(candidates.find(onTheDay) ?? utcMidnight - after);
  };
}
