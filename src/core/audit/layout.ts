// Where the audit sheet keeps what: the hidden markers that let write-back find its ids, and the positions of every block.

import { columnLetters } from '../export/places';
import type { AuditLayout, GridRange } from './types';

/** The id row's first cell, in the hidden row and column: write-back finds the sheet's ids by it. */
export const IDS_MARKER = '#ids';
/**
 * The sheet's developer metadata key (shown in no cell); its value is the fund's company id. Any editor's script
 * can rewrite it, as any editor can a cell: it names the fund a push asks for, which the signed snapshot must
 * agree with (audit-trust.ts), never grants it.
 */
export const AUDIT_FUND_KEY = 'portfolio-audit:v1';
/**
 * Audits built before the fund moved to developer metadata: the id row's first cell held this, then the fund's
 * company id, shown in the formula bar. Still read, never written.
 */
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

/** The positions of a grid of `profiles` rows and `properties` columns, `custom` of them editable, first. */
export function auditLayout(profiles: number, properties: number, custom: number): AuditLayout {
  const lastProfileRow = 2 + profiles;
  const lastPropertyColumn = 2 + properties;
  const summaryColumns = { filled: lastPropertyColumn + 1, total: lastPropertyColumn + 2, share: lastPropertyColumn + 3 };
  // One blank row keeps the summary visibly apart from the profiles (and outside the filter).
  const summaryRows = { filled: lastProfileRow + 2, total: lastProfileRow + 3, share: lastProfileRow + 4 };
  return {
    idRow: 1,
    headerRow: 2,
    firstProfileRow: 3,
    lastProfileRow,
    idColumn: 1,
    nameColumn: 2,
    firstPropertyColumn: 3,
    lastPropertyColumn,
    firstAutoColumn: custom < properties ? 3 + custom : null,
    summaryColumns,
    summaryRows,
    rows: summaryRows.share,
    columns: summaryColumns.share,
  };
}

/** A block of the sheet, with its A1 notation. */
export function gridRange(row: number, column: number, numRows: number, numColumns: number): GridRange {
  const start = cellName(row, column);
  const a1 = numRows === 1 && numColumns === 1 ? start : `${start}:${cellName(row + numRows - 1, column + numColumns - 1)}`;
  return { row, column, numRows, numColumns, a1 };
}

export function cellName(row: number, column: number): string {
  return `${columnLetters(column)}${row}`;
}
