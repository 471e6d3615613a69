// Freeze and thaw: what a frozen range records, its note, and which of its cells a person changed since
// (snapshot tables keep the same fingerprints). Pure: src/server/freeze.ts reads and writes the grid.

import { isDateLike } from '../validate/dates';
import { ADDIN_NAME } from '../product';
import { isBlank } from './arguments';

/** A frozen range's record is the document property FROZEN_RANGE:<sheet id>!<range>. */
export const FROZEN_KEY_PREFIX = 'FROZEN_RANGE:';

/** Apps Script's "Properties value size: 9 kB / val"; a record is kept under it with room for its JSON. */
export const MAX_RECORD_BYTES = 9 * 1024;
/** Apps Script's "Properties total storage: 500 kB / property store". */
export const MAX_STORE_BYTES = 500 * 1024;
/** Each cell's fingerprint is 7 characters, so this keeps a record under 9 kB with the formula and note beside it. */
export const MAX_FROZEN_CELLS = 900;

export interface FrozenRecord {
  v: 1;
  sheetId: number;
  /** A1 without the sheet name: the formula's cell and its spill. */
  range: string;
  formula: string;
  frozenAt: string;
  /** The API host the values came from (never the token). */
  host: string;
  /** The anchor cell's note before freezing, put back on thaw. */
  priorNote: string;
  /** One 7-character fingerprint per cell, row by row: what the cell held when frozen. */
  cells: string;
}

/** A cell value as getValues gives it, in a form that says its type: 1 and "1" differ, as do a date and its serial. */
function canonical(value: unknown): string {
  if (isDateLike(value)) return `d:${value.getTime()}`;
  if (typeof value === 'number') return `n:${value}`;
  if (typeof value === 'boolean') return `b:${value}`;
  return isBlank(value) ? 'e:' : `s:${String(value)}`;
}

/**
 * FNV-1a (32-bit) of the canonical form, base 36, 7 characters: an edit matches by chance once in four
 * billion, and the values themselves would not fit the 9 kB a property holds.
 */
export function cellFingerprint(value: unknown): string {
  const text = canonical(value);
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(36).padStart(7, '0');
}

export function fingerprints(values: readonly (readonly unknown[])[]): string {
  return values.map((row) => row.map(cellFingerprint).join('')).join('');
}

/**
 * The cells (1-based, inside the range) a person typed into since: not empty and not what was recorded.
 * An emptied cell holds nothing a rewrite would overwrite.
 */
export function changedCells(record: Pick<FrozenRecord, 'cells'>, values: readonly (readonly unknown[])[]): Array<{ row: number; column: number }> {
  const changed: Array<{ row: number; column: number }> = [];
  let index = 0;
  values.forEach((row, i) =>
    row.forEach((value, j) => {
      if (!isBlank(value) && record.cells.slice(index * 7, index * 7 + 7) !== cellFingerprint(value)) changed.push({ row: i + 1, column: j + 1 });
      index++;
    }),
  );
  return changed;
}

/** The note a frozen range's first cell carries, for people: the store, not the note, is what Make live reads. */
export function frozenNote(record: FrozenRecord): string {
  return [
    `Frozen by ${ADDIN_NAME}: the values of ${record.range} as of ${record.frozenAt}, no longer recalculated.`,
    `Formula: ${record.formula}`,
    `API host: ${record.host}`,
    `Select it and use "Make selection live" to put the formula back.`,
  ].join('\n');
}

/** The host of a base URL, never its user info, path or query. */
export function apiHost(baseUrl: string | null): string {
  if (!baseUrl) return 'not set';
  const match = /^[a-z][a-z0-9+.-]*:\/\/([^/?#@]*@)?([^/?#]+)/i.exec(baseUrl);
  return match ? match[2]! : 'not set';
}

export function decodeRecord(text: string | null | undefined): FrozenRecord | null {
  if (!text) return null;
  try {
    const record = JSON.parse(text) as Partial<FrozenRecord>;
    if (
      record.v !== 1 ||
      typeof record.range !== 'string' ||
      typeof record.formula !== 'string' ||
      typeof record.cells !== 'string' ||
      typeof record.sheetId !== 'number'
    )
      return null;
    return { priorNote: '', host: '', frozenAt: '', ...record } as FrozenRecord;
  } catch {
    return null;
  }
}

/** "B2", "B2 and C3", "B2, C3 and D4", then "and 7 more" past ten. */
export function listCells(cells: readonly string[]): string {
  const shown = cells.length > 10 ? [...cells.slice(0, 10), `${cells.length - 10} more`] : [...cells];
  if (shown.length <= 1) return shown.join('');
  return `${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1]}`;
}
