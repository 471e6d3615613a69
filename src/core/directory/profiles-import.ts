// Profiles from a range: each row planned (create, update, unchanged or failed) before anything is sent, then
// sent as a POST or PUT, one at a time, with a report.

import type { ApiClient } from '../api/client';
import type { PortfolioCompanyProfile, PortfolioCompanyProfileInput } from '../api/types';
import { InputError } from '../errors';
import { countOf, joinAnd, quote } from '../export/places';
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
 * - failed: refused by validation or by the API, or its creation could not be confirmed; has a reason.
 * - pending: not sent yet.
 */
export type ProfileRowOutcome = 'created' | 'updated' | 'unchanged' | 'failed' | 'pending';

export const PROFILE_ROW_OUTCOMES: readonly ProfileRowOutcome[] = ['created', 'updated', 'unchanged', 'failed', 'pending'];

/** The fields of a profile as reasons and notes name them. */
type ProfileFieldName = 'name' | 'website' | 'currency' | 'primary contact' | 'fiscal year end month';

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

  markDuplicates(read, origin, (row) => (row.name === '' ? undefined : row.name.toLowerCase()), (row, first) => `duplicate of ${first} (the name ${quote(row.name)}): a profile can appear once in an import`);
  markDuplicates(read, origin, (row) => row.id, (_, first) => `duplicate of ${first} (the same profile id): a profile can appear once in an import`);
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
        row.problems.push(`no profile of this fund has the id ${row.id} (deleted, or of another fund?): clear the id cell to match the profile by name, or to create it`);
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
    if (named.length > 1) row.problems.push(`${named.length} profiles of this fund are named ${quote(row.name)}: put the id of the one you mean in the id column`);
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
  if (!target || renames) changed.push('name');
  const diff = <T extends string | number>(field: FieldRead<T>, value: T | null, label: ProfileFieldName, set: (value: T | null) => void) => {
    if (field.kind === 'value' && field.value !== value) set(field.value);
    else if (field.kind === 'clear' && value !== null) set(null);
    else return;
    changed.push(label);
  };
  diff(read.website, current.website_url, 'website', (value) => (body.website_url = value));
  diff(read.currency, current.currency, 'currency', (value) => (body.currency = value));
  diff(read.primaryContact, current.primary_contact_id?.toLowerCase() ?? null, 'primary contact', (value) => (body.primary_contact_id = value));
  diff(read.month, current.fiscal_year_end_month, 'fiscal year end month', (value) => (body.fiscal_year_end_month = value));
  if (!target) return { ...base, action: 'create', body };
  const matched = { matchedBy: read.matchedBy ?? 'id', profileId: target.id };
  if (changed.length === 0) return { ...base, ...matched, outcome: 'unchanged' };
  return { ...base, ...matched, action: 'update', body, changed, ...(renames ? { renamedFrom: target.name } : {}) };
}

/** The profiles the import would rename, old → new: the preview lists them before anything is sent. */
export function profileRenames(state: ProfilesImportState): ProfileRename[] {
  return state.rows.flatMap((row) => (row.outcome === 'pending' && row.renamedFrom !== undefined && row.profileId
    ? [{ sheetRow: state.origin.row + row.row - 1, profileId: row.profileId, from: row.renamedFrom, to: row.name }]
    : []));
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
      'Import again to see the renames in the preview and confirm them, or put the profile\'s current name in the sheet to keep it.',
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
  'may have been created (no answer came back from the API): check the fund\'s profiles before running the import again; a re-run matches it by name, so it would update it, not create it twice';

/**
 * One POST (create) or PUT (update) per row (see runImportStep). A creation that got no clear answer
 * fails its row (see MAYBE_CREATED) and pauses the import so the user can look; an update that got none
 * stays pending and is sent again on resume (a PUT is idempotent).
 */
export function runProfilesImportStep(state: ProfilesImportState, client: ApiClient, options: ImportStepOptions<ProfilesImportState>): ImportStepResult<ProfilesImportState> {
  return runImportStep(state, client, options, PROFILES);
}

export function buildProfilesImportReport(state: ProfilesImportState): ProfilesImportReport {
  return importReport(state, PROFILES);
}

const PROFILES: ImportKind<ProfileRowState, ProfileRowOutcome> = {
  isCreate: (row) => row.action === 'create',

  send(row, client) {
    if (!row.body || !row.action) return;
    if (row.action === 'create') row.profileId = client.portfolio.createProfile(row.body).id;
    else client.portfolio.updateProfile(row.profileId ?? '', row.body);
    row.outcome = row.action === 'create' ? 'created' : 'updated';
    // Once confirmed, the request is history: dropping it keeps the stored state small.
    delete row.body;
    delete row.action;
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
}
