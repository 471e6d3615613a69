// Where exports wait between steps: the user's cache (chunked) for the state, document properties
// for which ranges were exported before. An export can be resumed for six hours, CacheService's longest.

import { ChunkedCache } from '../core/cache/chunked-cache';
import type { ExportState, MetricRef } from '../core/export';
import type { ExportRequest } from '../shared/rpc';
import { userCache } from './cache-and-lock';

const SIX_HOURS = 6 * 60 * 60;
const EXPORTED_RANGES_KEY = 'METRICS_EXPORTED_RANGES';

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

function exportedRanges(): Record<string, number> {
  try {
    return JSON.parse(PropertiesService.getDocumentProperties().getProperty(EXPORTED_RANGES_KEY) ?? '{}') as Record<string, number>;
  } catch {
    return {};
  }
}

export function wasExported(range: string): boolean {
  return range in exportedRanges();
}

/** Remembers the last 50 exported ranges (document properties hold 9 KB a value). */
export function markExported(range: string): void {
  const ranges = exportedRanges();
  ranges[range] = Date.now();
  const newest = Object.entries(ranges).sort((a, b) => b[1] - a[1]).slice(0, 50);
  PropertiesService.getDocumentProperties().setProperty(EXPORTED_RANGES_KEY, JSON.stringify(Object.fromEntries(newest)));
}
