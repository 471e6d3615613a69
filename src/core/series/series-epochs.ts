// Which metrics' cached series were dropped, and when: updated by every writer of data points, part of
// every formula's series key.
//
// CacheService cannot list or delete keys by prefix, and formulas run with the owner's cache, which
// another user's execution cannot reach. So a drop gives the metric a new epoch, part of every key of its
// series, and old entries are never read again. Epochs live in the document properties, so an editor's
// export reaches the owner's formulas too.

/** metric id (lower case) → the drop's time in base 36: short, and different for every drop. */
export type SeriesEpochs = Record<string, string>;

/**
 * An epoch can be forgotten once every entry stored before its drop has expired: entries live
 * SERIES_TTL_SECONDS (30 minutes; a unit test holds the two together, as series-cache.ts imports this
 * file), and a fetch that read the old epoch stores within a custom function's 30 s. Forgetting it makes
 * readers miss once more, never read older data.
 */
export const EPOCH_KEEP_MS = 35 * 60_000;

/**
 * Most metrics remembered: a document property holds 9 KB, an entry about 50 bytes. Past it the writer
 * starts a new cache generation instead, coarser but never stale.
 */
export const MAX_EPOCHS = 150;

export function parseEpochs(text: string | null): SeriesEpochs {
  if (!text) return {};
  try {
    const parsed = JSON.parse(text) as unknown;
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    return Object.fromEntries(Object.entries(parsed as Record<string, unknown>).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  } catch {
    return {};
  }
}

/**
 * The epochs after dropping `metricIds` at `nowMs`, with the expired ones forgotten; null when they would
 * not fit, for the caller to start a new generation of the whole cache instead.
 */
export function dropEpochs(current: SeriesEpochs, metricIds: readonly string[], nowMs: number): SeriesEpochs | null {
  const next: SeriesEpochs = {};
  for (const [id, epoch] of Object.entries(current)) {
    const dropped = parseInt(epoch, 36);
    if (Number.isFinite(dropped) && nowMs - dropped < EPOCH_KEEP_MS) next[id] = epoch;
  }
  // Two drops within one millisecond would share an epoch: the later one moves on by one.
  for (const id of metricIds) {
    const key = id.toLowerCase();
    const previous = next[key] === undefined ? -1 : parseInt(next[key]!, 36);
    next[key] = Math.max(nowMs, previous + 1).toString(36);
  }
  return Object.keys(next).length > MAX_EPOCHS ? null : next;
}

/** The part of a series key that names the epochs of its metrics: empty while none was dropped. */
export function epochKeyPart(epochs: SeriesEpochs, metricIds: readonly string[]): string {
  const parts = metricIds.map((id) => epochs[id.toLowerCase()] ?? '');
  return parts.some((part) => part !== '') ? `${parts.join(',')}~` : '';
}
