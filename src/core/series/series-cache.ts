// Fetched data points kept in the user's cache, so a sheet full of formulas asks the API once.

import type { DataPoint } from '../api/types';
import { ChunkedCache } from '../cache/chunked-cache';
import type { SingleFlight } from './single-flight';

/** Compact on purpose: ten years of daily points must fit a few 100 KB cache entries. */
type StoredPoint = [metricId: number, date: string, value: string | null];
interface StoredSeries {
  ids: string[];
  points: StoredPoint[];
}

/** Long enough for a working session; the Refresh menu item starts a new generation at once. */
export const SERIES_TTL_SECONDS = 30 * 60;

export class SeriesCache {
  constructor(
    private readonly cache: ChunkedCache,
    /** Changes when the user asks for fresh data (see the Refresh menu item); part of every key. */
    private readonly generation: string,
    /** Shares one fetch among executions that need the same series at once; without it each fetches. */
    private readonly flight?: SingleFlight,
  ) {}

  /** The cached series for `key`, or what `load` returns (stored for next time), fetched once for concurrent cells. */
  getOrLoad(key: string, load: () => DataPoint[]): DataPoint[] {
    const loadAndStore = (): DataPoint[] => {
      const points = load();
      this.put(key, points);
      return points;
    };
    if (!this.flight) return this.get(key) ?? loadAndStore();
    return this.flight.run(this.key(key), () => this.get(key), loadAndStore);
  }

  get(key: string): DataPoint[] | null {
    const text = this.cache.get(this.key(key));
    if (text === null) return null;
    try {
      const stored = JSON.parse(text) as StoredSeries;
      return stored.points.map(([index, date, value]) => ({ id: '', metric_id: stored.ids[index] ?? '', date, value }));
    } catch {
      return null;
    }
  }

  put(key: string, points: readonly DataPoint[]): void {
    const ids: string[] = [];
    const index = new Map<string, number>();
    const stored: StoredPoint[] = points.map((p) => {
      let i = index.get(p.metric_id);
      if (i === undefined) {
        i = ids.push(p.metric_id) - 1;
        index.set(p.metric_id, i);
      }
      return [i, p.date, p.value ?? null];
    });
    this.cache.put(this.key(key), JSON.stringify({ ids, points: stored }), SERIES_TTL_SECONDS);
  }

  private key(key: string): string {
    return `dp:${this.generation}:${key}`;
  }
}
