// Builds a custom function's context from Apps Script's services.

import { ChunkedCache } from '../core/cache/chunked-cache';
import { executionCache } from '../core/cache/execution-cache';
import type { FormulaContext } from '../core/formulas/formula-context';
import { RecordsCache } from '../core/series/records-cache';
import { SeriesCache } from '../core/series/series-cache';
import { SingleFlight } from '../core/series/single-flight';
import type { ApiClient } from '../core/api/client';
import { appsScriptClock } from '../gas/apps-script-clock';
import { userCache, userMutex } from '../gas/cache-and-lock';
import { cacheScopeOf, readFormulaDocumentState } from '../gas/document-settings';
import { argumentDateFormatter, spreadsheetTimeZone } from '../gas/spreadsheet-dates';
import { readRecalculationMetricIds } from '../gas/recalculation-sheet';
import { formulaSettingsProblem } from '../gas/shared-drive-connection';
import { readFormulaAccess, readSettingsGeneration, readSettingsSummary, readUserProperties, type UserProperties } from '../gas/user-settings';
import { createClientForExecution } from './api-factory';
import { CUSTOM_FUNCTION_API_BUDGET_MS, SIDEBAR_API_BUDGET_MS } from '../core/pacing';

/** The sidebar reads a fund through the custom functions' caches, but as the caller, with a person's longer wait. */
interface SidebarReading {
  fundId: string;
  budgetMs?: number;
  /** Read past the user's cache (and leave it as it was): a snapshot refresh must see what the API holds now. */
  fresh?: boolean;
  /** The companies it may read, when not only the fund: a snapshot refresh allows the caller's formula access, never its definition's. */
  allowedCompanyIds?: readonly string[];
}

/** The sheet's metric ids, or none when the sheet cannot be read: fetching along is a saving, never a cell's failure. */
function sheetMetricIdsOrNone(): string[] {
  try {
    return readRecalculationMetricIds();
  } catch {
    return [];
  }
}

/**
 * `customFunction`: the context of a formula's own execution, whose user properties are whatever Apps Script hands a
 * custom function (the owner's; in a Shared Drive, checked: gas/shared-drive-connection.ts). Without it, a person's
 * execution (Refresh data, the sidebar) reads their own.
 */
export function createFormulaContext(sidebar?: SidebarReading, options: { customFunction?: boolean } = {}): FormulaContext {
  const cache = sidebar?.fresh ? executionCache() : userCache();
  const chunked = new ChunkedCache(cache, () => Utilities.getUuid().slice(0, 8));
  const deadline = Date.now() + (sidebar ? (sidebar.budgetMs ?? SIDEBAR_API_BUDGET_MS) : CUSTOM_FUNCTION_API_BUDGET_MS);
  // The one PropertiesService call of a warm cell: generation, credentials and formula access. Formula access
  // is the owner's security decision, so it is read from the owner's store every time, never from a copy.
  const userProperties = readUserProperties();
  // The document's state comes from its cache's mirror (no property call when warm), never older than the store.
  const documentState = readFormulaDocumentState();
  // This spreadsheet's answers only (its id), fresh after "Refresh data" (the document's generation) or a new token
  // or base URL (the user's).
  const generation = `${cacheScopeOf(documentState.generation)}.${readSettingsGeneration(userProperties)}`;
  // One flight for series and lists alike: cells Sheets starts together fetch each once.
  const flight = new SingleFlight(cache, appsScriptClock, deadline, sidebar?.fresh ? undefined : userMutex());
  let client: ApiClient | undefined;
  let defaultCompanyId: string | null | undefined;
  let allowedCompanyIds: string[] | undefined;
  let recalculationMetricIds: string[] | undefined;
  // In a Shared Drive file the settings a formula was handed count only if they are the connecting person's; checked
  // before the first use of the token, the list or the default company (a person's execution reads their own).
  let settingsUsable = !options.customFunction;
  const usableSettings = (): UserProperties => {
    if (!settingsUsable) {
      const problem = formulaSettingsProblem(userProperties);
      if (problem) throw problem;
      settingsUsable = true;
    }
    return userProperties;
  };
  return {
    timeZone: spreadsheetTimeZone(),
    // Formulas' date arguments, in whichever zone Sheets built them (docs/platform.md, §5).
    formatDate: argumentDateFormatter,
    // Custom functions read the spreadsheet owner's settings, so a missing token is the owner's to set.
    client: () =>
      (client ??= createClientForExecution({ deadline, credentialsOf: sidebar ? 'caller' : 'spreadsheet-owner', userProperties: usableSettings() })),
    // The metrics a writer dropped since (see dropCachedSeries), read with the generation.
    series: new SeriesCache(chunked, generation, flight, () => documentState.epochs),
    records: new RecordsCache(chunked, generation, flight),
    // Read only when a formula needs it (names, fiscal years): most cells are answered from the cache.
    get defaultCompanyId() {
      return (defaultCompanyId ??= readSettingsSummary(usableSettings()).defaultCompanyId);
    },
    // The owner's list: Apps Script hands a custom function the owner's user properties only.
    get allowedCompanyIds() {
      return (allowedCompanyIds ??= sidebar ? [...(sidebar.allowedCompanyIds ?? [sidebar.fundId.toLowerCase()])] : readFormulaAccess(usableSettings()));
    },
    now: () => Date.now(),
    // Only a cell about to fetch reads the sheet, once; the sidebar's grid builder recalculates no sheet.
    ...(sidebar ? {} : { recalculationMetricIds: () => (recalculationMetricIds ??= sheetMetricIdsOrNone()) }),
  };
}
