// Date cells for a spreadsheet: midnight in its time zone, which is what Sheets shows as that day.

/**
 * Midnight starting `isoDate` in `timeZone`, which Sheets shows as the plain date. Intl (Apps Script's V8
 * has it) keeps the pure core free of Utilities.parseDate.
 */
export function midnightIn(isoDate: string, timeZone: string): Date {
  return midnightMaker(timeZone)(isoDate);
}

/** midnightIn for many dates: building the Intl.DateTimeFormat was most of a ten-year METRIC_VALUES' time. */
export function midnightMaker(timeZone: string): (isoDate: string) => Date {
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
