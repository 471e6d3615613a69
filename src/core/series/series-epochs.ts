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

/**
 * metric id (lower case) → the epochs its series had before the current one, oldest first ('' is the key
 * before any drop). Only "Refresh data" reads it: the cache under an earlier epoch still holds what the
 * formulas last showed when none of them ran since the drop, so a value changed by a write (the person's
 * own export included) is compared with what the cells showed, not missed.
 */
export type EarlierEpochs = Record<string, string[]>;

/** Earlier epochs kept per metric: a series dropped more often within 35 minutes is rare, and its oldest entries are the least likely shown. */
export const MAX_EARLIER_EPOCHS = 4;

/** Room for the record in one document property (9 KB): past it the record is emptied, so comparisons are missed, never wrong. */
const MAX_EARLIER_EPOCHS_CHARS = 8 * 1024;

export function parseEarlierEpochs(text: string | null): EarlierEpochs {
  if (!text) return {};
  try {
    const parsed = JSON.parse(text) as unknown;
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    return Object.fromEntries(
      Object.entries(parsed as Record<string, unknown>).flatMap(([id, list]) =>
        Array.isArray(list) && list.every((epoch) => typeof epoch === 'string') ? [[id, list as string[]]] : [],
      ),
    );
  } catch {
    return {};
  }
}

/**
 * The earlier epochs after a drop moved `before` to `after` (dropEpochs): each dropped metric's epoch before
 * the drop joins its list. An earlier epoch is forgotten once the drop that ended it is EPOCH_KEEP_MS old (every
 * entry stored under it has expired), and so is the list of a metric whose current epoch was forgotten.
 */
export function earlierEpochsAfterDrop(
  earlier: EarlierEpochs,
  before: SeriesEpochs,
  after: SeriesEpochs,
  metricIds: readonly string[],
  nowMs: number,
): EarlierEpochs {
  const next: EarlierEpochs = {};
  const dropped = new Set(metricIds.map((id) => id.toLowerCase()));
  for (const id of new Set([...Object.keys(earlier), ...dropped])) {
    const current = after[id];
    if (current === undefined) continue;
    const list = [...(earlier[id] ?? [])];
    if (dropped.has(id)) list.push(before[id] ?? '');
    // The drop that ended list[i] is the epoch after it.
    const endOf = (i: number): number => parseInt(i + 1 < list.length ? list[i + 1]! : current, 36);
    const kept = list.filter((_, i) => nowMs - endOf(i) < EPOCH_KEEP_MS).slice(-MAX_EARLIER_EPOCHS);
    if (kept.length > 0) next[id] = kept;
  }
  return JSON.stringify(next).length > MAX_EARLIER_EPOCHS_CHARS ? {} : next;
}
