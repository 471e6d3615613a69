// Fetched data points kept in the user's cache, so a sheet full of formulas asks the API once.

import type { DataPoint } from '../api/types';
import { ChunkedCache } from '../cache/chunked-cache';
import type { SingleFlight } from './single-flight';
import { epochKeyPart, type SeriesEpochs } from './series-epochs';

/**
 * Compact on purpose: ten years of daily points must fit a few 100 KB cache entries. A series fetched
 * with sources stores each distinct source once (most points of a metric share a handful of labels)
 * and gives its points the source's index.
 */
type StoredPoint = [metricId: number, date: string, value: string | null, source?: number];
type StoredSource = [type: string, label: string, appUrl: string | null];
interface StoredSeries {
  ids: string[];
  points: StoredPoint[];
  sources?: StoredSource[];
}

/** Long enough for a working session; the Refresh menu item starts a new generation at once. */
export const SERIES_TTL_SECONDS = 30 * 60;

export class SeriesCache {
  /**
   * What this execution has read or stored already, by full key: a grid formula asks for each metric's
   * series once per cell, and reading the cache each time was a manifest and a chunk read per cell. A
   * drop by a writer during the execution is not seen, as it would not be by a read a moment earlier.
   */
  private readonly seen = new Map<string, DataPoint[]>();

  constructor(
    private readonly cache: ChunkedCache,
    /** Changes when the user asks for fresh data (see the Refresh menu item); part of every key. */
    private readonly generation: string,
    /** Shares one fetch among executions that need the same series at once; without it each fetches. */
    private readonly flight?: SingleFlight,
    /**
     * Which metrics had their series dropped since (see series-epochs.ts), read when first needed: a
     * series is keyed by its metrics' epochs, so a drop makes every entry of those metrics unreachable.
     */
    private readonly epochs: () => SeriesEpochs = () => ({}),
  ) {}

  /**
   * The cached series for `key`, or what `load` returns (stored for next time), fetched once for
   * concurrent cells. `metricIds` are the metrics the series holds: their drops make it stale.
   */
  getOrLoad(key: string, load: () => DataPoint[], metricIds: readonly string[] = []): DataPoint[] {
    const loadAndStore = (): DataPoint[] => {
      const points = load();
      this.put(key, points, metricIds);
      return points;
    };
    if (!this.flight) return this.get(key, metricIds) ?? loadAndStore();
    return this.flight.run(this.key(key, metricIds), () => this.get(key, metricIds), loadAndStore);
  }

  get(key: string, metricIds: readonly string[] = []): DataPoint[] | null {
    const fullKey = this.key(key, metricIds);
    const seen = this.seen.get(fullKey);
    if (seen) return seen;
    const text = this.cache.get(fullKey);
    if (text === null) return null;
    try {
      const stored = JSON.parse(text) as StoredSeries;
      const points = stored.points.map(([index, date, value, sourceIndex]) => {
        const point: DataPoint = { id: '', metric_id: stored.ids[index] ?? '', date, value };
        const source = sourceIndex === undefined ? undefined : stored.sources?.[sourceIndex];
        if (source) point.source = source[2] === null ? { source_type: source[0], label: source[1] } : { source_type: source[0], label: source[1], app_url: source[2] };
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
    const index = new Map<string, number>();
    const sources: StoredSource[] = [];
    const sourceIndex = new Map<string, number>();
    const stored: StoredPoint[] = points.map((p) => {
      let i = index.get(p.metric_id);
      if (i === undefined) {
        i = ids.push(p.metric_id) - 1;
        index.set(p.metric_id, i);
      }
      if (!p.source) return [i, p.date, p.value ?? null];
      const source: StoredSource = [p.source.source_type, p.source.label, p.source.app_url ?? null];
      const sourceKey = JSON.stringify(source);
      let s = sourceIndex.get(sourceKey);
      if (s === undefined) {
        s = sources.push(source) - 1;
        sourceIndex.set(sourceKey, s);
      }
      return [i, p.date, p.value ?? null, s];
    });
    const series: StoredSeries = sources.length ? { ids, points: stored, sources } : { ids, points: stored };
    const fullKey = this.key(key, metricIds);
    this.cache.put(fullKey, JSON.stringify(series), SERIES_TTL_SECONDS);
    this.seen.set(fullKey, [...points]);
  }

  private key(key: string, metricIds: readonly string[]): string {
    return `dp:${this.generation}:${epochKeyPart(this.epochs(), metricIds)}${key}`;
  }
}
