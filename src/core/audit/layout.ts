// Where the audit sheet keeps what: the hidden markers that let write-back find its ids, and the positions of every block.

import { columnLetters } from '../export/places';
import type { AuditLayout, GridRange } from './types';

/** The id row's first cell: the marker, then the fund's company id. Write-back finds the sheet's ids by it. */
export const AUDIT_MARKER_PREFIX = 'portfolio-audit:v1:';
/** Above the name column in the hidden id row. */
export const NAME_MARKER = '#name';
/** Above the per-company summary columns, and left of the per-property summary rows. */
export const SUMMARY_MARKERS = { filled: '#filled', total: '#total', share: '#share' } as const;

export const HEADERS = {
  profileId: 'Profile id',
  name: 'Company',
  filled: 'Filled',
  total: 'Of',
  share: 'Complete',
} as const;

/** How an auto-calculated property's header is marked. */
export const AUTO_SUFFIX = ' (auto)';

/**
 * The positions of a grid with `profiles` rows and `properties` columns (`custom` of them editable, first).
 * Fixed rows and columns come first, so the blocks are easy to find: see AuditLayout.
 */
export function auditLayout(profiles: number, properties: number, custom: number): AuditLayout {
  const idRow = 1;
  const headerRow = 2;
  const firstProfileRow = 3;
  const lastProfileRow = headerRow + profiles;
  const idColumn = 1;
  const nameColumn = 2;
  const firstPropertyColumn = 3;
  const lastPropertyColumn = nameColumn + properties;
  const summaryColumns = { filled: lastPropertyColumn + 1, total: lastPropertyColumn + 2, share: lastPropertyColumn + 3 };
  // One blank row keeps the summary visibly apart from the profiles (and outside the filter).
  const summaryRows = { filled: lastProfileRow + 2, total: lastProfileRow + 3, share: lastProfileRow + 4 };
  return {
    idRow,
    headerRow,
    firstProfileRow,
    lastProfileRow,
    idColumn,
    nameColumn,
    firstPropertyColumn,
    lastPropertyColumn,
    firstAutoColumn: custom < properties ? firstPropertyColumn + custom : null,
    summaryColumns,
    summaryRows,
    rows: summaryRows.share,
    columns: summaryColumns.share,
  };
}

/** A block of the sheet, with its A1 notation. */
export function gridRange(row: number, column: number, numRows: number, numColumns: number): GridRange {
  const start = `${columnLetters(column)}${row}`;
  const end = `${columnLetters(column + numColumns - 1)}${row + numRows - 1}`;
  return { row, column, numRows, numColumns, a1: numRows === 1 && numColumns === 1 ? start : `${start}:${end}` };
}

/** A1 notation of one cell. */
export function cellName(row: number, column: number): string {
  return `${columnLetters(column)}${row}`;
}
