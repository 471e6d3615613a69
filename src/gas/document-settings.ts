// Per-spreadsheet state in document properties: readable by every user's custom functions.

const CACHE_GENERATION_KEY = 'METRICS_CACHE_GENERATION';

/** Part of every cache key; the Refresh menu item changes it so formulas fetch fresh data. */
export function readCacheGeneration(): string {
  return PropertiesService.getDocumentProperties().getProperty(CACHE_GENERATION_KEY) ?? '0';
}

export function startNewCacheGeneration(): string {
  const generation = Date.now().toString(36);
  PropertiesService.getDocumentProperties().setProperty(CACHE_GENERATION_KEY, generation);
  return generation;
}
