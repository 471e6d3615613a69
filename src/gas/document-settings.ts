// Per-spreadsheet state in document properties: readable by every user's custom functions.

import { mirroredRecord, type MirroredRecord } from '../core/cache/mirrored-record';
import { dropEpochs, earlierEpochsAfterDrop, parseEarlierEpochs, parseEpochs, type EarlierEpochs, type SeriesEpochs } from '../core/series/series-epochs';
import { documentCache } from './cache-and-lock';

const CACHE_GENERATION_KEY = 'METRICS_CACHE_GENERATION';

function documentProperties(): GoogleAppsScript.Properties.Properties {
  return PropertiesService.getDocumentProperties();
}

/** What every formula reads of the document's state: part of every cache key. */
export interface FormulaDocumentState {
  generation: string;
  epochs: SeriesEpochs;
}

/**
 * The generation and the series epochs, mirrored in the document's cache (mirrored-record.ts): a warm formula
 * cell then spends no document property call, only the one read of the owner's user properties that formula
 * access needs. The document cache is "scoped to the current document and script" (CacheService reference),
 * so every user's executions here, and every writer below, share it. Without one (no document), the store.
 */
function documentStateMirror(): MirroredRecord<FormulaDocumentState> | null {
  const cache = documentCache();
  if (!cache) return null;
  return mirroredRecord({ cache, name: 'document_state', readStored: readStoredDocumentState, newEpoch: () => Utilities.getUuid().slice(0, 8) });
}

/** One read of the store for both values (one call of the daily quota, not two). */
function readStoredDocumentState(): FormulaDocumentState {
  const stored = documentProperties().getProperties();
  return { generation: stored[CACHE_GENERATION_KEY] ?? '0', epochs: parseEpochs(stored[SERIES_EPOCHS_KEY] ?? null) };
}

/** The document state a formula keys its cache with: from the mirror when it holds a copy, else one property read. */
export function readFormulaDocumentState(): FormulaDocumentState {
  return (documentStateMirror()?.read ?? readStoredDocumentState)();
}

/** Runs a change of the generation or the epochs so that no formula reads the mirror's old copy once it is done. */
function changingDocumentState<R>(write: () => R): R {
  const mirror = documentStateMirror();
  return mirror ? mirror.write(write) : write();
}

/** Part of every cache key; the Refresh menu item changes it so formulas fetch fresh data. */
export function readCacheGeneration(): string {
  return documentProperties().getProperty(CACHE_GENERATION_KEY) ?? '0';
}

/**
 * The spreadsheet's part of every cache key: its id and its generation. A user's cache is one for every spreadsheet
 * the add-on runs in ("scoped to the current user and script"), while what a formula may read, which series a
 * sheet reads along and when Refresh data or a write dropped them are each spreadsheet's own; without the id,
 * one spreadsheet's answers would be another's (and Refresh data there would re-read them).
 */
export function readCacheScope(): string {
  return cacheScopeOf(readCacheGeneration());
}

/** The cache scope for a generation already read (a formula reads it from the document state's mirror). */
export function cacheScopeOf(generation: string): string {
  return `${SpreadsheetApp.getActiveSpreadsheet().getId()}.${generation}`;
}

export function startNewCacheGeneration(): string {
  const generation = Date.now().toString(36);
  changingDocumentState(() => documentProperties().setProperty(CACHE_GENERATION_KEY, generation));
  return generation;
}

const SERIES_EPOCHS_KEY = 'METRICS_SERIES_EPOCHS';
/** The epochs each dropped metric had before (series-epochs.ts, EarlierEpochs): read by Refresh data only, so kept out of the formulas' mirrored state. */
const EARLIER_EPOCHS_KEY = 'METRICS_SERIES_EPOCHS_EARLIER';
/** Long enough for an export's step to finish the property's read and write. */
const EPOCHS_LOCK_MS = 5000;

/**
 * Drops the cached series of these metrics for every formula here, whoever's cache they use: every writer of data
 * points calls this once the API confirmed. Under the document lock, or two exports ending together would lose one's
 * drop; without it, or after too many drops, a new cache generation: more requests, but never old data.
 */
export function dropCachedSeries(metricIds: readonly string[]): void {
  if (metricIds.length === 0) return;
  const lock = LockService.getDocumentLock();
  if (!lock?.tryLock(EPOCHS_LOCK_MS)) {
    startNewCacheGeneration();
    return;
  }
  try {
    const properties = documentProperties();
    const stored = properties.getProperties();
    const before = parseEpochs(stored[SERIES_EPOCHS_KEY] ?? null);
    const now = Date.now();
    const next = dropEpochs(before, metricIds, now);
    if (next) {
      // One write for both: a reader that sees the new epochs finds the ones they replaced.
      const earlier = earlierEpochsAfterDrop(parseEarlierEpochs(stored[EARLIER_EPOCHS_KEY] ?? null), before, next, metricIds, now);
      changingDocumentState(() => properties.setProperties({ [SERIES_EPOCHS_KEY]: JSON.stringify(next), [EARLIER_EPOCHS_KEY]: JSON.stringify(earlier) }));
    } else {
      startNewCacheGeneration();
      changingDocumentState(() => properties.deleteProperty(SERIES_EPOCHS_KEY));
      if (stored[EARLIER_EPOCHS_KEY] !== undefined) properties.deleteProperty(EARLIER_EPOCHS_KEY);
    }
  } finally {
    lock.releaseLock();
  }
}

/** The epochs the dropped metrics' series had before their current one, for Refresh data's look at what the cells last showed. */
export function readEarlierEpochs(): EarlierEpochs {
  return parseEarlierEpochs(documentProperties().getProperty(EARLIER_EPOCHS_KEY));
}
