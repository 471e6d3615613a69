// The series drop every writer uses: a dropped metric's cached series are never read again, others are.

import { ChunkedCache } from '../../../src/core/cache/chunked-cache';
import {
  dropEpochs,
  earlierEpochsAfterDrop,
  EPOCH_KEEP_MS,
  MAX_EARLIER_EPOCHS,
  MAX_EPOCHS,
  parseEarlierEpochs,
  parseEpochs,
  type EarlierEpochs,
  type SeriesEpochs,
} from '../../../src/core/series/series-epochs';
import { SeriesCache, SERIES_TTL_SECONDS } from '../../../src/core/series/series-cache';
import { formulasReadingMetrics } from '../../../src/core/formulas/reads-metrics';
import { MemoryCache } from '../../support/memory-cache';

const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';
const point = (metric: string, value: string) => ({ id: '', metric_id: metric, date: '2025-06-01', value });

describe('dropping cached series', () => {
  it("misses the dropped metric's series, including a series of several metrics, and keeps the others", () => {
    let epochs: SeriesEpochs = {};
    const series = new SeriesCache(new ChunkedCache(new MemoryCache(), () => Math.random().toString(36).slice(2, 10)), 'g', undefined, () => epochs);
    series.put(`${A}|||`, [point(A, '1')], [A]);
    series.put(`${B}|||`, [point(B, '2')], [B]);
    series.put(`${A},${B}|||`, [point(A, '1'), point(B, '2')], [A, B]);
    epochs = dropEpochs(epochs, [A.toUpperCase()], 1_000)!;
    expect(series.get(`${A}|||`, [A])).toBeNull();
    expect(series.get(`${A},${B}|||`, [A, B])).toBeNull();
    expect(series.get(`${B}|||`, [B])).toEqual([point(B, '2')]);
    // Loaded again after the drop, the series is cached under the new epoch.
    expect(series.getOrLoad(`${A}|||`, () => [point(A, '70000')], [A])).toEqual([point(A, '70000')]);
    expect(series.get(`${A}|||`, [A])).toEqual([point(A, '70000')]);
  });

  it('gives every drop a new epoch, even two in one millisecond, and forgets epochs once their entries have expired', () => {
    const first = dropEpochs({}, [A], 5_000)!;
    const second = dropEpochs(first, [A], 5_000)!;
    expect(second[A]).not.toBe(first[A]);
    expect(EPOCH_KEEP_MS).toBeGreaterThan(SERIES_TTL_SECONDS * 1000 + 30_000);
    expect(dropEpochs(second, [B], 5_001 + EPOCH_KEEP_MS)).toEqual({ [B]: (5_001 + EPOCH_KEEP_MS).toString(36) });
  });

  it('says when the epochs would not fit, for the writer to start a new generation instead', () => {
    const many = Array.from({ length: MAX_EPOCHS + 1 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);
    expect(dropEpochs({}, many, 1)).toBeNull();
    expect(JSON.stringify(dropEpochs({}, many.slice(1), 1)).length).toBeLessThan(9 * 1024);
    expect(parseEpochs('not json')).toEqual({});
  });
});

describe('the epochs a dropped series had before (what Refresh data compares when no formula ran since)', () => {
  /** Drops `ids` at `now`, keeping the earlier epochs as dropCachedSeries does. */
  const drop = (state: { epochs: SeriesEpochs; earlier: EarlierEpochs }, ids: string[], now: number) => {
    const epochs = dropEpochs(state.epochs, ids, now)!;
    return { epochs, earlier: earlierEpochsAfterDrop(state.earlier, state.epochs, epochs, ids, now) };
  };

  it('finds the series as stored before the drop under its earlier epoch, while the current epoch misses it', () => {
    let state = { epochs: {} as SeriesEpochs, earlier: {} as EarlierEpochs };
    const series = new SeriesCache(new ChunkedCache(new MemoryCache(), () => Math.random().toString(36).slice(2, 10)), 'g', undefined, () => state.epochs);
    series.put(`${A}|||`, [point(A, '1')], [A]);
    state = drop(state, [A], 1_000);
    expect(state.earlier).toEqual({ [A]: [''] });
    expect(series.get(`${A}|||`, [A])).toBeNull();
    expect(series.getUnderEpochs(`${A}|||`, [A], { [A]: '' })).toEqual([point(A, '1')]);
    // A second drop keeps both, oldest first.
    state = drop(state, [A], 2_000);
    expect(state.earlier).toEqual({ [A]: ['', (1_000).toString(36)] });
  });

  it("forgets an earlier epoch once the drop that ended it is past its entries' life, keeps a few per metric, and reads a bad record as none", () => {
    let state = { epochs: {} as SeriesEpochs, earlier: {} as EarlierEpochs };
    state = drop(state, [A], 1_000);
    state = drop(state, [B], 1_000 + EPOCH_KEEP_MS);
    // A's current epoch (its drop at 1,000) is forgotten with its list; B's earlier '' ended just now.
    expect(state.earlier).toEqual({ [B]: [''] });
    for (let i = 1; i <= MAX_EARLIER_EPOCHS + 2; i++) state = drop(state, [B], 1_000 + EPOCH_KEEP_MS + i);
    expect(state.earlier[B]).toHaveLength(MAX_EARLIER_EPOCHS);
    expect(state.earlier[B]!.at(-1)).toBe((1_000 + EPOCH_KEEP_MS + MAX_EARLIER_EPOCHS + 1).toString(36));
    expect(parseEarlierEpochs('not json')).toEqual({});
    expect(parseEarlierEpochs(JSON.stringify({ [A]: [1], [B]: ['x'] }))).toEqual({ [B]: ['x'] });
  });
});

describe('formulas reading given metrics', () => {
  it('finds the series formulas naming an id or referencing a cell of their sheet that holds one, and no others', () => {
    const grid = [
      [`=METRIC_VALUE("${A}", "2025-06")`, `=METRIC_VALUE(C1, "2025-06")`, ` ${A.toUpperCase()} `],
      [`=METRIC_VALUE("${B}", "2025-06")`, `=METRICS("${A}")`, `=METRIC_LATEST("C1")`],
      [`=METRIC_VALUES(C1:C2)`, `=METRIC_VALUE(Other!C1, "2025-06")`, `=SUM(C1)`],
    ];
    const valueAt = (row: number, column: number) => (row === 1 && column === 3 ? ` ${A.toUpperCase()} ` : undefined);
    expect(formulasReadingMetrics(grid, [A], valueAt).map((cell) => `${cell.row},${cell.column}`)).toEqual(['1,1', '1,2']);
    expect(formulasReadingMetrics(grid, [], valueAt)).toEqual([]);
  });
});
