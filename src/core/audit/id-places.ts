// Every value an audit push sends goes to the company and property whose names the person sees in its row and
// column. The hidden ids are cells any editor can rewrite: two rows' ids swapped leave the sheet looking exactly
// as built while each row's values would go to the other company. The signed snapshot records the name each id
// was shown beside at build (AuditSnapshot.profileNames / propertyNames), so before anything is sent or written
// into the sheet, each row's id must belong to the name its row shows and each column's id to its header. A
// person's sort, filter or moved rows and columns carry names and ids together, and pass.

import { InputError } from '../errors';
import { columnLetters } from '../export/places';
import { countOf } from '../../shared/words';
import type { AuditSheetRead, AuditSnapshot } from './types';

/** A row or column whose hidden id was recorded beside another name than the one it shows now. */
export type MisplacedId = {
  kind: 'row' | 'column';
  /** The 1-based sheet row or column. */
  at: number;
  /** The name (row) or header (column) shown there now. */
  shown: string;
  /** The name or header the snapshot recorded beside that id. */
  recorded: string;
};

const REBUILD = 'Build the audit again from your sidebar (it replaces this sheet: copy out any edits you want to keep first), then make your edits and push.';
/** How many misplaced rows and columns a refusal names; the rest are counted. */
const NAMED = 3;

/**
 * The rows and columns of `read` whose hidden id the snapshot recorded beside another name; null when the
 * snapshot recorded no names (an audit built before they were). An id the snapshot does not have is not
 * checked here: write-back never sends its cells (NOT_IN_AUDIT_REASON). Names compare as shown, less the
 * spaces around them, which a person cannot see.
 */
export function misplacedIds(read: Pick<AuditSheetRead, 'rows' | 'columns'>, snapshot: AuditSnapshot): MisplacedId[] | null {
  const { profileNames, propertyNames } = snapshot;
  if (!profileNames || !propertyNames) return null;
  const profileName = namesById(snapshot.profiles, profileNames);
  const propertyName = namesById(snapshot.properties, propertyNames);
  const misplaced: MisplacedId[] = [];
  for (const row of read.rows) {
    const recorded = profileName.get(row.profileId.toLowerCase());
    if (recorded !== undefined && recorded.trim() !== row.name.trim()) misplaced.push({ kind: 'row', at: row.row, shown: row.name, recorded });
  }
  for (const column of read.columns) {
    const recorded = propertyName.get(column.propertyId.toLowerCase());
    if (recorded !== undefined && recorded.trim() !== column.header.trim())
      misplaced.push({ kind: 'column', at: column.column, shown: column.header, recorded });
  }
  return misplaced;
}

/**
 * Throws an InputError that names the misplaced rows and columns and says what to do, unless every hidden id
 * of `read` sits beside the name the snapshot recorded for it; also refuses an audit whose snapshot recorded
 * no names (the stricter reading: it cannot be checked, so it is built again).
 */
export function requireIdsInPlace(read: Pick<AuditSheetRead, 'rows' | 'columns'>, snapshot: AuditSnapshot, sheetName: string): void {
  const misplaced = misplacedIds(read, snapshot);
  if (misplaced === null) {
    throw new InputError(
      `The audit in "${sheetName}" was built by an earlier version of the add-in, which did not record which company and property each hidden id stands for, so it cannot be checked that every value goes where the sheet shows it: nothing was sent or written. ${REBUILD}`,
    );
  }
  if (misplaced.length === 0) return;
  const named = misplaced.slice(0, NAMED).map(describe);
  const more = misplaced.length > NAMED ? [`and ${countOf(misplaced.length - NAMED, 'more row or column', 'more rows or columns')}`] : [];
  throw new InputError(
    `The hidden ids in "${sheetName}" no longer match the names it shows: ${[...named, ...more].join('; ')}. Pushing would write into other companies' or properties' records than the ones you see, so nothing was sent or written. If you edited a company name or a header, put back the one the audit wrote; otherwise ${REBUILD.charAt(0).toLowerCase()}${REBUILD.slice(1)}`,
  );
}

function describe(place: MisplacedId): string {
  const shown = place.shown.trim() === '' ? 'no name' : `"${place.shown}"`;
  return place.kind === 'row'
    ? `row ${place.at} shows ${shown} but holds the hidden id of "${place.recorded}"`
    : `column ${columnLetters(place.at)} is headed ${shown === 'no name' ? 'by nothing' : shown} but holds the hidden id of "${place.recorded}"`;
}

function namesById(ids: readonly string[], names: readonly string[]): Map<string, string> {
  return new Map(ids.map((id, index) => [id.toLowerCase(), names[index] ?? '']));
}
