// The header row of an import range: which column holds which field, by name, without regard to case.

import { InputError } from '../errors';
import { columnLetters } from '../export/places';
import { joinAnd, quote } from '../../shared/words';
import { unsettledCell } from '../sheets/unsettled-cell';
import { isBlankCell } from './cell-text';
import { newImportCounters, type ProfileRename, type RangeInput, type SheetPosition } from './types';

/** Heads the status column the server writes; a range that already has one (an earlier run) reuses it. */
export const STATUS_HEADER = 'Import status';

export type FieldColumn<Key extends string> = {
  key: Key;
  /** Normalised header texts (see normaliseHeader) that name this field. */
  aliases: readonly string[];
  required?: boolean;
};

type HeaderColumns<Key extends string> = {
  /** 1-based column offset within the range of each field found. */
  columns: Partial<Record<Key, number>>;
  /** Headers that name no field, as written. */
  ignored: string[];
  /** The column of an earlier "Import status", if the range has one. */
  statusColumn: number | null;
};

/**
 * "Website_URL", "website-url", "website url" and "Website URL:" read alike: underscores and hyphens
 * are spaces, a trailing colon or required-marker asterisk goes, and runs of spaces are one space.
 */
export function normaliseHeader(cell: unknown): string {
  if (typeof cell !== 'string') return '';
  return cell
    .toLowerCase()
    .replace(/[:*]+\s*$/, '')
    .replace(/[_-]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * Maps the header row to fields. A missing required column, or two columns naming one field, makes
 * the range unreadable as a whole: an InputError that says what the first row must hold. `what` names
 * the import in that sentence, like "A profile import"; headers are normalised first (normaliseHeader).
 */
function readHeader<Key extends string>(
  header: readonly unknown[],
  fields: ReadonlyArray<FieldColumn<Key>>,
  what: string,
  origin: SheetPosition,
): HeaderColumns<Key> {
  const columns: Partial<Record<Key, number>> = {};
  const ignored: string[] = [];
  let statusColumn: number | null = null;
  const letter = (column: number) => columnLetters(origin.column + column - 1);

  header.forEach((cell, index) => {
    const column = index + 1;
    if (isBlankCell(cell)) return;
    const name = normaliseHeader(cell);
    if (name === normaliseHeader(STATUS_HEADER)) {
      statusColumn = column;
      return;
    }
    const field = fields.find((f) => f.aliases.includes(name));
    if (!field) {
      ignored.push(String(cell).trim());
      return;
    }
    const earlier = columns[field.key];
    if (earlier !== undefined) {
      throw new InputError(`Columns ${letter(earlier)} and ${letter(column)} both give the ${titleOf(field).toLowerCase()}: keep one of them.`);
    }
    columns[field.key] = column;
  });

  const missing = fields.filter((field) => field.required && columns[field.key] === undefined);
  if (missing.length > 0) {
    const found = header.filter((cell) => !isBlankCell(cell)).map((cell) => quote(String(cell).trim()));
    throw new InputError(
      `${what} reads the first row of the range as headers naming the columns, and needs ${joinAnd(missing.map((f) => `a "${titleOf(f)}" column`))}; ` +
        `${found.length > 0 ? `the first row holds ${joinAnd(found)}` : 'the first row is empty'}. ` +
        `Recognised headers: ${fields.map(titleOf).join(', ')}.`,
    );
  }
  return { columns, ignored, statusColumn };
}

/** What an import would make of a range's header row, before anything is planned or sent. */
export type ImportColumnCheck = {
  /** The headers this import reads, as shown: "Email", "First name"… */
  recognised: string[];
  /** Headers it does not recognise, with their column: 'C "Contact list names"'. Their cells would not be sent. */
  unrecognised: string[];
  /**
   * A profile import's renames, old → new, as planned against the fund's profiles now: the import sends
   * them only when its request carries them back (the person confirmed them). Absent for contacts.
   */
  renames?: ProfileRename[];
};

/** The header row checked against an import's fields: every header it would leave out is named. */
export function checkImportHeader<Key extends string>(
  header: readonly unknown[],
  fields: ReadonlyArray<FieldColumn<Key>>,
  origin: SheetPosition,
): ImportColumnCheck {
  const known = new Set([normaliseHeader(STATUS_HEADER), ...fields.flatMap((field) => field.aliases)]);
  const unrecognised = header.flatMap((cell, index) =>
    isBlankCell(cell) || known.has(normaliseHeader(cell)) ? [] : [`${columnLetters(origin.column + index)} ${quote(String(cell).trim())}`],
  );
  return { recognised: fields.map(titleOf), unrecognised };
}

/**
 * Refuses a range with headers the import does not recognise, unless the person chose to ignore them:
 * a typo'd or extra column ("Contact list names") would otherwise be left out under a green summary.
 */
export function requireKnownHeaders(check: ImportColumnCheck, what: string, ignoreUnrecognised: boolean): void {
  if (check.unrecognised.length === 0 || ignoreUnrecognised) return;
  const these = check.unrecognised.length === 1 ? 'this column' : 'these columns';
  throw new InputError(
    `${what} does not recognise the header${check.unrecognised.length === 1 ? '' : 's'} of ${joinAnd(check.unrecognised)}, so nothing in ${these} would be sent. ` +
      `Rename ${check.unrecognised.length === 1 ? 'it' : 'them'} to a recognised header (${check.recognised.join(', ')}), or choose to ignore ${these}.`,
  );
}

/** The first alias, capitalised, is how a header is shown: "Website", "Fiscal year end month". */
function titleOf<Key extends string>(field: FieldColumn<Key>): string {
  const first = field.aliases[0] ?? field.key;
  return first.charAt(0).toUpperCase() + first.slice(1);
}

type ImportRows<Key extends string, Row> = {
  origin: SheetPosition;
  width: number;
  header: HeaderColumns<Key>;
  rows: Row[];
  /** Data rows with nothing in the import's own columns: not input, counted apart. */
  emptyRows: number;
};

/**
 * Reads a range whose first row names the columns: every data row with something in the import's own
 * columns goes through `readRow` (with its 1-based row in the range, a reader of its cells by field, and
 * the A1 address of a field's cell, so a reason can name the cell to correct); a row holding nothing
 * but, say, an earlier status is empty.
 */
export function readImportRows<Key extends string, Row extends { problems: string[] }>(
  range: RangeInput,
  fields: ReadonlyArray<FieldColumn<Key>>,
  what: string,
  readRow: (row: number, cell: (key: Key) => unknown, address: (key: Key) => string) => Row,
): ImportRows<Key, Row> {
  const values = range.values;
  const origin = range.origin ?? { row: 1, column: 1 };
  const width = values.reduce((max, row) => Math.max(max, row.length), 0);
  const header = readHeader(values[0] ?? [], fields, what, origin);
  const rows: Row[] = [];
  let emptyRows = 0;
  for (let index = 1; index < values.length; index++) {
    const cells = values[index] ?? [];
    const cell = (key: Key): unknown => {
      const column = header.columns[key];
      return column === undefined ? '' : cells[column - 1];
    };
    if (fields.every((field) => isBlankCell(cell(field.key)))) {
      emptyRows++;
      continue;
    }
    const address = (key: Key): string => `${columnLetters(origin.column + (header.columns[key] ?? 1) - 1)}${origin.row + index}`;
    const read = readRow(index + 1, cell, address);
    // An error or a "Loading…" is nobody's input: the row waits for it, whatever else its cells say.
    const unsettled = fields.flatMap((field) => {
      const why = header.columns[field.key] === undefined ? undefined : unsettledCell(cell(field.key));
      return why ? [`the ${titleOf(field).toLowerCase()} cell ${address(field.key)} ${why}`] : [];
    });
    if (unsettled.length > 0) read.problems = unsettled;
    rows.push(read);
  }
  return { origin, width, header, rows, emptyRows };
}

/** The fields every import job starts with, from its read range and its planned rows. */
export function newImportJob<Row extends { outcome: string }>(read: ImportRows<'id', unknown>, range: RangeInput, rows: Row[], idHeader: string) {
  // Ids go into the range's id column, or a new one right of the range that a later run recognises by
  // its header; statuses into an earlier status column, or a new one right of everything else.
  const found = read.header.columns.id;
  const idColumn = found === undefined ? { column: read.width + 1, header: idHeader, isNew: true } : { column: found, header: idHeader, isNew: false };
  const { statusColumn } = read.header;
  return {
    status: rows.some((row) => row.outcome === 'pending') ? ('running' as const) : ('done' as const),
    origin: read.origin,
    rowCount: range.values.length,
    width: read.width,
    rowsRead: read.rows.length,
    emptyRows: read.emptyRows,
    ignoredColumns: read.header.ignored,
    idColumn,
    statusColumn: { column: statusColumn ?? Math.max(read.width, idColumn.column) + 1, header: STATUS_HEADER, isNew: statusColumn === null },
    rows,
    counters: newImportCounters(),
  };
}

/**
 * Rows sharing a key: the first (in sheet order) goes ahead, each later one gets a problem naming it,
 * like "row 4", so a pasted-twice row is reported as a duplicate and not sent twice.
 */
export function markDuplicates<Row extends { row: number; problems: string[] }>(
  rows: readonly Row[],
  origin: SheetPosition,
  keyOf: (row: Row) => string | undefined,
  problem: (row: Row, first: string) => string,
): void {
  const firsts = new Map<string, Row>();
  for (const row of rows) {
    const key = keyOf(row);
    if (key === undefined) continue;
    const first = firsts.get(key);
    if (first) row.problems.push(problem(row, `row ${origin.row + first.row - 1}`));
    else firsts.set(key, row);
  }
}
