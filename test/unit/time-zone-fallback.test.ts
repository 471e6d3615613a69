// midnightMaker when Intl does not know the zone (docs/platform.md, §3): the midnights found with a date formatter
// alone equal Intl's, across DST changes and in zones whose day starts at 01:00 when DST begins at midnight.

import { midnightIn, midnightMaker } from '../../src/core/sheets/time-zone';
import { intlDateFormatter, type DateFormatter } from '../../src/core/validate/dates';

/** Zones Intl does not know by these names; the formatter knows them as the real zones (as Utilities.formatDate would). */
const ALIASES: Record<string, string> = {
  'Test/NewYork': 'America/New_York',
  'Test/Santiago': 'America/Santiago',
  'Test/Kolkata': 'Asia/Kolkata',
  'Test/Chatham': 'Pacific/Chatham',
};
const aliasFormatter: DateFormatter = (date, timeZone) => intlDateFormatter(date, ALIASES[timeZone] ?? timeZone);

function days(start: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => new Date(Date.parse(`${start}T00:00:00Z`) + i * 86_400_000).toISOString().slice(0, 10));
}

/** The first minute of the day in the zone: its date is the day, the minute before is the day before. */
const startsDay = (instant: Date, date: string, zone: string) =>
  intlDateFormatter(instant, zone) === date && intlDateFormatter(new Date(instant.getTime() - 60_000), zone) < date;

it.each(Object.entries(ALIASES))('finds every midnight of two years in %s as Intl does for %s', (alias, zone) => {
  const dates = days('2023-01-01', 731);
  const fallback = midnightMaker(alias, aliasFormatter);
  const intl = midnightMaker(zone);
  expect(dates.filter((date) => fallback(date).getTime() !== intl(date).getTime())).toEqual([]);
  expect(dates.filter((date) => !startsDay(intl(date), date, zone))).toEqual([]);
});

it('still throws without a formatter, and for an error that is not about the zone', () => {
  expect(() => midnightIn('2024-01-01', 'Test/NewYork')).toThrow(RangeError);
});

it('reads each minute half a minute in, so a formatter that treats exact midnights of another zone specially is not misled', () => {
  const exactMidnightsShifted: DateFormatter = (date, timeZone) => {
    // Like argumentDateFormatter: an exact UTC midnight reads as the UTC day.
    if (date.getTime() % 86_400_000 === 0) return date.toISOString().slice(0, 10);
    return aliasFormatter(date, timeZone);
  };
  const fallback = midnightMaker('Test/NewYork', exactMidnightsShifted);
  expect(days('2024-03-01', 40).map((date) => fallback(date).toISOString())).toEqual(
    days('2024-03-01', 40).map((date) => midnightIn(date, 'America/New_York').toISOString()),
  );
});
