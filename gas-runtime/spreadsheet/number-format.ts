// How a cell's value is displayed under its number format (Sheets format codes, not Java patterns).

import { serialParts } from './serial-date';

/** What getNumberFormat() returns for a cell nobody formatted ("Automatic"). */
export const AUTOMATIC_FORMAT = '0.###############';
/** Sheets' default formats for a date (and a date-time) written by a script, in the en_US locale. */
export const DEFAULT_DATE_FORMAT = 'M/d/yyyy';
export const DEFAULT_DATE_TIME_FORMAT = 'M/d/yyyy H:mm:ss';
export const PLAIN_TEXT_FORMAT = '@';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

export function isAutomaticFormat(format: string | undefined): boolean {
  return format === undefined || format === '' || format === AUTOMATIC_FORMAT || format.toLowerCase() === 'general';
}

/** Splits a format into sections at ';', ignoring quoted text and escapes. */
function sections(format: string): string[] {
  const result: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < format.length; i++) {
    const char = format.charAt(i);
    if (char === '\\' && !quoted) {
      current += char + format.charAt(i + 1);
      i++;
      continue;
    }
    if (char === '"') quoted = !quoted;
    if (char === ';' && !quoted) {
      result.push(current);
      current = '';
      continue;
    }
    current += char;
  }
  result.push(current);
  return result;
}

/** The format without quoted text, escapes and [brackets]: what is left says what kind of format it is. */
function codesOnly(format: string): string {
  return format
    .replace(/"[^"]*"/g, '')
    .replace(/\\./g, '')
    .replace(/\[[^\]]*\]/g, '');
}

/** True for a date or time format: its codes use y, m, d, h or s (after quoted text is removed). */
export function isDateFormat(format: string | undefined): boolean {
  if (isAutomaticFormat(format) || format === PLAIN_TEXT_FORMAT) return false;
  return /[ymdhs]|am\/pm|a\/p/i.test(codesOnly(sections(format ?? '')[0] ?? ''));
}

/** The "Automatic" display of a number: up to 15 significant digits and 10 decimals, exponent for extremes. */
export function formatGeneral(value: number): string {
  if (!Number.isFinite(value)) return '#NUM!';
  if (value === 0) return '0';
  const abs = Math.abs(value);
  if (abs >= 1e15 || abs < 1e-10) {
    const [mantissa, exponent] = value.toExponential(5).split('e');
    const trimmed = (mantissa ?? '').replace(/\.?0+$/, '');
    const power = Number(exponent);
    return `${trimmed}E${power < 0 ? '-' : '+'}${String(Math.abs(power)).padStart(2, '0')}`;
  }
  const rounded = Number(value.toPrecision(15));
  // At most ten decimals (1/3 shows 0.3333333333), but toFixed's text carries the binary expansion
  // (39919496.93 → "39919496.9299999997"): the shortest text that reads back as the rounded number is what
  // Sheets shows. Below 1e-6 JavaScript's shortest text is exponential, so those keep toFixed's digits.
  const decimals = Number(rounded.toFixed(10));
  if (Math.abs(decimals) >= 1e-6) return String(decimals);
  return rounded.toFixed(10).replace(/\.?0+$/, '');
}

interface NumberPattern {
  prefix: string;
  suffix: string;
  minInteger: number;
  minFraction: number;
  maxFraction: number;
  grouping: boolean;
  percent: boolean;
  scale: number;
}

/** Reads a numeric section like `"$"#,##0.00` or `0.0%` into its parts; null when it is not one. */
function parseNumberPattern(section: string): NumberPattern | null {
  let prefix = '';
  let suffix = '';
  let body = '';
  let seenDigits = false;
  let percent = false;
  for (let i = 0; i < section.length; i++) {
    const char = section.charAt(i);
    let literal: string | null = null;
    if (char === '"') {
      const end = section.indexOf('"', i + 1);
      literal = section.slice(i + 1, end < 0 ? section.length : end);
      i = end < 0 ? section.length : end;
    } else if (char === '\\') {
      literal = section.charAt(i + 1);
      i++;
    } else if (char === '[') {
      const end = section.indexOf(']', i);
      i = end < 0 ? section.length : end;
      continue;
    } else if (/[0#?.,]/.test(char)) {
      if (suffix !== '') return null;
      body += char;
      seenDigits = true;
      continue;
    } else if (char === '%') {
      percent = true;
      literal = '%';
    } else if (char === '_' || char === '*') {
      i++;
      continue;
    } else {
      literal = char;
    }
    if (seenDigits) suffix += literal;
    else prefix += literal;
  }
  if (!/[0#?]/.test(body)) return null;
  const trailingCommas = /,+$/.exec(body)?.[0].length ?? 0;
  const digits = body.slice(0, body.length - trailingCommas);
  const [integerPart = '', fractionPart = ''] = digits.split('.');
  return {
    prefix,
    suffix,
    minInteger: (integerPart.match(/0/g) ?? []).length,
    minFraction: (fractionPart.match(/0/g) ?? []).length,
    maxFraction: (fractionPart.match(/[0#?]/g) ?? []).length,
    grouping: integerPart.includes(','),
    percent,
    scale: trailingCommas,
  };
}

function formatWithPattern(abs: number, pattern: NumberPattern): string {
  const scaled = (abs * (pattern.percent ? 100 : 1)) / 1000 ** pattern.scale;
  const fixed = (Math.round(scaled * 10 ** pattern.maxFraction) / 10 ** pattern.maxFraction).toFixed(pattern.maxFraction);
  let [integer = '0', fraction = ''] = fixed.split('.');
  while (fraction.length > pattern.minFraction && fraction.endsWith('0')) fraction = fraction.slice(0, -1);
  if (integer === '0' && pattern.minInteger === 0) integer = '';
  integer = integer.padStart(pattern.minInteger, '0');
  if (pattern.grouping) integer = integer.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const decimal = fraction.length > 0 || pattern.minFraction > 0 ? `.${fraction}` : '';
  return `${pattern.prefix}${integer}${decimal}${pattern.suffix}`;
}

/** A number under a numeric format; sections are positive;negative;zero. Unreadable formats fall back to Automatic. */
function formatNumber(value: number, format: string): string {
  const all = sections(format);
  let section = all[0] ?? '';
  let sign = value < 0 ? '-' : '';
  if (value < 0 && all.length >= 2) {
    section = all[1] ?? '';
    sign = '';
  } else if (value === 0 && all.length >= 3) {
    section = all[2] ?? '';
  }
  const pattern = parseNumberPattern(section);
  if (!pattern) return formatGeneral(value);
  const text = formatWithPattern(Math.abs(value), pattern);
  // -0.001 under "0.00" shows 0.00, not -0.00.
  return sign && /[1-9]/.test(text) ? `${sign}${text}` : text;
}

type DateToken = { kind: 'literal'; text: string } | { kind: 'code'; code: string };

function tokenizeDateFormat(format: string): DateToken[] {
  const tokens: DateToken[] = [];
  let i = 0;
  while (i < format.length) {
    const rest = format.slice(i);
    const char = format.charAt(i);
    if (char === '"') {
      const end = format.indexOf('"', i + 1);
      tokens.push({ kind: 'literal', text: format.slice(i + 1, end < 0 ? format.length : end) });
      i = end < 0 ? format.length : end + 1;
      continue;
    }
    if (char === '\\') {
      tokens.push({ kind: 'literal', text: format.charAt(i + 1) });
      i += 2;
      continue;
    }
    const ampm = /^(am\/pm|a\/p)/i.exec(rest);
    if (ampm) {
      tokens.push({ kind: 'code', code: ampm[0].toLowerCase() });
      i += ampm[0].length;
      continue;
    }
    const fraction = /^\.0+/.exec(rest);
    if (fraction && tokens.some((token) => token.kind === 'code' && token.code.startsWith('s'))) {
      tokens.push({ kind: 'code', code: fraction[0] });
      i += fraction[0].length;
      continue;
    }
    const run = /^([yY]+|[mM]+|[dD]+|[hH]+|[sS]+)/.exec(rest);
    if (run) {
      tokens.push({ kind: 'code', code: run[0].toLowerCase() });
      i += run[0].length;
      continue;
    }
    tokens.push({ kind: 'literal', text: char });
    i++;
  }
  return tokens;
}

/** A serial number under a date/time format. `m` means minutes right after an hour or right before seconds. */
function formatDateSerial(serial: number, format: string): string {
  const tokens = tokenizeDateFormat(sections(format)[0] ?? '');
  const parts = serialParts(serial);
  const twelveHour = tokens.some((token) => token.kind === 'code' && (token.code === 'am/pm' || token.code === 'a/p'));
  const codes = tokens.map((token, index) => ({ token, index })).filter(({ token }) => token.kind === 'code');
  const isMinute = (index: number): boolean => {
    const position = codes.findIndex((code) => code.index === index);
    const previous = codes[position - 1]?.token;
    const next = codes[position + 1]?.token;
    return (previous?.kind === 'code' && previous.code.startsWith('h')) || (next?.kind === 'code' && next.code.startsWith('s'));
  };
  return tokens
    .map((token, index) => {
      if (token.kind === 'literal') return token.text;
      const { code } = token;
      const width = code.length;
      switch (code.charAt(0)) {
        case 'y':
          return width <= 2 ? String(parts.year % 100).padStart(2, '0') : String(parts.year);
        case 'm':
          if (width <= 2 && isMinute(index)) return String(parts.minute).padStart(width, '0');
          if (width === 1 || width === 2) return String(parts.month).padStart(width, '0');
          if (width === 3) return (MONTHS[parts.month - 1] ?? '').slice(0, 3);
          if (width === 5) return (MONTHS[parts.month - 1] ?? '').charAt(0);
          return MONTHS[parts.month - 1] ?? '';
        case 'd':
          if (width <= 2) return String(parts.day).padStart(width, '0');
          return width === 3 ? (DAYS[parts.weekday] ?? '').slice(0, 3) : (DAYS[parts.weekday] ?? '');
        case 'h': {
          const hour = twelveHour ? (parts.hour % 12 === 0 ? 12 : parts.hour % 12) : parts.hour;
          return String(hour).padStart(Math.min(width, 2), '0');
        }
        case 's':
          return String(parts.second).padStart(Math.min(width, 2), '0');
        case '.':
          return `.${String(parts.millisecond)
            .padStart(3, '0')
            .slice(0, width - 1)
            .padEnd(width - 1, '0')}`;
        case 'a':
          if (code === 'a/p') return parts.hour < 12 ? 'a' : 'p';
          return parts.hour < 12 ? 'AM' : 'PM';
        default:
          return code;
      }
    })
    .join('');
}

/** The text a cell displays for a stored value under a number format. */
export function displayValue(value: string | number | boolean, format: string | undefined): string {
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (typeof value === 'string') return value;
  if (isAutomaticFormat(format) || format === PLAIN_TEXT_FORMAT) return formatGeneral(value);
  if (isDateFormat(format)) return formatDateSerial(value, format ?? '');
  return formatNumber(value, format ?? '');
}
