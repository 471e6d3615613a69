// Where exports wait between steps: the user's cache (chunked) for the state and for a preview's reads,
// the user's properties for which ranges were exported before. An export can be resumed for six hours,
// CacheService's longest.

import { ChunkedCache } from '../core/cache/chunked-cache';
import type { ExportState, MetricRef } from '../core/export';
import { RECORDS_TTL_SECONDS } from '../core/series/records-cache';
import type { SeriesEpochs } from '../core/series/series-epochs';
import type { ExportRequest } from '../shared/rpc';
import { userCache } from './cache-and-lock';

const SIX_HOURS = 6 * 60 * 60;

export interface StoredExport {
  request: ExportRequest;
  /** The company's metrics as read at the start: a resume re-reads the sheet, not the API. */
  metrics: MetricRef[];
  state: ExportState;
  statusRange: string | null;
  /** Why the status column could not be written when the export last stopped (the user typed into it). */
  statusProblem?: string;
}

function cache(): ChunkedCache {
  return new ChunkedCache(userCache(), () => Utilities.getUuid().slice(0, 8));
}

function spreadsheetId(): string {
  return SpreadsheetApp.getActiveSpreadsheet().getId();
}

export function newExportId(): string {
  return Utilities.getUuid();
}

export function loadExport(exportId: string): StoredExport | null {
  const text = cache().get(`export:${exportId}`);
  return text ? (JSON.parse(text) as StoredExport) : null;
}

export function saveExport(exportId: string, stored: StoredExport): void {
  cache().put(`export:${exportId}`, JSON.stringify(stored), SIX_HOURS);
  userCache().put(`export-latest:${spreadsheetId()}`, exportId, SIX_HOURS);
}

/** The last export started from this spreadsheet by this user, if it is still stored. */
export function latestExportId(): string | null {
  return userCache().get(`export-latest:${spreadsheetId()}`);
}

/** A cancel pressed while a step runs is seen by that step between waves. */
export function requestCancel(exportId: string): void {
  userCache().put(`export-cancel:${exportId}`, '1', SIX_HOURS);
}

export function cancelRequested(exportId: string): boolean {
  return userCache().get(`export-cancel:${exportId}`) === '1';
}

export function clearCancel(exportId: string): void {
  userCache().remove(`export-cancel:${exportId}`);
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
export const PREVIEW_READS_TTL_SECONDS = RECORDS_TTL_SECONDS;

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
