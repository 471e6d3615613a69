// "Check this installation": observes on the platform what docs/platform.md assumes (scopes, the API with the saved
// token, the allowlist, the cache, the zones, a trigger, a probe formula, the quotas) and writes the report to a sheet.

import { ApiError, FetchRefusedError, NetworkError, PermissionMissingError, userSentence } from '../core/errors';
import { MANIFEST_SCOPES, SCOPE } from '../core/settings/permissions';
import { grantsNow, missingPermissionSentence } from '../gas/granted-scopes';
import { ISO_DATE_FORMAT } from '../core/sheets/number-formats';
import { midnightIn } from '../core/sheets/time-zone';
import {
  CHECK,
  apiChecks,
  cacheCheck,
  fileCaseCheck,
  probeChecks,
  quotasCheck,
  scopesCheck,
  summaryOf,
  triggerCheck,
  writtenDatesCheck,
  zonesCheck,
  type ApiObservation,
  type InstallationCheck,
  type ProbeFindings,
  type ProbeReading,
  PROBE_FUNCTION_NAME,
} from '../core/settings/installation-verdicts';
import { ensureSize, insertHiddenSheet, insertSheetAtEnd, clearedSheet } from '../gas/own-sheets';
import { fileCase, type FileCase } from '../gas/ownership';
import { writeOwnFormula, writePlainText, writeValues } from '../gas/sheet-io';
import { quotaUsageToday } from '../gas/quota-usage';
import { appsScriptDateFormatter } from '../gas/spreadsheet-dates';
import { readCredentials, readSettingsSummary } from '../gas/user-settings';
import type { InstallationCheckProgress, InstallationReport } from '../shared/rpc';
import { createClientForExecution } from './api-factory';

export const REPORT_SHEET = 'Installation check';
const PROBE_SHEET = 'Installation probe';
/** The probe's date: any day works; mid-January is far from every zone's DST change. */
const PROBE_DATE = '2024-01-15';
const PROBE_CELL = 'B1';
const CACHE_BYTES = 100_000;
const cacheKey = (nonce: string) => `installation-check:${nonce}`;
/** A cold custom function can take a while to start; a rerun that does not come in this time did not happen. */
const FIRST_RUN_WAIT_MS = 30_000;
const RERUN_WAIT_MS = 10_000;
/**
 * How often the probe's cell is read while waiting: one range read each time. At 500 ms every check waited about
 * a second past a probe that had already run (once for its first run, once for its rerun); 100 ms keeps that to a
 * fifth, for at most 300 cheap reads in a 30-second wait.
 */
const POLL_MS = 100;
/** The metric listing needs a company: without a default one, this id names none, so only the token is judged. */
const NO_COMPANY = '00000000-0000-4000-8000-000000000000';

/**
 * The probe formula's body (INSTALLATION_PROBE): what a custom function sees, as one row: the nonce it was given,
 * the active range, the bytes it found in the user cache under the nonce, a fresh id for this run, its date argument.
 */
export function installationProbe(nonce: unknown, date: unknown): Array<Array<string | number | Date>> {
  const book = SpreadsheetApp.getActiveSpreadsheet();
  const range = SpreadsheetApp.getActiveRange();
  const where = range ? `${range.getSheet().getName()}!${range.getA1Notation()}` : '';
  const cached = typeof nonce === 'string' && nonce ? CacheService.getUserCache().get(cacheKey(nonce)) : null;
  const dateMs = date instanceof Date ? date.getTime() : '';
  // Built as METRIC_VALUES builds its dates, for the check to read back as the cell shows it.
  const returned = midnightIn(PROBE_DATE, book.getSpreadsheetTimeZone(), appsScriptDateFormatter);
  return [[String(nonce), where, cached ? cached.length : 0, Utilities.getUuid(), dateMs, returned]];
}

/** What the page's poll reads while a check runs: its lines so far and what runs now. */
const progressKey = (progressId: string) => `installation-check-progress:${progressId}`;
const PROGRESS_SECONDS = 600;

/**
 * Runs every check, writes the report to its sheet and returns it. With a `progressId` (the page's), each step
 * publishes the lines done so far and the one it starts in the user cache, for getInstallationCheckProgress: the
 * probe alone can wait a minute, and a page that shows nothing for that long looks stuck.
 */
export function checkInstallation(progressId?: string): InstallationReport {
  const book = SpreadsheetApp.getActiveSpreadsheet();
  const spreadsheetZone = book.getSpreadsheetTimeZone();
  const scriptZone = Session.getScriptTimeZone();
  const nonce = Utilities.getUuid();
  const found = fileCaseOrError();
  const checks: InstallationCheck[] = [];
  const publish = (running: string | null) => {
    if (!progressId) return;
    const progress: InstallationCheckProgress = { done: checks, running };
    try {
      CacheService.getUserCache().put(progressKey(progressId), JSON.stringify(progress), PROGRESS_SECONDS);
    } catch {
      // Progress is a courtesy: a cache that refuses it leaves the page on its "Checking…" line, not the check failed.
    }
  };
  const steps: Array<[string, () => InstallationCheck[]]> = [
    [CHECK.scopes, () => [checkScopes()]],
    [CHECK.api, () => apiChecks(observeApi())],
    [CHECK.cache, () => [cacheCheck(cacheRoundTrip(nonce))]],
    [CHECK.zones, () => [zonesCheck([spreadsheetZone, scriptZone].map((zone) => ({ zone, intl: intlKnows(zone) })))]],
    [CHECK.trigger, () => [triggerCheck(createAndDeleteTrigger(book))]],
    [CHECK.file, () => [fileCaseCheck(found ?? { error: 'no answer' })]],
    [
      `${CHECK.probe} (waits up to ${FIRST_RUN_WAIT_MS / 1000} seconds for Sheets to calculate it, and again to recalculate it)`,
      () => probeAndDateChecks(runProbe(book, nonce, spreadsheetZone, scriptZone, 'error' in found ? null : found)),
    ],
    [CHECK.quotas, () => [quotasCheck(quotaUsageToday())]],
  ];
  for (const [running, step] of steps) {
    publish(running);
    checks.push(...step());
  }
  publish(null);
  const report: InstallationReport = {
    checkedAt: new Date().toISOString(),
    spreadsheetTimeZone: spreadsheetZone,
    scriptTimeZone: scriptZone,
    checks,
    summary: summaryOf(checks),
    sheetName: REPORT_SHEET,
  };
  writeReport(book, report);
  return report;
}

/** What a running check has done, as its last step published it; null before its first step or for another id. */
export function installationCheckProgress(progressId: string): InstallationCheckProgress | null {
  const text = CacheService.getUserCache().get(progressKey(progressId));
  if (text === null) return null;
  try {
    return JSON.parse(text) as InstallationCheckProgress;
  } catch {
    return null;
  }
}

function probeAndDateChecks(found: ProbeFindings): InstallationCheck[] {
  return [...probeChecks(found), writtenDatesCheck(found.writtenDateFormat)];
}

/** The menu item: the check, and its summary in a toast (the report is on its sheet). */
export function checkInstallationSummary(): string {
  const report = checkInstallation();
  return `${report.summary} The report is on the "${report.sheetName}" sheet.`;
}

function checkScopes(): InstallationCheck {
  const grants = grantsNow();
  return scopesCheck(
    grants.missing,
    MANIFEST_SCOPES.filter((scope) => !grants.missing.includes(scope)),
    grants.authorizationUrl,
  );
}

/** One metric listing with the caller's saved token; its answer says which of the outcomes it is. */
export function observeApi(): ApiObservation {
  let baseUrl: string;
  try {
    baseUrl = readCredentials('caller').baseUrl;
  } catch (error) {
    return { kind: 'no-settings', sentence: userSentence(error) };
  }
  const companyId = readSettingsSummary().defaultCompanyId ?? NO_COMPANY;
  try {
    createClientForExecution({ maxTotalWaitMs: 5_000 }).metrics.list(companyId);
    return { kind: 'accepted', baseUrl };
  } catch (error) {
    if (error instanceof ApiError) {
      if (error.code === 'unauthorized') return { kind: 'refused', baseUrl, status: error.status };
      // GET /metrics lists no 404 (api-spec), so a 404 means the address holds no API, whatever the company id.
      if (error.status === 404) return { kind: 'no-api', baseUrl, request: `GET ${baseUrl}/metrics` };
      // The token was taken; the nil company id is not a company.
      if (companyId === NO_COMPANY && error.status < 500 && error.status !== 429) return { kind: 'accepted', baseUrl };
      return { kind: 'answered', baseUrl, status: error.status, sentence: userSentence(error) };
    }
    if (error instanceof FetchRefusedError) return { kind: 'not-sent', baseUrl, sentence: userSentence(error) };
    if (error instanceof PermissionMissingError) return { kind: 'not-permitted', baseUrl, sentence: error.message };
    if (error instanceof NetworkError) {
      // Apps Script's refusal for a URL the manifest does not list (gas-runtime README, urlFetchWhitelist).
      if (/not been whitelisted|allowlist/i.test(error.message)) return { kind: 'not-allowed', baseUrl };
      return { kind: 'unreachable', baseUrl, reason: error.message.replace(/^Could not reach \S+: /, '') };
    }
    return { kind: 'unreachable', baseUrl, reason: userSentence(error) };
  }
}

/** Whose file this is; `{ error }` where Apps Script refuses to say (the userinfo.email scope declined: the scopes line says why). */
function fileCaseOrError(): FileCase | { error: string } {
  try {
    return fileCase();
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

function cacheRoundTrip(nonce: string): 'same' | 'lost' | { error: string } {
  const value = 'x'.repeat(CACHE_BYTES);
  try {
    const cache = CacheService.getUserCache();
    cache.put(cacheKey(nonce), value, 600);
    return cache.get(cacheKey(nonce)) === value ? 'same' : 'lost';
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

/** Whether the script's Intl knows the zone, and tells the same wall-clock time as Apps Script's Utilities. */
function intlKnows(zone: string): 'known' | 'unknown' | 'differs' {
  const now = new Date();
  let intl: string;
  try {
    const parts = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    }).formatToParts(now);
    const get = (type: string) => parts.find((part) => part.type === type)?.value ?? '';
    intl = `${get('year')}-${get('month')}-${get('day')} ${get('hour')}:${get('minute')}`;
  } catch (error) {
    if (error instanceof RangeError) return 'unknown';
    throw error;
  }
  return intl === Utilities.formatDate(now, zone, 'yyyy-MM-dd HH:mm') ? 'known' : 'differs';
}

function createAndDeleteTrigger(
  book: GoogleAppsScript.Spreadsheet.Spreadsheet,
): 'created-and-deleted' | 'already-scheduled' | { error: string } | { notGranted: string } {
  const notGranted = missingPermissionSentence('Scheduling a snapshot refresh', SCOPE.scriptApp);
  if (notGranted) return { notGranted };
  try {
    // An add-on may have one time-driven trigger per user per document: an existing one is the proof.
    if (ScriptApp.getUserTriggers(book).some((trigger) => trigger.getEventType() === ScriptApp.EventType.CLOCK)) return 'already-scheduled';
    const trigger = ScriptApp.newTrigger('runScheduledSnapshotRefresh').timeBased().everyHours(1).create();
    ScriptApp.deleteTrigger(trigger);
    return 'created-and-deleted';
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * Writes the probe formula into a hidden sheet, with a date cell as its argument, and reads back what it saw;
 * then writes the same text again, and if Sheets keeps the old result, empties the cell first as Refresh data does.
 * A probe that shows nothing in time stays (hidden) for the next check, which reads what it showed once Sheets
 * calculated it after this check ended (docs/platform.md, §7).
 */
function runProbe(
  book: GoogleAppsScript.Spreadsheet.Spreadsheet,
  nonce: string,
  spreadsheetZone: string,
  scriptZone: string,
  found: FileCase | null,
): ProbeFindings {
  const old = book.getSheetByName(PROBE_SHEET);
  const earlier = old ? readProbe(old, null, null) : null;
  if (old) book.deleteSheet(old);
  const sheet = insertHiddenSheet(PROBE_SHEET, `${REPORT_SHEET}: a probe formula, deleted when the check ends.`);
  const date = {
    iso: PROBE_DATE,
    spreadsheetMidnight: midnightIn(PROBE_DATE, spreadsheetZone, appsScriptDateFormatter).getTime(),
    scriptMidnight: midnightIn(PROBE_DATE, scriptZone, appsScriptDateFormatter).getTime(),
    spreadsheetZone,
    scriptZone,
  };
  const findings = (first: ProbeReading | null, rewrite: ProbeFindings['rewrite'], fromEarlierCheck: boolean): ProbeFindings => ({
    first,
    fromEarlierCheck,
    probeCell: `${PROBE_SHEET}!${PROBE_CELL}`,
    expectedCacheBytes: CACHE_BYTES,
    // Without userinfo.email Apps Script refuses the call; the scopes line says why, so this reads as unknown.
    callerIsOwner: found?.kind === 'owned' ? found.callerIsOwner : null,
    sharedDrive: found?.kind === 'shared-drive',
    date,
    rewrite,
    waitedSeconds: FIRST_RUN_WAIT_MS / 1000,
    writtenDateFormat,
  });
  let keep = false;
  let writtenDateFormat: string | null = null;
  try {
    // The new sheet's A1 has the automatic format: what Sheets gives a Date written there is what snapshots keep.
    const dateCell = writeValues(sheet.getRange('A1'), [[new Date(date.spreadsheetMidnight)]]);
    writtenDateFormat = dateCell.getNumberFormat();
    dateCell.setNumberFormat(ISO_DATE_FORMAT);
    const cell = sheet.getRange(PROBE_CELL);
    const formula = `=${PROBE_FUNCTION_NAME}("${nonce}", A1)`;
    writeOwnFormula(cell, formula);
    SpreadsheetApp.flush();
    const first = waitForProbe(sheet, nonce, null, FIRST_RUN_WAIT_MS);
    if (!first) {
      keep = true;
      return findings(earlier, null, earlier !== null);
    }
    writeOwnFormula(cell, formula);
    SpreadsheetApp.flush();
    const identical = waitForProbe(sheet, nonce, first.runId, RERUN_WAIT_MS) ? 'reran' : 'kept';
    let afterClear: 'reran' | 'kept' = identical;
    if (identical === 'kept') {
      cell.clearContent();
      SpreadsheetApp.flush();
      writeOwnFormula(cell, formula);
      SpreadsheetApp.flush();
      afterClear = waitForProbe(sheet, nonce, first.runId, FIRST_RUN_WAIT_MS) ? 'reran' : 'kept';
    }
    return findings(first, { identical, afterClear }, false);
  } finally {
    if (!keep) book.deleteSheet(sheet);
  }
}

/** The probe's row once it shows this check's nonce and a run other than `previousRun`; null after `waitMs`. */
function waitForProbe(sheet: GoogleAppsScript.Spreadsheet.Sheet, nonce: string, previousRun: string | null, waitMs: number): ProbeReading | null {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const reading = readProbe(sheet, nonce, previousRun);
    if (reading) return reading;
    if (Date.now() >= deadline) return null;
    Utilities.sleep(POLL_MS);
  }
}

/** What the probe shows, if it shows a run (of `nonce`, when given) other than `previousRun`. */
function readProbe(sheet: GoogleAppsScript.Spreadsheet.Sheet, nonce: string | null, previousRun: string | null): ProbeReading | null {
  const [shown, activeRange, cachedBytes, runId, dateMs, returned] = sheet.getRange(1, 2, 1, 6).getValues()[0]!;
  if (typeof shown !== 'string' || (nonce !== null && shown !== nonce) || typeof runId !== 'string' || runId === '' || runId === previousRun) return null;
  const returnedDate = returned instanceof Date ? Utilities.formatDate(returned, sheet.getParent().getSpreadsheetTimeZone(), 'yyyy-MM-dd HH:mm') : null;
  return { activeRange: String(activeRange), cachedBytes: Number(cachedBytes) || 0, runId, dateMs: typeof dateMs === 'number' ? dateMs : null, returnedDate };
}

function writeReport(book: GoogleAppsScript.Spreadsheet.Spreadsheet, report: InstallationReport): void {
  const sheet = book.getSheetByName(REPORT_SHEET) ? clearedSheet(REPORT_SHEET) : insertSheetAtEnd(book, REPORT_SHEET);
  const rows: string[][] = [
    ['Check this installation', '', ''],
    ['Checked at', report.checkedAt, ''],
    ['Spreadsheet time zone', report.spreadsheetTimeZone, ''],
    ['Script time zone', report.scriptTimeZone, ''],
    ['Summary', report.summary, ''],
    ['', '', ''],
    ['Check', 'Status', 'What it means and what to do'],
    ...report.checks.map((check) => [check.name, check.status, check.detail]),
  ];
  ensureSize(sheet, rows.length, 3);
  // Plain text, so a detail that starts like a formula or a date stays as written.
  writePlainText(sheet.getRange(1, 1, rows.length, 3), rows);
  sheet.getRange(1, 1).setFontWeight('bold');
  sheet.getRange(7, 1, 1, 3).setFontWeight('bold');
}
