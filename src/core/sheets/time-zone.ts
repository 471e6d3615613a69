// Date cells for a spreadsheet: midnight in its time zone, which is what Sheets shows as that day.

/**
 * The instant of midnight starting `isoDate` in `timeZone`. Sheets displays a returned Date in the
 * spreadsheet's time zone, so midnight there reads as the plain date. Written with Intl, which
 * Apps Script's V8 runtime has, so the pure core needs no Utilities.parseDate.
 */
export function midnightIn(isoDate: string, timeZone: string): Date {
  const [year, month, day] = isoDate.split('-').map(Number) as [number, number, number];
  const utcMidnight = Date.UTC(year, month - 1, day);
  // Two passes: the offset at the first guess may differ from the offset at the answer around DST.
  let instant = utcMidnight - offsetMs(utcMidnight, timeZone);
  instant = utcMidnight - offsetMs(instant, timeZone);
  return new Date(instant);
}

/** How far `timeZone` is ahead of UTC at an instant, in ms. */
function offsetMs(instant: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(new Date(instant));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const local = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return local - Math.floor(instant / 1000) * 1000;
}
