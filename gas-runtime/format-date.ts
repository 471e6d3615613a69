// Utilities.formatDate: Java SimpleDateFormat patterns, rendered in any IANA time zone through Intl.

import { GasError, notImplemented } from './errors';
import { formatOffset, isValidTimeZone, offsetMinutes, timeZoneName, wallClock, type WallClock } from './time-zone';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

type Token = { kind: 'literal'; text: string } | { kind: 'field'; letter: string; count: number };

/** Letters SimpleDateFormat defines but this runtime does not render; asking for one is a loud gap, not a wrong answer. */
const UNSUPPORTED_LETTERS = new Set(['w', 'W', 'F']);
const SUPPORTED_LETTERS = new Set(['G', 'y', 'Y', 'M', 'L', 'd', 'D', 'E', 'u', 'a', 'H', 'k', 'K', 'h', 'm', 's', 'S', 'z', 'Z', 'X']);

function tokenize(pattern: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < pattern.length) {
    const char = pattern.charAt(i);
    if (char === "'") {
      // '' is a literal quote, inside or outside quoted text.
      if (pattern.charAt(i + 1) === "'") {
        tokens.push({ kind: 'literal', text: "'" });
        i += 2;
        continue;
      }
      let text = '';
      i++;
      while (i < pattern.length) {
        if (pattern.charAt(i) === "'") {
          if (pattern.charAt(i + 1) === "'") {
            text += "'";
            i += 2;
            continue;
          }
          break;
        }
        text += pattern.charAt(i);
        i++;
      }
      if (i >= pattern.length) throw new GasError('Unterminated quote');
      i++;
      tokens.push({ kind: 'literal', text });
      continue;
    }
    if (/[A-Za-z]/.test(char)) {
      if (UNSUPPORTED_LETTERS.has(char)) throw notImplemented(`the date pattern letter '${char}'`);
      if (!SUPPORTED_LETTERS.has(char)) throw new GasError(`Illegal pattern character '${char}'`);
      let count = 1;
      while (pattern.charAt(i + count) === char) count++;
      tokens.push({ kind: 'field', letter: char, count });
      i += count;
      continue;
    }
    tokens.push({ kind: 'literal', text: char });
    i++;
  }
  return tokens;
}

function pad(value: number, width: number): string {
  const sign = value < 0 ? '-' : '';
  return sign + String(Math.abs(value)).padStart(width, '0');
}

function dayOfYear(wall: WallClock): number {
  return Math.round((Date.UTC(wall.year, wall.month - 1, wall.day) - Date.UTC(wall.year, 0, 1)) / 86_400_000) + 1;
}

function renderField(letter: string, count: number, wall: WallClock, ms: number, timeZone: string): string {
  switch (letter) {
    case 'G':
      return wall.year > 0 ? 'AD' : 'BC';
    case 'y':
    case 'Y': {
      // Java prints the year of era; 'yy' is the last two digits. Y (week year) is rendered as y.
      const year = wall.year > 0 ? wall.year : 1 - wall.year;
      return count === 2 ? pad(year % 100, 2) : pad(year, count);
    }
    case 'M':
    case 'L':
      if (count >= 4) return MONTHS[wall.month - 1] ?? '';
      if (count === 3) return (MONTHS[wall.month - 1] ?? '').slice(0, 3);
      return pad(wall.month, count);
    case 'd':
      return pad(wall.day, count);
    case 'D':
      return pad(dayOfYear(wall), count);
    case 'E':
      return count >= 4 ? (DAYS[wall.weekday] ?? '') : (DAYS[wall.weekday] ?? '').slice(0, 3);
    case 'u':
      return pad(wall.weekday === 0 ? 7 : wall.weekday, count);
    case 'a':
      return wall.hour < 12 ? 'AM' : 'PM';
    case 'H':
      return pad(wall.hour, count);
    case 'k':
      return pad(wall.hour === 0 ? 24 : wall.hour, count);
    case 'K':
      return pad(wall.hour % 12, count);
    case 'h':
      return pad(wall.hour % 12 === 0 ? 12 : wall.hour % 12, count);
    case 'm':
      return pad(wall.minute, count);
    case 's':
      return pad(wall.second, count);
    case 'S':
      return pad(wall.millisecond, count);
    case 'z':
      return timeZoneName(ms, timeZone, count >= 4 ? 'long' : 'short');
    case 'Z':
      return formatOffset(offsetMinutes(ms, timeZone), '');
    case 'X': {
      const offset = offsetMinutes(ms, timeZone);
      if (offset === 0) return 'Z';
      if (count === 1) return formatOffset(offset, '').slice(0, 3);
      return formatOffset(offset, count === 2 ? '' : ':');
    }
    default:
      throw new GasError(`Illegal pattern character '${letter}'`);
  }
}

/**
 * Formats `date` with a SimpleDateFormat `pattern` in `timeZone`. An unknown zone falls back to GMT,
 * as Java's TimeZone.getTimeZone does.
 */
export function formatDate(date: Date, timeZone: string, pattern: string): string {
  const ms = date.getTime();
  if (Number.isNaN(ms)) throw new GasError('Invalid argument: date');
  const zone = isValidTimeZone(timeZone) ? timeZone : 'GMT';
  const wall = wallClock(ms, zone);
  return tokenize(pattern)
    .map((token) => (token.kind === 'literal' ? token.text : renderField(token.letter, token.count, wall, ms, zone)))
    .join('');
}
