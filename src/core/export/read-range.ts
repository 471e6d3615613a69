// Turns a range's cells into export items: long = [date, value] rows of one metric; wide = a date
// column and one column per metric, each named in the header row by its id or its exact name.

import { InputError } from '../errors';
import { isUuid } from '../validate/uuid';
import { quote } from '../../shared/words';
import type { ExportColumnState, ExportSpec, ExportState, MetricRef, RangeInput, SheetPosition } from './types';

/** What a value column exports to: a metric, or a reason every item of the column fails with. */
type ColumnTarget = { metric: MetricRef } | { error: string };

type ReadColumn = Pick<ExportColumnState, 'column' | 'header'> & { target: ColumnTarget };

/** One item before validation: the cells it is made of, and where it sits. */
export type ReadCell = SheetPosition & {
  dateCell: unknown;
  valueCell: unknown;
  /** The value cell's number format, when the range's formats were read. */
  valueFormat?: string;
  target: ColumnTarget;
};

export type ReadResult = Pick<ExportState, 'rowCount' | 'rowsRead' | 'emptyRows'> & { columns: ReadColumn[]; cells: ReadCell[] };

/** Ids look like this; a header that does but is not one is told so, rather than "no metric is named". */
const ID_LIKE = /^[0-9a-f]{4,}(?:-[0-9a-f]*){2,}$/i;

export function isBlankCell(cell: unknown): boolean {
  return cell === '' || cell === null || cell === undefined || (typeof cell === 'string' && cell.trim() === '');
}

/**
 * Reads the items of a range. A blank row is not input (ranges often run past the data): it is counted
 * as empty. A shape that makes the whole range unreadable throws an InputError; a column's problem fails its items.
 */
export function readRange(range: RangeInput, spec: ExportSpec, metrics: readonly MetricRef[]): ReadResult {
  const rows = range.values;
  const width = rows.reduce((max, row) => Math.max(max, row.length), 0);
  const columns = spec.layout === 'long' ? [longColumn(spec, metrics, rows.length, width)] : wideColumns(spec, rows, width, metrics);
  const cells: ReadCell[] = [];
  let rowsRead = 0;
  let emptyRows = 0;
  for (let r = spec.hasHeaderRow ? 1 : 0; r < rows.length; r++) {
    const row = rows[r] ?? [];
    if (row.every(isBlankCell)) {
      emptyRows++;
      continue;
    }
    rowsRead++;
    for (const column of columns) {
      const cell: ReadCell = { row: r + 1, column: column.column, dateCell: row[0], valueCell: row[column.column - 1], target: column.target };
      const format = range.numberFormats?.[r]?.[column.column - 1];
      if (format !== undefined) cell.valueFormat = format;
      cells.push(cell);
    }
  }
  return { columns, cells, rowCount: rows.length, rowsRead, emptyRows };
}

function longColumn(spec: ExportSpec, metrics: readonly MetricRef[], rowCount: number, width: number): ReadColumn {
  if (rowCount > 0 && width !== 2) {
    throw new InputError(`The long layout reads two columns, dates then values, but the range has ${width}. Select just those two columns.`);
  }
  const chosen = spec.metricId?.trim() ?? '';
  if (chosen === '') throw new InputError('Choose the metric the values belong to.');
  if (!isUuid(chosen)) {
    return {
      column: 2,
      header: chosen,
      target: { error: `the metric id ${quote(chosen)} is not a UUID (ids look like 123e4567-e89b-12d3-a456-426614174000)` },
    };
  }
  const id = chosen.toLowerCase();
  const metric = metrics.find((m) => m.id.toLowerCase() === id);
  return { column: 2, header: id, target: metric ? { metric } : { error: `the metric ${id} is not one of this company's metrics` } };
}

function wideColumns(spec: ExportSpec, rows: ReadonlyArray<ReadonlyArray<unknown>>, width: number, metrics: readonly MetricRef[]): ReadColumn[] {
  if (!spec.hasHeaderRow) throw new InputError('The wide layout needs a header row naming the metric of each column.');
  if (rows.length === 0) return [];
  if (width < 2) throw new InputError('The wide layout reads a date column and at least one metric column, but the range has one column.');
  const header = rows[0] ?? [];
  const columns: ReadColumn[] = [];
  for (let column = 2; column <= width; column++) {
    const text = isBlankCell(header[column - 1]) ? '' : String(header[column - 1]).trim();
    if (text === '') {
      // A blank column at the edge of a selection is not input; one with values but no header is a mistake.
      const hasValues = rows.slice(1).some((row) => !isBlankCell(row[column - 1]));
      if (hasValues) columns.push({ column, header: '', target: { error: 'the column has no header naming its metric' } });
      continue;
    }
    columns.push({ column, header: text, target: resolveHeader(text, metrics) });
  }
  return columns;
}

/** A header names a metric by its id (any case) or by its exact name; stray spaces around either are ignored. */
export function resolveHeader(text: string, metrics: readonly MetricRef[]): ColumnTarget {
  if (isUuid(text)) {
    const id = text.toLowerCase();
    const metric = metrics.find((m) => m.id.toLowerCase() === id);
    return metric ? { metric } : { error: `the header names the metric id ${id}, which is not one of this company's metrics` };
  }
  const named = metrics.filter((m) => m.name.trim() === text);
  const [only] = named;
  if (only && named.length === 1) return { metric: only };
  if (named.length > 1) {
    return { error: `the header ${quote(text)} names ${named.length} metrics (${named.map((m) => m.id).join(', ')}): put the id of the one you mean instead` };
  }
  if (ID_LIKE.test(text)) return { error: `the header ${quote(text)} is not a valid metric id (ids look like 123e4567-e89b-12d3-a456-426614174000)` };
  return { error: `no metric is named ${quote(text)}: use the metric's exact name or its id` };
}
