// Calendar periods of a metric, and the period labels finance teams write ("2024-Q1", "Q3 FY2024").

import { InputError } from '../errors';
import { daysInMonth } from '../validate/dates';

type YearMonth = { year: number; month: number };
type YearMonthDay = YearMonth & { day: number };

function parseIso(date: string): YearMonthDay {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return { year, month, day };
}

function formatIso({ year, month, day }: YearMonthDay): string {
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** Adds months to a month start, crossing years. */
function addMonths(year: number, month: number, months: number): YearMonth {
  const index = year * 12 + (month - 1) + months;
  return { year: Math.floor(index / 12), month: (index % 12) + 1 };
}

/** The API's frequencies and "annually", which a live account returned: a period's months (or days), and its starts in words. */
const FREQUENCIES = new Map<string, { months: number; days?: number; startsOn: string }>([
  ['daily', { months: 0, days: 1, startsOn: 'every day' }],
  ['weekly', { months: 0, days: 7, startsOn: 'Mondays' }],
  ['monthly', { months: 1, startsOn: 'the first of each month' }],
  ['quarterly', { months: 3, startsOn: '1 January, 1 April, 1 July and 1 October' }],
  ['annually', { months: 12, startsOn: '1 January' }],
]);

/** Undefined for a frequency the add-in does not know. */
export function frequencyMonths(frequency: string): number | undefined {
  return FREQUENCIES.get(frequency)?.months;
}

export function periodStartsInWords(frequency: string): string | undefined {
  return FREQUENCIES.get(frequency)?.startsOn;
}

/** The start of the calendar period that holds `date` (ISO weeks start on Monday); undefined for an unknown frequency. */
export function periodStart(date: string, frequency: string): string | undefined {
  const months = frequencyMonths(frequency);
  if (months === undefined) return undefined;
  if (frequency === 'daily') return date;
  const d = parseIso(date);
  if (frequency === 'weekly') {
    const daysSinceMonday = (new Date(Date.UTC(d.year, d.month - 1, d.day)).getUTCDay() + 6) % 7;
    return addDays(date, -daysSinceMonday);
  }
  return formatIso({ year: d.year, month: d.month - ((d.month - 1) % months), day: 1 });
}

/** The start of the period after the one that starts on `start`. */
export function nextPeriodStart(start: string, frequency: string): string {
  const { months = 1, days } = FREQUENCIES.get(frequency) ?? {};
  if (days !== undefined) return addDays(start, days);
  const { year, month } = parseIso(start);
  return formatIso({ ...addMonths(year, month, months), day: 1 });
}

export type LabelSpan = 'day' | 'month' | 'quarter' | 'year';

/** A label's period: its first and last day, its span, what it means in words (for errors) and whether it is fiscal. */
export interface LabelledPeriod {
  start: string;
  end: string;
  span: LabelSpan;
  description: string;
  fiscal?: boolean;
}

/** A year typed into a cell is the number 2024 to Sheets; wherever a label is accepted it is the calendar year. */
export function yearAsLabel(cell: unknown): unknown {
  return typeof cell === 'number' && Number.isInteger(cell) && cell >= 1000 && cell <= 9999 ? String(cell) : cell;
}

/**
 * Reads a period label. A fiscal year is named by the calendar year it ends in (FY2024 with a March
 * year end runs April 2023 to March 2024), the common convention; with no year end month, the calendar year.
 *
 *   2024-03-15 → that day      2024-03 → March 2024      2024-Q1 → January to March 2024
 *   FY2024 (or FY24) → fiscal 2024        Q3 FY2024, Q3-FY2024, FY2024 Q3 → its third quarter
 */
export function parsePeriodLabel(label: string, fiscalYearEndMonth: number | null | undefined): LabelledPeriod {
  const text = label.trim().toUpperCase().replace(/\s+/g, ' ');
  let match: RegExpExecArray | null;
  if ((match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text))) {
    const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
    if (month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month)) return { start: text, end: text, span: 'day', description: text };
  } else if ((match = /^(\d{4})$/.exec(text))) {
    // A bare year is the calendar year, as coverage columns label it; fiscal years are always written FY.
    return { ...monthsFrom({ year: Number(match[1]), month: 1 }, 12), span: 'year', description: `the calendar year ${text}` };
  } else if ((match = /^(\d{4})-(\d{2})$/.exec(text))) {
    const [year, month] = [Number(match[1]), Number(match[2])];
    if (month >= 1 && month <= 12) return { ...monthsFrom({ year, month }, 1), span: 'month', description: `the month ${text}` };
  } else if ((match = /^(\d{4})-?Q([1-4])$/.exec(text)) || (match = /^Q([1-4])[ -]?(\d{4})$/.exec(text))) {
    const yearFirst = /^\d{4}/.test(text);
    const year = Number(yearFirst ? match[1] : match[2]);
    const quarter = Number(yearFirst ? match[2] : match[1]);
    return { ...monthsFrom({ year, month: (quarter - 1) * 3 + 1 }, 3), span: 'quarter', description: `calendar quarter ${quarter} of ${year}` };
  } else if ((match = /^(?:Q([1-4])[ -]?)?FY ?(\d{2}|\d{4})$/.exec(text)) || (match = /^FY ?(\d{2}|\d{4})[ -]?Q([1-4])$/.exec(text))) {
    const yearFirst = /Q[1-4]$/.test(text);
    const quarterText = yearFirst ? match[2] : match[1];
    const quarter = quarterText ? Number(quarterText) : undefined;
    const year = fiscalYearNumber((yearFirst ? match[1] : match[2])!);
    const start = fiscalYearStart(year, fiscalYearEndMonth);
    const begin = quarter ? addMonths(start.year, start.month, (quarter - 1) * 3) : start;
    return {
      ...monthsFrom(begin, quarter ? 3 : 12),
      span: quarter ? 'quarter' : 'year',
      description: `${quarter ? `Q${quarter} of ` : ''}fiscal year ${year}${fiscalYearEndMonth && fiscalYearEndMonth >= 1 && fiscalYearEndMonth < 12 ? ` (ending in ${MONTH_NAMES[fiscalYearEndMonth - 1]})` : ''}`,
      fiscal: true,
    };
  }
  throw new InputError(`"${label}" is not a period: use a date, 2024-03, 2024-Q1, FY2024 or Q3 FY2024.`);
}

/** The first and last day of `months` months from the first of year-month. */
function monthsFrom({ year, month }: YearMonth, months: number): { start: string; end: string } {
  const last = addMonths(year, month, months - 1);
  return { start: formatIso({ year, month, day: 1 }), end: formatIso({ ...last, day: daysInMonth(last.year, last.month) }) };
}

/** "24" means 2024: two-digit fiscal years are always this century in practice. */
function fiscalYearNumber(text: string): number {
  return text.length === 2 ? 2000 + Number(text) : Number(text);
}

function fiscalYearStart(fiscalYear: number, endMonth: number | null | undefined): YearMonth {
  const end = endMonth && endMonth >= 1 && endMonth <= 12 ? endMonth : 12;
  // The fiscal year ends in `end` of `fiscalYear`; it started the month after, one year before.
  return addMonths(fiscalYear, end, -11);
}

/** A date `days` later (or earlier). */
export function addDays(date: string, days: number): string {
  const d = parseIso(date);
  return new Date(Date.UTC(d.year, d.month - 1, d.day + days)).toISOString().slice(0, 10);
}

export const SPAN_MONTHS: Record<LabelSpan, number> = { day: 0, month: 1, quarter: 3, year: 12 };

/** A calendar label of the period of that span starting on `start`: 2024-03, 2024-Q1, 2024, or the date itself. */
export function periodLabel(start: string, span: LabelSpan): string {
  if (span === 'month') return start.slice(0, 7);
  if (span === 'quarter') return `${start.slice(0, 4)}-Q${Math.floor((Number(start.slice(5, 7)) - 1) / 3) + 1}`;
  return span === 'year' ? start.slice(0, 4) : start;
}

/**
 * The starts of a frequency's periods that fall from `start` to `end` (both included), oldest first.
 * A week belongs to the month, quarter or year it starts in, so a period's weeks are the Mondays inside it.
 */
export function periodStartsWithin(start: string, end: string, frequency: string): string[] {
  const first = periodStart(start, frequency);
  if (first === undefined) return [];
  const starts: string[] = [];
  let date = first < start ? nextPeriodStart(first, frequency) : first;
  while (date <= end) {
    starts.push(date);
    date = nextPeriodStart(date, frequency);
  }
  return starts;
}

export const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** How a series' dates are spaced, judged from its points, for when the metric's frequency is unknown. */
interface InferredPeriods {
  fits(date: string): boolean;
  /** The days its points fall on, in words. */
  words: string;
}

function dayNumber(date: string): number {
  const { year, month, day } = parseIso(date);
  return Date.UTC(year, month - 1, day) / 86_400_000;
}

/**
 * The pattern of a series' dates (at least 3): month starts (every month, quarter or year, from the
 * months seen), or one weekday; undefined for no such pattern.
 */
export function inferPeriods(dates: readonly string[]): InferredPeriods | undefined {
  if (dates.length < 3) return undefined;
  const parts = dates.map(parseIso);
  if (parts.every((d) => d.day === 1)) {
    // The longest step (a year, a quarter, a month) that every month seen keeps to.
    const step = [12, 3, 1].find((months) => new Set(parts.map((d) => (d.month - 1) % months)).size === 1)!;
    const first = (parts[0]!.month - 1) % step;
    const names = [0, 3, 6, 9].map((offset) => `1 ${MONTH_NAMES[first + offset]}`);
    const words = step === 12 ? names[0]! : step === 3 ? `${names.slice(0, 3).join(', ')} and ${names[3]}` : 'the first of each month';
    return { fits: (date) => parseIso(date).day === 1 && (parseIso(date).month - 1) % step === first, words };
  }
  const days = dates.map(dayNumber);
  // A remainder of -0 (an earlier date) is 0 too.
  const sameWeekday = (day: number): boolean => (day - days[0]!) % 7 === 0;
  if (days.every(sameWeekday)) {
    const weekday = new Date(days[0]! * 86_400_000).toLocaleDateString('en-GB', { weekday: 'long', timeZone: 'UTC' });
    return { fits: (date) => sameWeekday(dayNumber(date)), words: `${weekday}s` };
  }
  return undefined;
}
