// What an export keeps beside its job (gas/job-store), in the user's properties: what a preview showed of
// the server (the person's approval), and which ranges were exported before.

import type { KeptApprovals } from '../core/export/compare';
import { forgetJob, loadJob, saveJob, spreadsheetId } from './job-store';

/** Where earlier versions remembered exported ranges, for every user of the spreadsheet: still read. */
const LEGACY_EXPORTED_RANGES_KEY = 'METRICS_EXPORTED_RANGES';
/** The user's exported ranges of every spreadsheet, in one user property: `spreadsheet id|range` → when. */
const EXPORTED_RANGES_KEY = 'METRICS_EXPORTED_RANGES_BY_SPREADSHEET';
/** A property holds 9 KB; the oldest ranges go first past this many characters. */
const EXPORTED_RANGES_MAX_CHARS = 8000;

function parseRanges(text: string | null): Record<string, number> {
  try {
    const parsed = JSON.parse(text ?? '{}') as unknown;
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, number>) : {};
  } catch {
    return {};
  }
}

/** 'Sheet1'!$a$1:$b$10 and Sheet1!A1:B10 are one range. */
function rangeKey(range: string): string {
  const text = range.trim();
  const bang = text.lastIndexOf('!');
  const sheet = text.slice(0, bang).replace(/^'((?:[^']|'')+)'$/, (_, name: string) => name.replace(/''/g, "'"));
  return `${spreadsheetId()}|${sheet}!${text
    .slice(bang + 1)
    .replace(/\$/g, '')
    .toUpperCase()}`;
}

/**
 * Whether this user exported this range of this spreadsheet before: "only what changed" then defaults
 * on. Remembered in the user's properties, the store that outlives the cache's six hours; ranges
 * remembered for the whole spreadsheet by earlier versions still count.
 */
export function wasExported(range: string): boolean {
  if (rangeKey(range) in parseRanges(PropertiesService.getUserProperties().getProperty(EXPORTED_RANGES_KEY))) return true;
  return range in parseRanges(PropertiesService.getDocumentProperties().getProperty(LEGACY_EXPORTED_RANGES_KEY));
}

/** Remembers the range as exported by this user, forgetting the oldest ranges of any spreadsheet past 8,000 characters. */
export function markExported(range: string): void {
  const properties = PropertiesService.getUserProperties();
  const ranges = parseRanges(properties.getProperty(EXPORTED_RANGES_KEY));
  ranges[rangeKey(range)] = Date.now();
  const newest = Object.entries(ranges).sort((a, b) => b[1] - a[1]);
  let text = JSON.stringify(Object.fromEntries(newest));
  while (text.length > EXPORTED_RANGES_MAX_CHARS && newest.length > 1) {
    newest.pop();
    text = JSON.stringify(Object.fromEntries(newest));
  }
  properties.setProperty(EXPORTED_RANGES_KEY, text);
}

/**
 * What the person approved in a preview: for each item, the server's value the preview showed (compare.ts's
 * tokens, a short hash past 32 KB of values), for the export of the same read of the range that may follow.
 * Kept in the user's properties through the job store (pieces of 8 KB, a cache copy only as a shortcut), never
 * only in the cache: CacheService may drop anything at any time, and the approval is the start's guard, not an
 * optimisation. One record per user, each preview replacing the last, so previews never followed by an export
 * cannot fill the store: the start takes it (and removes it) when its range and fingerprint match.
 */
type PreviewApproval = { range: string; fingerprint: string; approved: KeptApprovals };

const APPROVAL_STORE = 'export-preview';
const APPROVAL_ID = 'latest';

/** Keeps what a preview showed of the server, for the export that may follow. */
export function savePreviewApproval(range: string, fingerprint: string, approved: KeptApprovals | undefined): void {
  if (!approved) {
    forgetJob(APPROVAL_STORE, APPROVAL_ID);
    return;
  }
  saveJob<PreviewApproval>(APPROVAL_STORE, APPROVAL_ID, { range: rangeKey(range), fingerprint, approved });
}

/** What a preview of this range showed, once: only when it was made from the same read of the sheet (`fingerprint`). */
export function takePreviewApproval(range: string, fingerprint: string): KeptApprovals | undefined {
  const stored = loadJob<PreviewApproval>(APPROVAL_STORE, APPROVAL_ID);
  if (!stored || stored.range !== rangeKey(range) || stored.fingerprint !== fingerprint) return undefined;
  forgetJob(APPROVAL_STORE, APPROVAL_ID);
  return stored.approved;
}
