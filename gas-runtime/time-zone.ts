// Wall-clock arithmetic in IANA time zones through Intl, plus Java's fixed "GMT+hh:mm" zones.

/** A moment as a clock on the wall of some time zone shows it; month is 1–12, weekday 0 = Sunday. */
export interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
  weekday: number;
}

const FIXED_OFFSET = /^(?:GMT|UTC)(?:([+-])(\d{1,2})(?::?(\d{2}))?)?$/;
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** One formatter per zone: building them is the slow part of Intl. */
const wallFormatters = new Map<string, Intl.DateTimeFormat>();

/**
 * Zones Intl accepted once: Utilities.formatDate asks for every date it formats, and building a formatter to
 * ask cost a 10,000-row export about 2 seconds. Only accepted names are kept, so a script passing made-up
 * names cannot grow it.
 */
const knownZones = new Set<string>();

/** True for an IANA name Intl knows, or a Java-style fixed offset like GMT+05:30. */
export function isValidTimeZone(timeZone: string): boolean {
  if (knownZones.has(timeZone) || FIXED_OFFSET.test(timeZone)) return true;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
  } catch {
    return false;
  }
  knownZones.add(timeZone);
  return true;
}

/** Minutes of a fixed-offset zone, or null for a zone Intl must resolve. */
function fixedOffsetMinutes(timeZone: string): number | null {
  const match = FIXED_OFFSET.exec(timeZone);
  if (!match) return null;
  if (!match[1]) return 0;
  const minutes = Number(match[2]) * 60 + Number(match[3] ?? 0);
  return match[1] === '-' ? -minutes : minutes;
}

function wallFormatter(timeZone: string): Intl.DateTimeFormat {
  let formatter = wallFormatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      weekday: 'short',
      era: 'short',
    });
    wallFormatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The wall clock of `timeZone` at the instant `ms`. */
export function wallClock(ms: number, timeZone: string): WallClock {
  const millisecond = ((ms % 1000) + 1000) % 1000;
  const fixed = fixedOffsetMinutes(timeZone);
  if (fixed !== null) {
    const shifted = new Date(ms + fixed * 60_000);
    return {
      year: shifted.getUTCFullYear(),
      month: shifted.getUTCMonth() + 1,
      day: shifted.getUTCDate(),
      hour: shifted.getUTCHours(),
      minute: shifted.getUTCMinutes(),
      second: shifted.getUTCSeconds(),
      millisecond,
      weekday: shifted.getUTCDay(),
    };
  }
  const parts: Record<string, string> = {};
  for (const part of wallFormatter(timeZone).formatToParts(new Date(ms))) parts[part.type] = part.value;
  const yearOfEra = Number(parts.year);
  return {
    // Intl counts years of the era; astronomical years make the arithmetic below simple.
    year: parts.era === 'BC' ? 1 - yearOfEra : yearOfEra,
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
    millisecond,
    weekday: WEEKDAYS.indexOf(parts.weekday ?? 'Sun'),
  };
}

function utcOfWall(wall: Omit<WallClock, 'weekday'>): number {
  const date = new Date(0);
  date.setUTCFullYear(wall.year, wall.month - 1, wall.day);
  date.setUTCHours(wall.hour, wall.minute, wall.second, wall.millisecond);
  return date.getTime();
}

/** Minutes the zone's wall clock is ahead of UTC at `ms` (negative west of Greenwich). */
export function offsetMinutes(ms: number, timeZone: string): number {
  const fixed = fixedOffsetMinutes(timeZone);
  if (fixed !== null) return fixed;
  return Math.round((utcOfWall(wallClock(ms, timeZone)) - ms) / 60_000);
}

/**
 * The instant a wall-clock time in `timeZone` names. In an overlap (clocks set back) the earlier
 * instant wins; a time inside a DST gap resolves with the offset in force just before the gap.
 */
export function instantOf(wall: Omit<WallClock, 'weekday'>, timeZone: string): number {
  const asUtc = utcOfWall(wall);
  const before = offsetMinutes(asUtc, timeZone);
  const guess = asUtc - before * 60_000;
  const after = offsetMinutes(guess, timeZone);
  return after === before ? guess : asUtc - after * 60_000;
}

/** The zone's name at `ms`, short ("EST") or long ("Eastern Standard Time"), as Intl's en-US data gives it. */
export function timeZoneName(ms: number, timeZone: string, style: 'short' | 'long'): string {
  const fixed = fixedOffsetMinutes(timeZone);
  if (fixed !== null) return fixed === 0 ? (timeZone.startsWith('UTC') ? 'UTC' : 'GMT') : `GMT${formatOffset(fixed, ':')}`;
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: style }).formatToParts(new Date(ms));
  return parts.find((part) => part.type === 'timeZoneName')?.value ?? 'GMT';
}

/** An offset in minutes as ±hh<separator>mm. */
export function formatOffset(minutes: number, separator: '' | ':'): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}${separator}${String(abs % 60).padStart(2, '0')}`;
}
