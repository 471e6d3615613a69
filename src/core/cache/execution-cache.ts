// A cache for one execution: reads that must not use or fill the user's cache (a snapshot refresh) still go
// through the formulas' loading code.

import type { KeyValueCache } from './key-value-cache';

export function executionCache(): KeyValueCache {
  const entries = new Map<string, string>();
  return {
    get: (key) => entries.get(key) ?? null,
    getAll: (keys) => Object.fromEntries(keys.flatMap((key) => (entries.has(key) ? [[key, entries.get(key)!]] : []))),
    put: (key, value) => void entries.set(key, value),
    putAll: (values) => Object.entries(values).forEach(([key, value]) => entries.set(key, value)),
    remove: (key) => void entries.delete(key),
    removeAll: (keys) => keys.forEach((key) => entries.delete(key)),
  };
}
