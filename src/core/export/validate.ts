// Validation of every item before anything is sent, each refusal with a reason the user can act on.

import { shortReason } from '../errors';
import { periodStart } from '../sheets/periods';
import { unsettledCell } from '../sheets/unsettled-cell';
import { isDateLike, isIsoDate, toIsoDate, type DateFormatter } from '../validate/dates';
import { toDecimal } from '../validate/decimal';
import { fractionToPoints, isPercentFormat, isPercentUnit, percentTextToPoints } from './percent';
import type { PlaceNamer } from './places';
import { quote } from '../../shared/words';
import { isBlankCell, type ReadCell, type ReadResult } from './read-range';
import type { ExportItemState, ExportSpec, MetricRef } from './types';

/** The spreadsheet's time zone and a formatter: Date cells mean a calendar day there, not in UTC. */
export type DateReading = { timeZone: string; formatDate: DateFormatter };

type CheckedItem = Omit<ExportItemState, 'metric' | 'outcome' | 'planned'> & { metric: MetricRef | null; verdict: 'send' | 'skipped' | 'failed' };

const BLANK_SKIPPED = 'blank value';
export const BLANK_REFUSED = 'blank value: the API cannot store a blank, and this export does not skip blanks';

/** The API's decimal form; anything sent must match it (contract: DataPointInput.value). */
const API_DECIMAL = /^-?\d+(\.\d+)?$/;

/** Sheets stores a time of day with no date as that time on its epoch day. */
const SHEETS_EPOCH_DAY = '1899-12-30';

/** The adjective for a frequency's period, where it is not the frequency itself. */
const PERIOD_NAME: Record<string, string> = { annually: 'annual' };

/** Weeks and quarters start on days people do not always know; the reason says which. */
const PERIOD_HINT: Record<string, string> = {
  weekly: ' (weeks start on Monday)',
  quarterly: ' (quarters start on 1 January, April, July and October)',
  annually: ' (years start on 1 January)',
};

/**
 * Checks every item: its column, blank, date, value and period, in that order, then duplicate dates
 * within each metric. The first problem found is the reason; valid items get the verdict `send`.
 */
export function validateCells(read: ReadResult, spec: ExportSpec, dates: DateReading, places: PlaceNamer): CheckedItem[] {
  const items = read.cells.map((cell) => checkCell(cell, spec, dates));
  markDuplicates(items, spec, places);
  return items;
}

function checkCell(cell: ReadCell, spec: ExportSpec, dates: DateReading): CheckedItem {
  const { target } = cell;
  if ('error' in target) return { row: cell.row, column: cell.column, metric: null, verdict: 'failed', reason: target.error };
  const { metric } = target;
  const item: CheckedItem = { row: cell.row, column: cell.column, metric, verdict: 'failed' };
  if (isBlankCell(cell.valueCell)) {
    return spec.skipBlanks ? { ...item, verdict: 'skipped', reason: BLANK_SKIPPED } : { ...item, reason: BLANK_REFUSED };
  }
  const date = readDate(cell.dateCell, dates);
  if ('reason' in date) return { ...item, reason: date.reason };
  item.date = date.date;
  const value = readValue(cell.valueCell, metric, cell.valueFormat);
  if ('reason' in value) return { ...item, reason: value.reason };
  item.value = value.value;
  const period = checkPeriod(date.date, metric.frequency, spec.offPeriod);
  if ('reason' in period) return { ...item, reason: period.reason };
  return { ...item, verdict: 'send', date: period.date, ...(period.note ? { note: period.note } : {}) };
}

/** A Date cell read in the spreadsheet's time zone, or YYYY-MM-DD text; nothing else is a date. */
function readDate(cell: unknown, dates: DateReading): { date: string } | { reason: string } {
  const unsettled = unsettledCell(cell);
  if (unsettled) return { reason: `the date cell ${unsettled}` };
  if (isBlankCell(cell)) return { reason: 'the date is empty: give a date cell or text like 2024-01-31' };
  let text: string;
  try {
    text = toIsoDate(cell, 'the date', dates.timeZone, dates.formatDate);
  } catch (caught) {
    return { reason: shortReason(caught) };
  }
  if (isDateLike(cell) && text === SHEETS_EPOCH_DAY) return { reason: 'the date cell holds only a time of day, not a date' };
  // Years before 1000 are typing slips, and two-digit years would be read as 19xx by Date.UTC in the period rules.
  if (!isIsoDate(text) || Number(text.slice(0, 4)) < 1000) return { reason: `the date ${quote(text)} is out of range: use a year from 1000 to 9999` };
  return { date: text };
}

/**
 * A number cell as its exact decimal, or decimal text; "1,234", booleans and errors are refused. A
 * percentage (a percent-formatted number, or text like "12%") goes only to a `percent` metric, as the
 * points the cell shows (0.12 shown as 12% sends 12): for any other unit, 0.12 and 12 are both guesses.
 */
function readValue(cell: unknown, metric: Pick<MetricRef, 'unit'>, format?: string): { value: string } | { reason: string } {
  const unsettled = unsettledCell(cell);
  if (unsettled) return { reason: `the cell ${unsettled}` };
  if (isDateLike(cell)) return { reason: 'the value is a date, not a number' };
  const percent = isPercentUnit(metric.unit);
  const points = typeof cell === 'string' ? percentTextToPoints(cell) : undefined;
  if (points !== undefined) {
    if (!percent) return { reason: `the value ${quote((cell as string).trim())} is a percentage but ${unitOf(metric, 'without the % sign')}` };
    return { value: points };
  }
  let value: string;
  try {
    value = toDecimal(cell, 'the value');
  } catch (caught) {
    return { reason: shortReason(caught) };
  }
  if (typeof cell === 'number' && isPercentFormat(format, cell)) {
    if (!percent) return { reason: `the cell is formatted as a percentage but ${unitOf(metric, 'and format the cell as a number')}` };
    value = fractionToPoints(value);
  }
  // toDecimal already gives this form; checked again because nothing else may reach the API.
  if (!API_DECIMAL.test(value)) return { reason: `the value ${quote(value)} cannot be sent as a decimal` };
  return { value };
}

/**
 * A data point's date is the start of its calendar period (the spec says so). An off-period date is
 * refused naming the right one, or moved there with a note: never silently.
 */
function checkPeriod(date: string, frequency: string, mode: ExportSpec['offPeriod']): { date: string; note?: string } | { reason: string } {
  const known = frequency.trim().toLowerCase();
  const start = periodStart(date, known);
  if (start === undefined)
    return { date, note: `the metric's frequency ${quote(frequency)} is unknown to the add-in, so the date was not checked against its periods` };
  if (start === date) return { date };
  const period = `${PERIOD_NAME[known] ?? known} period`;
  if (mode === 'normalise') return { date: start, note: `${date} moved to ${start}, the start of its ${period}` };
  const article = /^[aeiou]/.test(period) ? 'an' : 'a';
  return { reason: `${date} is not the start of ${article} ${period}${PERIOD_HINT[known] ?? ''}: use ${start}` };
}

/**
 * Valid items of one metric on one date (after normalising) cannot all be stored: with last_wins the
 * last in sheet order is sent and the others are skipped naming it; otherwise all fail, naming the others.
 */
function markDuplicates(items: CheckedItem[], spec: ExportSpec, places: PlaceNamer): void {
  const groups = new Map<string, CheckedItem[]>();
  for (const item of items) {
    if (item.verdict !== 'send' || !item.metric || item.date === undefined) continue;
    const key = `${item.metric.id.toLowerCase()} ${item.date}`;
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    const winner = group[group.length - 1];
    for (const item of group) {
      if (spec.duplicates === 'last_wins') {
        if (item === winner || !winner) continue;
        item.verdict = 'skipped';
        item.reason = `duplicate date ${item.date}: ${places.one(winner)} wins`;
      } else {
        item.verdict = 'failed';
        item.reason = `duplicate date ${item.date}, also in ${places.many(group.filter((other) => other !== item))}`;
      }
    }
  }
}

/** The end of a percentage's refusal: what the metric holds, and the two ways out. */
function unitOf(metric: Pick<MetricRef, 'unit'>, fix: string): string {
  // Typed as a string, but an export stored before units were read has none.
  const unit = typeof metric.unit === 'string' ? metric.unit.trim() : '';
  const holds = unit === '' ? "the metric's unit is not known" : `the metric's unit is ${quote(unit)}`;
  return `${holds}, not percent: type the number the metric holds ${fix}, or choose a metric whose unit is percent`;
}
