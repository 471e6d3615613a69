// The original values write-back compares against: compact JSON the server stores beside the audit sheet.

import { InputError } from '../errors';
import { KEY_SEPARATOR } from './cell-values';
import type { AuditSnapshot, AuditSnapshotUpdate } from './types';

/** The snapshot's keys split into rows, and where a (profile, property) cell's key is in them. */
function keyGrid(snapshot: AuditSnapshot) {
  const profileIndex = indexOf(snapshot.profiles);
  const propertyIndex = indexOf(snapshot.properties);
  const rows = snapshot.rows.map((row) => row.split(KEY_SEPARATOR));
  const at = (profileId: string, propertyId: string): { keys: string[]; column: number } | undefined => {
    const keys = rows[profileIndex.get(profileId.toLowerCase()) ?? -1];
    const column = propertyIndex.get(propertyId.toLowerCase());
    return keys && column !== undefined ? { keys, column } : undefined;
  };
  return { rows, at };
}

/**
 * A (profile, property) cell's stored key, undefined when the audit did not have that cell; and whether the
 * audit wrote it cut to fit (see AuditSnapshot.cut).
 */
export function snapshotCells(snapshot: AuditSnapshot) {
  const { at } = keyGrid(snapshot);
  const cut = new Set((snapshot.cut ?? []).map((id) => id.toLowerCase()));
  return {
    keyOf(profileId: string, propertyId: string): string | undefined {
      const cell = at(profileId, propertyId);
      return cell ? (cell.keys[cell.column] ?? '') : undefined;
    },
    wasCut: (profileId: string, propertyId: string): boolean => cut.has(`${profileId}/${propertyId}`.toLowerCase()),
  };
}

/**
 * A copy of the snapshot whose confirmed cells have the keys they were pushed with: a second push sends nothing.
 * Everything else (the names the ids are checked against, the cut cells) is kept as it was. `cut`: cells now
 * written cut to fit (a restored value), as "profileId/propertyId", added to the snapshot's.
 */
export function applySnapshotUpdates(snapshot: AuditSnapshot, updates: readonly AuditSnapshotUpdate[], cut: readonly string[] = []): AuditSnapshot {
  const { rows, at } = keyGrid(snapshot);
  for (const update of updates) {
    const cell = at(update.profileId, update.propertyId);
    if (cell) cell.keys[cell.column] = update.key;
  }
  const cutCells = [...new Set([...(snapshot.cut ?? []), ...cut])];
  return {
    ...snapshot,
    profiles: [...snapshot.profiles],
    properties: [...snapshot.properties],
    rows: rows.map((keys) => keys.join(KEY_SEPARATOR)),
    ...(cutCells.length > 0 ? { cut: cutCells } : {}),
  };
}

/**
 * The snapshot as stored text (JSON). Measured by the tests: 50 × 25 cells of mixed values serialise to
 * about 18 KB with their names (15 KB with a quarter blank; ids cost 39 characters each): one cell of a hidden sheet.
 */
export function serializeSnapshot(snapshot: AuditSnapshot): string {
  return JSON.stringify(snapshot);
}

/** Reads stored text back, refusing anything that is not a snapshot of this format. */
export function parseSnapshot(text: string): AuditSnapshot {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new InputError("The audit's original values could not be read. Build the audit again.");
  }
  const candidate = parsed as Partial<AuditSnapshot> | null;
  const valid =
    candidate !== null &&
    typeof candidate === 'object' &&
    candidate.v === 1 &&
    typeof candidate.companyId === 'string' &&
    isStringList(candidate.profiles) &&
    isStringList(candidate.properties) &&
    isStringList(candidate.rows) &&
    (candidate.cut === undefined || isStringList(candidate.cut)) &&
    (candidate.profileNames === undefined || (isStringList(candidate.profileNames) && candidate.profileNames.length === candidate.profiles.length)) &&
    (candidate.propertyNames === undefined || (isStringList(candidate.propertyNames) && candidate.propertyNames.length === candidate.properties.length)) &&
    candidate.rows.length === candidate.profiles.length &&
    candidate.rows.every((row) => row.split(KEY_SEPARATOR).length === Math.max(1, (candidate.properties as string[]).length));
  if (!valid) throw new InputError("The audit's original values are not in a form this version of the add-in reads. Build the audit again.");
  return candidate as AuditSnapshot;
}

function indexOf(ids: readonly string[]): Map<string, number> {
  return new Map(ids.map((id, index) => [id.toLowerCase(), index]));
}

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}
