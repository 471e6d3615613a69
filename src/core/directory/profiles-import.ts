// Profiles from a range: each row planned (create, update, unchanged or failed) before anything is sent, then
// sent as a POST or PUT, one at a time, with a report. An update is compared with the server's profile just
// before it is written: a field someone changed since the plan is a conflict, not overwritten.

import type { ApiClient } from '../api/client';
import type { PortfolioCompanyProfile, PortfolioCompanyProfileInput } from '../api/types';
import { InputError } from '../errors';
import { countOf, joinAnd, quote } from '../../shared/words';
import { isUuid, requireUuid } from '../validate/uuid';
import { cellText, isBlankCell, isClearMark, shown } from './cell-text';
import { readContactId, readCurrency, readMonth, readWebsite, type FieldRead } from './profile-fields';
import { checkImportHeader, markDuplicates, newImportJob, readImportRows, type FieldColumn, type ImportColumnCheck } from './range-header';
import { importReport, runImportStep, type ImportKind, type ImportStepOptions, type ImportStepResult } from './import-job';
import type { ImportJob, ImportReport, ProfileRename, RangeInput, SheetPosition } from './types';

/**
 * What happened to one row.
 * - created / updated: confirmed by the API.
 * - unchanged: the profile already holds every value the row gives, so nothing was sent.
 * - conflict: not sent, because a field it would replace was changed on the server since the import was planned.
 * - failed: refused by validation or by the API, or its creation could not be confirmed; has a reason.
 * - pending: not sent yet.
 */
export type ProfileRowOutcome = 'created' | 'updated' | 'unchanged' | 'conflict' | 'failed' | 'pending';

export const PROFILE_ROW_OUTCOMES: readonly ProfileRowOutcome[] = ['created', 'updated', 'unchanged', 'conflict', 'failed', 'pending'];

/** The fields of a profile as reasons and notes name them. */
type ProfileFieldName = 'name' | 'website' | 'currency' | 'primary contact' | 'fiscal year end month';

/** A profile's fields an import writes, by the API's names. */
export type ProfileField = 'name' | 'website_url' | 'currency' | 'primary_contact_id' | 'fiscal_year_end_month';

type FieldValue = string | number | null;

const FIELD_NAMES: Record<ProfileField, ProfileFieldName> = {
  name: 'name',
  website_url: 'website',
  currency: 'currency',
  primary_contact_id: 'primary contact',
  fiscal_year_end_month: 'fiscal year end month',
};

/** A field the server changed between the plan and the write: what the plan saw, what it holds now, what the row gives. */
export type ProfileFieldConflict = { field: ProfileField; then: FieldValue; now: FieldValue; typed: FieldValue };

type ProfileRowState = {
  row: number;
  /** The name as it will be (or was) sent; '' when the cell is empty. */
  name: string;
  outcome: ProfileRowOutcome;
  /** What a pending row will do. */
  action?: 'create' | 'update';
  /** How the row found its profile, when it updates one (or leaves one unchanged). */
  matchedBy?: 'id' | 'name';
  /** The profile updated or left unchanged, or the one created once confirmed. */
  profileId?: string;
  body?: PortfolioCompanyProfileInput;
  /** Fields an update changes. */
  changed?: ProfileFieldName[];
  /** A rename's name on the server when planned: the preview shows it, old → new. */
  renamedFrom?: string;
  /** A pending update's fields it replaces, with the values the plan saw on the server (compared just before the write). */
  expected?: Partial<Record<ProfileField, FieldValue>>;
  /**
   * An updated row's fields the update changed, with the server's values read just before the write: what
   * the update replaced (for the Pushes sheet's Old value and Undo). Not kept between steps.
   */
  replaced?: Partial<Record<ProfileField, FieldValue>>;
  /** An updated row's fields with the values it wrote (the same keys as `replaced`). */
  written?: Partial<Record<ProfileField, FieldValue>>;
  /** A conflict's fields, with both values (and what the row gives). Not kept between steps; the reason names them. */
  conflicts?: ProfileFieldConflict[];
  /** The row's id cell is empty (or the range has no id column): the profile's id is written back once known. */
  writeId: boolean;
  reason?: string;
  /** What was tidied up on the way, like a currency upper-cased. */
  notes?: string[];
};

export type ProfilesImportState = ImportJob<ProfileRowState> & { version: 1; kind: 'profiles'; companyId: string };

type ProfilesImportInput = {
  range: RangeInput;
  /** The fund the profiles belong to. */
  companyId: string;
  /** The fund's profiles as client.portfolio.listProfiles(companyId) gives them, read just before. */
  existingProfiles: readonly PortfolioCompanyProfile[];
};

/** Heads the id column the server adds when the range has none (see newImportJob). */
export const PROFILE_ID_HEADER = 'Profile id';

type ProfileColumn = 'name' | 'website' | 'currency' | 'primaryContact' | 'month' | 'id';

const PROFILE_COLUMNS: ReadonlyArray<FieldColumn<ProfileColumn>> = [
  { key: 'name', aliases: ['name'], required: true },
  { key: 'website', aliases: ['website', 'website url', 'url'] },
  { key: 'currency', aliases: ['currency'] },
  { key: 'primaryContact', aliases: ['primary contact id', 'primary contact'] },
  { key: 'month', aliases: ['fiscal year end month', 'fye month'] },
  { key: 'id', aliases: ['profile id', 'id'] },
];

/** What a profile import reads of this header row, and what it would leave out. */
export function checkProfileColumns(header: readonly unknown[], origin: SheetPosition): ImportColumnCheck {
  return checkImportHeader(header, PROFILE_COLUMNS, origin);
}

type ReadRow = {
  row: number;
  name: string;
  id?: string;
  idCellBlank: boolean;
  website: FieldRead<string>;
  currency: FieldRead<string>;
  primaryContact: FieldRead<string>;
  month: FieldRead<number>;
  problems: string[];
  notes: string[];
  target?: PortfolioCompanyProfile;
  matchedBy?: 'id' | 'name';
};

/**
 * Plans every row; nothing is sent. All of a row's problems are listed at once, so one pass fixes them.
 * A row updates a profile when its id cell names one, or else when its name matches one (without
 * regard to case); otherwise it creates one. A blank optional cell leaves the field as it is on
 * update and leaves it out on create; a cell holding just "-" clears the field on update. A row that
 * would change nothing is `unchanged` and sends nothing.
 */
export function prepareProfilesImport(input: ProfilesImportInput): ProfilesImportState {
  const companyId = requireUuid(input.companyId, 'The company id');
  const table = readImportRows(input.range, PROFILE_COLUMNS, 'A profile import', readRow);
  const { rows: read, origin } = table;

  markDuplicates(
    read,
    origin,
    (row) => (row.name === '' ? undefined : row.name.toLowerCase()),
    (row, first) => `duplicate of ${first} (the name ${quote(row.name)}): a profile can appear once in an import`,
  );
  markDuplicates(
    read,
    origin,
    (row) => row.id,
    (_, first) => `duplicate of ${first} (the same profile id): a profile can appear once in an import`,
  );
  matchProfiles(read, input.existingProfiles);
  markDuplicates(
    read.filter((row) => row.problems.length === 0),
    origin,
    (row) => row.target?.id.toLowerCase(),
    (row, first) => `duplicate of ${first}, which updates the same profile ${quote(row.target?.name ?? '')}: a profile can appear once in an import`,
  );

  const rows = read.map((row) => planRow(row, companyId));
  return { version: 1, kind: 'profiles', companyId, ...newImportJob(table, input.range, rows, PROFILE_ID_HEADER) };
}

function readRow(row: number, cell: (key: ProfileColumn) => unknown, address: (key: ProfileColumn) => string): ReadRow {
  const problems: string[] = [];
  const notes: string[] = [];
  const idCell = cell('id');
  let id: string | undefined;
  if (!isBlankCell(idCell)) {
    const text = typeof idCell === 'string' ? idCell.trim() : idCell;
    if (isUuid(text)) id = text.toLowerCase();
    else problems.push(`the id cell holds ${shown(idCell)}, which is not a profile id: clear it to match the profile by name, or to create it`);
  }
  let name = '';
  const nameCell = cell('name');
  if (isBlankCell(nameCell)) problems.push('the name is empty: every profile needs one');
  else if (isClearMark(nameCell)) problems.push('the name cannot be cleared: every profile needs one');
  else {
    const text = cellText(nameCell, 'name');
    if ('reason' in text) problems.push(text.reason);
    else name = text.text;
  }
  const fields = {
    website: readWebsite(cell('website')),
    currency: readCurrency(cell('currency'), address('currency')),
    primaryContact: readContactId(cell('primaryContact')),
    month: readMonth(cell('month')),
  };
  for (const field of Object.values(fields)) {
    if (field.kind === 'invalid') problems.push(field.reason);
    if (field.kind === 'value' && field.note) notes.push(field.note);
  }
  return { row, name, ...(id ? { id } : {}), idCellBlank: isBlankCell(idCell), ...fields, problems, notes };
}

/**
 * By id first; else by name, compared without regard to case as the API compares names within a fund,
 * and trimmed on both sides as the formulas match names: "Cirrus Systems " and "Cirrus Systems" in the
 * API are two matches for one row, which is refused as ambiguous rather than guessed.
 */
function matchProfiles(rows: readonly ReadRow[], existing: readonly PortfolioCompanyProfile[]): void {
  const byId = new Map(existing.map((profile) => [profile.id.toLowerCase(), profile]));
  const byName = new Map<string, PortfolioCompanyProfile[]>();
  for (const profile of existing) {
    const key = nameKey(profile.name);
    byName.set(key, [...(byName.get(key) ?? []), profile]);
  }
  for (const row of rows) {
    if (row.problems.length > 0) continue;
    const named = byName.get(nameKey(row.name)) ?? [];
    if (row.id !== undefined) {
      const profile = byId.get(row.id);
      if (!profile) {
        row.problems.push(
          `no profile of this fund has the id ${row.id} (deleted, or of another fund?): clear the id cell to match the profile by name, or to create it`,
        );
        continue;
      }
      const other = named.find((candidate) => candidate.id.toLowerCase() !== row.id);
      if (other) {
        row.problems.push(`another profile of this fund is already named ${quote(other.name)} (id ${other.id}): names are unique without regard to case`);
        continue;
      }
      row.target = profile;
      row.matchedBy = 'id';
      continue;
    }
    const [only] = named;
    if (named.length > 1)
      row.problems.push(`${named.length} profiles of this fund are named ${quote(row.name)}: put the id of the one you mean in the id column`);
    else if (only) {
      row.target = only;
      row.matchedBy = 'name';
    }
  }
}

/**
 * A name as the API compares names within a fund (without regard to case) and as the formulas match them
 * (trimmed): two names with one key are one name, so a difference of case or spaces is never a rename.
 */
function nameKey(name: string): string {
  return name.trim().toLowerCase();
}

const NO_VALUES = { website_url: null, currency: null, primary_contact_id: null, fiscal_year_end_month: null } as const;

function planRow(read: ReadRow, companyId: string): ProfileRowState {
  const base: ProfileRowState = { row: read.row, name: read.name, outcome: 'pending', writeId: read.idCellBlank };
  if (read.notes.length > 0) base.notes = read.notes;
  if (read.problems.length > 0) return { ...base, outcome: 'failed', reason: read.problems.join('; ') };
  // Fields left out of a PUT keep their value and null clears one, so the body carries only what changes
  // (a POST's, what differs from a profile with no values).
  const target = read.target;
  const current = target ?? NO_VALUES;
  // A name that differs from the server's only by case or surrounding spaces is the same name, whether the
  // row matched by name or by id: the server's is kept (and sent back, since a PUT needs one). Otherwise a
  // run that wrote the id back after matching "AURORA ROBOTICS" by name would rename the profile on the next.
  const renames = target !== undefined && nameKey(read.name) !== nameKey(target.name);
  const body: PortfolioCompanyProfileInput = { name: target && !renames ? target.name : read.name, company_id: companyId };
  const changed: ProfileFieldName[] = [];
  // What the plan saw of each field it replaces: the write compares the server with it first.
  const expected: Partial<Record<ProfileField, FieldValue>> = {};
  if (!target || renames) changed.push('name');
  if (target && renames) expected.name = target.name;
  const diff = <T extends string | number>(field: FieldRead<T>, key: Exclude<ProfileField, 'name'>, set: (value: T | null) => void) => {
    const value = fieldOf(current, key) as T | null;
    if (field.kind === 'value' && field.value !== value) set(field.value);
    else if (field.kind === 'clear' && value !== null) set(null);
    else return;
    changed.push(FIELD_NAMES[key]);
    expected[key] = value;
  };
  diff(read.website, 'website_url', (value) => (body.website_url = value));
  diff(read.currency, 'currency', (value) => (body.currency = value));
  diff(read.primaryContact, 'primary_contact_id', (value) => (body.primary_contact_id = value));
  diff(read.month, 'fiscal_year_end_month', (value) => (body.fiscal_year_end_month = value));
  if (!target) return { ...base, action: 'create', body };
  const matched = { matchedBy: read.matchedBy ?? 'id', profileId: target.id };
  if (changed.length === 0) return { ...base, ...matched, outcome: 'unchanged' };
  return { ...base, ...matched, action: 'update', body, changed, expected, ...(renames ? { renamedFrom: target.name } : {}) };
}

/** A field of a profile as the import compares it (a contact id in lower case, as the row's is read). */
function fieldOf(profile: Pick<PortfolioCompanyProfile, ProfileField> | typeof NO_VALUES, key: ProfileField): FieldValue {
  if (key === 'name') return 'name' in profile ? profile.name : null;
  const value = profile[key];
  return key === 'primary_contact_id' && typeof value === 'string' ? value.toLowerCase() : value;
}

/** Two values of a field the same: names as the API compares them (see nameKey), the rest exactly. */
function sameValue(key: ProfileField, a: FieldValue, b: FieldValue): boolean {
  if (key === 'name' && typeof a === 'string' && typeof b === 'string') return nameKey(a) === nameKey(b);
  return a === b;
}

/** "a blank", or the value quoted: how a conflict's reason shows a field's value. */
function shownValue(value: FieldValue): string {
  return value === null ? 'a blank' : quote(String(value));
}

/** Lower-case, no final period: it reads after "conflict: ". */
function conflictReason(conflicts: readonly ProfileFieldConflict[]): string {
  const fields = conflicts.map((c) => `${FIELD_NAMES[c.field]}: ${shownValue(c.then)} then, ${shownValue(c.now)} now`);
  return `changed on the server since the import was planned (${fields.join('; ')}), so the row was not written and that change is kept: import again to plan it against the server as it is now`;
}

/**
 * The guard of a wave's updates, just before their writes: the fund's profiles are read once (paged), and
 * each update row is compared with its profile as it is now. A field it replaces that holds another value
 * than the plan saw is a conflict: the row is not written. A field that already holds the row's value is
 * left out of the PUT; the rest replace what the server holds now (kept in `replaced`). The PUT names the
 * profile as the server does now, unless it renames it: a colleague's rename is not undone.
 */
function guardUpdates(rows: readonly ProfileRowState[], client: ApiClient): boolean {
  const updates = updatesOf(rows);
  const [first] = updates;
  if (!first?.body) return false;
  const now = new Map(client.portfolio.listProfiles(first.body.company_id).map((profile) => [profile.id.toLowerCase(), profile]));
  for (const row of updates) {
    const profile = now.get((row.profileId ?? '').toLowerCase());
    if (!profile) {
      fail(row, 'the profile no longer exists on the server (deleted since the import was planned?): clear the id cell to create it again, or remove the row');
      continue;
    }
    guardUpdate(row, profile);
  }
  return true;
}

/** The rows of a wave that update a profile: the ones the guard compares with the server. */
function updatesOf(rows: readonly ProfileRowState[]): ProfileRowState[] {
  return rows.filter((row) => row.outcome === 'pending' && row.action === 'update' && row.body);
}

function guardUpdate(row: ProfileRowState, profile: PortfolioCompanyProfile): void {
  const body = row.body!;
  const conflicts: ProfileFieldConflict[] = [];
  const replaced: Partial<Record<ProfileField, FieldValue>> = {};
  const written: Partial<Record<ProfileField, FieldValue>> = {};
  const already: ProfileField[] = [];
  for (const [key, then] of Object.entries(row.expected ?? {}) as Array<[ProfileField, FieldValue]>) {
    const typed = (body[key] ?? null) as FieldValue;
    const current = fieldOf(profile, key);
    if (sameValue(key, current, typed)) already.push(key);
    else if (!sameValue(key, current, then)) conflicts.push({ field: key, then, now: current, typed });
    else {
      replaced[key] = current;
      written[key] = typed;
    }
  }
  if (conflicts.length > 0) {
    row.outcome = 'conflict';
    row.reason = conflictReason(conflicts);
    row.conflicts = conflicts;
    delete row.body;
    delete row.action;
    return;
  }
  for (const key of already) {
    if (key !== 'name') delete body[key];
    row.changed = (row.changed ?? []).filter((name) => name !== FIELD_NAMES[key]);
  }
  if (Object.keys(written).length === 0) {
    // Someone already wrote every value the row gives: nothing is left to send.
    row.outcome = 'unchanged';
    delete row.body;
    delete row.action;
    delete row.changed;
    return;
  }
  if (!('name' in written)) body.name = profile.name;
  row.replaced = replaced;
  row.written = written;
}

/** The profiles the import would rename, old → new: the preview lists them before anything is sent. */
export function profileRenames(state: ProfilesImportState): ProfileRename[] {
  return state.rows.flatMap((row) =>
    row.outcome === 'pending' && row.renamedFrom !== undefined && row.profileId
      ? [{ sheetRow: state.origin.row + row.row - 1, profileId: row.profileId, from: row.renamedFrom, to: row.name }]
      : [],
  );
}

/**
 * Refuses, before anything is sent, an import that would rename a profile the person did not see renamed
 * in the preview (`accepted`: the renames it showed, confirmed): the same profile, from the same name, to
 * the same name. A rename is never a side effect of an update.
 */
export function requireAcceptedRenames(state: ProfilesImportState, accepted: readonly ProfileRename[]): void {
  const seen = new Set(accepted.map((rename) => renameKey(rename)));
  const unseen = profileRenames(state).filter((rename) => !seen.has(renameKey(rename)));
  if (unseen.length === 0) return;
  throw new InputError(
    `The profile import would rename ${countOf(unseen.length, 'profile')}: ${joinAnd(unseen.map(renameText), { limit: 10 })}. Nothing was sent. ` +
      "Import again to see the renames in the preview and confirm them, or put the profile's current name in the sheet to keep it.",
  );
}

/** 'row 3: "Aurora Robotics" → "Aurora Robotics Inc"'. */
export function renameText(rename: ProfileRename): string {
  return `row ${rename.sheetRow}: ${quote(rename.from)} → ${quote(rename.to)}`;
}

function renameKey(rename: Pick<ProfileRename, 'profileId' | 'from' | 'to'>): string {
  return JSON.stringify([rename.profileId.toLowerCase(), rename.from, rename.to]);
}

export type ProfilesImportReport = ImportReport<ProfileRowOutcome>;

/**
 * Why a POST that got no clear answer failed. A re-run matches the profile by its name, so it cannot
 * create it twice: at worst it updates the profile this run created.
 */
const MAYBE_CREATED =
  "may have been created (no answer came back from the API): check the fund's profiles before running the import again; a re-run matches it by name, so it would update it, not create it twice";

/**
 * One POST (create) or PUT (update) per row (see runImportStep). A creation that got no clear answer
 * fails its row (see MAYBE_CREATED) and pauses the import so the user can look; an update that got none
 * stays pending and is sent again on resume (a PUT is idempotent).
 */
export function runProfilesImportStep(
  state: ProfilesImportState,
  client: ApiClient,
  options: ImportStepOptions<ProfilesImportState>,
): ImportStepResult<ProfilesImportState> {
  return runImportStep(state, client, options, PROFILES);
}

export function buildProfilesImportReport(state: ProfilesImportState): ProfilesImportReport {
  return importReport(state, PROFILES);
}

const PROFILES: ImportKind<ProfileRowState, ProfileRowOutcome> = {
  isCreate: (row) => row.action === 'create',

  guard: {
    readAndCompare: guardUpdates,
    unreadable(rows, reason) {
      for (const row of updatesOf(rows))
        fail(row, `the fund's profiles could not be read to compare the row with the server just before writing it: ${reason}`);
    },
  },

  send(row, client) {
    if (!row.body || !row.action) return;
    if (row.action === 'create') row.profileId = client.portfolio.createProfile(row.body).id;
    else client.portfolio.updateProfile(row.profileId ?? '', row.body);
    row.outcome = row.action === 'create' ? 'created' : 'updated';
    // Once confirmed, the request is history.
    delete row.body;
    delete row.action;
    delete row.expected;
  },

  fail,

  refusalHints: {
    '422 name': ': another profile of this fund has this name (names are compared without regard to case)',
    '400 id': ': the profile no longer exists; clear the id cell to create it again',
    '422 primary_contact_id': ': the primary contact must be a contact of this fund',
  },

  unanswered(row, sheetRow) {
    const place = `row ${sheetRow} (${quote(row.name)})`;
    if (row.action !== 'create') return `The update of ${place} was not confirmed; resuming sends it again.`;
    fail(row, MAYBE_CREATED);
    return `The profile of ${place} may have been created: check before resuming.`;
  },

  interrupted(row) {
    if (row.action === 'create') fail(row, `the import stopped while it was being sent, so it ${MAYBE_CREATED}`);
  },

  outcomes: PROFILE_ROW_OUTCOMES,
  phrase: (outcome, count) =>
    outcome === 'conflict'
      ? `${count} ${count === '1' ? 'conflict' : 'conflicts'} (changed on the server since the import was planned, so not written)`
      : undefined,
  label: (row) => row.name,
  note(row) {
    const parts: string[] = [];
    if (row.outcome === 'pending') parts.push(row.action === 'create' ? 'to be created' : `to update ${(row.changed ?? []).join(', ')}`);
    if (row.matchedBy === 'name') parts.push('matched by name');
    if (row.outcome === 'updated' && row.changed) parts.push(`changed: ${row.changed.join(', ')}`);
    if (row.renamedFrom !== undefined && (row.outcome === 'pending' || row.outcome === 'updated')) parts.push(`renamed from ${quote(row.renamedFrom)}`);
    if (row.outcome !== 'failed') parts.push(...(row.notes ?? []));
    return parts.length > 0 ? parts.join('; ') : null;
  },
  /** A profile's id goes back into an empty id cell once known, so the next run matches by id (and renames only what the preview showed). */
  idText: (row) => (row.writeId && row.profileId && row.outcome !== 'pending' && row.outcome !== 'failed' ? row.profileId : null),
};

function fail(row: ProfileRowState, reason: string): void {
  row.outcome = 'failed';
  row.reason = reason;
  delete row.body;
  delete row.action;
  delete row.expected;
}

/**
 * What a settled row changed on the server, field by field, for the Pushes sheet: an update's fields with
 * the value read just before the write and the value written; a conflict's with the server's value then
 * read and the value the row would have written. Empty for other rows (and for any row after a reload:
 * these are not kept between steps).
 */
export function profileFieldChanges(row: ProfileRowState): Array<{ field: ProfileField; label: ProfileFieldName; old: FieldValue; new: FieldValue }> {
  if (row.outcome === 'updated' && row.replaced && row.written) {
    const written = row.written;
    return (Object.entries(row.replaced) as Array<[ProfileField, FieldValue]>).map(([field, old]) => ({
      field,
      label: FIELD_NAMES[field],
      old,
      new: written[field] ?? null,
    }));
  }
  if (row.outcome === 'conflict' && row.conflicts) return row.conflicts.map((c) => ({ field: c.field, label: FIELD_NAMES[c.field], old: c.now, new: c.typed }));
  return [];
}
