// The audit sheet read back: every (profile, property) cell by the hidden ids that travel with its row and column.

import { InputError } from '../errors';
import { isUuid } from '../validate/uuid';
import { isBlank } from './cell-writes';
import { AUDIT_MARKER_PREFIX, IDS_MARKER, NAME_MARKER } from './layout';
import type { AuditSheetCell, AuditSheetRead } from './types';

/** How far from A1 the marker is looked for, should a row or column have been inserted before it. */
const MARKER_SEARCH = 5;

/**
 * The whole audit sheet's values (getDataRange().getValues(), top-left at A1) as (profile id, property id,
 * cell) triples. Nothing depends on positions the user can change: the marker cell names the id row and id
 * column; a property is any column with an id in the id row, a profile any row below the header with an id
 * in the id column, so sorted rows and moved columns read the same. The fund is `sheetFund`, the sheet's
 * developer metadata (AUDIT_FUND_KEY), or on a sheet built before that the marker cell's. Throws an
 * InputError without a marker or a fund.
 */
export function readAuditSheet(values: ReadonlyArray<ReadonlyArray<unknown>>, sheetFund: string | null): AuditSheetRead {
  const marker = findMarker(values, sheetFund);
  if (!marker) {
    throw new InputError(
      'This sheet is not a portfolio audit sheet: its hidden first row, which says which property each column is, is missing. Build the audit again.',
    );
  }
  const { row: idRow, column: idColumn, companyId } = marker;
  const ids = values[idRow] ?? [];
  // The header sits right under the id row, and moves with it: a moved column takes its id and its header.
  const headers = values[idRow + 1] ?? [];
  const columns: AuditSheetRead['columns'] = [];
  let nameColumn: number | undefined;
  ids.forEach((cell, column) => {
    if (column === idColumn) return;
    if (cell === NAME_MARKER) nameColumn = column;
    else if (isUuid(typeof cell === 'string' ? cell.trim() : cell))
      columns.push({ propertyId: (cell as string).trim().toLowerCase(), column: column + 1, header: shownText(headers[column]) });
  });

  const rows: AuditSheetRead['rows'] = [];
  const cells: AuditSheetCell[] = [];
  const ignoredRows: number[] = [];
  // The row after the id row is the header.
  for (let index = idRow + 2; index < values.length; index++) {
    const line = values[index] ?? [];
    const id = line[idColumn];
    const profileId = typeof id === 'string' ? id.trim() : id;
    if (!isUuid(profileId)) {
      // Summary rows carry a marker in the id column; anything else with content is a row the user added.
      const isSummary = typeof id === 'string' && id.startsWith('#');
      const hasContent = columns.some(({ column }) => !isBlank(line[column - 1])) || (nameColumn !== undefined && !isBlank(line[nameColumn]));
      if (!isSummary && hasContent) ignoredRows.push(index + 1);
      continue;
    }
    rows.push({ profileId: profileId.toLowerCase(), name: nameColumn === undefined ? '' : shownText(line[nameColumn]), row: index + 1 });
    for (const { propertyId, column } of columns) {
      cells.push({ profileId: profileId.toLowerCase(), propertyId, row: index + 1, column, value: line[column - 1] ?? '' });
    }
  }
  return { companyId, rows, columns, cells, ignoredRows };
}

/** A name or header cell as text: the audit writes them as plain text, so anything else is what someone typed. */
function shownText(cell: unknown): string {
  return typeof cell === 'string' ? cell : String(cell ?? '');
}

/** The marker cell near A1, 0-based, and the fund: the sheet's metadata's, or an older marker cell's own. */
function findMarker(values: ReadonlyArray<ReadonlyArray<unknown>>, sheetFund: string | null): { row: number; column: number; companyId: string } | undefined {
  const fund = sheetFund?.trim() ?? '';
  for (let row = 0; row < Math.min(MARKER_SEARCH, values.length); row++) {
    const line = values[row] ?? [];
    for (let column = 0; column < Math.min(MARKER_SEARCH, line.length); column++) {
      const cell = typeof line[column] === 'string' ? (line[column] as string).trim() : line[column];
      if (cell === IDS_MARKER && isUuid(fund)) return { row, column, companyId: fund.toLowerCase() };
      if (typeof cell !== 'string' || !cell.startsWith(AUDIT_MARKER_PREFIX)) continue;
      const companyId = cell.slice(AUDIT_MARKER_PREFIX.length).trim();
      if (isUuid(companyId)) return { row, column, companyId: companyId.toLowerCase() };
    }
  }
  return undefined;
}
