// What an import keeps between steps: no copy of the rows' values or request bodies (the range is read
// again each step and its input columns must still have the fingerprint they had), one outcome code per
// row, the ids it created, reasons only for rows that failed, were skipped or may have been created, and
// of the API's data only what planning the pending rows again needs (the contact lists they name, the
// profiles they matched), so a step (and a Resume) asks the API nothing before its first write.

import type { ContactList, PortfolioCompanyProfile } from '../api/types';
import { fnv1a64 } from '../cache/chunked-cache';
import { fingerprints } from '../formulas/freeze';
import { InputError } from '../errors';
import { isBlankCell } from './cell-text';
import { carryJobFields, compactRecord, decodeRuns, encodeRuns } from '../jobs/compact-state';
import { MAYBE_CREATED_MARK, prepareContactsImport, type ContactRowOutcome, type ContactsImportState } from './contacts-import';
import { prepareProfilesImport, type ProfileRowOutcome, type ProfilesImportState } from './profiles-import';
import { newImportCounters, type ImportJob, type ImportRowBase, type RangeInput } from './types';

type Kept = Pick<ImportJob<ImportRowBase>, 'status' | 'counters' | 'inFlight' | 'problem' | 'notBefore' | 'rateLimitedSince' | 'retry'> & {
  version: 2;
  companyId: string;
  /** rangeFingerprint of the range as prepared: a read with another one is not this import's input. */
  fingerprint: string;
  /**
   * Data rows (1-based in the range) whose id cell was blank at the start, as runs "start+length" in base
   * 36: the cells this import may write an id into, read as blank again when its rows are planned anew.
   */
  blankIds: string;
  /** One character per planned row, see CONTACT_CODES / PROFILE_CODES. */
  codes: string;
  /** Ids the import created, in row order, for the rows whose code is C (see packId). */
  ids: string[];
  /** Distinct reasons, referred to by row index from `reasonOf`. */
  reasons: string[];
  /** Row index → index into `reasons`, for settled rows that have one. */
  reasonOf: Record<string, number>;
};

type CompactContactsImport = Kept & {
  kind: 'contacts';
  /** [id, name] of the lists the pending rows named at the start: enough to resolve them again. */
  lists: Array<[string, string]>;
};

/** A profile as planning compares a row with it: [id, name, website_url, currency, primary_contact_id, fiscal_year_end_month]. */
type KeptProfile = [string, string, string | null, string | null, string | null, number | null];

type CompactProfilesImport = Kept & {
  kind: 'profiles';
  /** The profiles rows matched at the start, as they were then: an update's body is planned against them again. */
  profiles: KeptProfile[];
};

export type CompactImport = CompactContactsImport | CompactProfilesImport;

const CONTACT_CODES: Record<string, ContactRowOutcome> = { p: 'pending', C: 'created', E: 'existing', S: 'skipped', F: 'failed', K: 'unknown' };
/** c and u: pending creation and update, so a row planned anew to do something else is not sent. */
const PROFILE_CODES: Record<string, ProfileRowOutcome> = { c: 'pending', u: 'pending', C: 'created', U: 'updated', N: 'unchanged', X: 'conflict', F: 'failed' };

/** The code of a settled outcome (a kind's pending outcome has its own code). */
function codeOf(codes: Record<string, string>, outcome: string): string {
  return Object.keys(codes).find((code) => codes[code] === outcome) ?? '';
}

/** Each code's outcome, for a report of a stored import whose range changed. */
export const IMPORT_CODE_OUTCOMES: Readonly<Record<string, string>> = { ...CONTACT_CODES, ...PROFILE_CODES };

/**
 * The range's input as one short hash: values and display texts of every column but the id and status
 * columns the import writes (1-based within the range; a column past the range's width leaves nothing out).
 */
function rangeFingerprint(range: RangeInput, writtenColumns: readonly number[]): string {
  const keep = (row: ReadonlyArray<unknown>): unknown[] => row.filter((_, index) => !writtenColumns.includes(index + 1));
  const display = (range.displayValues ?? []).map(keep);
  return fnv1a64(`${range.values.length}|${fingerprints(range.values.map(keep))}|${fingerprints(display)}`);
}

function writtenColumns(state: ImportJob<ImportRowBase>): number[] {
  return [state.idColumn.column, state.statusColumn.column];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const [DASH, ZERO, NINE, LOWER_A] = ['-', '0', '9', 'a'].map((digit) => digit.charCodeAt(0)) as [number, number, number, number];

/**
 * A lower-case UUID in 22 characters (each 3 hex digits as 2 of 64, the last 2 as 2), any other id as
 * itself after "=": 2,000 created ids then take about 50 KB of the store, not 80. Written by hand: Apps
 * Script has no Buffer.
 */
function packId(id: string): string {
  if (!UUID.test(id)) return `=${id}`;
  // Digit by digit, the dashes skipped: every checkpoint packs every created id again (twice a row), and slicing
  // and parsing each group cost a 1,100-row import about 2 seconds.
  let packed = '';
  let value = 0;
  let digits = 0;
  for (let i = 0; i < id.length; i++) {
    const code = id.charCodeAt(i);
    if (code === DASH) continue;
    value = value * 16 + (code <= NINE ? code - ZERO : code - LOWER_A + 10);
    if (++digits === 3) {
      packed += DIGITS[value >> 6]! + DIGITS[value & 63]!;
      value = 0;
      digits = 0;
    }
  }
  // 32 digits: ten groups of 3, then the last 2 as one group.
  return digits > 0 ? packed + DIGITS[value >> 6]! + DIGITS[value & 63]! : packed;
}

function unpackId(packed: string): string {
  if (packed.startsWith('=')) return packed.slice(1);
  let hex = '';
  for (let i = 0; i < packed.length; i += 2) {
    const value = DIGITS.indexOf(packed[i]!) * 64 + DIGITS.indexOf(packed[i + 1]!);
    hex += value.toString(16).padStart(i + 2 < packed.length ? 3 : 2, '0');
  }
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function keptParts<Row extends ImportRowBase>(
  state: ImportJob<Row> & { companyId: string },
  codes: string,
  ids: string[],
  kept: Pick<Kept, 'fingerprint' | 'blankIds'>,
): Kept {
  const compact: Kept = {
    ...compactRecord(state, state.rows, kept.fingerprint, codes),
    blankIds: kept.blankIds,
    ids,
  };
  if (state.inFlight !== undefined) compact.inFlight = state.inFlight;
  carryJobFields(state, compact);
  return compact;
}

/** What an import keeps of its range at the start: its fingerprint, and which id cells were blank. */
function startParts(state: ImportJob<ImportRowBase>, range: RangeInput): Pick<Kept, 'fingerprint' | 'blankIds'> {
  return {
    fingerprint: rangeFingerprint(range, writtenColumns(state)),
    // A range without an id column has only blank id cells.
    blankIds: encodeRuns(
      state.rows.map((row) => row.row).filter((row) => state.idColumn.isNew || isBlankCell(range.values[row - 1]?.[state.idColumn.column - 1])),
    ),
  };
}

/** A contact import as stored at its start, from the range it was prepared from and the company's lists. */
export function compactNewContactsImport(state: ContactsImportState, range: RangeInput, lists: readonly ContactList[]): CompactContactsImport {
  const named = new Set(state.rows.flatMap((row) => (row.outcome === 'pending' ? (row.body?.contact_list_ids ?? []) : [])));
  const kept = lists.filter((list) => named.has(list.id.toLowerCase())).map((list): [string, string] => [list.id, list.name]);
  return compactContactsImport(state, { ...startParts(state, range), lists: kept });
}

/** The contact import to store, with the parts that never change after its start carried over. */
export function compactContactsImport(
  state: ContactsImportState,
  kept: Pick<CompactContactsImport, 'fingerprint' | 'blankIds' | 'lists'>,
): CompactContactsImport {
  const codes = state.rows.map((row) => codeOf(CONTACT_CODES, row.outcome)).join('');
  const ids = state.rows.flatMap((row) => (row.outcome === 'created' ? [packId(row.contactId ?? row.idText ?? '')] : []));
  return { ...keptParts(state, codes, ids, kept), kind: 'contacts', lists: kept.lists };
}

/** A profile import as stored at its start, from the range it was prepared from and the fund's profiles. */
export function compactNewProfilesImport(state: ProfilesImportState, range: RangeInput, existing: readonly PortfolioCompanyProfile[]): CompactProfilesImport {
  const matched = new Set(state.rows.flatMap((row) => (row.outcome !== 'failed' && row.profileId ? [row.profileId.toLowerCase()] : [])));
  const profiles = existing
    .filter((profile) => matched.has(profile.id.toLowerCase()))
    .map((p): KeptProfile => [p.id, p.name, p.website_url, p.currency, p.primary_contact_id, p.fiscal_year_end_month]);
  return compactProfilesImport(state, { ...startParts(state, range), profiles });
}

/** The profile import to store, with the parts that never change after its start carried over. */
export function compactProfilesImport(
  state: ProfilesImportState,
  kept: Pick<CompactProfilesImport, 'fingerprint' | 'blankIds' | 'profiles'>,
): CompactProfilesImport {
  const codes = state.rows.map((row) => (row.outcome === 'pending' ? (row.action === 'update' ? 'u' : 'c') : codeOf(PROFILE_CODES, row.outcome))).join('');
  const ids = state.rows.flatMap((row) => (row.outcome === 'created' ? [packId(row.profileId ?? '')] : []));
  return { ...keptParts(state, codes, ids, kept), kind: 'profiles', profiles: kept.profiles };
}

/**
 * The range as it was at the start, as far as planning reads it: the id cells this import may have
 * written since (blank at the start, and settled now) are blank again. A pending row's id cell is read as
 * it is now: one typed into since the start plans the row anew, and a row planned otherwise is not sent.
 */
function asAtStart(range: RangeInput, compact: Kept, idColumn: number, settledRows: ReadonlySet<number>): RangeInput {
  const blank = new Set(decodeRuns(compact.blankIds));
  const blankAgain = <Cell>(lines: ReadonlyArray<ReadonlyArray<Cell>>) =>
    lines.map((line, index) => (blank.has(index + 1) && settledRows.has(index + 1) ? line.map((cell, column) => (column === idColumn - 1 ? '' : cell)) : line));
  return { ...range, values: blankAgain(range.values), ...(range.displayValues ? { displayValues: blankAgain(range.displayValues) } : {}) };
}

/** The job's own fields from what was stored, on a state planned anew. */
function restoreJob<Row extends ImportRowBase>(state: ImportJob<Row>, compact: Kept): void {
  state.status = compact.status;
  state.counters = { ...newImportCounters(), ...compact.counters };
  if (compact.inFlight !== undefined) state.inFlight = compact.inFlight;
  carryJobFields(compact, state);
}

/**
 * Plans the range again (read afresh) and lays the stored outcomes over it; null when the read is not the
 * import that was stored (its input changed, or a pending row is now planned otherwise): its rows must not
 * be sent as they now are.
 */
function replan<State extends ImportJob<ImportRowBase>>(
  range: RangeInput,
  compact: Kept,
  codes: Record<string, string>,
  plan: (range: RangeInput) => State,
  settle: (row: State['rows'][number], outcome: string, id: string | undefined) => void,
  samePending: (fresh: State['rows'][number], code: string) => boolean = () => true,
): State | null {
  const first = planned(plan, range);
  if (first === null || rangeFingerprint(range, writtenColumns(first)) !== compact.fingerprint || first.rows.length !== compact.codes.length) return null;
  const settledRows = new Set(first.rows.filter((_, index) => codes[compact.codes[index]!] !== 'pending').map((row) => row.row));
  const state = first.idColumn.isNew ? first : planned(plan, asAtStart(range, compact, first.idColumn.column, settledRows));
  if (state === null || state.rows.length !== compact.codes.length) return null;
  restoreJob(state, compact);
  let created = 0;
  for (const [index, row] of state.rows.entries()) {
    const code = compact.codes[index]!;
    const outcome = codes[code];
    if (outcome === undefined) throw new Error(`Unknown outcome code in a stored import: ${code}`);
    if (outcome === 'pending') {
      if (row.outcome !== 'pending' || !samePending(row, code)) return null;
      continue;
    }
    const id = outcome === 'created' ? unpackId(compact.ids[created++] ?? '') : undefined;
    row.outcome = outcome;
    settle(row, outcome, id);
    delete row.reason;
    const reason = compact.reasonOf[index];
    if (reason !== undefined) row.reason = compact.reasons[reason]!;
  }
  return state;
}

/** A plan of the range, or null when it no longer reads as an import (its header was edited away). */
function planned<State>(plan: (range: RangeInput) => State, range: RangeInput): State | null {
  try {
    return plan(range);
  } catch (error) {
    if (error instanceof InputError) return null;
    throw error;
  }
}

/** The contact import again, from a fresh read of its range; null when the range changed (see replan). */
export function expandContactsImport(compact: CompactContactsImport, range: RangeInput): ContactsImportState | null {
  // Resolving a list reads only its id and name.
  const contactLists = compact.lists.map(([id, name]) => ({ id, name, company_id: compact.companyId }) as ContactList);
  return replan(
    range,
    compact,
    CONTACT_CODES,
    (input) => prepareContactsImport({ range: input, companyId: compact.companyId, contactLists }),
    (row, outcome, id) => {
      delete row.body;
      delete row.idText;
      delete row.contactId;
      if (id !== undefined) row.contactId = row.idText = id;
      if (outcome === 'unknown') row.idText = MAYBE_CREATED_MARK;
    },
  );
}

/** The profile import again, from a fresh read of its range; null when the range changed (see replan). */
export function expandProfilesImport(compact: CompactProfilesImport, range: RangeInput): ProfilesImportState | null {
  // Matching and planning read only these fields of a profile.
  const existingProfiles = compact.profiles.map(
    ([id, name, website, currency, contact, month]) =>
      ({
        id,
        name,
        company_id: compact.companyId,
        website_url: website,
        currency,
        primary_contact_id: contact,
        fiscal_year_end_month: month,
      }) as PortfolioCompanyProfile,
  );
  return replan(
    range,
    compact,
    PROFILE_CODES,
    (input) => prepareProfilesImport({ range: input, companyId: compact.companyId, existingProfiles }),
    (row, outcome, id) => {
      delete row.body;
      delete row.action;
      delete row.expected;
      if (outcome === 'failed' || outcome === 'conflict') delete row.changed;
      if (id !== undefined) row.profileId = id;
    },
    (row, code) => row.action === (code === 'u' ? 'update' : 'create'),
  );
}
