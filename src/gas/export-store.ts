// What an export keeps beside its job (gas/job-store): a preview's reads in the user's cache (chunked),
// and which ranges were exported before in the user's properties.

import { ChunkedCache } from '../core/cache/chunked-cache';
import type { ExportState } from '../core/export';
import { RECORDS_TTL_SECONDS } from '../core/series/records-cache';
import { userCache } from './cache-and-lock';
import { spreadsheetId } from './job-store';

function cache(): ChunkedCache {
  return new ChunkedCache(userCache(), () => Utilities.getUuid().slice(0, 8));
}

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
  return `${spreadsheetId()}|${sheet}!${text.slice(bang + 1).replace(/\$/g, '').toUpperCase()}`;
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
 * How long a preview's reads are kept for the export that may follow: the records cache's period. They are
 * never the export's own reads (a value may change from another spreadsheet or the web application at
 * any time): the start reads again and compares, and an item whose server value changed in between is a
 * conflict (markConflicts).
 */
const PREVIEW_READS_TTL_SECONDS = RECORDS_TTL_SECONDS;

function previewReadsKey(range: string): string {
  return `export-reads:${rangeKey(range)}`;
}

/** Keeps what a preview's reads found on the server, for the export that may follow. */
export function savePreviewReads(range: string, state: ExportState): void {
  cache().put(previewReadsKey(range), JSON.stringify({ state }), PREVIEW_READS_TTL_SECONDS);
}

/** What a preview of this range found on the server, once: only when it was made from the same read of the sheet (`fingerprint`). */
export function takePreviewReads(range: string, fingerprint: string): ExportState | null {
  const key = previewReadsKey(range);
  const text = cache().get(key);
  if (text === null) return null;
  cache().remove(key);
  let stored: { state?: ExportState };
  try {
    stored = JSON.parse(text) as { state?: ExportState };
  } catch {
    return null;
  }
  return stored.state?.fingerprint === fingerprint ? stored.state : null;
}
