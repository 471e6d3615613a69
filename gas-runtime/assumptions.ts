// Switches for the platform behaviours the Apps Script reference does not state (docs/platform.md, the register):
// each default is the reading the add-in was built on; flipping one makes the runtime behave the other way.

import { GasRuntimeUsageError } from './errors';
import { DEFAULT_CUSTOM_FUNCTIONS_PER_SECOND } from './invocation-rate';

/** One switch per unstated assumption of docs/platform.md; every field is optional, the default in brackets. */
export interface PlatformAssumptions {
  /** [true] In a custom function, getActiveRange() is the calling cell; false: it is the selection as it stands. */
  activeRangeIsCallingCell?: boolean;
  /** [true] Custom functions running at once share the owner's user cache and lock; false: each execution has its own. */
  sharedCachesAcrossExecutions?: boolean;
  /**
   * [true] The script's Intl.DateTimeFormat knows every zone getSpreadsheetTimeZone() and getScriptTimeZone()
   * return; false: it knows neither of those two; a list: it knows none of the listed zones.
   */
  intlKnowsZone?: boolean | readonly string[];
  /**
   * [true] Recalculating a cell runs its formula again; false: Sheets keeps the result of a formula whose text
   * and arguments are those of its last run, unless a flush (or an execution's end) found the cell without it.
   */
  identicalFormulaRecalculates?: boolean;
  /** [false] A date argument is midnight in the spreadsheet's zone; true: midnight in the script's zone. */
  datesInScriptZone?: boolean;
  /**
   * [false] A Date a custom function returns is shown on the spreadsheet's wall clock; true: on the script's. The
   * add-in has no way to be right then (docs/platform.md, §10): the installation check says `fail`.
   */
  returnedDatesInScriptZone?: boolean;
  /**
   * [false] An add-on's time-driven trigger sees no active spreadsheet (the public report the README quotes);
   * true: it sees the spreadsheet it was created in, with its document properties and lock.
   */
  activeSpreadsheetInTimeTrigger?: boolean;
  /**
   * [true] A Date a script writes into a cell of automatic format gets Sheets' default date format (M/d/yyyy in
   * en_US); false: the cell keeps its automatic format and shows the date's serial number (45292).
   */
  writtenDatesGetDateFormat?: boolean;
  /**
   * [true] A call whose scope the user declined (granular consent: "Granular OAuth permissions allow users to
   * authorize specific scopes", concepts/scopes) fails with "You do not have permission to call X. Required
   * permissions: <scopes>", the words a published add-on's user reported for a scope they had not granted
   * (github.com/ttsukagoshi/mail-merge-for-gmail/issues/129); false: with "Authorization is required to perform that
   * action.", which names no scope. The reference documents neither text.
   */
  declinedScopeRefusalNamesScope?: boolean;
  /**
   * [30] Custom functions a recalculation invokes per user per second: past it Apps Script refuses with "Script
   * invoked too many times per second for this Google user account." (quotas page, which gives no figure: the
   * stricter reading, docs/platform.md §14); counted when asked for, queued and refused ones included. false: no limit.
   */
  customFunctionsPerSecond?: number | false;
}

/** Every switch with its value for one runtime. */
export interface ResolvedAssumptions {
  activeRangeIsCallingCell: boolean;
  sharedCachesAcrossExecutions: boolean;
  /** Zones Intl.DateTimeFormat refuses in the script's realm. */
  zonesIntlLacks: readonly string[];
  identicalFormulaRecalculates: boolean;
  datesInScriptZone: boolean;
  returnedDatesInScriptZone: boolean;
  activeSpreadsheetInTimeTrigger: boolean;
  writtenDatesGetDateFormat: boolean;
  declinedScopeRefusalNamesScope: boolean;
  customFunctionsPerSecond: number | false;
}

const KNOWN = new Set([
  'activeRangeIsCallingCell',
  'sharedCachesAcrossExecutions',
  'intlKnowsZone',
  'identicalFormulaRecalculates',
  'datesInScriptZone',
  'returnedDatesInScriptZone',
  'activeSpreadsheetInTimeTrigger',
  'writtenDatesGetDateFormat',
  'declinedScopeRefusalNamesScope',
  'customFunctionsPerSecond',
]);

/** The switches with their defaults; an unknown name is a misconfiguration, never ignored. */
export function resolveAssumptions(given: PlatformAssumptions | undefined, zones: { spreadsheet: string; script: string }): ResolvedAssumptions {
  for (const name of Object.keys(given ?? {})) {
    if (!KNOWN.has(name)) throw new GasRuntimeUsageError(`Unknown assumption: ${name}.`, 'INVALID_OPTION');
  }
  const intl = given?.intlKnowsZone ?? true;
  return {
    activeRangeIsCallingCell: given?.activeRangeIsCallingCell ?? true,
    sharedCachesAcrossExecutions: given?.sharedCachesAcrossExecutions ?? true,
    zonesIntlLacks: intl === true ? [] : intl === false ? [zones.spreadsheet, zones.script] : [...intl],
    identicalFormulaRecalculates: given?.identicalFormulaRecalculates ?? true,
    datesInScriptZone: given?.datesInScriptZone ?? false,
    returnedDatesInScriptZone: given?.returnedDatesInScriptZone ?? false,
    activeSpreadsheetInTimeTrigger: given?.activeSpreadsheetInTimeTrigger ?? false,
    writtenDatesGetDateFormat: given?.writtenDatesGetDateFormat ?? true,
    declinedScopeRefusalNamesScope: given?.declinedScopeRefusalNamesScope ?? true,
    customFunctionsPerSecond: given?.customFunctionsPerSecond ?? DEFAULT_CUSTOM_FUNCTIONS_PER_SECOND,
  };
}

/** The options a worker thread needs to rebuild the same switches (as given: its zones are the host's). */
export function assumptionsOption(resolved: ResolvedAssumptions): PlatformAssumptions {
  return {
    activeRangeIsCallingCell: resolved.activeRangeIsCallingCell,
    sharedCachesAcrossExecutions: resolved.sharedCachesAcrossExecutions,
    intlKnowsZone: resolved.zonesIntlLacks.length === 0 ? true : resolved.zonesIntlLacks,
    identicalFormulaRecalculates: resolved.identicalFormulaRecalculates,
    datesInScriptZone: resolved.datesInScriptZone,
    returnedDatesInScriptZone: resolved.returnedDatesInScriptZone,
    activeSpreadsheetInTimeTrigger: resolved.activeSpreadsheetInTimeTrigger,
    writtenDatesGetDateFormat: resolved.writtenDatesGetDateFormat,
    declinedScopeRefusalNamesScope: resolved.declinedScopeRefusalNamesScope,
    customFunctionsPerSecond: resolved.customFunctionsPerSecond,
  };
}

/**
 * Whose user properties a custom function reads in a spreadsheet in a Shared Drive, where `getOwner()` "Returns the
 * owner of the document, or null for a document in a shared drive" (reference/spreadsheet/spreadsheet#getOwner) and the
 * custom functions guide says only "getUserProperties() only gets the properties of the spreadsheet owner", which has
 * no answer there (docs/platform.md, §12):
 * - 'none' (the default, the stricter reading): an empty store, writes refused as an editor's are: no one's settings;
 * - 'creator': the file's creator's, as a third party's help page reports of the "owner" there;
 * - 'caller': the person whose recalculation runs the formula, as in the sidebar.
 * The user cache and lock a custom function gets follow its properties (docs/platform.md, §2).
 */
export type SharedDriveReading = 'none' | 'creator' | 'caller';

/** The runtime's spreadsheet is in a Shared Drive: it has no owner (createGasRuntime's `sharedDrive`). */
export interface SharedDriveOption {
  /** ['none'] Whose user properties a custom function reads there. */
  customFunctionProperties?: SharedDriveReading;
  /** [the runtime's `owner`] Who created the file: whose store 'creator' reads. */
  creator?: string;
}

export interface ResolvedSharedDrive {
  customFunctionProperties: SharedDriveReading;
  creator: string;
}

/** The user-store name of "no one's settings": a store no person's execution outside a custom function ever gets. */
export const NO_ONES_STORE = '(no one: a Shared Drive file)';

const READINGS: readonly SharedDriveReading[] = ['none', 'creator', 'caller'];

/** The Shared Drive case with its defaults, or null for a spreadsheet with an owner; an unknown reading is refused. */
export function resolveSharedDrive(given: SharedDriveOption | undefined, owner: string): ResolvedSharedDrive | null {
  if (!given) return null;
  for (const name of Object.keys(given)) {
    if (name !== 'customFunctionProperties' && name !== 'creator') throw new GasRuntimeUsageError(`Unknown sharedDrive option: ${name}.`, 'INVALID_OPTION');
  }
  const reading = given.customFunctionProperties ?? 'none';
  if (!READINGS.includes(reading))
    throw new GasRuntimeUsageError(`Unknown sharedDrive reading: ${String(reading)} (one of ${READINGS.join(', ')}).`, 'INVALID_OPTION');
  return { customFunctionProperties: reading, creator: given.creator ?? owner };
}

/** Whose user store a custom function run by `user` reads: the owner's, or in a Shared Drive the reading's person. */
export function customFunctionStoreUser(user: string, owner: string, sharedDrive: ResolvedSharedDrive | null): string {
  if (!sharedDrive) return owner;
  switch (sharedDrive.customFunctionProperties) {
    case 'none':
      return NO_ONES_STORE;
    case 'creator':
      return sharedDrive.creator;
    case 'caller':
      return user;
  }
}
