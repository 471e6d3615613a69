// A1 notation: column letters, cell and range references, optional sheet names ('My sheet'!A1:B2).

import { GasError } from '../errors';

/** A parsed A1 reference. Open ends (A:B, 2:5, A2:B) are marked so the range can be sized to its sheet. */
export interface A1Reference {
  sheetName: string | null;
  startRow: number | null;
  startColumn: number | null;
  endRow: number | null;
  endColumn: number | null;
}

export function columnToLetters(column: number): string {
  let letters = '';
  let n = column;
  while (n > 0) {
    const rest = (n - 1) % 26;
    letters = String.fromCharCode(65 + rest) + letters;
    n = Math.floor((n - 1) / 26);
  }
  return letters;
}

export function lettersToColumn(letters: string): number {
  let column = 0;
  for (const char of letters.toUpperCase()) column = column * 26 + (char.charCodeAt(0) - 64);
  return column;
}

const CELL_PART = /^\$?([A-Za-z]{1,3})?\$?(\d+)?$/;

function parsePart(part: string): { row: number | null; column: number | null } | null {
  const match = CELL_PART.exec(part);
  if (!match || (!match[1] && !match[2])) return null;
  const row = match[2] ? Number(match[2]) : null;
  if (row === 0) return null;
  return { row, column: match[1] ? lettersToColumn(match[1]) : null };
}

/** Splits `'Sheet name'!A1:B2` into the sheet name (quotes undone) and the reference. */
export function splitSheetName(notation: string): { sheetName: string | null; reference: string } {
  const text = notation.trim();
  if (text.startsWith("'")) {
    const end = text.indexOf("'!", 1);
    if (end > 0) return { sheetName: text.slice(1, end).replace(/''/g, "'"), reference: text.slice(end + 2) };
  }
  const bang = text.lastIndexOf('!');
  if (bang > 0) return { sheetName: text.slice(0, bang), reference: text.slice(bang + 1) };
  return { sheetName: null, reference: text };
}

/** Parses A1 notation; throws Apps Script's "Range not found" for anything it cannot read. */
export function parseA1(notation: string): A1Reference {
  const { sheetName, reference } = splitSheetName(String(notation));
  const [first, second, extra] = reference.split(':');
  if (first === undefined || extra !== undefined) throw new GasError('Range not found');
  const start = parsePart(first);
  const end = second === undefined ? start : parsePart(second);
  if (!start || !end) throw new GasError('Range not found');
  // A single part must name a whole cell; "A" or "3" alone is not a reference.
  if (second === undefined && (start.row === null || start.column === null)) throw new GasError('Range not found');
  // A whole-column part and a whole-row part cannot be mixed (A:3).
  if ((start.row === null && end.column === null) || (start.column === null && end.row === null)) throw new GasError('Range not found');
  const rows = [start.row, end.row];
  const columns = [start.column, end.column];
  return {
    sheetName,
    startRow: rows[0] !== null && rows[1] !== null ? Math.min(rows[0] as number, rows[1] as number) : (rows[0] ?? null),
    endRow: rows[0] !== null && rows[1] !== null ? Math.max(rows[0] as number, rows[1] as number) : null,
    startColumn: columns[0] !== null && columns[1] !== null ? Math.min(columns[0] as number, columns[1] as number) : (columns[0] ?? null),
    endColumn: columns[0] !== null && columns[1] !== null ? Math.max(columns[0] as number, columns[1] as number) : null,
  };
}

/** A sheet name as A1 notation needs it: quoted when it is not a plain word. */
export function quoteSheetName(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && !CELL_PART.test(name) ? name : `'${name.replace(/'/g, "''")}'`;
}

/** The A1 notation of a block of cells; open-ended rows or columns print as Apps Script prints them (A:B, 2:5). */
export function formatA1(
  row: number,
  column: number,
  numRows: number,
  numColumns: number,
  open: { rows: boolean; columns: boolean } = { rows: false, columns: false },
): string {
  const endRow = row + numRows - 1;
  const endColumn = column + numColumns - 1;
  if (open.rows && !open.columns) return `${columnToLetters(column)}${row === 1 ? '' : row}:${columnToLetters(endColumn)}`;
  if (open.columns && !open.rows) return `${row}:${endRow}`;
  if (numRows === 1 && numColumns === 1) return `${columnToLetters(column)}${row}`;
  return `${columnToLetters(column)}${row}:${columnToLetters(endColumn)}${endRow}`;
}
