// Fetched data points kept in the user's cache, so a sheet full of formulas asks the API once.

import type { DataPoint } from '../api/types';
import type { ChunkedCache } from '../cache/chunked-cache';
import type { AlongKeys, SingleFlight } from './single-flight';
import { epochKeyPart, type SeriesEpochs } from './series-epochs';

/**
 * Compact: ten years of daily points must fit a few 100 KB cache entries. Each distinct source is stored
 * once (a metric's points share a handful of labels), its points giving its index.
 */
type StoredPoint = [metricId: number, date: string, value: string | null, source?: number];
type StoredSource = [type: string, label: string, appUrl: string | null];
interface StoredSeries {
  ids: string[];
  points: StoredPoint[];
  sources?: StoredSource[];
}

/** Other metrics one fetch may take along: the client sends 20 ids a request (Apps Script's 2 kB URL). */
export const MAX_COMPANIONS = 19;
/**
 * Same-name metrics of a fund's other companies one PORTFOLIO_VALUE fetch may take along: 5 requests of 20
 * ids, sent together and their pages together, so a fund model's sheet of 50 companies is one fetch of two
 * round trips, not three fetches that each hold a wave of cells.
 */
export const MAX_FUND_COMPANIONS = 99;

/** A series as loadPoints reads it. */
export interface SeriesRange {
  ids: readonly string[];
  start?: string;
  end?: string;
  excludeBlank: boolean;
  includeSource: boolean;
}

/** A series' cache key (ids|start|end|blank flag, and |s with sources), without the generation and epochs. */
export function seriesKey({ ids, start, end, excludeBlank, includeSource }: SeriesRange): string {
  return `${ids.join(',')}|${start ?? ''}|${end ?? ''}|${excludeBlank ? 'x' : ''}${includeSource ? '|s' : ''}`;
}

/** The key of a metric's whole series (blanks kept, no sources), as loadPoints names it. */
export function wholeSeriesKey(metricId: string): string {
  return seriesKey({ ids: [metricId], excludeBlank: false, includeSource: false });
}

/** A working session; the Refresh menu item starts a new generation at once. */
export const SERIES_TTL_SECONDS = 30 * 60;

export class SeriesCache {
  /**
   * What this execution has read or stored: a grid asks for a series once per cell, and each cache read is
   * a manifest and a chunk. A drop meanwhile is not seen, as by a read a moment earlier.
   */
  private readonly seen = new Map<string, DataPoint[]>();

  constructor(
    private readonly cache: ChunkedCache,
    /** Changes when the user asks for fresh data (see the Refresh menu item); part of every key. */
    private readonly generation: string,
    /** Shares one fetch among executions that need the same series at once; without it each fetches. */
    private readonly flight?: SingleFlight,
    /** Which metrics had their series dropped (see series-epochs.ts), read when first needed: part of the keys. */
    private readonly epochs: () => SeriesEpochs = () => ({}),
  ) {}

  /** The cached series, or `load`'s (stored, fetched once for concurrent cells); `metricIds` are those it holds. */
  getOrLoad(key: string, load: () => DataPoint[], metricIds: readonly string[] = []): DataPoint[] {
    const loadAndStore = (): DataPoint[] => {
      const points = load();
      this.put(key, points, metricIds);
      return points;
    };
    return this.cachedOrLoaded(key, metricIds, loadAndStore);
  }

  private cachedOrLoaded(key: string, metricIds: readonly string[], loadAndStore: () => DataPoint[]): DataPoint[] {
    if (!this.flight) return this.get(key, metricIds) ?? loadAndStore();
    return this.flight.run(this.key(key, metricIds), () => this.get(key, metricIds), loadAndStore);
  }

  /**
   * A metric's whole series (blanks kept, no sources), cached or loaded once for concurrent cells. On a
   * miss the loader also takes up to `maxCompanions` of `companions()` (metrics about to be asked for) that
   * are neither cached nor being loaded, claimed with its own in one lock, and `loadMany` fetches all at
   * once, so a recalculation's first fetch brings every series its cells need. Each is stored as a fetch
   * of it alone would store it. When the fetch together fails (too many pages, any error), this metric is
   * loaded alone and the companions' waiters fetch.
   */
  getOrLoadWhole(
    metricId: string,
    loadMany: (ids: readonly string[]) => DataPoint[],
    companions: () => readonly string[] = () => [],
    maxCompanions = MAX_COMPANIONS,
  ): DataPoint[] {
    const key = wholeSeriesKey(metricId);
    const loadAndStore = (claimed: readonly string[]): DataPoint[] => {
      let ids = [metricId, ...claimed];
      let points: DataPoint[];
      try {
        points = loadMany(ids);
      } catch (error) {
        if (claimed.length === 0) throw error;
        points = loadMany((ids = [metricId]));
      }
      const byMetric = new Map<string, DataPoint[]>(ids.map((id) => [id.toLowerCase(), []]));
      for (const point of points) byMetric.get(point.metric_id.toLowerCase())?.push(point);
      for (const id of ids) this.put(wholeSeriesKey(id), byMetric.get(id.toLowerCase())!, [id]);
      return byMetric.get(metricId.toLowerCase())!;
    };
    if (!this.flight) return this.get(key, [metricId]) ?? loadAndStore([]);
    // Companions by their full keys (the flight's), in the order given, without this metric.
    const idOf = new Map<string, string>();
    const along: AlongKeys = {
      keys: () => {
        for (const id of companions()) if (id.toLowerCase() !== metricId.toLowerCase()) idOf.set(this.key(wholeSeriesKey(id), [id]), id);
        return [...idOf.keys()];
      },
      isAnswered: (fullKey) => this.seen.has(fullKey) || this.cache.has(fullKey),
      max: maxCompanions,
    };
    return this.flight.run(
      this.key(key, [metricId]),
      () => this.get(key, [metricId]),
      (claimed) => loadAndStore(claimed.map((fullKey) => idOf.get(fullKey)!)),
      along,
    );
  }

  get(key: string, metricIds: readonly string[] = []): DataPoint[] | null {
    return this.read(this.key(key, metricIds));
  }

  /** The series as stored under other epochs of its metrics (EarlierEpochs: what the cells showed before a write dropped it). */
  getUnderEpochs(key: string, metricIds: readonly string[], epochs: SeriesEpochs): DataPoint[] | null {
    return this.read(this.keyUnder(epochs, key, metricIds));
  }

  private read(fullKey: string): DataPoint[] | null {
    const seen = this.seen.get(fullKey);
    if (seen) return seen;
    const text = this.cache.get(fullKey);
    if (text === null) return null;
    try {
      const stored = JSON.parse(text) as StoredSeries;
      const points = stored.points.map(([index, date, value, sourceIndex]) => {
        const point: DataPoint = { id: '', metric_id: stored.ids[index] ?? '', date, value };
        const source = sourceIndex === undefined ? undefined : stored.sources?.[sourceIndex];
        if (source) point.source = { source_type: source[0], label: source[1], ...(source[2] === null ? {} : { app_url: source[2] }) };
        return point;
      });
      this.seen.set(fullKey, points);
      return points;
    } catch {
      return null;
    }
  }

  put(key: string, points: readonly DataPoint[], metricIds: readonly string[] = []): void {
    const ids: string[] = [];
    const idPositions = new Map<string, number>();
    const sources: StoredSource[] = [];
    const sourcePositions = new Map<string, number>();
    const stored = points.map((p): StoredPoint => {
      const id = intern(ids, idPositions, p.metric_id, p.metric_id);
      if (!p.source) return [id, p.date, p.value ?? null];
      const source: StoredSource = [p.source.source_type, p.source.label, p.source.app_url ?? null];
      return [id, p.date, p.value ?? null, intern(sources, sourcePositions, JSON.stringify(source), source)];
    });
    const series: StoredSeries = sources.length ? { ids, points: stored, sources } : { ids, points: stored };
    const fullKey = this.key(key, metricIds);
    this.cache.put(fullKey, JSON.stringify(series), SERIES_TTL_SECONDS);
    this.seen.set(fullKey, [...points]);
  }

  private key(key: string, metricIds: readonly string[]): string {
    return this.keyUnder(this.epochs(), key, metricIds);
  }

  private keyUnder(epochs: SeriesEpochs, key: string, metricIds: readonly string[]): string {
    return `dp:${this.generation}:${epochKeyPart(epochs, metricIds)}${key}`;
  }
}

/** The position of `key`'s item in `list`, appending `item` the first time. */
function intern<T>(list: T[], positions: Map<string, number>, key: string, item: T): number {
  let position = positions.get(key);
  if (position === undefined) positions.set(key, (position = list.push(item) - 1));
  return position;
}
