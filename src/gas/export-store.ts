// What an export keeps beside its job (gas/job-store): a preview's reads in the user's cache (chunked),
// and which ranges were exported before in the user's properties.

import { ChunkedCache } from '../core/cache/chunked-cache';
import type { ExportState } from '../core/export';
import { RECORDS_TTL_SECONDS } from '../core/series/records-cache';
import type { SeriesEpochs } from '../core/series/series-epochs';
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
 * How long a preview's reads of the stored points stand in for the export's own: the records cache's
 * period, as the metrics listing it relies on is cached that long too. A write to one of its metrics
 * meanwhile (any writer's dropCachedSeries) makes them stale sooner.
 */
const PREVIEW_READS_TTL_SECONDS = RECORDS_TTL_SECONDS;

interface StoredPreviewReads {
  state: ExportState;
  /** The series epochs of its metrics when they were read: a drop since means someone wrote to them. */
  epochs: SeriesEpochs;
}

function previewReadsKey(range: string): string {
  return `export-reads:${rangeKey(range)}`;
}

/** Keeps a preview's compared state for the export that may follow. */
export function savePreviewReads(range: string, state: ExportState, epochs: SeriesEpochs): void {
  const stored: StoredPreviewReads = { state, epochs };
  cache().put(previewReadsKey(range), JSON.stringify(stored), PREVIEW_READS_TTL_SECONDS);
}

/**
 * The compared state a preview of this range left, once: only when it was made from the same read of
 * the sheet (`fingerprint`) and no metric of it was written since (`currentEpochs`).
 */
export function takePreviewReads(range: string, fingerprint: string, currentEpochs: SeriesEpochs): ExportState | null {
  const key = previewReadsKey(range);
  const text = cache().get(key);
  if (text === null) return null;
  cache().remove(key);
  let stored: StoredPreviewReads;
  try {
    stored = JSON.parse(text) as StoredPreviewReads;
  } catch {
    return null;
  }
  if (stored.state?.fingerprint !== fingerprint) return null;
  const unwritten = stored.state.metrics.every((metric) => (stored.epochs[metric.id.toLowerCase()] ?? '') === (currentEpochs[metric.id.toLowerCase()] ?? ''));
  return unwritten ? stored.state : null;
}
