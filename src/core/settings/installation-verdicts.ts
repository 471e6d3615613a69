// "Check this installation": what each observation made on the platform means for the person, as one check each.
// The observations are made in src/server/installation-probes.ts; the register of assumptions is docs/platform.md.

import { ADDIN_NAME, SETTINGS_HINT } from '../product';
import { countOf } from '../../shared/words';
import { isDateFormatCode } from '../sheets/number-formats';
import { connectorName, type FileCase } from './shared-drive';
import { FEATURES_NEEDING, permissionName } from './permissions';
import { formatCount } from '../../shared/words';

export type CheckStatus = 'pass' | 'degraded' | 'fail';

export type InstallationCheck = { name: string; status: CheckStatus; detail: string };

/**
 * The probe formula's custom function: a top-level name besides the formulas of CUSTOM_FUNCTION_NAMES, which
 * Refresh data and Freeze look for (the probe lives only in the check's hidden sheet, while the check runs).
 */
export const PROBE_FUNCTION_NAME = 'INSTALLATION_PROBE';

/** The check names, in the report's order; tests and the sidebar find a check by them. */
export const CHECK = {
  scopes: 'Permissions granted',
  api: 'API reached with the saved token',
  allowlist: 'API address allowed by the manifest',
  cache: 'Cache round trip of 100 KB',
  zones: 'Time zones known to the script',
  trigger: 'Scheduled refresh trigger',
  file: 'Whose connection formulas use',
  probe: 'Probe formula',
  activeRange: 'A formula knows its own cell',
  sharedCache: "Formulas share the owner's cache",
  dateArguments: 'Date cells reach formulas as their day',
  returnedDates: 'Dates formulas return show their day',
  recalculation: 'Refresh data makes formulas run again',
  writtenDates: 'Dates the add-in writes show as dates',
  quotas: 'Daily quotas used today',
} as const;

/** Send this with any bug: how a person acts on a report they do not understand. */
const SEND_REPORT = 'If something here does not work, send this report with the bug.';

export function summaryOf(checks: readonly InstallationCheck[]): string {
  const failed = checks.filter((check) => check.status === 'fail').length;
  const degraded = checks.filter((check) => check.status === 'degraded').length;
  if (failed === 0 && degraded === 0) return `All ${countOf(checks.length, 'check')} passed: ${ADDIN_NAME} works as designed here.`;
  const parts = [failed ? `${countOf(failed, 'check')} failed` : '', degraded ? `${countOf(degraded, 'check')} found the add-in slower or limited` : ''].filter(
    Boolean,
  );
  return `${parts.join(' and ')}: read each line for what it means and what to do. ${SEND_REPORT}`;
}

/**
 * Which of the manifest's permissions the person granted (granular consent: any may be declined): each one missing,
 * in the consent screen's words, with what stops without it and how to grant it; everything else works.
 */
export function scopesCheck(missing: readonly string[], authorizedScopes: readonly string[] | null, authorizationUrl: string | null): InstallationCheck {
  if (missing.length > 0) {
    const each = missing.map((scope) => `${permissionName(scope)} (without it: ${FEATURES_NEEDING[scope] ?? 'the features that call it'})`).join('; ');
    const how = authorizationUrl
      ? `open ${authorizationUrl} and tick ${missing.length === 1 ? 'it' : 'them'}`
      : `open Extensions › ${ADDIN_NAME} › Open sidebar and tick ${missing.length === 1 ? 'it' : 'them'} when Google asks`;
    return {
      name: CHECK.scopes,
      status: 'fail',
      detail: `${missing.length === 1 ? 'A permission the add-in asks for is' : 'Some permissions the add-in asks for are'} not granted: ${each}. Everything else works. To grant ${missing.length === 1 ? 'it' : 'them'}, ${how}; if Google does not ask, remove ${ADDIN_NAME} at myaccount.google.com › Security › Third-party apps with account access and open it again.`,
    };
  }
  const scopes = authorizedScopes?.length ? `: ${authorizedScopes.map((scope) => scope.replace('https://www.googleapis.com/auth/', '')).join(', ')}` : '';
  return { name: CHECK.scopes, status: 'pass', detail: `Every permission the add-in asks for is granted${scopes}.` };
}

/** How the API answered the saved token, as the check saw it (never the token itself). */
export type ApiObservation =
  | { kind: 'no-settings'; sentence: string }
  | { kind: 'accepted'; baseUrl: string }
  | { kind: 'refused'; baseUrl: string; status: number }
  | { kind: 'answered'; baseUrl: string; status: number; sentence: string }
  /** The listing answered 404, which GET /metrics never answers (api-spec: "400, 401, 429 are possible"): no API there. */
  | { kind: 'no-api'; baseUrl: string; request: string }
  | { kind: 'unreachable'; baseUrl: string; reason: string }
  | { kind: 'not-allowed'; baseUrl: string }
  | { kind: 'not-sent'; baseUrl: string; sentence: string }
  /** The person did not grant "Connect to an external service": nothing can be sent (the sentence says how to grant it). */
  | { kind: 'not-permitted'; baseUrl: string; sentence: string };

export function apiChecks(seen: ApiObservation): InstallationCheck[] {
  const allowed = (detail: string): InstallationCheck => ({ name: CHECK.allowlist, status: 'pass', detail });
  switch (seen.kind) {
    case 'no-settings':
      return [
        { name: CHECK.api, status: 'fail', detail: `${seen.sentence} Until then no formula or sidebar feature can read the API.` },
        { name: CHECK.allowlist, status: 'degraded', detail: `Not tested: no API address is saved. Save it in ${SETTINGS_HINT}, then run the check again.` },
      ];
    case 'accepted':
      return [
        { name: CHECK.api, status: 'pass', detail: `The API at ${seen.baseUrl} accepted the saved token.` },
        allowed(`Requests to ${seen.baseUrl} leave Apps Script.`),
      ];
    case 'refused':
      return [
        {
          name: CHECK.api,
          status: 'fail',
          detail: `The API at ${seen.baseUrl} refused the saved token (HTTP ${seen.status}): formulas and the sidebar will fail. Set a new token in ${SETTINGS_HINT} (the platform's API support issues them).`,
        },
        allowed(`Requests to ${seen.baseUrl} leave Apps Script.`),
      ];
    case 'answered':
      return [
        { name: CHECK.api, status: 'degraded', detail: `The API at ${seen.baseUrl} accepted the token but answered HTTP ${seen.status}: ${seen.sentence}` },
        allowed(`Requests to ${seen.baseUrl} leave Apps Script.`),
      ];
    case 'no-api':
      return [
        { name: CHECK.api, status: 'fail', detail: noApiSentence(seen.baseUrl, seen.request) },
        allowed(`Requests to ${seen.baseUrl} leave Apps Script (something answered, but not the API).`),
      ];
    case 'unreachable':
      return [
        {
          name: CHECK.api,
          status: 'fail',
          detail: `Could not reach the API at ${seen.baseUrl} (${seen.reason}). Check the base URL in ${SETTINGS_HINT}; Apps Script calls it from Google's servers, so it must be reachable from the internet.`,
        },
        allowed(`Requests to ${seen.baseUrl} leave Apps Script (the address itself did not answer).`),
      ];
    case 'not-allowed':
      return [
        {
          name: CHECK.api,
          status: 'fail',
          detail: `Apps Script refused to call ${seen.baseUrl}: the address is not in the add-in's allowed URLs (see the next line).`,
        },
        {
          name: CHECK.allowlist,
          status: 'fail',
          detail: `${seen.baseUrl} is not in the manifest's urlFetchWhitelist, so no request can reach it. Either save the API address this deployment was built for in ${SETTINGS_HINT}, or ask whoever deployed the add-in to build it with --api-base-url for this address.`,
        },
      ];
    case 'not-permitted':
      return [
        { name: CHECK.api, status: 'fail', detail: seen.sentence },
        { name: CHECK.allowlist, status: 'degraded', detail: 'Not tested: nothing can be sent until that permission is granted. Run the check again then.' },
      ];
    case 'not-sent':
      return [
        { name: CHECK.api, status: 'degraded', detail: `The request to ${seen.baseUrl} was not sent: ${seen.sentence}` },
        { name: CHECK.allowlist, status: 'degraded', detail: 'Not tested: Apps Script sent nothing today. Run the check again after the quota resets.' },
      ];
  }
}

/**
 * What an address that answers 404 to the metric listing means: the API's paths are not under it. The API's
 * paths hang straight off the base URL (api-spec: "The base address is `{base_url}`"; GET {base_url}/metrics lists
 * metrics), so the usual mistake is a path left off or added, such as a missing version segment.
 */
export function noApiSentence(baseUrl: string, request: string): string {
  return `${request} answered 404: ${baseUrl} does not serve the API. Check the base URL in ${SETTINGS_HINT}: it is the address the API's paths hang from, so that ${baseUrl.replace(/\/+$/, '')}/metrics lists metrics (often it ends in a version, such as /v1; the platform's API support gives the exact address).`;
}

export function cacheCheck(roundTrip: 'same' | 'lost' | { error: string }): InstallationCheck {
  if (roundTrip === 'same') return { name: CHECK.cache, status: 'pass', detail: 'A 100 KB value put in your cache came back whole.' };
  const what = roundTrip === 'lost' ? 'came back empty or changed' : `could not be stored (${roundTrip.error})`;
  return {
    name: CHECK.cache,
    status: 'degraded',
    detail: `A 100 KB value put in your cache ${what}. Formulas then fetch from the API more often: slower, and more of the daily URL Fetch quota. Values stay right. Run the check again later; if it persists, send this report.`,
  };
}

export function zonesCheck(zones: ReadonlyArray<{ zone: string; intl: 'known' | 'unknown' | 'differs' }>): InstallationCheck {
  const wrong = zones.filter((z) => z.intl !== 'known');
  const names = [...new Set(zones.map((z) => z.zone))].join(' and ');
  if (wrong.length === 0) return { name: CHECK.zones, status: 'pass', detail: `The script's Intl knows ${names}, as the add-in's dates expect.` };
  const listed = wrong.map((z) => `${z.zone} (${z.intl === 'unknown' ? 'unknown to Intl' : 'Intl and Apps Script disagree on its time'})`).join(', ');
  return {
    name: CHECK.zones,
    status: 'degraded',
    detail: `${listed}: the add-in finds each date's midnight with Apps Script's own date functions instead, which is slower for long date columns. Values stay right.`,
  };
}

export function triggerCheck(outcome: 'created-and-deleted' | 'already-scheduled' | { error: string } | { notGranted: string }): InstallationCheck {
  if (typeof outcome === 'object' && 'notGranted' in outcome) return { name: CHECK.trigger, status: 'fail', detail: `Not tested: ${outcome.notGranted}` };
  // What the check proves is that the add-in may create (and delete) a trigger; that the trigger then runs it
  // cannot see within one execution, and a test deployment never runs one (docs/deploy.md).
  const notProved =
    'It does not prove that a trigger runs (none runs in a test deployment): to see that, schedule a refresh and read its "Last run" in the Snapshots tab after the first hour.';
  if (outcome === 'created-and-deleted')
    return {
      name: CHECK.trigger,
      status: 'pass',
      detail: `A time-driven trigger was created and deleted, so the add-in may schedule a snapshot refresh here. ${notProved}`,
    };
  if (outcome === 'already-scheduled')
    return { name: CHECK.trigger, status: 'pass', detail: `You already have a scheduled refresh here, so its trigger exists; none was created. ${notProved}` };
  return {
    name: CHECK.trigger,
    status: 'fail',
    detail: `A time-driven trigger could not be created or deleted (${outcome.error}): scheduled snapshot refreshes cannot run for you here. Refresh snapshots from the sidebar instead, and send this report.`,
  };
}

/**
 * Which case the file is in (docs/platform.md, §9 and §12): owned by someone, whose connection formulas use; or in a
 * Shared Drive, which has no owner, connected by someone or not. `{ error }` when Apps Script would not say.
 */
export function fileCaseCheck(found: FileCase | { error: string }): InstallationCheck {
  const name = CHECK.file;
  const personal = 'Snapshots, Refresh data and the scheduled refresh work either way, with the connection of whoever runs them.';
  if ('error' in found) return { name, status: 'degraded', detail: `Apps Script did not say whose file this is (${found.error}). ${personal}` };
  if (found.kind === 'owned') {
    if (found.callerIsOwner === true)
      return {
        name,
        status: 'pass',
        detail: `You own this spreadsheet${found.ownerEmail ? ` (${found.ownerEmail})` : ''}: formulas here use your API connection and the companies you allow, whoever opens it.`,
      };
    const owned = found.ownerEmail ? `is owned by ${found.ownerEmail}` : 'has an owner, whose email Apps Script does not reveal';
    return {
      name,
      status: 'pass',
      detail: `This spreadsheet ${owned}: formulas here use the owner's API connection and the companies the owner allows, whoever opens it; your own jobs use yours.`,
    };
  }
  const { connection } = found;
  if (connection.kind === 'not-connected') {
    return {
      name,
      status: 'degraded',
      detail: `This spreadsheet is in a Shared Drive, which has no owner, and no one has connected it: formulas here read no API connection, and say so. Allow a company in ${SETTINGS_HINT} › Formula access to connect it to yours. ${personal}`,
    };
  }
  const who = connection.verified ? `you${connection.email ? ` (${connection.email})` : ''}` : connectorName(connection.email);
  return {
    name,
    status: 'degraded',
    detail: `This spreadsheet is in a Shared Drive, which has no owner, and was connected by ${who}: formulas here use that connection and list only when Sheets runs them with that person's settings, which Apps Script does not promise for a Shared Drive; elsewhere they say so (the line "${CHECK.sharedCache}" says whether they ran with yours). ${personal}`,
  };
}

/** What the probe formula showed: its own cell as it saw the active range, the cache it found, its run, its date. */
export interface ProbeReading {
  activeRange: string;
  cachedBytes: number;
  runId: string;
  dateMs: number | null;
  /** The Date the probe returned (midnight of the probe's date in the spreadsheet's zone) as the cell holds it, read there: "yyyy-MM-dd HH:mm". */
  returnedDate: string | null;
}

export interface ProbeFindings {
  /** Null when the probe never calculated in time. */
  first: ProbeReading | null;
  /** The reading is the previous check's probe, which Sheets calculated after that check ended. */
  fromEarlierCheck: boolean;
  probeCell: string;
  expectedCacheBytes: number;
  callerIsOwner: boolean | null;
  /** The file is in a Shared Drive: whether a formula finds the caller's cache says whether formulas run with the caller's settings. */
  sharedDrive?: boolean;
  /** Midnight of the probe's date in the spreadsheet's zone and in the script's. */
  date: { iso: string; spreadsheetMidnight: number; scriptMidnight: number; spreadsheetZone: string; scriptZone: string };
  /** After writing the same formula text again: 'reran' | 'kept' (not rerun in time); after emptying the cell first, the same. */
  rewrite: { identical: 'reran' | 'kept'; afterClear: 'reran' | 'kept' } | null;
  waitedSeconds: number;
  /** The number format Sheets gave a Date the check wrote into a new cell; null when it was not read. */
  writtenDateFormat: string | null;
}

export function probeChecks(found: ProbeFindings): InstallationCheck[] {
  if (!found.first) {
    return [
      {
        name: CHECK.probe,
        status: 'degraded',
        detail: `The probe formula did not show a value within ${found.waitedSeconds} seconds, so the checks that need a formula were not run. Sheets may calculate it only after the check ends: run the check again in a minute, and it reads what the probe showed; if it persists, send this report.`,
      },
    ];
  }
  const { first } = found;
  const checks: InstallationCheck[] = [
    found.fromEarlierCheck
      ? {
          name: CHECK.probe,
          status: 'degraded',
          detail: `The probe formula did not show a value while this check ran; the previous check's probe did, after that check ended, and the lines below read it. Sheets calculates a formula a script writes only after the script ends, which only this check relies on. Refresh data could not be tested this way.`,
        }
      : { name: CHECK.probe, status: 'pass', detail: `The probe formula ran in ${found.probeCell}.` },
  ];
  checks.push(
    first.activeRange === found.probeCell
      ? { name: CHECK.activeRange, status: 'pass', detail: "In a formula, the active range is the formula's own cell." }
      : {
          name: CHECK.activeRange,
          status: 'degraded',
          detail: `In a formula the active range was ${first.activeRange || 'empty'}, not the formula's cell: a formula then does not fetch its sheet's other metrics along with its own. Recalculating many cells is slower; values stay right.`,
        },
  );
  if (found.sharedDrive) {
    checks.push(
      first.cachedBytes === found.expectedCacheBytes
        ? {
            name: CHECK.sharedCache,
            status: 'pass',
            detail:
              'A formula found what this check put in your cache: in this Shared Drive spreadsheet formulas ran with your settings, so they use your connection if you connected it.',
          }
        : {
            name: CHECK.sharedCache,
            status: 'degraded',
            detail:
              "A formula did not find what this check put in your cache: in this Shared Drive spreadsheet formulas do not run with your settings, so they cannot use your connection even if you connected it. Insert values as snapshots (Metrics tab › Snapshot of today's values), which use the connection of whoever refreshes them.",
          },
    );
  } else if (found.callerIsOwner === false) {
    checks.push({
      name: CHECK.sharedCache,
      status: 'degraded',
      detail: "Not tested: formulas use the spreadsheet owner's cache, so only the owner can test this. Ask them to run the check.",
    });
  } else {
    checks.push(
      first.cachedBytes === found.expectedCacheBytes
        ? { name: CHECK.sharedCache, status: 'pass', detail: 'A formula found what this check put in your cache: cells fetch each series once.' }
        : {
            name: CHECK.sharedCache,
            status: 'degraded',
            detail:
              'A formula did not find what this check put in your cache: each formula cell fetches on its own. Recalculating many cells is slower and spends more of the daily URL Fetch quota; values stay right.',
          },
    );
  }
  checks.push(dateCheck(first.dateMs, found.date));
  checks.push(
    first.returnedDate === `${found.date.iso} 00:00`
      ? { name: CHECK.returnedDates, status: 'pass', detail: `A date a formula returns (${found.date.iso}) shows as that day.` }
      : {
          name: CHECK.returnedDates,
          status: 'fail',
          detail: `A date a formula returned as ${found.date.iso} shows as ${first.returnedDate ?? 'no date'} here: the date columns of METRIC_VALUES and METRIC_LATEST may show the wrong day. Read the dates from the API's text instead (the "text" option) and send this report.`,
        },
  );
  if (found.rewrite) checks.push(recalculationCheck(found.rewrite));
  return checks;
}

/**
 * Whether a Date written into a new cell got a date format from Sheets (docs/platform.md, §11): snapshots and the
 * audit keep that format so their dates show as a formula's do; where it did not, they set yyyy-mm-dd themselves.
 */
export function writtenDatesCheck(format: string | null): InstallationCheck {
  if (format === null)
    return {
      name: CHECK.writtenDates,
      status: 'degraded',
      detail: 'Not tested: the check could not write its date cell. Run the check again; if it persists, send this report.',
    };
  if (isDateFormatCode(format))
    return {
      name: CHECK.writtenDates,
      status: 'pass',
      detail: `A date written into a new cell took the format ${format}: snapshots and the audit show their dates in it, as formulas do.`,
    };
  return {
    name: CHECK.writtenDates,
    status: 'degraded',
    detail: `A date written into a new cell took the format ${format || 'of a number'}, not a date format: snapshots and the audit format their dates as yyyy-mm-dd instead, so they may differ from how formulas show dates (the spreadsheet's date format). Values stay right.`,
  };
}

function dateCheck(dateMs: number | null, date: ProbeFindings['date']): InstallationCheck {
  const zones = `${date.spreadsheetZone} (the spreadsheet's) and ${date.scriptZone} (the script's)`;
  if (dateMs === date.spreadsheetMidnight) {
    const same = date.spreadsheetMidnight === date.scriptMidnight ? `; ${zones} have the same offset then, so this could not tell them apart` : '';
    return {
      name: CHECK.dateArguments,
      status: 'pass',
      detail: `A date cell of ${date.iso} reached the formula as midnight in the spreadsheet's zone${same}.`,
    };
  }
  if (dateMs === date.scriptMidnight) {
    return {
      name: CHECK.dateArguments,
      status: 'degraded',
      detail: `A date cell of ${date.iso} reached the formula as midnight in the script's zone, not the spreadsheet's (${zones}). The add-in reads such a date as the day the cell shows, so values stay right; if a formula ever shows a period one day off, send this report.`,
    };
  }
  const seen = dateMs === null ? 'not as a date' : `as ${new Date(dateMs).toISOString()}`;
  return {
    name: CHECK.dateArguments,
    status: 'fail',
    detail: `A date cell of ${date.iso} reached the formula ${seen}, which is midnight in neither ${zones}: date cells given to formulas may be read as the wrong day. Give dates as text like "${date.iso}" instead, and send this report.`,
  };
}

function recalculationCheck(rewrite: NonNullable<ProbeFindings['rewrite']>): InstallationCheck {
  if (rewrite.identical === 'reran')
    return { name: CHECK.recalculation, status: 'pass', detail: "Writing a formula's same text again made Sheets run it again." };
  if (rewrite.afterClear === 'reran') {
    return {
      name: CHECK.recalculation,
      status: 'degraded',
      detail:
        "Writing a formula's same text again did not make Sheets run it; emptying the cell first did, which is what Refresh data does. Refresh data works; nothing to do.",
    };
  }
  return {
    name: CHECK.recalculation,
    status: 'fail',
    detail:
      'Sheets did not run the probe formula again, even after its cell was emptied and the formula written back: after Refresh data, formulas may keep showing old values. Until this is fixed, delete and retype a formula (or change one of its arguments) to refresh it, and send this report.',
  };
}

/** The consumer account's daily limits (quotas page): a Workspace account has more. */
const CONSUMER_DAILY = { urlFetch: 20_000, properties: 50_000, triggerRuntimeMs: 90 * 60_000 } as const;

export function quotasCheck(usage: { day: string; urlFetch: number | null; properties: number | null; triggerRuntimeMs: number | null }): InstallationCheck {
  const lines: string[] = [];
  const near: string[] = [];
  const add = (label: string, used: number | null, limit: number, unit: (n: number) => string) => {
    if (used === null) {
      lines.push(`${label}: not counted`);
      return;
    }
    lines.push(`${label}: ${unit(used)} of ${unit(limit)} a day on a consumer account`);
    if (used >= limit * 0.8) near.push(label);
  };
  add('URL Fetch calls', usage.urlFetch, CONSUMER_DAILY.urlFetch, formatCount);
  add('Properties reads and writes', usage.properties, CONSUMER_DAILY.properties, formatCount);
  add("Triggers' total runtime", usage.triggerRuntimeMs, CONSUMER_DAILY.triggerRuntimeMs, (ms) => `${Math.round(ms / 60_000)} min`);
  const used = `Used on ${usage.day}: ${lines.join('; ')}.`;
  if (near.length === 0) return { name: CHECK.quotas, status: 'pass', detail: used };
  return {
    name: CHECK.quotas,
    status: 'degraded',
    detail: `${used} ${near.join(' and ')} ${near.length === 1 ? 'is' : 'are'} close to the daily limit: past it, formulas and jobs stop with a sentence naming the quota until it resets, within 24 hours. A Workspace account has higher limits.`,
  };
}
