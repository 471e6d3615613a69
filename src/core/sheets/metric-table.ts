// Data points shaped into what a cell range shows: oldest first, one column per metric, blanks stay blank.

import { InputError } from '../errors';
import type { DataPoint } from '../api/types';
import { SOURCE_HEADINGS, sourceCells } from './source-cells';

export type Cell = string | number | null;

export interface TableOptions {
  headers: boolean;
  excludeBlank: boolean;
  /** Values as the API's exact decimal text rather than numbers. */
  text: boolean;
  /** Each value followed by its source's type, label and link; with headers, as four columns each need names. */
  source: boolean;
}

// A Map, not an object: "constructor" is an unknown option, not one of Object's own properties.
const OPTION_NAMES = new Map<string, keyof TableOptions>(
  Object.entries({
    headers: 'headers',
    header: 'headers',
    exclude_blank: 'excludeBlank',
    text: 'text',
    source: 'source',
  }),
);

/** Words like "headers, exclude_blank"; an unknown one is an error, not ignored, so a typo is visible. */
export function parseTableOptions(input: unknown, defaults: Partial<TableOptions> = {}): TableOptions {
  const options: TableOptions = { headers: false, excludeBlank: false, text: false, source: false, ...defaults };
  if (input === undefined || input === null || input === '') return options;
  if (typeof input !== 'string') throw new InputError(`Options must be text like "headers, exclude_blank", not ${String(input)}.`);
  for (const word of input.split(/[\s,;]+/).filter(Boolean)) {
    const key = OPTION_NAMES.get(word.toLowerCase());
    if (!key) throw new InputError(`Unknown option "${word}". Known options: headers, exclude_blank, text, source.`);
    options[key] = true;
  }
  if (options.source) options.headers = true;
  return options;
}

/** A value as a cell shows it: the API's exact decimal text when text was asked for, else a number. */
export function toCell(value: string | null | undefined, asText: boolean): Cell {
  if (value === null || value === undefined || value === '') return null;
  if (asText) return value;
  const parsed = Number(value);
  return Number.isFinite(parsed) ? parsed : value;
}

/**
 * Rows of [date, value per metric], oldest first whatever order the API answered in, one column per
 * metric in the order asked for (with `source`, each followed by its source's type, label and link).
 */
export function shapeSeries(points: readonly DataPoint[], metricIds: readonly string[], headerNames: readonly string[], options: TableOptions): Cell[][] {
  // A metric named twice gets both its columns: the person laid the table out that way.
  const columns = new Map<string, number[]>();
  metricIds.forEach((id, i) => columns.set(id, [...(columns.get(id) ?? []), i]));
  const width = options.source ? 1 + SOURCE_HEADINGS.length : 1;
  const byDate = new Map<string, Cell[]>();
  for (const point of points) {
    const indexes = columns.get(point.metric_id);
    if (indexes === undefined) continue;
    const cell = toCell(point.value, options.text);
    if (options.excludeBlank && cell === null) continue;
    let row = byDate.get(point.date);
    if (!row) {
      row = new Array<Cell>(metricIds.length * width).fill(null);
      byDate.set(point.date, row);
    }
    const cells = options.source ? [cell, ...sourceCells(point.source)] : [cell];
    for (const index of indexes) row.splice(index * width, width, ...cells);
  }
  const dates = [...byDate.keys()].sort();
  const rows: Cell[][] = dates.map((date) => [date, ...byDate.get(date)!]);
  if (options.headers) {
    const headings = options.source ? headerNames.flatMap((name) => [name, ...SOURCE_HEADINGS.map((h) => `${name} ${h}`)]) : headerNames;
    rows.unshift(['Date', ...headings]);
  }
  return rows;
}
